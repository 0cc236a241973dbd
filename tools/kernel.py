"""A persistent Python kernel (jupyter_client + ipykernel) running as the agent user.

Variables survive between calls. A call that runs past its timeout is interrupted (state
kept); if the interrupt does not stop it within ``interrupt_grace_s`` the kernel is restarted.
A kernel that dies (``os._exit``, segfault, out of memory) is restarted too; in both cases
the output ends with a note saying that all state was lost.

The kernel is the agent's code, so what it sends is bounded on the harness's side: every
ZeroMQ socket the harness holds refuses a frame over ``MAX_FRAME_BYTES`` (the connection is
dropped and remade) and queues at most ``QUEUED_MESSAGES`` messages, so no output can grow the
harness's memory past about ``MAX_FRAME_BYTES * QUEUED_MESSAGES`` per socket whatever the
kernel sends; a cell whose idle status was lost that way still ends, on its ``execute_reply``.
The kernel's stderr goes to a pipe the harness drains, keeping only its last
``LOG_KEEP_BYTES``: no file of the harness's is ever writable from the sandbox.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import zmq
from jupyter_client import KernelManager
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.kernelspec import KernelSpec

from scaffolds.timefmt import format_seconds
from tools.kernel_output import Cell
from tools.result import ExecResult
from tools.sandbox import Sandbox

_POLL_S = 0.2
KERNEL_KEEP_CHARS = 256_000
"""Per cell, the kernel sends at most this many characters of output from the start and from
the end (or ``output_cap`` if larger); see kernel_boot.py."""
MAX_FRAME_BYTES = 8 * 2**20
"""Largest message frame the harness accepts from the kernel (the kernel caps a cell's own
output far below this)."""
QUEUED_MESSAGES = 32
"""Messages a harness socket queues before the kernel's side must wait or drop."""
LOG_KEEP_BYTES = 64 * 1024
"""The tail of the kernel's stderr the harness keeps, for the reason it died."""
_IDLE_AFTER_REPLY_S = 1.0
"""How long to wait for a cell's idle status once its reply came (a lost idle)."""
_SIGNAL_HINTS = {
    signal.SIGKILL: "killed by SIGKILL, usually because it ran out of memory",
    signal.SIGSEGV: "segmentation fault",
    signal.SIGABRT: "aborted",
    signal.SIGBUS: "bus error",
}


class _AgentKernelManager(KernelManager):
    """Launches a given kernel command (no kernelspec lookup) and lets the agent user read its
    connection file (root's, so agent code can neither corrupt it nor swap it for a link)."""

    def setup(self, spec: KernelSpec, sandbox: Sandbox) -> None:
        self._agent_spec, self._sandbox = spec, sandbox

    @property
    def kernel_spec(self) -> KernelSpec | None:
        return getattr(self, "_agent_spec", None)

    def write_connection_file(self, **kwargs: Any) -> None:
        super().write_connection_file(**kwargs)
        self._sandbox.let_agent_read(Path(self.connection_file))


class _LogTail:
    """The kernel's stderr: a pipe whose write end the kernel gets (and keeps across
    restarts), drained by a thread that keeps only the last ``LOG_KEEP_BYTES``."""

    def __init__(self) -> None:
        self._read, write = os.pipe()
        self.writer: IO[bytes] = os.fdopen(write, "wb", buffering=0)
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drain, name="kernel-log", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._read], [], [], 0.2)
            if ready:
                chunk = os.read(self._read, 1 << 16)
                if not chunk:
                    return
                with self._lock:
                    self._tail += chunk
                    del self._tail[:-LOG_KEEP_BYTES]

    def text(self) -> str:
        with self._lock:
            return bytes(self._tail).decode(errors="replace")

    def close(self) -> None:
        self._stop.set()
        self.writer.close()
        self._thread.join(timeout=2)
        os.close(self._read)


def _bounded_context() -> zmq.Context[zmq.Socket[bytes]]:
    """A ZeroMQ context whose every socket refuses big frames and queues few messages."""
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    context.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME_BYTES)
    context.setsockopt(zmq.RCVHWM, QUEUED_MESSAGES)
    return context


class PythonKernel:
    """One IPython kernel for one run. Use as a context manager or call start/shutdown."""

    def __init__(
        self,
        sandbox: Sandbox,
        cwd: Path,
        output_cap: int = 16000,
        interrupt_grace_s: float = 5.0,
        startup_timeout_s: float = 60.0,
        env: Mapping[str, str] | None = None,
    ):
        self.sandbox = sandbox
        self.cwd = Path(cwd)
        self.env = dict(env or {})
        """Set in the kernel's environment over the sandbox's (thread counts, GPUs)."""
        self.output_cap = output_cap
        self.interrupt_grace_s = interrupt_grace_s
        self.startup_timeout_s = startup_timeout_s
        self._km: _AgentKernelManager | None = None
        self._kc: BlockingKernelClient | None = None
        self._runtime: Path | None = None
        self._log: _LogTail | None = None
        self._zmq: zmq.Context[zmq.Socket[bytes]] | None = None
        self._last_msg_id = ""

    # lifecycle

    def start(self) -> None:
        """Launch the kernel (a no-op if it is running)."""
        if self._km is not None and self._km.is_alive():
            return
        if self._km is not None:
            self.restart()
            return
        self._runtime = self.sandbox.kernel_dir()
        boot = (Path(__file__).parent / "kernel_boot.py").read_text()
        keep = max(self.output_cap, KERNEL_KEEP_CHARS)
        argv = [self.sandbox.agent_python, "-c", boot, f"--keep={keep}"]
        argv += ["-f", "{connection_file}", "--HistoryManager.enabled=False"]
        spec = KernelSpec(
            argv=self.sandbox.popen_args(argv),
            display_name="agent python",
            language="python",
            interrupt_mode="signal",
        )
        sockets = {}  # ipc sockets go to the one folder the kernel may write in
        if self.sandbox.kernel_transport == "ipc":
            sockets["ip"] = str(self._runtime / "ipc" / "kernel")
        self._zmq = _bounded_context()
        km = _AgentKernelManager(
            connection_file=str(self._runtime / "kernel.json"),
            transport=self.sandbox.kernel_transport,
            context=self._zmq,
            **sockets,
        )
        km.setup(spec, self.sandbox)
        self._km = km
        self._log = _LogTail()
        try:
            km.start_kernel(
                cwd=str(self.cwd),
                env={**self.sandbox.env, **self.env},
                stdout=subprocess.DEVNULL,
                stderr=self._log.writer,
            )
            self._kc = km.client(context=self._zmq)
            self._kc.start_channels(stdin=False, hb=False)
            self._wait_ready()
        except BaseException:
            self.shutdown()
            raise

    def _wait_ready(self) -> None:
        """Wait for the kernel's first answer; a kernel that dies first is named with its log."""
        assert self._kc is not None
        try:
            self._kc.wait_for_ready(timeout=self.startup_timeout_s)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc} ({self._death()}; kernel log: {self.log_tail()})") from None

    def log_tail(self, n: int = 400) -> str:
        """The last lines the kernel process wrote to its stderr, on one line (at most ``n``
        characters of what the kernel, that is the agent, wrote)."""
        if self._log is None:
            return "none"
        lines = self._log.text().strip().splitlines()
        return " | ".join(line.strip() for line in lines[-5:])[-n:] or "empty"

    def restart(self) -> None:
        """Kill the kernel (and everything it started) and start a fresh one."""
        if self._km is None or self._kc is None:
            self.start()
            return
        self._km.restart_kernel(now=True)
        self._wait_ready()
        self._drain()

    def shutdown(self) -> None:
        if self._kc is not None:
            self._kc.stop_channels()
        if self._km is not None and self._km.has_kernel:
            self._km.shutdown_kernel(now=True)
        if self._runtime is not None:
            shutil.rmtree(self._runtime, ignore_errors=True)
        if self._log is not None:
            self._log.close()
        if self._zmq is not None:
            self._zmq.destroy(linger=0)
        self._km = self._kc = self._runtime = self._log = self._zmq = None

    def __enter__(self) -> PythonKernel:
        self.start()
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.shutdown()

    def interrupt(self) -> None:
        """Interrupt the running cell, if any (from any thread: it only sends a signal)."""
        if self._km is not None and self._km.has_kernel:
            self._km.interrupt_kernel()

    def is_alive(self) -> bool:
        return self._km is not None and bool(self._km.is_alive())

    # running code

    def execute(self, code: str, timeout_s: float, output_cap: int | None = None) -> ExecResult:
        """Run ``code`` as the next cell; at most ``timeout_s`` seconds."""
        started = time.monotonic()
        notes: list[str] = []
        before = ""
        restarted = False
        if self._km is None:
            self.start()
        elif not self.is_alive():
            why = self._death()
            self.restart()
            restarted = True
            before = (
                f"[The Python kernel had died ({why}) and was restarted before this call: "
                "all earlier variables and imports are lost.]\n"
            )
        cell, outcome = self._run(code, started + timeout_s, output_cap)
        timed_out = outcome == "timeout"
        if timed_out:
            assert self._km is not None
            self._km.interrupt_kernel()
            grace = time.monotonic() + self.interrupt_grace_s
            outcome = self._collect(self._last_msg_id, cell, grace)
            if outcome == "idle":
                notes.append(
                    f"[Timed out after {format_seconds(timeout_s)}: the cell was interrupted. "
                    "Variables and imports are kept.]"
                )
            else:
                self.restart()
                restarted = True
                notes.append(
                    f"[Timed out after {format_seconds(timeout_s)}; the cell did not stop when "
                    "interrupted, so the kernel was restarted: all variables and imports "
                    "are lost.]"
                )
        elif outcome == "died":
            why = self._death()
            self.restart()
            restarted = True
            cell.error = "KernelDied"
            notes.append(
                f"[The Python kernel died ({why}) and was restarted: all variables and "
                "imports are lost.]"
            )
        output = before + cell.out.text()
        if notes:
            output += ("\n" if output and not output.endswith("\n") else "") + "\n".join(notes)
        finished = outcome == "idle" and not timed_out
        return ExecResult(
            output=output,
            exit_code=(1 if cell.error else 0) if finished else None,
            timed_out=timed_out,
            duration_s=time.monotonic() - started,
            error=cell.error,
            restarted=restarted,
        )

    def run_clean(self, code: str, timeout_s: float, output_cap: int | None = None) -> ExecResult:
        """Run ``code`` like a fresh script: empty namespace, cwd back at ``self.cwd``.

        Imported modules stay loaded (that is what makes this fast); if the namespace cannot
        be cleared the kernel is restarted instead.
        """
        started = time.monotonic()
        # Clears the user's names without IPython's reset(), whose gc.collect() costs
        # hundreds of ms once pandas and scikit-learn are loaded.
        reset = (
            "(lambda ns, keep: [ns.pop(k) for k in list(ns) if k not in keep])"
            "(get_ipython().user_ns, get_ipython().user_ns_hidden)\n"
            f"__import__('os').chdir({str(self.cwd)!r})"
        )
        prep = self.execute(reset, min(30.0, timeout_s))
        if prep.exit_code != 0:
            self.restart()
        left = max(0.0, timeout_s - (time.monotonic() - started))
        result = self.execute(code, left, output_cap)
        result.duration_s = time.monotonic() - started
        result.restarted = result.restarted or prep.restarted or prep.exit_code != 0
        return result

    # internals

    def _run(self, code: str, deadline: float, output_cap: int | None) -> tuple[Cell, str]:
        assert self._kc is not None
        self._drain()
        cell = Cell(self.output_cap if output_cap is None else output_cap)
        self._last_msg_id = self._kc.execute(code, store_history=False, allow_stdin=False)
        return cell, self._collect(self._last_msg_id, cell, deadline)

    def _collect(self, msg_id: str, cell: Cell, deadline: float) -> str:
        """Gather the cell's output until it is idle ("idle"), the deadline ("timeout") or the
        kernel's death ("died"). A cell whose reply came but whose idle status did not (lost
        with a message the harness refused) counts as idle shortly after its reply."""
        assert self._kc is not None and self._km is not None
        replied_at: float | None = None
        while True:
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                return "timeout"
            if replied_at is not None and now - replied_at > _IDLE_AFTER_REPLY_S:
                return "idle"
            try:
                msg = self._kc.get_iopub_msg(timeout=min(remaining, _POLL_S))
            except queue.Empty:
                if not self._km.is_alive():
                    return "died"
                if replied_at is None and self._replied(msg_id):
                    replied_at = time.monotonic()
                continue
            except (ValueError, UnicodeDecodeError):
                cell.out.write("[an output message could not be decoded]\n")
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            content = msg["content"]
            if msg["msg_type"] == "status" and content.get("execution_state") == "idle":
                return "idle"
            cell.add(msg["msg_type"], content)

    def _replied(self, msg_id: str) -> bool:
        """Whether the shell channel holds the reply to ``msg_id`` (other replies are old)."""
        assert self._kc is not None
        while self._kc.shell_channel.msg_ready():
            try:
                reply = self._kc.get_shell_msg(timeout=0)
            except (queue.Empty, ValueError, UnicodeDecodeError):
                continue
            if reply["parent_header"].get("msg_id") == msg_id:
                return True
        return False

    def _drain(self) -> None:
        """Discard replies and output left over from earlier cells."""
        assert self._kc is not None
        for channel in (self._kc.shell_channel, self._kc.iopub_channel):
            while channel.msg_ready():
                with contextlib.suppress(queue.Empty, ValueError, UnicodeDecodeError):
                    channel.get_msg(timeout=0)

    def _death(self) -> str:
        """How the kernel process ended, in words."""
        process = getattr(self._km.provisioner, "process", None) if self._km else None
        code = getattr(process, "returncode", None)
        if code is None:
            return "it stopped responding"
        if code < 0:
            try:
                sig = signal.Signals(-code)
            except ValueError:
                return f"killed by signal {-code}"
            return _SIGNAL_HINTS.get(sig, f"killed by {sig.name}")
        return f"exit code {code}"
