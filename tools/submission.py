"""The ``validate_submission`` and ``answer`` tools.

Both read the submission as the agent user into a harness-private copy and hand that copy to
the task's validator, so the agent cannot make the harness read a file it could not read
itself. The validator checks the format only; no score is ever shown.

A task whose submission is a folder (``task.submission_is_folder``, PaperBench's git
repository) is validated in place: its validator must read the folder without following links
or running anything in it (``bench_adapters.paperbench.contract`` opens every file with
``O_NOFOLLOW`` and runs no program).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tools import agent_io
from tools.errors import ToolError
from tools.result import Observation
from tools.sandbox import Sandbox
from tools.workspace import Workspace

Validator = Callable[[Path], tuple[bool, str]]
"""The task's ``validate(path) -> (ok, message)``."""


def _check_folder(
    sandbox: Sandbox, path: Path, validate: Validator, timeout_s: float
) -> tuple[bool, str]:
    """Validate the folder at ``path``, in place (see the module's docstring)."""
    kind = agent_io.path_kind(sandbox, path, timeout_s)
    if kind == "missing":
        raise ToolError(f"There is no folder at {path}.")
    if kind == "file":
        raise ToolError(f"{path} is a file; this task's submission is a folder.")
    return validate(path)


def _check(
    sandbox: Sandbox,
    path: Path,
    validate: Validator,
    keep_at: Path | None,
    timeout_s: float,
    max_bytes: int,
) -> tuple[bool, str]:
    """Validate the agent-readable regular file at ``path``; if valid and ``keep_at`` is
    given, put the validated bytes there (as the agent). Reading is bounded in time (the
    call's limit) and size (``max_bytes``) from the harness's side."""
    deadline = time.monotonic() + timeout_s

    def left() -> float:
        return max(1.0, deadline - time.monotonic())

    kind = agent_io.path_kind(sandbox, path, left())
    if kind == "missing":
        raise ToolError(f"There is no file at {path}.")
    if kind == "directory":
        raise ToolError(f"{path} is a directory; give the submission file.")
    with tempfile.TemporaryDirectory(prefix="scaffolds-submission-") as private:
        copy = Path(private) / path.name
        agent_io.copy_out(sandbox, path, copy, left(), max_bytes)
        ok, message = validate(copy)
        if ok and keep_at is not None:
            with open(copy, "rb") as validated:
                agent_io.write_bytes(sandbox, keep_at, validated, left())
    return ok, message


def make_submission_tools(
    workspace: Workspace,
    sandbox: Sandbox,
    validate: Validator,
    submission_relpath: str,
    folder: bool = False,
    limit: Callable[[], float] = lambda: 600.0,
    max_bytes: int = agent_io.MAX_COPY_BYTES,
) -> tuple[Callable[..., str], Callable[..., Observation]]:
    """The ``validate_submission`` and ``answer`` tool functions for one task (``folder``:
    its submission is a folder); ``limit()`` gives each call's time limit in seconds, and a
    file over ``max_bytes`` is refused before any byte of it is copied."""
    default = workspace.resolve(submission_relpath)

    def target(path: str | None) -> Path:
        return default if path is None else workspace.resolve(path)

    def check(where: Path, keep_at: Path | None) -> tuple[bool, str]:
        if not folder:
            return _check(sandbox, where, validate, keep_at, limit(), max_bytes)
        if keep_at is not None:
            raise ToolError(f"Only the folder {default} can be submitted.")
        return _check_folder(sandbox, where, validate, limit())

    def validate_submission(path: str | None = None) -> str:
        """Check that a submission file has the format the task expects. This never
        reveals a score.

        Args:
            path: The file to check, absolute or relative to the workspace root. Default:
                the task's submission path.
        """
        where = target(path)
        ok, message = check(where, None)
        verdict = "is a valid submission" if ok else "is NOT a valid submission"
        return f"{where} {verdict}" + (f": {message}" if message else ".")

    def answer(path: str | None = None) -> Observation:
        """Submit your final answer and end the run. The file is checked first; if its
        format is wrong nothing is submitted and you can fix it and call answer again.

        Args:
            path: The submission file, absolute or relative to the workspace root. Default:
                the task's submission path (a file elsewhere is copied there once valid).
        """
        where = target(path)
        ok, message = check(where, None if where == default else default)
        if not ok:
            raise ToolError(f"Submission rejected, nothing was submitted: {message}")
        copied = "" if where == default else f" (copied to {default})"
        detail = f" ({message})" if message else ""
        return Observation(
            text=f"Submission accepted: {where}{copied} passed the format check{detail}. "
            "The run ends here.",
            kind="ok",
            submitted=True,
        )

    return validate_submission, answer
