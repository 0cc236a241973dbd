"""Isolation checks its own premise: which private files can the agent user actually read?

The user-based sandbox keeps answers safe only through file permissions, so before a run the
harness asks the agent user itself (one process through the sandbox) whether it can read any
file under the task's private paths or other runs' folders. The namespace sandbox is asked too:
there those paths are normally absent, so the check passes unless one lies inside the view.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

_FIRST_READABLE = r"""
import json, os, sys
found = []
for top in sys.argv[1:]:
    hit = None
    if os.path.isfile(top):
        hit = top if os.access(top, os.R_OK) else None
    for root, dirs, files in os.walk(top):
        hit = next((p for p in (os.path.join(root, f) for f in files)
                    if os.path.isfile(p) and os.access(p, os.R_OK)), None)
        if hit:
            break
    found.append(hit)
print(json.dumps(found))
"""
"""Run as the agent: for each path given, the first file under it the agent can read, or null."""

Kind = Literal["private", "other run"]


class RunsAsAgent(Protocol):
    env: dict[str, str]
    agent_python: str
    user: str | None
    gid: int | None

    def popen_args(self, argv: Sequence[str]) -> list[str]: ...


@dataclass(frozen=True)
class Exposure:
    """A file the agent user can read although it must not."""

    path: Path
    """The readable file."""
    under: Path
    """The protected path it lies under (a private folder, another run's folder)."""
    kind: Kind
    fix: str
    """A shell command that closes it."""

    def message(self, user: str | None) -> str:
        what = "the task's private files" if self.kind == "private" else "another run's folder"
        return (
            f"refusing to start: the agent user {user!r} can read {self.path} ({what}); "
            f"fix: {self.fix} (or pass --allow-exposed-answers to run anyway; run.json then "
            "records it)"
        )


def _fix(under: Path, kind: Kind, agent_gid: int | None) -> str:
    if kind == "other run":
        return f"chmod 700 {under}"
    folder = under if under.is_dir() else under.parent
    try:
        via_group = agent_gid is not None and folder.stat().st_gid == agent_gid
    except OSError:
        via_group = False
    return f"chmod {'go' if via_group else 'o'}-rx {folder}"


def readable_by_agent(
    box: RunsAsAgent,
    private: Sequence[Path] = (),
    other_runs: Sequence[Path] = (),
    timeout_s: float = 120.0,
) -> list[Exposure]:
    """The files under ``private`` (answers, labels, rubrics) or ``other_runs`` that the agent
    can read, at most one per path given. Each other run's folder is probed through its
    entries, since a folder the agent may traverse but not list still hands over any file
    whose name it guesses (``run.json``, ``submission/submission.csv``)."""
    tops: list[tuple[Path, Path, Kind]] = [(Path(p), Path(p), "private") for p in private]
    for run in map(Path, other_runs):
        entries = sorted(run.iterdir()) if run.is_dir() else []
        tops += [(entry, run, "other run") for entry in [run, *entries]]
    if not tops:
        return []
    argv = [box.agent_python, "-I", "-S", "-c", _FIRST_READABLE, *(str(t[0]) for t in tops)]
    proc = subprocess.run(
        box.popen_args(argv),
        env=box.env,
        cwd="/",
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        raise RuntimeError(
            f"could not check what the agent can read: {lines[-1:] or proc.returncode}"
        )
    hits = json.loads(proc.stdout)
    found: dict[Path, Exposure] = {}
    for (_, under, kind), hit in zip(tops, hits, strict=True):
        if hit and under not in found:
            found[under] = Exposure(Path(hit), under, kind, _fix(under, kind, box.gid))
    return list(found.values())


def sibling_runs(run_dir: Path) -> list[Path]:
    """Other run folders beside ``run_dir`` (folders holding a ``run.json``)."""
    parent = Path(run_dir).parent
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    return sorted(
        parent / n for n in names if n != Path(run_dir).name and (parent / n / "run.json").is_file()
    )


def check_exposure(
    box: RunsAsAgent, private: Sequence[Path], other_runs: Sequence[Path]
) -> list[Exposure]:
    """``readable_by_agent`` for an isolated sandbox; nothing to check without isolation."""
    if not getattr(box, "isolated", False):
        return []
    return readable_by_agent(box, private, other_runs)


def exposure_record(exposed: Sequence[Exposure]) -> list[dict[str, str]]:
    """What run.json keeps when a run starts anyway (``--allow-exposed-answers``)."""
    return [{"path": str(e.path), "under": str(e.under), "kind": e.kind} for e in exposed]
