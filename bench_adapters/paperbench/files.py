"""The submission files a rubric judge may read, and how the chosen ones fill a prompt.

Which files are candidates depends on the leaf's category, as in upstream's SimpleJudge (the
same extension lists, plus notebooks as code and ``.log`` files as results):

- Code Development and Code Execution: code, configuration and docs;
- Result Analysis: docs, plus the tables and logs that reproduction created or changed.

Only regular UTF-8 text files are read (no links, no binaries); virtual environments, ``.git``,
caches and folders deeper than four levels are skipped. ``reproduce.sh`` and ``reproduce.log``
are not candidates: every prompt shows them anyway.

When the candidates do not all fit a leaf's budget they are ranked (``ranking.py``) and packed
in that order: at most ``MAX_FILES``, the last one cut to the room left.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bench_adapters.paperbench.rubric import RESULT_ANALYSIS

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
            text = _read_text(root / rel)
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
    found: list[str] = []
    if not root.is_dir():
        return found
    for folder, dirs, files in os.walk(root):
        rel_dir = Path(folder).relative_to(root)
        depth = len(rel_dir.parts)
        dirs[:] = [
            d
            for d in sorted(dirs)
            if d not in SKIP_DIRS and not d.endswith(".egg-info") and depth < MAX_DEPTH
        ]
        for name in files:
            rel = (rel_dir / name).as_posix()
            if rel in REPRODUCTION_FILES or _suffix(name) not in DOCS | CODE | TABLES:
                continue
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):  # no links, FIFOs, devices
                found.append(rel)
        if len(found) > MAX_SCANNED:
            break
    return found


def _read_text(path: Path) -> str | None:
    """The file's text, or None when it is not UTF-8 text."""
    try:
        with path.open(encoding="utf-8") as f:
            text = f.read(MAX_CHARS_PER_FILE)
    except (OSError, UnicodeDecodeError):
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
