"""BasicAgent: a ReAct loop over the shared tools that ends when the model calls ``answer``.

One step is one model call: send the conversation and the tools, then run every tool call in
the reply and append each observation (ending with the budget line), or, when the reply calls
no tool, append a message telling the model to keep working. Exceptions end the run:
``Submitted`` here, and from the runtime ``LimitReached`` (time, steps, cost, format errors)
and ``ModelExhausted``, which ``scaffolds.runtime.execute`` turns into the run's status.
"""

from __future__ import annotations

from typing import Any, ClassVar

import prompts
from basic_agent.config import BasicConfig
from basic_agent.history import answered, committed_history, normalize_reply, tool_message
from scaffolds.budget import LimitReached
from scaffolds.protocols import Message, ResumableModel
from scaffolds.runtime import Run
from tools import Observation


class Submitted(Exception):
    """``answer`` accepted a valid submission: the run ends with status ``submitted``."""


class BasicAgent:
    """Call as ``BasicAgent(config)(run)``; returns the run's final status."""

    include_answer: ClassVar[bool] = True
    prompt_sets: ClassVar[tuple[str, ...]] = ("basic",)

    def __init__(self, config: BasicConfig):
        self.config = config
        self.messages: list[Message] = []
        self.format_errors = 0
        """Malformed tool calls in a row."""
        self.answered = False
        """A resumed run whose record already holds an accepted answer."""

    def __call__(self, run: Run) -> str:
        self.start(run)
        if self.answered:  # killed after its answer was accepted: only the end is left
            return self.submitted()
        try:
            while True:
                try:
                    self.step()
                except Submitted:
                    return self.submitted()
        finally:
            self.end()

    def start(self, run: Run) -> None:
        self.run = run
        self.toolset = run.toolset(self.include_answer)
        self.tools = self.toolset.schemas()
        if run.resumed:
            self.resume()
        if not self.messages:
            self.add("system", self.prompt("system"), "system")
            self.add("user", self.prompt("task", instructions=run.instructions()), "task")
            self.checkpoint()

    def step(self) -> None:
        budget = self.run.budget
        budget.check()
        response = self.run.session.call(self.prompt_messages(), self.tools)
        budget.steps += 1
        reply = normalize_reply(response.message(), budget.steps)
        self.messages.append(reply)
        submitted = False
        if reply.get("tool_calls"):
            submitted = self.run_tools(reply["tool_calls"])
        else:
            self.add("user", self.prompt("continue", reminder=self.run.reminder()), "continue")
        self.checkpoint()
        if submitted:
            raise Submitted
        if self.format_errors >= self.config.max_format_errors:
            raise LimitReached(
                "format_errors", f"{self.format_errors} malformed tool calls in a row"
            )

    def submitted(self) -> str:
        self.run.integrity.chosen_by = "answer"
        return "submitted"

    def end(self) -> None:
        """Called once when the loop stops, whatever stopped it."""

    def prompt_messages(self) -> list[Message]:
        """What one model call is sent: the conversation (subclasses may add to it)."""
        return self.messages

    def run_tools(self, calls: list[dict[str, Any]]) -> bool:
        """Run the calls in order, appending each observation; stop once one submitted."""
        for call in calls:
            function = call["function"]
            if self.run_tool(call["id"], function["name"], function["arguments"]):
                return True
        return False

    def run_tool(self, call_id: str, name: str, arguments: str) -> bool:
        self.run.record.event("tool_call", id=call_id, name=name, arguments=arguments)
        observation = self.toolset.call(name, arguments)
        malformed = observation.kind == "format_error"
        self.format_errors = self.format_errors + 1 if malformed else 0
        text = self.observation_text(observation)
        self.messages.append(tool_message(call_id, text))
        extra: dict[str, Any] = {"submitted": True} if observation.submitted else {}
        if observation.traceback:
            extra["traceback"] = observation.traceback
        cut = self.run.budget.ran_out()
        if cut is not None:  # the call was given the time left, and that ran out: it was stopped
            extra["cut"] = cut
        self.run.record.event(
            "observation",
            tool_call_id=call_id,
            name=name,
            outcome=observation.kind,
            text=text,
            duration_s=round(observation.duration_s, 3),
            **extra,
        )
        return observation.submitted

    def observation_text(self, observation: Observation) -> str:
        """What the model reads: the tool's output (with the format-error count when the call
        was malformed), then the budget line (and the task's progress note, if it has one)."""
        output = observation.text
        if observation.kind == "format_error":
            limit = self.config.max_format_errors
            output = self.prompt(
                "format_error", error=output, count=self.format_errors, limit=limit
            )
        return self.prompt("observation", output=output, reminder=self.run.reminder())

    def resume(self) -> None:
        """Continue from the last completed step in the record; the kernel starts empty."""
        events = list(self.run.record.events())
        self.messages, steps = committed_history(events)
        self.answered = answered(events)
        self.run.budget.steps = steps
        if isinstance(self.run.session.model, ResumableModel):
            self.run.session.model.resume_at(steps)
        if self.messages and not self.answered:
            self.add("user", self.prompt("resumed", reminder=self.run.reminder()), "resumed")

    def add(self, role: str, content: str, purpose: str) -> None:
        message = {"role": role, "content": content}
        self.messages.append(message)
        self.run.record.event("message", purpose=purpose, message=message)

    def checkpoint(self) -> None:
        """Close a step: a resumed run keeps everything up to here."""
        self.run.record.event("checkpoint", step=self.run.budget.steps)
        self.run.checkpoint()

    def prompt(self, name: str, **values: object) -> str:
        return prompts.render(self.prompt_sets, name, values)
