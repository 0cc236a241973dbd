"""The submission files a rubric judge may read, and how the chosen ones fill a prompt.

Which files are candidates depends on the leaf's category, as in upstream's SimpleJudge (the
same extension lists, plus notebooks as code and ``.log`` files as results):

- Code Development and Code Execution: code, configuration and docs;
- Result Analysis: docs, plus the tables and logs that reproduction created or changed.

Only regular UTF-8 text files are read (no links, no binaries), each opened by descriptor with
``O_NOFOLLOW`` at every level and checked on its descriptor, from a copy no agent process can
change any more (reproduction's processes have all ended); virtual environments, ``.git``,
caches and folders deeper than four levels are skipped. ``reproduce.sh`` and ``reproduce.log``
are not candidates: every prompt shows them anyway.

When the candidates do not all fit a leaf's budget they are ranked (``ranking.py``) and packed
in that order: at most ``MAX_FILES``, the last one cut to the room left.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bench_adapters.paperbench.rubric import RESULT_ANALYSIS

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

DOCS = frozenset({".md", ".txt", ".rst"})
CODE = frozenset(
    {".py", ".R", ".Rmd", ".m", ".jl", ".c", ".h", ".cpp", ".hpp", ".cc", ".cxx", ".hxx"}
    | {".java", ".js", ".ts", ".scala", ".go", ".rs", ".sh", ".ipynb"}
    | {".config", ".cfg", ".json", ".yaml", ".yml", ".toml", ".ini"}
)
TABLES = frozenset(
    {".csv", ".tsv", ".psv", ".json", ".jsonl", ".html", ".xml", ".yaml", ".yml", ".toml"}
    | {".arff", ".tex", ".svm", ".libsvm", ".log"}
)
SKIP_DIRS = frozenset(
    {"venv", ".venv", ".env", "wandb", ".git", ".github", "__pycache__", "node_modules"}
)
REPRODUCTION_FILES = frozenset({"reproduce.sh", "reproduce.log", "reproduce.log.creation_time"})
MAX_DEPTH = 4
"""Folders this deep below the submission root are read but not entered."""
MAX_FILES = 10
"""At most this many ranked files go into one prompt (upstream's limit)."""
MAX_SCANNED = 5000
"""Candidate files listed at most."""
MAX_VISITED = 200_000
"""Entries of any kind looked at, at most."""
MAX_CHARS_PER_FILE = 400_000
"""A file is read up to this many characters; no prompt budget holds more."""
MAX_TOTAL_CHARS = 40_000_000
"""Files past this much text in all (in path order) are not read."""


@dataclass
class Submission:
    """The readable text files of a submission folder, read once per grading."""

    root: Path
    texts: dict[str, str] = field(default_factory=dict)
    """Relative POSIX path -> text (cut at ``MAX_CHARS_PER_FILE``), in path order."""
    changed: frozenset[str] = frozenset()
    """Paths that reproduction created or changed (reproduce.log and its timestamp excluded)."""

    @classmethod
    def read(cls, root: Path, changed: Iterable[str] | None = None) -> Submission:
        changed_set = frozenset(str(PurePosixPath(p)) for p in changed or ()) - REPRODUCTION_FILES
        texts: dict[str, str] = {}
        total = 0
        for rel in sorted(_walk(root))[:MAX_SCANNED]:
            text = _read_text(root, rel)
            if text is not None and total + len(text) <= MAX_TOTAL_CHARS:
                texts[rel] = text
                total += len(text)
        return cls(root, texts, changed_set)

    def candidates(self, category: str | None) -> list[str]:
        """The files a leaf of ``category`` may see, in path order."""
        if category == RESULT_ANALYSIS:
            return [
                p
                for p in self.texts
                if _suffix(p) in DOCS or (p in self.changed and _suffix(p) in TABLES)
            ]
        return [p for p in self.texts if _suffix(p) in DOCS | CODE]


def _suffix(path: str) -> str:
    return PurePosixPath(path).suffix


def _walk(root: Path) -> list[str]:
    """The candidate files below ``root``, found through descriptors: a link (to a file or a
    folder) is never followed, and only regular files are listed."""
    found: list[str] = []
    try:
        top = os.open(Path(root).resolve(), _DIR)
    except OSError:
        return found
    stack: list[tuple[int, str, int]] = [(top, "", 0)]
    visited = 0
    try:
        while stack and len(found) <= MAX_SCANNED and visited <= MAX_VISITED:
            fd, rel_dir, depth = stack.pop()
            try:
                with os.scandir(fd) as it:
                    entries = sorted(
                        ((e.name, e.stat(follow_symlinks=False).st_mode) for e in it),
                        reverse=True,
                    )
                visited += len(entries)
                for name, mode in entries:
                    rel = f"{rel_dir}{name}"
                    if stat.S_ISDIR(mode):
                        if name in SKIP_DIRS or name.endswith(".egg-info") or depth >= MAX_DEPTH:
                            continue
                        with contextlib.suppress(OSError):  # replaced meanwhile: not entered
                            stack.append((os.open(name, _DIR, dir_fd=fd), f"{rel}/", depth + 1))
                    elif (
                        stat.S_ISREG(mode)
                        and rel not in REPRODUCTION_FILES
                        and _suffix(name) in DOCS | CODE | TABLES
                    ):
                        found.append(rel)
            except OSError:
                pass
            finally:
                os.close(fd)
    finally:
        for fd, _, _ in stack:
            os.close(fd)
    return found


def _read_text(root: Path, rel: str) -> str | None:
    """The text of the regular file ``rel`` below ``root`` (every component opened without
    following a link, the file checked on its descriptor), or None when it is not UTF-8 text."""
    *folders, name = rel.split("/")
    try:
        fd = os.open(Path(root).resolve(), _DIR)
    except OSError:
        return None
    try:
        for folder in folders:
            sub = os.open(folder, _DIR, dir_fd=fd)
            os.close(fd)
            fd = sub
        file_fd = os.open(name, _FILE, dir_fd=fd)
    except OSError:
        os.close(fd)
        return None
    os.close(fd)
    try:
        if not stat.S_ISREG(os.fstat(file_fd).st_mode):
            return None
        data = os.read(file_fd, 4 * MAX_CHARS_PER_FILE)
    except OSError:
        return None
    finally:
        os.close(file_fd)
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(data)[:MAX_CHARS_PER_FILE]
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text


@dataclass(frozen=True)
class Pick:
    path: str
    text: str
    cut: bool = False


def pack(
    ranked: Sequence[str], texts: dict[str, str], budget_chars: int, max_files: int
) -> list[Pick]:
    """The ranked files in order while they fit ``budget_chars``; the first that does not fit is
    cut to the room left, and packing stops there."""
    picks: list[Pick] = []
    room = budget_chars
    for path in ranked:
        if len(picks) >= max_files or room <= 0:
            break
        text = texts[path]
        cost = len(text) + len(path) + 32
        if cost <= room:
            picks.append(Pick(path, text))
            room -= cost
            continue
        keep = room - len(path) - 32
        if keep > 200:
            picks.append(Pick(path, text[:keep], cut=True))
        break
    return picks


def fits(paths: Sequence[str], texts: dict[str, str], budget_chars: int) -> bool:
    return sum(len(texts[p]) + len(p) + 32 for p in paths) <= budget_chars
