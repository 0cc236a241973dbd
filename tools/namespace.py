"""The namespace sandbox: one bubblewrap sandbox per run, holding only what the agent may see.

``bwrap`` builds mount, PID and IPC namespaces (and, with the network off, a network namespace
with only loopback) around a view made by allow-list (``tools/view.py``): answers, graders,
rubrics, other runs, the harness's source tree and ``/root`` are simply not there. A tiny holder
process keeps the sandbox alive for the whole run; it ends, and the kernel kills everything in
it, when the harness closes the sandbox or dies (the holder reads a pipe only the harness holds).

Every agent process (kernel, bash, file tools, reproduction scripts) enters that one sandbox
(``tools/enter.py``: ``nsenter`` through namespace descriptors the harness holds, then
``setpriv``). Processes therefore share one ``/tmp`` and one process table, and background jobs
outlive the call that started them.
"""

from __future__ import annotations

import functools
import json
import os
import pwd
import select
import shutil
import subprocess
import tempfile
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from tools.agent_env import interpreter_prefixes
from tools.enter import SYSTEM_PATH, Entry, entry, nsenter_has_wdns
from tools.reaper import clear_keyrings, end_namespace
from tools.sandbox import Sandbox
from tools.view import (
    Mount,
    bwrap_args,
    device_mounts,
    fill_control,
    library_path,
    system_mounts,
    view_mounts,
)
from tools.workspace import Workspace

BWRAP_ENV = "SCAFFOLDS_BWRAP"
"""The bwrap binary to use (default: ``bwrap`` on PATH); empty disables the namespace backend."""
_HOLDER = "echo ready; while read -t 1 -r _ || [ $? -gt 128 ]; do :; done"
"""PID 1 of the sandbox: it ends at end of file on its stdin (a pipe only the harness holds, so
also when the harness dies), which makes the kernel kill every process in the sandbox; bash
reaps orphaned background jobs between reads."""
_START_TIMEOUT_S = 30.0
_NAMESPACES = ("mnt", "pid", "ipc")


def _process_key(pid: int) -> str | None:
    """``pid`` with its start time, so that a recycled PID never passes for its old owner."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return f"{pid} {stat.rsplit(')', 1)[1].split()[19]}"


def control_folder() -> Path:
    """A new harness-side folder for one sandbox, under ``$TMPDIR/scaffolds-sandboxes``.

    Folders left by harnesses that died without closing their sandbox (SIGKILL, SIGTERM) are
    removed here: each records its owner, and an owner that no longer runs has no sandbox."""
    root = Path(tempfile.gettempdir()) / "scaffolds-sandboxes"
    root.mkdir(mode=0o700, exist_ok=True)
    for old in root.iterdir():
        try:
            owner = (old / "owner").read_text()
            pid = int(owner.split()[0])
        except (OSError, ValueError, IndexError):
            continue  # being created right now by another harness, or not ours
        if _process_key(pid) != owner:
            shutil.rmtree(old, ignore_errors=True)
    control = Path(tempfile.mkdtemp(dir=root))
    written = control / "owner.new"  # renamed whole: another harness never reads it half-written
    written.write_text(_process_key(os.getpid()) or "")
    written.replace(control / "owner")
    return control


def bwrap_path() -> str:
    value = os.environ.get(BWRAP_ENV)
    return (shutil.which("bwrap") or "") if value is None else value


@functools.cache
def namespace_problem(bwrap: str) -> str | None:
    """Why the namespace sandbox cannot run here, in a few words; None when it can.

    Checked once per process: bwrap must exist, the harness must be root, and bwrap must be
    able to build a real view and run ``env --default-signal`` (coreutils >= 8.31) in it.
    """
    if not bwrap:
        return f"${BWRAP_ENV} is empty" if BWRAP_ENV in os.environ else "bwrap is not installed"
    if os.geteuid() != 0:
        return "the harness is not root"
    for tool in ("nsenter", "setpriv"):
        if shutil.which(tool, path=SYSTEM_PATH) is None:
            return f"{tool} (util-linux) is not installed"
    probe = [bwrap, "--unshare-pid", "--unshare-ipc", "--unshare-net", "--cap-drop", "ALL"]
    probe += bwrap_args(system_mounts() + device_mounts())
    probe += ["--", "/usr/bin/env", "--default-signal=INT", "-C", "/", "true"]
    try:
        proc = subprocess.run(probe, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{bwrap} cannot run: {exc}"
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        return f"{bwrap} cannot build a sandbox here: {lines[-1] if lines else proc.returncode}"
    return None


@dataclass
class Holder:
    """The running sandbox: bwrap's process and the descriptors that enter it."""

    process: subprocess.Popen[bytes]
    lifeline: int
    """Write end of the pipe the holder reads; closing it ends the sandbox."""
    fds: dict[str, int]
    control: Path
    """Harness-side folder: the view's /etc/passwd and /etc/group, the agent's home, kernels."""
    closed: bool = field(default=False)

    def alive(self) -> bool:
        return not self.closed and self.process.poll() is None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        os.close(self.lifeline)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in self.fds.values():
            os.close(fd)
        shutil.rmtree(self.control, ignore_errors=True)


def _read_ready(process: subprocess.Popen[bytes], info_r: int, log: Path) -> int:
    """Wait for the holder's ``ready`` line; return its host PID (PID 1 inside)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], _START_TIMEOUT_S)
    line = process.stdout.readline() if ready else b""
    with os.fdopen(info_r, "rb") as info:
        if line != b"ready\n":
            process.kill()
            process.wait()
            lines = log.read_text(errors="replace").strip().splitlines()
            why = lines[-1] if lines else repr(line)
            raise RuntimeError(f"the namespace sandbox did not start: {why}")
        return int(json.loads(info.read().decode())["child-pid"])


def start_holder(
    bwrap: str,
    mounts: Sequence[Mount],
    control: Path,
    network: str,
) -> Holder:
    """Start bwrap around ``mounts`` with a holder process, and open its namespaces."""
    flags = ["--unshare-pid", "--unshare-ipc", "--as-pid-1", "--cap-drop", "ALL", "--new-session"]
    if network == "off":
        flags.append("--unshare-net")
    info_r, info_w = os.pipe()
    args_r, args_w = os.pipe()
    life_r, life_w = os.pipe()
    errors = open(control / "bwrap.log", "wb")  # noqa: SIM115 (the process holds it)
    options = [*flags, *bwrap_args(mounts), "--chdir", "/", "--info-fd", str(info_w)]
    os.write(args_w, b"".join(a.encode() + b"\0" for a in options))  # < 64 KiB: never blocks
    os.close(args_w)
    try:
        process = subprocess.Popen(  # --args keeps the view's layout out of /proc/1/cmdline
            [bwrap, "--args", str(args_r), "--", "/bin/bash", "-c", _HOLDER],
            stdin=life_r,
            stdout=subprocess.PIPE,
            stderr=errors,
            env={"PATH": SYSTEM_PATH},
            pass_fds=(args_r, info_w),
            start_new_session=True,
        )
    finally:
        for fd in (args_r, info_w, life_r):
            os.close(fd)
        errors.close()
    try:
        pid = _read_ready(process, info_r, control / "bwrap.log")
        fds = {ns: os.open(f"/proc/{pid}/ns/{ns}", os.O_RDONLY) for ns in _NAMESPACES}
        if network == "off":
            fds["net"] = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY)
        fds["root"] = os.open(f"/proc/{pid}/root", os.O_RDONLY | os.O_DIRECTORY)
    except BaseException:
        os.close(life_w)
        process.kill()
        process.wait()
        raise
    assert process.stdout is not None
    process.stdout.close()
    return Holder(process, life_w, fds, control)


@dataclass
class NamespaceSandbox(Sandbox):
    """The sandbox of one run, in its own namespaces. Build it with ``Sandbox.create``."""

    _holder: Holder | None = field(default=None, repr=False)
    _entry: Entry | None = field(default=None, repr=False)
    _script: str = field(default="", repr=False)
    _finalize: weakref.finalize[..., Any] | None = field(default=None, repr=False)
    """Closes the holder when this object is collected or the interpreter exits."""
    kernel_transport: ClassVar[str] = "ipc"
    """Kernel sockets are files in a folder of the view, so they work with the network off."""

    @classmethod
    def start(
        cls,
        workspace: Workspace,
        python: str,
        env: dict[str, str],
        account: pwd.struct_passwd,
        network: str,
        gpu: bool,
    ) -> NamespaceSandbox:
        user, uid, gid, home = account.pw_name, account.pw_uid, account.pw_gid, account.pw_dir
        groups = os.getgrouplist(user, gid)
        control = control_folder()
        try:
            fill_control(control, uid, gid, user, home, groups)
            mounts = view_mounts(
                workspace_root=workspace.root,
                data=workspace.data,
                # the interpreter, and library folders the agent is pointed at (CUDA's)
                prefixes=[*interpreter_prefixes(python), *library_path(env)],
                control=control,
                home=home,
                gpu=gpu,
            )
            holder = start_holder(bwrap_path(), mounts, control, network)
        except BaseException:
            shutil.rmtree(control, ignore_errors=True)
            raise
        way_in = entry(holder.fds, uid, gid, groups)
        box = cls(
            workspace,
            python,
            env,
            isolated=True,
            user=user,
            note=(
                f"isolation on, namespace sandbox (network {network}): agent code runs as user "
                f"{user!r} (uid {uid}) in a view holding only its workspace, interpreter and "
                "system folders"
            ),
            uid=uid,
            gid=gid,
            network=network,
            _holder=holder,
            _entry=way_in,
            _script=way_in.script(),
        )
        box._finalize = weakref.finalize(box, holder.close)
        return box

    @property
    def backend(self) -> str:
        return "namespace"

    def popen_args(self, argv: Sequence[str], cwd: str | Path | None = None) -> list[str]:
        """``argv`` wrapped to run inside the sandbox as the agent, in the working directory
        the caller gives ``Popen`` (which must be inside the view, e.g. the workspace). Give it
        here too (``cwd``) for a one-shot call: it then starts faster, and SIGINT is not
        shielded (a kernel, which is interrupted through its process group, needs the shield)."""
        if self._holder is None or not self._holder.alive() or self._entry is None:
            raise RuntimeError("the agent's namespace sandbox has ended")
        if cwd is not None and nsenter_has_wdns(self._entry.nsenter[0]):
            return self._entry.argv(argv, os.path.abspath(cwd))
        return ["/bin/sh", "-c", self._script, "sh", *argv]

    def kernel_dir(self) -> Path:
        """A new folder for one kernel, root's like the user-based one's, holding ``ipc/``,
        the agent's, where the kernel makes its sockets."""
        assert self._holder is not None and self.uid is not None and self.gid is not None
        path = Path(tempfile.mkdtemp(prefix="k", dir=self._holder.control / "kernel"))
        os.chmod(path, 0o711)
        (path / "ipc").mkdir(mode=0o700)
        os.chown(path / "ipc", self.uid, self.gid)
        return path

    def close(self) -> None:
        """End the PID namespace, and with it every process in it, checked
        (``tools/reaper.py``); empty the agent user's keyrings. Idempotent."""
        if self.ended is not None or self._holder is None or self._holder.closed:
            if self._finalize is not None:
                self._finalize()
            return
        pid_ns = os.fstat(self._holder.fds["pid"]).st_ino
        finalize = self._finalize or self._holder.close
        self.ended = end_namespace(pid_ns, finalize)
        if self.uid is not None and self.gid is not None:
            clear_keyrings(self.uid, self.gid, self.agent_python)
