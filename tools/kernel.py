"""A persistent Python kernel (jupyter_client + ipykernel) running as the agent user.

Variables survive between calls. A call that runs past its timeout is interrupted (state
kept); if the interrupt does not stop it within ``interrupt_grace_s`` the kernel is restarted.
A kernel that dies (``os._exit``, segfault, out of memory) is restarted too; in both cases
the output ends with a note saying that all state was lost.
"""

from __future__ import annotations

import contextlib
import queue
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from jupyter_client import KernelManager
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.kernelspec import KernelSpec

from tools.kernel_output import Cell
from tools.result import ExecResult, seconds
from tools.sandbox import Sandbox

_POLL_S = 0.2
KERNEL_KEEP_CHARS = 256_000
"""Per cell, the kernel sends at most this many characters of output from the start and from
the end (or ``output_cap`` if larger); see kernel_boot.py."""
_SIGNAL_HINTS = {
    signal.SIGKILL: "killed by SIGKILL, usually because it ran out of memory",
    signal.SIGSEGV: "segmentation fault",
    signal.SIGABRT: "aborted",
    signal.SIGBUS: "bus error",
}


class _AgentKernelManager(KernelManager):  # type: ignore[misc]
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


class PythonKernel:
    """One IPython kernel for one run. Use as a context manager or call start/shutdown."""

    def __init__(
        self,
        sandbox: Sandbox,
        cwd: Path,
        output_cap: int = 16000,
        interrupt_grace_s: float = 5.0,
        startup_timeout_s: float = 60.0,
    ):
        self.sandbox = sandbox
        self.cwd = Path(cwd)
        self.output_cap = output_cap
        self.interrupt_grace_s = interrupt_grace_s
        self.startup_timeout_s = startup_timeout_s
        self._km: _AgentKernelManager | None = None
        self._kc: BlockingKernelClient | None = None
        self._runtime: Path | None = None
        self._log: IO[bytes] | None = None
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
        km = _AgentKernelManager(
            connection_file=str(self._runtime / "kernel.json"),
            transport=self.sandbox.kernel_transport,
            **sockets,
        )
        km.setup(spec, self.sandbox)
        self._km = km
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 -- lives as long as the kernel
        try:
            km.start_kernel(
                cwd=str(self.cwd),
                env=dict(self.sandbox.env),
                stdout=subprocess.DEVNULL,
                stderr=self._log,
            )
            self._kc = km.blocking_client()
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
        """The last lines the kernel process wrote to its stderr, on one line."""
        if self._log is None or self._log.closed:
            return "none"
        self._log.seek(0)
        lines = self._log.read().decode(errors="replace").strip().splitlines()
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
        self._km = self._kc = self._runtime = self._log = None

    def __enter__(self) -> PythonKernel:
        self.start()
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.shutdown()

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
                    f"[Timed out after {seconds(timeout_s)}: the cell was interrupted. "
                    "Variables and imports are kept.]"
                )
            else:
                self.restart()
                restarted = True
                notes.append(
                    f"[Timed out after {seconds(timeout_s)}; the cell did not stop when "
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
        kernel's death ("died")."""
        assert self._kc is not None and self._km is not None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            try:
                msg = self._kc.get_iopub_msg(timeout=min(remaining, _POLL_S))
            except queue.Empty:
                if not self._km.is_alive():
                    return "died"
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
