"""Reproduction: run a submission's ``reproduce.sh`` in a fresh copy, as the agent user.

Upstream's steps, in a sandbox instead of a container::

    <out>/workspace/submission/   a copy of the submission, without venv/ and .venv/
        reproduce.log                 written by ``bash reproduce.sh 2>&1 | tee reproduce.log``
    <out>/reproduce.log.creation_time   the start time (seconds since the epoch)
    <out>/reproduce.log           the same output, as the harness received it
    <out>/reproduction.json       exit code, time-out, duration, created/changed/deleted files,
                                  what the copy left out

The submission is hostile input, so the copy is ``tools.keep.keep_tree``'s: by descriptor,
never through a link (the submission's own links are copied as links, inert), regular files
and folders only, bounded in depth, entries and bytes, sparse files kept sparse. The harness
writes nothing inside the copy: upstream's timestamp file lies beside it, in ``<out>``, so a
link the submission names ``reproduce.log.creation_time`` points nowhere the harness writes.

``bash reproduce.sh`` runs in the copy through ``tools.Sandbox`` (as the unprivileged agent
user, with the agent's clean environment; the GPU is visible when the machine has one; the
network as the run had it, on by default as upstream's container has it), in its own process
group, killed whole at the time-out; closing the sandbox then ends every process it left
(``setsid`` daemons included), checked, before anything reads the copy. Files whose modification time is at or after
the start, or that are new, are the ones reproduction created or changed: the judge grades
Result Analysis leaves on those. A missing ``reproduce.sh`` is logged as such; grading still
runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import time
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from tools.keep import KeepLimits, KeepReport, keep_tree

FORMAT_VERSION = 1
DEFAULT_TIMEOUT_S = 100 * 3600.0
"""Upstream's default reproduction time-out (a run's own reproduction uses its time limit)."""
SCRIPT = "reproduce.sh"
LOG = "reproduce.log"
TIMESTAMP = "reproduce.log.creation_time"
DROPPED = ("venv", ".venv")
"""Top-level folders removed from the copy (upstream: their links to python3 break)."""
COPY_LIMITS = KeepLimits(
    max_file_bytes=2 * 2**30, max_total_bytes=4 * 2**30, max_entries=100_000, max_depth=64
)
"""What a reproduction copies at most (the contract allows 1 GB of committed files; reproduce.sh
may need the uncommitted ones too)."""
LOG_FILE_CAP = 256 * 2**20
"""Bytes of output kept in ``<out>/reproduce.log``; the rest is counted, not kept."""
RECORD = "reproduction.json"
_COMMAND = f"set -o pipefail; bash {SCRIPT} 2>&1 | tee {LOG}"
_NOT_FOUND = f"{SCRIPT} not found in the submission: nothing was run.\n"


@dataclass
class Reproduction:
    """What one reproduction did; saved as ``<out>/reproduction.json``."""

    submission: str
    """The copy after reproduction: the folder the judge reads."""
    log_path: str
    script_found: bool
    exit_code: int | None
    """None when it timed out or was not run."""
    timed_out: bool
    duration_s: float
    timeout_s: float
    started_at: str
    isolation: str
    created: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    not_copied: list[str] = field(default_factory=list)
    """What the copy left out of the submission, and why (FIFOs, devices, sizes...)."""
    network: str = "on"
    agent_processes: dict[str, Any] = field(default_factory=dict)
    """How the sandbox's end ended every process reproduction left (``tools.reaper.Ended``);
    a survivor makes the reproduction fail before anything reads the copy."""
    format_version: int = FORMAT_VERSION

    @property
    def changed_files(self) -> list[str]:
        """Files reproduction created or modified, relative to the submission."""
        return sorted(self.created + self.changed)

    @property
    def succeeded(self) -> bool:
        return self.script_found and self.exit_code == 0

    def log(self) -> str:
        return Path(self.log_path).read_text(encoding="utf-8", errors="replace")

    def moved(self, old: Path, new: Path) -> Reproduction:
        """This reproduction once its folder ``old`` is moved to ``new``, saved (in ``old``,
        before the move) with the paths it will have there."""

        def there(path: str) -> str:
            return str(new / Path(path).relative_to(old))

        moved = replace(self, submission=there(self.submission), log_path=there(self.log_path))
        moved.save(old)
        return moved

    def save(self, folder: Path) -> Path:
        path = folder / RECORD
        path.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, folder: Path) -> Reproduction | None:
        """The reproduction recorded in ``folder``, or None when it never finished."""
        path = folder / RECORD
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


def listing(root: Path) -> dict[str, tuple[int, int]]:
    """Relative path -> (size, mtime_ns) of every non-directory under ``root``; links are
    listed, never followed."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            path = os.path.join(dirpath, name)
            with contextlib.suppress(OSError):
                st = os.lstat(path)
                found[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
    return found


def copy_submission(src: Path, dest: Path) -> KeepReport:
    """Copy the folder ``src`` to ``dest`` (made anew) by descriptor, links kept as links,
    without the top-level ``venv``/``.venv`` (``COPY_LIMITS``)."""
    src = Path(src).resolve()  # the path given is the user's or the harness's; below it, not
    return keep_tree(
        src.parent, src.name, dest, COPY_LIMITS, links=True, exclude=frozenset(DROPPED)
    )


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _stream(proc: subprocess.Popen[bytes], log: Path, deadline: float, echo: TextIO | None) -> bool:
    """Copy the process's output into ``log`` until it ends; True when the deadline hit."""
    assert proc.stdout is not None
    fd, kept = proc.stdout.fileno(), 0
    with open(log, "wb") as out:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                _kill_group(proc.pid)
                return True
            ready, _, _ = select.select([fd], [], [], min(1.0, left))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return False
            if kept < LOG_FILE_CAP:
                out.write(chunk[: LOG_FILE_CAP - kept])
                out.flush()
            kept += len(chunk)
            if echo is not None:
                echo.write(chunk.decode("utf-8", "replace"))
                echo.flush()


def _run_script(
    sandbox: Any, copy: Path, log: Path, deadline: float, echo: TextIO | None
) -> tuple[int | None, bool]:
    """``(exit code or None, timed out)`` of ``bash reproduce.sh | tee reproduce.log`` in
    ``copy``, as the agent, in its own process group (killed whole at the deadline)."""
    proc = subprocess.Popen(
        sandbox.popen_args(["bash", "-c", _COMMAND]),
        cwd=copy,
        env=sandbox.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        timed_out = _stream(proc, log, deadline, echo)
    finally:
        assert proc.stdout is not None
        proc.stdout.close()
        _kill_group(proc.pid)  # whatever it left running in the background
        code = proc.wait()
    return (None if timed_out else code), timed_out


def reproduce(
    submission: Path,
    out: Path,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    agent_user: str | None = None,
    echo: TextIO | None = None,
    network: str = "on",
) -> Reproduction:
    """Copy ``submission`` into ``out`` (a new or empty folder the agent user can reach) and
    run its ``reproduce.sh`` there as the agent (``agent_user``, by default
    ``$SCAFFOLDS_AGENT_USER``, else ``agent``), for at most ``timeout_s`` seconds, with the
    network ``on`` or ``off`` (loopback only; needs the namespace sandbox).

    Raises ``FileExistsError`` when ``out`` holds files, and ``RuntimeError`` (from the
    sandbox) when the agent user cannot reach ``out``.
    """
    from tools import Sandbox, Workspace

    out = Path(out).absolute()
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} already holds files; give a new folder")
    workspace = Workspace.create(out / "workspace")
    copy = workspace.submission
    kept = copy_submission(Path(submission), copy)
    started, started_wall = time.monotonic(), time.time()
    (out / TIMESTAMP).write_text(f"{int(started_wall)}\n", encoding="utf-8")
    before = listing(copy)
    log = out / LOG
    found = os.path.lexists(copy / SCRIPT)
    exit_code, timed_out = None, False
    # creating the sandbox gives the copy to the agent; closing it ends whatever is left running.
    # It gets the machine's GPUs, unless a grid placed this run on none (an empty list).
    gpu = os.environ.get("CUDA_VISIBLE_DEVICES") != ""
    box = Sandbox.create(workspace, agent_user=agent_user, gpu=gpu, network=network)
    with box as sandbox:
        if found:
            exit_code, timed_out = _run_script(sandbox, copy, log, started + timeout_s, echo)
        else:
            log.write_text(_NOT_FOUND, encoding="utf-8")
    ended = sandbox.ended
    if ended is not None and not ended.clean:
        raise RuntimeError(f"reproduction's processes survived its sandbox: {ended.survivors}")
    if timed_out:
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"\n[{SCRIPT} timed out after {timeout_s:.0f}s; it and every process it "
                    "started were killed]\n")  # fmt: skip
    after = listing(copy)
    own = {LOG}
    result = Reproduction(
        submission=str(copy),
        log_path=str(log),
        script_found=found,
        exit_code=exit_code,
        timed_out=timed_out,
        duration_s=round(time.monotonic() - started, 3),
        timeout_s=timeout_s,
        started_at=datetime.fromtimestamp(started_wall, UTC).isoformat(timespec="seconds"),
        isolation=sandbox.note,
        created=sorted(set(after) - set(before) - own),
        changed=sorted(p for p in set(after) & set(before) - own if after[p] != before[p]),
        deleted=sorted(set(before) - set(after) - own),
        not_copied=[*kept.skipped, *([kept.stopped] if kept.stopped else [])],
        network=network,
        agent_processes=ended.to_dict() if ended else {"how": "not isolated", "clean": None},
    )
    result.save(out)
    return result
