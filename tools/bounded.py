"""One-shot processes run as the agent, whose limits hold from the harness's side.

The file tools, ``validate_submission`` and ``answer`` run short commands as the agent user
(``cat``, ``find``, ``sh``). Those processes share the agent's user, so agent code can kill,
stop or trace them, and can even open their pipes through ``/proc/<pid>/fd``. Nothing the
harness relies on may therefore live on their side: here the deadline is the harness's own
clock, the process group is killed with SIGKILL when it passes, reads and writes never block
(``select`` with the deadline), and every byte read is counted against a cap. A process
that holds a pipe open after the command exits (a background child, or an agent process
that opened it) is not waited for.
"""

from __future__ import annotations

import contextlib
import io
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO

_CHUNK = 1 << 16
_AFTER_EXIT_S = 0.5
"""How long to keep reading after the command exits, while something else holds its pipes."""
STDERR_KEEP = 16 * 1024
"""Bytes of stderr kept (the last ones): enough for the reason a command failed."""


class Deadline(Exception):
    """The command ran past its time limit; its whole process group was killed."""


@dataclass
class Finished:
    """How a bounded command ended."""

    returncode: int | None
    """None when the harness stopped it (deadline, or ``max_stdout`` passed)."""
    stdout: bytes
    stderr: bytes
    timed_out: bool = False
    overflowed: bool = False
    """More than ``max_stdout`` bytes came: the command was stopped there."""


class AgentProcess:
    """A command as the agent: ``input`` fed to its stdin (bytes through a pipe, or an open
    file given as is), stdout read on demand, stderr's tail kept, all before ``deadline`` (a
    ``time.monotonic()`` value)."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        deadline: float,
        input: bytes | IO[bytes] = b"",
    ):
        self.deadline = deadline
        piped = isinstance(input, bytes | bytearray) and bool(input)
        self._input = memoryview(input if piped else b"")  # type: ignore[arg-type]
        stdin: int | IO[bytes] = subprocess.PIPE if piped else subprocess.DEVNULL
        if not isinstance(input, bytes | bytearray):
            stdin = input  # a file of the harness's: read by the command directly
        self._proc = subprocess.Popen(
            list(argv),
            env=dict(env),
            cwd="/",
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._sel = selectors.DefaultSelector()
        self._err = bytearray()
        self._exited_at: float | None = None
        for pipe in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                os.set_blocking(pipe.fileno(), False)
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._sel.register(self._proc.stdout, selectors.EVENT_READ)
        self._sel.register(self._proc.stderr, selectors.EVENT_READ)
        if self._proc.stdin is not None:
            self._sel.register(self._proc.stdin, selectors.EVENT_WRITE)

    def read(self, n: int = _CHUNK) -> bytes:
        """Up to ``n`` bytes of stdout; ``b""`` at its end (or once the command has exited and
        only another process holds the pipe). Raises Deadline at the deadline."""
        stdout = self._proc.stdout
        while True:
            now = time.monotonic()
            if now >= self.deadline:
                self.kill()
                raise Deadline
            if self._exited_at is None and self._proc.poll() is not None:
                self._exited_at = now
            if self._exited_at is not None and now - self._exited_at > _AFTER_EXIT_S:
                return b""
            if stdout not in self._sel.get_map():
                return b""
            wait = min(0.1, self.deadline - now)
            for key, _ in self._sel.select(wait):
                if key.fileobj is self._proc.stdin:
                    self._feed()
                elif key.fileobj is self._proc.stderr:
                    self._drain_stderr()
                else:
                    chunk = self._read_fd(stdout, n)
                    if chunk:
                        return chunk

    def _read_fd(self, pipe: IO[bytes] | None, n: int) -> bytes:
        assert pipe is not None
        try:
            chunk = os.read(pipe.fileno(), n)
        except BlockingIOError:
            return b""
        if not chunk:
            self._sel.unregister(pipe)
        return chunk

    def _drain_stderr(self) -> None:
        chunk = self._read_fd(self._proc.stderr, _CHUNK)
        self._err += chunk
        del self._err[:-STDERR_KEEP]

    def _feed(self) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            sent = os.write(stdin.fileno(), self._input[:_CHUNK])
        except BlockingIOError:
            return
        except BrokenPipeError:
            sent = len(self._input)
        self._input = self._input[sent:]
        if not self._input:
            self._sel.unregister(stdin)
            stdin.close()

    def kill(self) -> None:
        """SIGKILL the command's whole process group."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)

    def finish(self) -> tuple[int | None, bytes]:
        """Wait (until the deadline) for the command to exit; return its exit status (None
        when it had to be killed) and its stderr's tail. Always releases everything."""
        code: int | None = None
        try:
            while time.monotonic() < self.deadline and self._proc.poll() is None:
                if self._sel.get_map():
                    for key, _ in self._sel.select(0.05):
                        if key.fileobj is self._proc.stderr:
                            self._drain_stderr()
                        elif key.fileobj is self._proc.stdout:
                            self._read_fd(self._proc.stdout, _CHUNK)  # not wanted any more
                        else:
                            self._feed()
                else:
                    time.sleep(0.01)
            code = self._proc.poll()
            if self._proc.stderr is not None and self._proc.stderr in self._sel.get_map():
                for _ in range(4):  # what the command said just before exiting
                    before = len(self._err)
                    self._drain_stderr()
                    if len(self._err) == before:
                        break
        finally:
            self.kill()
            self._sel.close()
            for pipe in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
                if pipe is not None:
                    pipe.close()
            self._proc.wait()
        return code, bytes(self._err)


def run(
    argv: Sequence[str],
    env: Mapping[str, str],
    timeout_s: float,
    *,
    input: bytes | IO[bytes] = b"",
    max_stdout: int = 1 << 20,
    sink: IO[bytes] | None = None,
) -> Finished:
    """Run ``argv`` to its end, its deadline, or ``max_stdout`` bytes of output, whichever
    comes first. Output goes to ``sink`` when given (the returned ``stdout`` is then empty)."""
    proc = AgentProcess(argv, env, time.monotonic() + timeout_s, input)
    out = bytearray()
    taken = 0
    timed_out = overflowed = False
    try:
        while True:
            chunk = proc.read()
            if not chunk:
                break
            taken += len(chunk)
            if taken > max_stdout:
                overflowed = True
                proc.kill()
                break
            if sink is None:
                out += chunk
            else:
                sink.write(chunk)
    except Deadline:
        timed_out = True
    code, err = proc.finish()
    if timed_out or overflowed:
        code = None
    return Finished(code, bytes(out), err, timed_out, overflowed)


class Reader(io.RawIOBase):
    """A bounded command's stdout as a raw stream (wrap it in ``io.BufferedReader`` for lines);
    a read past the deadline raises Deadline."""

    def __init__(self, proc: AgentProcess):
        self.proc = proc

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        chunk = self.proc.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)
