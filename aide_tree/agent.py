"""AIDE: grow a tree of solution scripts by drafting, improving and debugging (Jiang et al., 2025).

One step makes one node: the search policy picks an operator and a parent, the model writes a
plan and a script, the script runs in a clean kernel namespace, the feedback model reviews the
run, and the node is appended to the journal. Variants subclass ``Aide`` and override a method
(``policy``, ``propose``, ``review``, ``is_buggy``, ``record``, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, cast

from aide_tree.config import AideConfig
from aide_tree.journal import FORMAT_VERSION, Journal, JournalError, Node
from aide_tree.operators import operator_messages, review_messages
from aide_tree.policies import POLICIES, Decision, Policy
from aide_tree.preview import data_preview
from aide_tree.prompts import render, tool_schema
from aide_tree.reply import parse_reply
from aide_tree.review import TOOL_NAME, Review, parse_review
from aide_tree.submissions import Submissions
from aide_tree.tree_html import write_tree
from scaffolds.messages import ModelResponse, Usage
from scaffolds.model import LiteLLMModel, make_model
from scaffolds.protocols import Message, Model, ResumableModel
from scaffolds.record import for_node, write_atomic
from scaffolds.runtime import Run
from scaffolds.session import ModelSession
from scaffolds.timefmt import format_duration

BEST_MODE = 0o666
"""``best_solution.py`` is created as ``open`` creates a file: the umask decides its mode."""


@dataclass
class Lane:
    """Where a node's code runs: a kernel and the submission path of its working folder."""

    kernel: Any
    submissions: Submissions


@dataclass
class Tally:
    """One node's model calls: usage, responses from the main and from the feedback model."""

    usage: Usage = field(default_factory=Usage)
    main: int = 0
    feedback: int = 0


class Aide:
    """One AIDE search over one run: ``Aide(run).search()`` works until a limit ends it."""

    policy: ClassVar[Policy | None] = None
    """A subclass may fix its own (``policy = staticmethod(my_policy)``); else ``--policy``'s."""
    journal_version: ClassVar[int] = FORMAT_VERSION
    """The format of a new journal (one node at a time: ids are positions)."""

    def __init__(self, run: Run):
        self.run = run
        self.config = cast(AideConfig, run.config)
        fixed = type(self).policy
        self.decide: Policy = fixed or POLICIES[self.config.policy]
        self.policy_name = self.config.policy if fixed is None else getattr(fixed, "__name__", "")
        self.feedback = self.feedback_session()
        run.integrity.chosen_by = "best_node"
        self.journal = Journal.open(
            run.dir / "journal.jsonl", run.task.is_lower_better, self.journal_version
        )
        if self.journal.version != self.journal_version:
            raise JournalError(
                f"journal.jsonl has format {self.journal.version}, written with "
                f"{'several nodes' if self.journal.keyed else 'one node'} at a time: resume "
                "it with the --parallel-nodes it was started with"
            )
        self.submissions = Submissions(
            run.workspace.root,
            run.task.submission_relpath,
            run.validator("harness"),
            run.dir,
            owner_uid=run.sandbox.uid if run.sandbox.isolated else None,
        )
        self.lane = Lane(run.kernel, self.submissions)
        self._instructions = ""
        self._preview = ""
        self._tally = Tally()
        if len(self.journal):
            self.continue_journal()

    def search(self) -> str:
        """Step until a limit (time, steps, cost) or the model ends the run; the caller maps
        those exceptions to the run's status."""
        try:
            while True:
                self.run.budget.check()
                self.step()
        finally:
            self.close()

    def step(self) -> Node:
        decision = self.decide(self.journal, self.config, self.run.rng)
        node_id = len(self.journal)
        with for_node(node_id):
            self._tally = Tally()
            node = self.make(node_id, decision, self.run.budget.steps + 1)
        self.record(node)
        return node

    def make(
        self,
        node_id: int,
        decision: Decision,
        step: int,
        messages: list[Message] | None = None,
        lane: Lane | None = None,
    ) -> Node:
        """Write, run and review one node (not yet recorded); ``messages``: the operator's
        prompt when already built, ``lane``: where to run it (the run's kernel and workspace)."""
        plan, code = self.propose(decision, messages)
        node = Node(
            id=node_id,
            parent_id=None if decision.parent is None else decision.parent.id,
            second_parent_id=None if decision.second_parent is None else decision.second_parent.id,
            step=step,
            operator=decision.operator,
            plan=plan,
            code=code,
        )
        if code:
            node = self.judge(self.execute(node, lane))
        else:
            node = replace(node, review=render("no_code"))
        tally = self.tally()
        return replace(
            node, usage=tally.usage.to_dict(), model_calls=tally.main, feedback_calls=tally.feedback
        )

    # operators

    def operator_prompt(self, decision: Decision, journal: Journal) -> list[Message]:
        """The operator's messages, from the journal as the decision saw it."""
        return operator_messages(
            decision,
            journal,
            self.instructions(),
            self.implementation_notes(),
            self.data_preview(),
            self.config.memory_nodes,
        )

    def propose(self, decision: Decision, messages: list[Message] | None = None) -> tuple[str, str]:
        """The operator's plan and script; one format reminder when the answer has no code."""
        if messages is None:
            messages = self.operator_prompt(decision, self.journal)
        response = self.ask(self.run.session, messages, decision.operator)
        plan, code = parse_reply(response.content)
        if not code:
            messages += [response.message(), {"role": "user", "content": render("format_reminder")}]
            response = self.ask(self.run.session, messages, f"{decision.operator}_retry")
            plan, code = parse_reply(response.content)
        return plan, code

    def instructions(self) -> str:
        """The task's instructions (they state the run's limits, not what is left of them)."""
        if not self._instructions:
            self._instructions = self.run.instructions()
        return self._instructions

    def data_preview(self) -> str:
        if not self._preview:
            self._preview = data_preview(self.run.workspace.data, self.config.preview_chars)
        return self._preview

    def implementation_notes(self) -> str:
        left = self.run.budget.steps_left()
        return render(
            "implementation",
            submission_path=self.run.task.submission_relpath,
            exec_timeout=format_duration(self.exec_timeout()),
            time_left=format_duration(self.run.budget.time_left()),
            steps_left="no limit" if left is None else max(0, left - 1),
            hardware=self.run.hardware,
        )

    # running and reviewing

    def exec_timeout(self) -> float:
        return max(1.0, min(self.config.exec_timeout, self.run.budget.time_left()))

    def execute(self, node: Node, lane: Lane | None = None) -> Node:
        """Run the script as a fresh program (clean namespace, warm imports) in ``lane`` (the
        run's kernel and workspace by default) and check what it left at the submission path."""
        lane = lane or self.lane
        lane.submissions.clear()
        result = lane.kernel.run_clean(node.code, self.exec_timeout())
        check = lane.submissions.collect(node.id)
        node = replace(
            node,
            output=result.output,
            exit_code=result.exit_code,
            timed_out=result.timed_out,
            duration_s=round(result.duration_s, 3),
            exception=result.error,
            submission=check.path,
            submission_valid=check.valid,
            validation=check.message,
        )
        fields = ("exit_code", "timed_out", "duration_s", "exception", "submission_valid")
        cut = self.run.budget.ran_out() if result.timed_out else None
        extra = {"cut": cut} if cut else {}  # stopped by the run's limit, not --exec-timeout
        self.run.record.event(
            "execution", node=node.id, **{f: getattr(node, f) for f in fields}, **extra
        )
        return node

    def judge(self, node: Node) -> Node:
        review = self.review(node)
        summary = review.summary
        if review.problem is not None:
            summary = render("review_unreadable", problem=review.problem)
        return replace(
            node, review=summary, metric=review.metric, is_buggy=self.is_buggy(node, review)
        )

    def review(self, node: Node) -> Review:
        response = self.ask(
            self.feedback,
            review_messages(node, self.instructions()),
            "review",
            tools=[tool_schema(TOOL_NAME)],
            tool_choice={"type": "function", "function": {"name": TOOL_NAME}},
        )
        return parse_review(response)

    def is_buggy(self, node: Node, review: Review) -> bool:
        return (
            node.exit_code != 0
            or node.timed_out
            or review.is_bug
            or review.metric is None
            or not node.submission_valid
        )

    # records

    def ask(
        self, session: ModelSession, messages: list[Message], purpose: str, **options: Any
    ) -> ModelResponse:
        response = session.call(messages, purpose=purpose, **options)
        tally = self.tally()
        tally.usage = tally.usage + response.usage
        if session is self.run.session:
            tally.main += 1
        else:
            tally.feedback += 1
        return response

    def tally(self) -> Tally:
        """The model calls of the node being made."""
        return self._tally

    def record(self, node: Node) -> None:
        """Append the node; if it is the new best, keep its submission and code at once."""
        self.journal.append(node)
        self.run.budget.steps += 1
        best = self.journal.best()
        if best is node:
            self.submissions.keep(node.id)
            write_atomic(self.run.dir / "best_solution.py", node.code, BEST_MODE)
        else:
            self.submissions.drop(node.id)
        self.run.record.event(
            "node",
            id=node.id,
            parent_id=node.parent_id,
            second_parent_id=node.second_parent_id,
            operator=node.operator,
            is_buggy=node.is_buggy,
            metric=node.metric,
            best_id=None if best is None else best.id,
        )
        self.checkpoint()
        if len(self.journal) & (len(self.journal) - 1) == 0:  # at 1, 2, 4, 8...: linear in all
            self.write_tree()

    def checkpoint(self) -> None:
        best = self.journal.best()
        extra: dict[str, Any] = {}
        if self.feedback is not self.run.session:
            extra = {
                "feedback_usage": self.feedback.usage.to_dict(),
                "feedback_model_calls": self.feedback.calls,
            }
        self.run.checkpoint(
            nodes=len(self.journal),
            best_node=None if best is None else best.id,
            best_metric=None if best is None else best.metric,
            **extra,
        )

    def write_tree(self) -> None:
        write_tree(self.journal, self.run.config.task, self.run.dir / "tree.html", self.policy_name)

    def close(self) -> None:
        """Leave the best submission where the run record takes it from; draw the tree."""
        self.submissions.restore()
        self.write_tree()

    # set-up

    def feedback_session(self) -> ModelSession:
        """The main model's session, unless ``feedback_model`` names another model."""
        name = self.config.feedback_model
        if not name or name == self.config.model:
            return self.run.session
        settings = self.config.model_settings().model_copy(update={"model": name})
        model = make_model(settings)
        window = model.context_window() if isinstance(model, LiteLLMModel) else None
        reserve = self.config.max_output_tokens or 4096
        session = ModelSession(model, self.run.record, self.run.budget, window, reserve)
        summary = self.run.record.summary  # on resume: what it had spent before
        session.usage = Usage.from_dict(summary.get("feedback_usage"))
        session.calls = int(summary.get("feedback_model_calls") or 0)
        return session

    def continue_journal(self) -> None:
        """Resume after the journal's last node: replay the policy over it to bring the
        random generator to the same state, skip the replayed model responses, and finish
        keeping the best submission if the kill came in between."""
        replay = Journal(self.journal.lower_is_better)
        for node in self.journal:
            self.decide(replay, self.config, self.run.rng)
            replay.add(node)
        self.run.budget.steps = len(self.journal)
        skip_responses(self.run.session.model, sum(n.model_calls for n in self.journal))
        if self.feedback is not self.run.session:
            skip_responses(self.feedback.model, sum(n.feedback_calls for n in self.journal))
        best = self.journal.best()
        if best is not None:
            self.submissions.keep(best.id)
            write_atomic(self.run.dir / "best_solution.py", best.code, BEST_MODE)
        self.run.record.event("resume", nodes=len(self.journal))


def skip_responses(model: Model, count: int) -> None:
    """Start a replayed model after the responses the journal's nodes already used."""
    if isinstance(model, ResumableModel):
        model.resume_at(count)
