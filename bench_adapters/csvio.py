"""Reading submissions and answers exactly as upstream MLE-bench does.

Upstream reads every CSV with ``pandas.read_csv(float_precision="round_trip")`` and turns an
empty file into an empty DataFrame. pandas >= 3 parses floats round-trip exactly by default and
deprecates the argument, so it is passed only to older pandas: the values are the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

_PANDAS_MAJOR = int(pd.__version__.split(".")[0])
_READ_KWARGS: dict[str, Any] = {"float_precision": "round_trip"} if _PANDAS_MAJOR < 3 else {}

MIN_SIZE_LIMIT_BYTES = 256 * 1024**2
"""A submission is never refused for size below this."""
SIZE_LIMIT_FACTOR = 10
"""...nor below this many times the size of the answers or sample submission."""


def read_csv(path: Path) -> pd.DataFrame:
    """``read_csv`` with upstream's defaults; an empty file gives an empty DataFrame."""
    try:
        return pd.read_csv(path, **_READ_KWARGS)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every non-blank line of a JSONL file, skipping ``#`` and ``//`` comment lines."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith(("#", "//")):
                rows.append(json.loads(line))
    return rows


def load_answers(path: Path) -> pd.DataFrame | list[dict[str, Any]]:
    """Answers as upstream loads them: a DataFrame for ``.csv``, a list of dicts for ``.jsonl``."""
    if path.suffix == ".csv":
        return read_csv(path)
    if path.suffix == ".jsonl":
        return read_jsonl(path)
    raise ValueError(f"unsupported answers format: {path}")


def size_limit_bytes(*reference_files: Path) -> int:
    """The largest submission worth reading, given the files a real one resembles."""
    sizes = [p.stat().st_size for p in reference_files if p.is_file()]
    return max(MIN_SIZE_LIMIT_BYTES, SIZE_LIMIT_FACTOR * max(sizes, default=0))
