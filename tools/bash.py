"""The ``bash`` tool: one fresh shell per call, as the agent user, killed as a group on timeout."""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from scaffolds.timefmt import format_seconds
from tools.ansi import strip_ansi
from tools.result import ExecResult
from tools.sandbox import Sandbox
from tools.truncate import StreamCap

_READ_BYTES = 1 << 16
_AFTER_EXIT_S = 0.5
"""How long to keep reading after the shell exits, when a background process holds the pipe."""


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def run_bash(
    sandbox: Sandbox, command: str, cwd: Path, timeout_s: float, output_cap: int = 16000
) -> ExecResult:
    """Run ``command`` with ``bash -c`` as the agent; stdout and stderr merged, in order.

    The shell gets its own process group; at the timeout the whole group is killed. Output is
    capped while it streams, so a command printing gigabytes costs the harness nothing.
    """
    started = time.monotonic()
    proc = subprocess.Popen(
        sandbox.popen_args(["bash", "-c", command], cwd=cwd),
        cwd=cwd,
        env=sandbox.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    out = StreamCap(output_cap)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    deadline = started + timeout_s
    exited_at: float | None = None
    timed_out = False
    try:
        while True:
            now = time.monotonic()
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > _AFTER_EXIT_S:
                break  # a background process keeps the pipe open; do not wait for it
            if now >= deadline:
                timed_out = True
                _kill_group(proc.pid)
                break
            ready, _, _ = select.select([fd], [], [], min(0.1, deadline - now))
            if ready:
                chunk = os.read(fd, _READ_BYTES)
                if not chunk:
                    break
                out.write(strip_ansi(decoder.decode(chunk)))
    finally:
        proc.stdout.close()
        if proc.poll() is None and (timed_out or exited_at is None):
            _kill_group(proc.pid)
        code = proc.wait()
    out.write(strip_ansi(decoder.decode(b"", final=True)))
    output = out.text()
    if timed_out:
        output += ("\n" if output and not output.endswith("\n") else "") + (
            f"[Timed out after {format_seconds(timeout_s)}: the command and all processes it "
            "started were killed.]"
        )
    return ExecResult(
        output=output,
        exit_code=None if timed_out else code,
        timed_out=timed_out,
        duration_s=time.monotonic() - started,
        error=None,
    )


def make_bash_tool(
    sandbox: Sandbox, cwd: Path, limit: Callable[[], float], output_cap: int = 16000
) -> Callable[[str], str]:
    """The ``bash`` tool function; ``limit()`` gives each call's timeout in seconds."""

    def bash(command: str) -> str:
        """Run a shell command with bash, in the workspace root.

        Each call starts a fresh shell: `cd` and variables do not carry over, so chain
        commands (`cd working && python train.py`). stdin is empty; stdout and stderr are
        combined. Long output is cut in the middle. At the time limit the command and every
        process it started are killed.

        Args:
            command: The command line to run, e.g. `ls data && head -n 5 data/train.csv`.
        """
        result = run_bash(sandbox, command, cwd, limit(), output_cap)
        text = result.output
        if result.exit_code:
            text += ("\n" if text and not text.endswith("\n") else "") + (
                f"[exit code {result.exit_code}]"
            )
        return text or "(no output)"

    return bash
