"""The set of tools a scaffold offers, and the one place tool calls are dispatched.

``call`` never raises (except on interpreter shutdown or Ctrl-C): malformed calls become
``format_error`` observations, ToolError becomes ``tool_error``, and any other exception is
a harness bug reported as ``harness_error`` with its traceback kept for the run record.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tools.agent_io import MAX_COPY_BYTES
from tools.arguments import ArgumentError, check_arguments, parse_arguments
from tools.bash import make_bash_tool
from tools.errors import ToolError
from tools.files import make_file_tools
from tools.kernel import PythonKernel
from tools.python_tool import make_python_tool
from tools.result import Observation
from tools.sandbox import Sandbox
from tools.submission import make_submission_tools
from tools.tool import Tool, tool_from_function
from tools.workspace import Workspace

log = logging.getLogger(__name__)

MIN_TIMEOUT_S = 1.0
"""A call made with (almost) no time left still gets this long, so that it can report back."""


class Toolset:
    def __init__(self, tools: Sequence[Tool]):
        self.tools = {t.name: t for t in tools}
        if len(self.tools) != len(tools):
            raise ValueError("two tools share a name")

    @classmethod
    def standard(
        cls,
        workspace: Workspace,
        sandbox: Sandbox,
        kernel: PythonKernel,
        validate: Callable[[Path], tuple[bool, str]],
        submission_relpath: str,
        time_left: Callable[[], float],
        include_answer: bool = True,
        tool_timeout_s: float = 3600 * 9,
        output_cap: int = 16000,
        submission_is_folder: bool = False,
        max_submission_bytes: int | None = None,
    ) -> Toolset:
        """python, bash, view, create, str_replace, insert, validate_submission and (unless
        ``include_answer`` is False) answer. Each call's timeout is
        ``min(tool_timeout_s, time_left())``; ``submission_is_folder``: the submission is a
        folder (a PaperBench repository), validated in place; ``max_submission_bytes``: the
        task's own size limit, past which a file is refused before a byte is copied."""

        def limit() -> float:
            return max(MIN_TIMEOUT_S, min(tool_timeout_s, time_left()))

        validate_submission, answer = make_submission_tools(
            workspace,
            sandbox,
            validate,
            submission_relpath,
            submission_is_folder,
            limit,
            max_submission_bytes or MAX_COPY_BYTES,
        )
        functions: list[Callable[..., Any]] = [
            make_python_tool(kernel, limit, output_cap),
            make_bash_tool(sandbox, workspace.root, limit, output_cap),
            *make_file_tools(workspace, sandbox, limit, output_cap),
            validate_submission,
        ]
        if include_answer:
            functions.append(answer)
        return cls([tool_from_function(f) for f in functions])

    def names(self) -> list[str]:
        return list(self.tools)

    def schemas(self) -> list[dict[str, Any]]:
        """The OpenAI ``tools`` list to send with every model call."""
        return [t.schema for t in self.tools.values()]

    def call(self, name: str, arguments: str) -> Observation:
        """Run the tool ``name`` with the model's raw JSON ``arguments``. Never raises."""
        started = time.monotonic()
        try:
            observation = self._call(name, arguments)
        except ToolError as e:
            observation = Observation(str(e), "tool_error")
        except Exception as e:
            log.exception("harness error in tool %s", name)
            observation = Observation(
                f"Harness error in tool '{name}' (a bug in the harness, not in your call): "
                f"{type(e).__name__}: {e}",
                "harness_error",
                traceback=traceback.format_exc(),
            )
        observation.duration_s = time.monotonic() - started
        return observation

    def _call(self, name: str, arguments: str) -> Observation:
        tool = self.tools.get(name)
        if tool is None:
            return Observation(
                f"Unknown tool '{name}'. Available tools: {', '.join(self.tools)}.",
                "format_error",
            )
        try:
            args = check_arguments(tool.function, parse_arguments(arguments, name))
        except ArgumentError as e:
            return Observation(str(e), "format_error")
        result = tool.function(**args)
        if isinstance(result, Observation):
            return result
        return Observation(str(result), "ok")
