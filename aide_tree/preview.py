"""A bounded overview of a task's data for the prompts: a file tree and a sketch of each table.

Large files are sampled (the first rows of a table, the first bytes of a text), never read
whole into the prompt; big folders are summarised by count and size. The result is at most
``max_chars`` characters: when the full version is too long, tables are shown by column names
only, and as a last resort the text is cut in the middle.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

from tools import truncate_middle

SAMPLE_ROWS = 1000
"""Rows of a table read to describe its columns."""
COUNT_ROWS_UP_TO = 64 * 2**20
"""Tables up to this size have their lines counted; bigger ones get an estimate."""
LIST_FILES_UP_TO = 12
"""A folder with more files than this is summarised instead of listed."""
PREVIEW_FILES = 8
COMPACT_COLUMNS = 60
"""Column names listed per table in the compact form."""
TABLE_SUFFIXES = (".csv", ".tsv", ".csv.gz", ".tsv.gz")
TEXT_SUFFIXES = (".txt", ".md")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp")
SKIP = {"description.md"}
"""Already part of the task's instructions."""


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"


def file_tree(root: Path, prefix: str = "") -> tuple[list[str], list[Path]]:
    """Lines of the tree under ``root`` and the files listed in it (summarised ones are not)."""
    lines: list[str] = []
    listed: list[Path] = []
    entries = sorted(os.scandir(root), key=lambda e: (not e.is_dir(), e.name))
    files = [e for e in entries if e.is_file()]
    for entry in entries:
        if entry.is_dir():
            lines.append(f"{prefix}{entry.name}/")
            sub_lines, sub_files = file_tree(Path(entry.path), prefix + "    ")
            lines += sub_lines
            listed += sub_files
    if len(files) > LIST_FILES_UP_TO:
        kinds = Counter(Path(e.name).suffix or "(no suffix)" for e in files)
        total = sum(e.stat().st_size for e in files)
        mix = ", ".join(f"{n} {suffix}" for suffix, n in kinds.most_common(4))
        lines.append(
            f"{prefix}... {len(files)} files ({mix}), {human_size(total)} in all{image_note(files)}"
        )
    else:
        for entry in files:
            lines.append(f"{prefix}{entry.name} ({human_size(entry.stat().st_size)})")
            listed.append(Path(entry.path))
    return lines, listed


def image_note(files: list[os.DirEntry[str]]) -> str:
    """The size of the first image among ``files``, read from its header only."""
    first = next((e for e in files if e.name.lower().endswith(IMAGE_SUFFIXES)), None)
    if first is None:
        return ""
    try:
        from PIL import Image

        with Image.open(first.path) as image:
            return f"; {first.name} is {image.width}x{image.height} pixels, mode {image.mode}"
    except Exception:
        return ""


def count_rows(path: Path) -> str:
    size = path.stat().st_size
    if path.suffix == ".gz":
        return "rows not counted (compressed)"
    with path.open("rb") as f:
        if size <= COUNT_ROWS_UP_TO:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(2**20), b""))
            return f"{max(0, lines - 1)} rows"
        head = f.read(2**20)
    per_line = len(head) / max(1, head.count(b"\n"))
    return f"about {int(size / per_line):,} rows (estimated)"


def describe_column(name: str, values: object) -> str:
    import pandas as pd

    series: pd.Series = values
    unique = series.nunique(dropna=True)
    missing = " with missing values" if series.isna().any() else ""
    if pd.api.types.is_numeric_dtype(series) and unique > 10:
        return f"{name} ({series.dtype}, {series.min():.4g} to {series.max():.4g}{missing})"
    firsts = series.dropna().unique()[:4]
    examples = ", ".join(repr(v.item() if hasattr(v, "item") else v)[:30] for v in firsts)
    return f"{name} ({series.dtype}, {unique} distinct, e.g. {examples}{missing})"


def table_preview(path: Path, rel: str, compact: bool, seen: dict[str, list[str]]) -> str:
    """Columns of a table from its first rows. A wide table whose columns all appeared in a
    table shown before (test.csv after train.csv) is named by reference instead."""
    import pandas as pd

    sep = "\t" if ".tsv" in path.name else ","
    try:
        df = pd.read_csv(path, sep=sep, nrows=SAMPLE_ROWS, low_memory=False)
    except Exception as exc:
        return f"{rel}: could not be read as a table ({type(exc).__name__})"
    names = [str(c) for c in df.columns]
    head = f"{rel}: {count_rows(path)}, {len(names)} columns"
    for other, columns in seen.items():
        if len(names) > 5 and set(names) <= set(columns):
            missing = [c for c in columns if c not in names]
            return f"{head}: those of {other}" + (
                f" except {', '.join(missing)}" if missing else ""
            )
    seen[rel] = names
    if compact:
        more = (
            f", ... ({len(names) - COMPACT_COLUMNS} more)" if len(names) > COMPACT_COLUMNS else ""
        )
        return f"{head}: {', '.join(names[:COMPACT_COLUMNS])}{more}"
    sampled = f" (from the first {SAMPLE_ROWS} rows)" if len(df) == SAMPLE_ROWS else ""
    described = [describe_column(n, df[c]) for n, c in zip(names, df.columns, strict=True)]
    return f"{head}{sampled}:\n" + "\n".join(f"  - {line}" for line in described)


def json_preview(path: Path, rel: str) -> str:
    if path.stat().st_size > 2**20:
        return f"{rel}: a JSON file of {human_size(path.stat().st_size)} (not sampled)"
    try:
        value = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except ValueError:
        return f"{rel}: not valid JSON"
    if isinstance(value, dict):
        return f"{rel}: a JSON object with keys {', '.join(list(map(str, value))[:20])}"
    if isinstance(value, list):
        first = value[0] if value else None
        keys = (
            f" of objects with keys {', '.join(list(first)[:20])}"
            if isinstance(first, dict)
            else ""
        )
        return f"{rel}: a JSON list of {len(value)} items{keys}"
    return f"{rel}: a JSON {type(value).__name__}"


def text_preview(path: Path, rel: str, chars: int = 300) -> str:
    with path.open(encoding="utf-8", errors="replace") as f:
        head = f.read(chars + 1)
    more = " ..." if len(head) > chars else ""
    return f"{rel}: starts with {head[:chars]!r}{more}"


def file_preview(path: Path, root: Path, compact: bool, seen: dict[str, list[str]]) -> str | None:
    rel = path.relative_to(root).as_posix()
    name = path.name.lower()
    if name in SKIP:
        return None
    if name.endswith(TABLE_SUFFIXES):
        return table_preview(path, rel, compact, seen)
    if name.endswith(".json"):
        return json_preview(path, rel)
    if name.endswith(TEXT_SUFFIXES) and not compact:
        return text_preview(path, rel)
    return None


def data_preview(root: Path, max_chars: int = 6000) -> str:
    """The overview of the folder ``root`` (the workspace's ``data/``), at most ``max_chars``."""
    lines, files = file_tree(root)
    tree = "Files in ./data/:\n" + "\n".join(lines or ["(empty)"])
    text = ""
    files.sort(key=lambda p: -p.stat().st_size)  # the widest view of shared columns comes first
    for compact in (False, True):
        seen: dict[str, list[str]] = {}
        previews = [file_preview(p, root, compact, seen) for p in files]
        shown = [p for p in previews if p][:PREVIEW_FILES]
        text = "\n\n".join([tree, *shown])
        if len(text) <= max_chars:
            return text
    return truncate_middle(text, max_chars - 48)  # room for the elision marker
