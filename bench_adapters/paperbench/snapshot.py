"""Snapshots of a submission repository as git bundles, and checkouts of them.

A run keeps ``<run>/snapshots/submission.bundle``: every ref of the agent's repository, made by
``git bundle create`` run *as the agent user* (the repository's config is the agent's, and git
can be told by it to run commands), written by the harness from git's stdout. A killed run is
graded from its last bundle, which holds what was committed when it was made.

Whether anything changed since the last bundle is judged from ``lstat`` of the repository's
refs (``HEAD``, ``packed-refs``, ``refs/``): no file is opened and no process started, so the
check costs microseconds per step.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from scaffolds.record import atomic_file

BUNDLE_TIMEOUT_S = 600.0
MAX_BUNDLE_BYTES = 4 * 2**30
"""Largest bundle written: the harness's ``prlimit`` sets git's ``RLIMIT_FSIZE`` before git
starts, so a repository of any size stops there, and the last bundle stands."""
CLONE_TIMEOUT_S = 600.0


class RunsAsAgent(Protocol):
    """The part of ``tools.Sandbox`` this module uses (either isolation backend)."""

    env: dict[str, str]

    def popen_args(self, argv: Sequence[str]) -> list[str]: ...


@dataclass(frozen=True)
class Bundle:
    path: Path
    bytes: int
    refs: tuple[tuple[str, str], ...]
    """(commit, ref name) pairs the bundle holds."""


class SnapshotError(Exception):
    """No bundle could be made or read; the message says why, in one line."""


def refs_fingerprint(repo: Path) -> tuple[tuple[str, int, int], ...] | None:
    """Sizes and modification times of the repository's ref files (``lstat`` only), or None
    when ``repo`` holds no ``.git`` folder."""
    git = repo / ".git"
    try:
        if not os.path.isdir(git) or os.path.islink(git):
            return None
        found = []
        for name in ("HEAD", "packed-refs"):
            path = git / name
            if os.path.lexists(path):
                st = os.lstat(path)
                found.append((name, st.st_size, st.st_mtime_ns))
        for dirpath, _dirs, files in os.walk(git / "refs"):  # never follows links
            for name in files:
                st = os.lstat(os.path.join(dirpath, name))
                found.append((os.path.join(dirpath, name), st.st_size, st.st_mtime_ns))
        return tuple(sorted(found))
    except OSError:
        return None


def _bundle_refs(path: Path) -> tuple[tuple[str, str], ...]:
    """The refs listed in a bundle's header (text lines up to the first blank line)."""
    refs = []
    with open(path, "rb") as f:
        f.readline()  # "# v2 git bundle"
        for raw in f:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if not line:
                break
            if not line.startswith("-"):  # "-<commit>" lines are prerequisites
                commit, _, ref = line.partition(" ")
                refs.append((commit, ref))
    return tuple(refs)


def write_bundle(
    box: RunsAsAgent,
    repo: Path,
    dest: Path,
    timeout_s: float = BUNDLE_TIMEOUT_S,
    max_bytes: int = MAX_BUNDLE_BYTES,
) -> Bundle:
    """Bundle every ref of ``repo`` into ``dest`` (replaced atomically), git running as the
    agent; ``SnapshotError`` when git fails (no commit yet, not a repository, timeout, a
    bundle of ``max_bytes``)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    argv = ["git", "-C", str(repo), "bundle", "create", "--quiet", "-", "--all"]
    limit = [shutil.which("prlimit") or "/usr/bin/prlimit", f"--fsize={max_bytes}", "--"]
    try:
        with atomic_file(dest, 0o600) as out:
            proc = subprocess.run(
                [*limit, *box.popen_args(argv)],
                env=box.env,
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.PIPE,
                timeout=timeout_s,
                check=False,
            )
            if proc.returncode != 0 and os.fstat(out.fileno()).st_size >= max_bytes:
                raise SnapshotError(f"the bundle reached its limit of {max_bytes} bytes")
            if proc.returncode != 0:
                lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
                raise SnapshotError(lines[-1] if lines else f"git bundle exited {proc.returncode}")
    except subprocess.TimeoutExpired:
        raise SnapshotError(f"git bundle took longer than {timeout_s:.0f}s") from None
    return Bundle(dest, dest.stat().st_size, _bundle_refs(dest))


def checkout_bundle(bundle: Path, dest: Path, timeout_s: float = CLONE_TIMEOUT_S) -> Path:
    """Clone ``bundle`` into the new folder ``dest``: its last commit, checked out.

    The clone is a fresh repository (its config and hooks are git's defaults, not the
    agent's), so cloning runs nothing the agent wrote. Links in the tree are checked out as
    links; whoever reads the files must not follow them.
    """
    argv = ["git", "clone", "--quiet", "--no-hardlinks", str(bundle), str(dest)]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": tempfile.gettempdir(),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "LANG": "C.UTF-8",
    }
    try:
        proc = subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired:
        raise SnapshotError(f"cloning {bundle} took longer than {timeout_s:.0f}s") from None
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        raise SnapshotError(f"cannot check out {bundle}: {lines[-1] if lines else 'git failed'}")
    return dest
