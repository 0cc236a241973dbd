"""Plagiarism: a solution against a folder of reference scripts and notebooks, as Dolos scores it.

Fingerprints are made as ``fingerprint`` describes (normalised tokens, k = 23, winnowing).
The similarity of two files is Dolos's pair similarity::

    similarity(A, B) = (covered(A) + covered(B)) / (total(A) + total(B))

where ``total(X)`` is the number of fingerprints selected in X (one per selected position) and
``covered(X)`` the number of those whose hash is also among the other file's fingerprints. It is
the fraction of both files' fingerprints that they share: 1 for identical token streams, 0 for
nothing in common. MLE-bench flags a solution whose similarity to any reference exceeds 60 %.

The fingerprints of the reference files are cached in one JSON file per reference folder, in
the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, then
``mlagent-scaffolds/fingerprints/``), never inside the folder compared against, keyed by each
file's content hash together with k, the window and the tokenizer version: an unchanged file is
never tokenized twice, a changed one is. A cache that cannot be written is simply not kept.

The solution and the references may be an agent's files: they are read by descriptor (links
are not followed, only regular files of at most ``fingerprint.MAX_SOURCE_BYTES`` are read),
and the folder walk never enters a linked folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scaffolds.monitor.fingerprint import (
    MAX_SOURCE_BYTES,
    TOKENIZER_VERSION,
    WINDOW,
    K,
    fingerprints,
    read_source,
    source_text,
)
from scaffolds.record import write_atomic
from tools.keep import NotTaken, read_regular_file

THRESHOLD = 0.6
CACHE_FORMAT = 1
SUFFIXES = (".py", ".ipynb")
MATCHES_KEPT = 20


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Dolos's pair similarity of two files' fingerprints (see the module docstring)."""
    total = len(a) + len(b)
    if total == 0 or len(a) == 0 or len(b) == 0:
        return 0.0
    covered = int(np.isin(a, b).sum()) + int(np.isin(b, a).sum())
    return covered / total


def reference_files(folder: Path) -> list[Path]:
    """Every regular ``.py`` and ``.ipynb`` file under ``folder`` (no links, none in a linked
    folder), hidden ones aside, in a fixed order."""
    found = []
    for root, dirs, files in os.walk(folder):  # never follows a linked folder
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(root) / name
            if name.endswith(SUFFIXES) and name[0] != "." and _regular(path):
                found.append(path)
    return found


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def default_cache(against: Path) -> Path:
    """Where the fingerprints of the folder ``against`` are cached: the user's cache folder,
    one file per folder (named by a hash of its absolute path)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    name = hashlib.sha256(str(Path(against).absolute()).encode()).hexdigest()[:24]
    return base / "mlagent-scaffolds" / "fingerprints" / f"{name}.json"


@dataclass
class FingerprintCache:
    """Content hash -> fingerprints, read from and written back to one JSON file."""

    path: Path | None
    k: int = K
    window: int = WINDOW
    entries: dict[str, list[int]] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    changed: bool = False

    @classmethod
    def open(cls, path: Path | None, k: int = K, window: int = WINDOW) -> FingerprintCache:
        cache = cls(path, k, window)
        if path is None or not path.is_file():
            return cache
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cache
        if isinstance(data, dict) and data.get("key") == cache.key():
            entries = data.get("entries")
            cache.entries = entries if isinstance(entries, dict) else {}
        return cache

    def key(self) -> dict[str, int]:
        return {"format": CACHE_FORMAT, "k": self.k, "window": self.window,
                "tokenizer": TOKENIZER_VERSION}  # fmt: skip

    def fingerprints(self, path: Path) -> np.ndarray:
        try:
            data = read_regular_file(path, MAX_SOURCE_BYTES)
        except NotTaken as exc:
            raise ValueError(str(exc)) from None
        digest = hashlib.sha256(data).hexdigest()
        self.used.add(digest)
        known = self.entries.get(digest)
        if known is not None:
            return np.array(known, dtype=np.uint64)
        prints = fingerprints(source_text(data, path), self.k, self.window)
        self.entries[digest] = [int(h) for h in prints]
        self.changed = True
        return prints

    def save(self) -> bool:
        """Write the entries of the files used (others are dropped); False when not writable."""
        if self.path is None or not (self.changed or set(self.entries) - self.used):
            return True
        kept = {d: h for d, h in self.entries.items() if d in self.used}
        text = json.dumps({"key": self.key(), "entries": kept})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_atomic(self.path, text, 0o600)
        except OSError:
            return False
        return True


def compare_fingerprints(
    solution: np.ndarray,
    against: Path,
    k: int = K,
    threshold: float = THRESHOLD,
    cache_path: Path | bool | None = True,
    window: int = WINDOW,
) -> dict[str, Any]:
    """The plagiarism report of a solution's fingerprints against every file in ``against``:
    ``max_similarity``, ``flagged`` (above ``threshold``), ``matches`` (best first, the top
    ``MATCHES_KEPT``), ``threshold``, ``k``, ``references``. ``cache_path``: True for the
    folder's cache file in the user's cache folder (``default_cache``), a path, or None/False
    for none."""
    path = default_cache(against) if cache_path is True else (cache_path or None)
    cache = FingerprintCache.open(path, k, window)
    files = reference_files(against)
    scored = []
    for file in files:
        try:
            prints = cache.fingerprints(file)
        except (OSError, ValueError):
            continue  # an unreadable reference or a broken notebook is not one to compare
        scored.append((similarity(solution, prints), file.relative_to(against).as_posix()))
    cached = cache.save()
    scored.sort(key=lambda s: (-s[0], s[1]))
    best = scored[0][0] if scored else 0.0
    return {
        "max_similarity": round(best, 4),
        "flagged": best > threshold,
        "threshold": threshold,
        "k": k,
        "references": len(scored),
        "cached": cached and path is not None,
        "matches": [{"file": f, "similarity": round(s, 4)} for s, f in scored[:MATCHES_KEPT]],
    }


def compare(
    code: Path,
    against: Path,
    k: int = K,
    threshold: float = THRESHOLD,
    cache_path: Path | bool | None = True,
) -> dict[str, Any]:
    """``compare_fingerprints`` for a ``.py`` or ``.ipynb`` file."""
    report = compare_fingerprints(
        fingerprints(read_source(code), k), against, k, threshold, cache_path
    )
    return {"code": str(code), "against": str(against), **report}
