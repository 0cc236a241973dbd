"""Reading submissions and answers exactly as upstream MLE-bench does.

Upstream reads every CSV with ``pandas.read_csv(float_precision="round_trip")`` and turns an
empty file into an empty DataFrame. pandas >= 3 parses floats round-trip exactly by default and
deprecates the argument, so it is passed only to older pandas: the values are the same.

A whole-file parse peaks at about four times the frame it returns, so a file over
``CHUNKED_ABOVE_BYTES`` whose columns are all numbers or booleans is parsed
``CHUNK_ROWS`` rows at a time into columns allocated once (their size bounded by the file's
line count): the same parser, values and dtypes, at about the frame's size plus one chunk.
Where a chunk holds text, or the chunks disagree on a column's dtype, the file is read whole
instead, so the result is always the whole-file read's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

_PANDAS_MAJOR = int(pd.__version__.split(".")[0])
_READ_KWARGS: dict[str, Any] = {"float_precision": "round_trip"} if _PANDAS_MAJOR < 3 else {}

MIN_SIZE_LIMIT_BYTES = 256 * 1024**2
"""A submission is never refused for size below this."""
SIZE_LIMIT_FACTOR = 10
"""...nor below this many times the size of the answers or sample submission."""


CHUNKED_ABOVE_BYTES = 64 * 1024**2
CHUNK_ROWS = 262_144


def read_csv(path: Path) -> pd.DataFrame:
    """``read_csv`` with upstream's defaults; an empty file gives an empty DataFrame."""
    try:
        if Path(path).stat().st_size > CHUNKED_ABOVE_BYTES:
            frame = read_numbers_in_chunks(Path(path))
            if frame is not None:
                return frame
        return pd.read_csv(path, **_READ_KWARGS)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def _line_count(path: Path) -> int:
    """Newlines in the file, plus one: at least the number of data rows."""
    count = 1
    with open(path, "rb") as f:
        while block := f.read(1 << 24):
            count += block.count(b"\n")
    return count


def read_numbers_in_chunks(path: Path, chunk_rows: int = CHUNK_ROWS) -> pd.DataFrame | None:
    """The whole-file read of a file of number and boolean columns, parsed ``chunk_rows`` at a
    time into preallocated columns; None when a column is anything else or changes dtype."""
    capacity = _line_count(path)
    columns: dict[str, np.ndarray] = {}
    rows = 0
    with pd.read_csv(path, chunksize=chunk_rows, **_READ_KWARGS) as reader:
        for chunk in reader:
            dtypes = chunk.dtypes
            if not columns:
                if not all(isinstance(d, np.dtype) and d.kind in "biuf" for d in dtypes):
                    return None
                columns = {name: np.empty(capacity, d) for name, d in dtypes.items()}
            if [c.dtype for c in columns.values()] != list(dtypes):
                return None
            for name, column in columns.items():
                column[rows : rows + len(chunk)] = chunk[name].to_numpy()
            rows += len(chunk)
    return pd.DataFrame({name: column[:rows] for name, column in columns.items()}, copy=False)


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
