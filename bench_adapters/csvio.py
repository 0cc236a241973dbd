"""Reading submissions and answers exactly as upstream MLE-bench does.

Upstream reads every CSV with ``pandas.read_csv(float_precision="round_trip")`` and turns an
empty file into an empty DataFrame. pandas >= 3 parses floats round-trip exactly by default and
deprecates the argument, so it is passed only to older pandas: the values are the same.

A whole-file parse peaks at two to four times the frame it returns, so a file over
``CHUNKED_ABOVE_BYTES`` is parsed ``CHUNK_ROWS`` rows at a time: number and boolean columns into
arrays allocated once (their size bounded by the file's line count), text columns as a list of
chunks joined at the end (without a copy where strings are Arrow-backed). Same parser, values
and dtypes, at about the frame's size plus one chunk. A whole-file read is itself parsed in
pieces (a power of two rows, fewer for a wider table), each piece's dtypes inferred alone and
then merged: where the pieces disagree a column becomes ``object`` and mixes values (``1`` beside
``"a"``). So the chunks, also a power of two rows, are accepted only where every chunk has the
first's dtypes and no ``object`` column mixes strings with other values: then every piece of
either read has those dtypes too, and the two reads agree. Otherwise the file is read whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import infer_dtype

_PANDAS_MAJOR = int(pd.__version__.split(".")[0])
_READ_KWARGS: dict[str, Any] = {"float_precision": "round_trip"} if _PANDAS_MAJOR < 3 else {}

MIN_SIZE_LIMIT_BYTES = 256 * 1024**2
"""A submission is never refused for size below this."""
SIZE_LIMIT_FACTOR = 10
"""...nor below this many times the size of the answers or sample submission."""


CHUNKED_ABOVE_BYTES = 4 * 1024**2
CHUNK_ROWS = 65_536
"""A power of two, as the parser's own pieces are (module docstring)."""


def read_csv(path: Path) -> pd.DataFrame:
    """``read_csv`` with upstream's defaults; an empty file gives an empty DataFrame."""
    try:
        if Path(path).stat().st_size > CHUNKED_ABOVE_BYTES:
            frame = read_in_chunks(Path(path))
            if frame is not None:
                return frame
        return pd.read_csv(path, **_READ_KWARGS)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def _line_count(path: Path) -> int:
    """Newlines in the file, plus one: at least the number of data rows."""
    count = 1
    buffer = bytearray(1 << 20)
    with open(path, "rb") as f:
        while size := f.readinto(buffer):  # numpy counts bytes several times faster than bytes
            count += int(np.count_nonzero(np.frombuffer(buffer, np.uint8, size) == ord("\n")))
    return count


def _is_text(dtype: Any) -> bool:
    return isinstance(dtype, pd.StringDtype) or dtype == np.dtype(object)


def _mixed(column: pd.Series) -> bool:
    """An ``object`` column holding anything besides strings and missing values: the merge of
    pieces whose dtypes disagreed."""
    return column.dtype == np.dtype(object) and infer_dtype(column, skipna=True) != "string"


def read_in_chunks(path: Path, chunk_rows: int = CHUNK_ROWS) -> pd.DataFrame | None:
    """The whole-file read of ``path``, parsed ``chunk_rows`` rows at a time; None where the
    chunks might not agree with a whole-file read (module docstring)."""
    capacity = _line_count(path)
    numbers: dict[str, np.ndarray] = {}
    texts: dict[str, list[pd.Series]] = {}
    dtypes: pd.Series | None = None
    rows = 0
    with pd.read_csv(path, chunksize=chunk_rows, **_READ_KWARGS) as reader:
        for chunk in reader:
            if dtypes is None:
                dtypes = chunk.dtypes
                for name, dtype in dtypes.items():
                    if _is_text(dtype):
                        texts[name] = []
                    elif isinstance(dtype, np.dtype) and dtype.kind in "biuf":
                        numbers[name] = np.empty(capacity, dtype)
                    else:
                        return None
            elif not chunk.dtypes.equals(dtypes):
                return None
            for name, parts in texts.items():
                if _mixed(chunk[name]):
                    return None
                parts.append(chunk[name])
            for name, column in numbers.items():
                column[rows : rows + len(chunk)] = chunk[name].to_numpy()
            rows += len(chunk)
    if dtypes is None:
        return None
    columns = {
        name: numbers[name][:rows]
        if name in numbers
        else pd.concat(texts.pop(name), ignore_index=True)
        for name in dtypes.index
    }
    return pd.DataFrame(columns, copy=False)


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
