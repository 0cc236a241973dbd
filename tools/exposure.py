"""Isolation checks its own premise: which private files can the agent user actually read?

The user-based sandbox keeps answers safe only through file permissions, so before a run the
harness asks the agent user itself (one process through the sandbox) whether it can read any
file under the task's private paths or other runs' folders. The namespace sandbox is asked too:
there those paths are normally absent, so the check passes unless one lies inside the view.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

MAX_NAMED_FILES = 100_000
"""Files of one private path probed by name; past this, only what the agent can list is."""
_FIRST_READABLE = r"""
import json, os, sys
searchable = {}

def opens(path):
    folder = os.path.dirname(path)
    if folder not in searchable:  # one check per folder: a closed one shuts out all its files
        searchable[folder] = os.access(folder, os.X_OK)
    if not searchable[folder] or not os.path.isfile(path):
        return False
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY))
    except OSError:
        return False
    return True

def first(paths):
    for top in paths:
        if not os.path.isdir(top):
            if opens(top):
                return top
            continue
        for root, dirs, files in os.walk(top):
            hit = next((p for p in (os.path.join(root, f) for f in files) if opens(p)), None)
            if hit:
                return hit
    return None

print(json.dumps([first(paths) for paths in json.load(sys.stdin)]))
"""
"""Run as the agent, reading a JSON list of path lists from stdin: for each list, the first
file the agent can open for reading, either a file named in it or one found by walking a folder
named in it (what the agent can list), or null."""

Kind = Literal["private", "other run"]
log = logging.getLogger(__name__)


class RunsAsAgent(Protocol):
    env: dict[str, str]
    agent_python: str
    isolated: bool
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
    can read, at most one per path given. A folder the agent may enter but not list (mode
    0711) still hands over every file whose name it knows or guesses (``test.csv``,
    ``run.json``), so the agent is given the names: each private file as found by the harness
    (up to ``MAX_NAMED_FILES`` per path), and each entry of another run's folder."""
    groups: list[tuple[list[str], Path, Kind]] = []
    for top in map(Path, private):
        groups.append(([*_named_files(top), str(top)], top, "private"))
    for run in map(Path, other_runs):
        entries = sorted(run.iterdir()) if run.is_dir() else []
        groups.append(([str(p) for p in [run, *entries]], run, "other run"))
    if not groups:
        return []
    argv = [box.agent_python, "-I", "-S", "-c", _FIRST_READABLE]
    proc = subprocess.run(
        box.popen_args(argv),
        env=box.env,
        cwd="/",
        input=json.dumps([paths for paths, _, _ in groups]),
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
    for (_, under, kind), hit in zip(groups, hits, strict=True):
        if hit and under not in found:
            found[under] = Exposure(Path(hit), under, kind, _fix(under, kind, box.gid))
    return list(found.values())


def _named_files(top: Path) -> list[str]:
    """The files under the folder ``top`` as the harness sees them (links included, not
    followed), at most ``MAX_NAMED_FILES``; none when ``top`` is not a folder."""
    names: list[str] = []
    for root, _, files in os.walk(top):
        names += (os.path.join(root, f) for f in sorted(files))
        if len(names) >= MAX_NAMED_FILES:
            log.warning(
                "%s holds more than %d files: the agent was asked about the first %d by name, "
                "the rest only where it can list their folders",
                top,
                MAX_NAMED_FILES,
                MAX_NAMED_FILES,
            )
            return names[:MAX_NAMED_FILES]
    return names


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
    if not box.isolated:
        return []
    return readable_by_agent(box, private, other_runs)


def exposure_record(exposed: Sequence[Exposure]) -> list[dict[str, str]]:
    """What run.json keeps when a run starts anyway (``--allow-exposed-answers``)."""
    return [{"path": str(e.path), "under": str(e.under), "kind": e.kind} for e in exposed]
