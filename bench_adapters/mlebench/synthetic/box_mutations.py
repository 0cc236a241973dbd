"""Mutations of box submissions: objects moved, dropped, added, relabelled, and the adversarial
cases a reimplemented matcher gets wrong (an IoU exactly at the threshold, a point on a box's
edge, nested, rotated and degenerate boxes, ties in confidence, blank rows, bad tokens).

Each competition's prediction cell is a list of objects, a fixed number of tokens each
(:class:`BoxFormat`): kuzushiji-recognition's ``label x y`` points, siim-covid19-detection's
and vinbigdata's ``label confidence x_min y_min x_max y_max`` corners (vinbigdata's metric
reads the last two as a width and height: COCO's convention, kept by upstream), and the Lyft
challenge's ``confidence x y z width length height yaw class`` 3D boxes. The mutations start
from the gold submission, which holds the truth boxes themselves (kuzushiji's: each box's
corner plus one), so a moved box's overlap with its truth is known exactly.

``mutations.parity_submissions`` appends these after the generic mutations, for these four
competitions only; like those, each draws from its own seeded generator, and a new one is
added at the end of :data:`NAMES` so that the others' bytes never change.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from .mutations import Base, Frame, Mutation

Objects = list[list[str]]


@dataclass(frozen=True)
class BoxFormat:
    column: str
    width: int
    """Tokens per object."""
    label: int
    confidence: int | None
    kind: str
    """``point`` (x, y at 1, 2), ``corners`` (x_min, y_min, x_max, y_max at 2-5; ``coco`` the
    same tokens read as x, y, width, height) or ``box3d`` (centre 1-3, size 4-6, yaw 7)."""
    threshold: float
    """An IoU the metric compares against (strictly or not): where "touching" boxes land."""
    unknown_label: str


FORMATS: dict[str, BoxFormat] = {
    "kuzushiji-recognition": BoxFormat("labels", 3, 0, None, "point", 0.0, "U+0041"),
    "siim-covid19-detection": BoxFormat("PredictionString", 6, 0, 1, "corners", 0.5, "pneumonia"),
    "vinbigdata-chest-xray-abnormalities-detection": BoxFormat(
        "PredictionString", 6, 0, 1, "coco", 0.4, "15"
    ),
    "3d-object-detection-for-autonomous-vehicles": BoxFormat(
        "PredictionString", 9, 8, 0, "box3d", 0.75, "submarine"
    ),
}


def objects(cell: str, fmt: BoxFormat) -> Objects:
    tokens = cell.split()
    return [tokens[i : i + fmt.width] for i in range(0, len(tokens), fmt.width)]


def number(value: float) -> str:
    """A float as short exact text (integers without a fraction)."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _rewrite(
    base: Base, fmt: BoxFormat, change: Callable[[Objects, int], Objects | None]
) -> pd.DataFrame:
    """The gold with each row's objects passed through ``change(objects, row)`` (None: the
    row as it was)."""
    frame = base.gold.copy()
    cells = []
    for row, cell in enumerate(frame[fmt.column]):
        changed = change(objects(cell, fmt), row)
        cells.append(cell if changed is None else " ".join(t for obj in changed for t in obj))
    frame[fmt.column] = cells
    return frame


def _per_object(
    base: Base, fmt: BoxFormat, change: Callable[[list[str]], list[str]]
) -> pd.DataFrame:
    return _rewrite(base, fmt, lambda objs, row: [change(list(o)) for o in objs])


def _floats(obj: list[str], indices: range | tuple[int, ...]) -> list[float]:
    return [float(obj[i]) for i in indices]


def _moved_box(fmt: BoxFormat, obj: list[str], share: float) -> list[str]:
    """``obj`` moved along its length (x for corner boxes) so that its IoU with where it was
    is ``share`` exactly, in exact arithmetic (same size: (L - d) / (L + d))."""
    out = list(obj)
    if fmt.kind == "point":
        out[1] = number(float(obj[1]) - 1)  # onto the truth box's left edge: strictly inside fails
        return out
    if fmt.kind in ("corners", "coco"):
        x0, x1 = float(obj[2]), float(obj[4])
        length = x1 if fmt.kind == "coco" else x1 - x0
        d = length * (1 - share) / (1 + share)
        out[2] = number(x0 + d)
        if fmt.kind == "corners":
            out[4] = number(x1 + d)
        return out
    cx, cy = _floats(obj, (1, 2))
    length, yaw = float(obj[5]), float(obj[7])
    d = length * (1 - share) / (1 + share)
    out[1], out[2] = number(cx + d * math.cos(yaw)), number(cy + d * math.sin(yaw))
    return out


def _jittered(fmt: BoxFormat, obj: list[str], rng: np.random.Generator) -> list[str]:
    out = list(obj)
    if fmt.kind == "point":
        for i in (1, 2):
            out[i] = number(float(obj[i]) + int(rng.integers(-2, 3)))
    elif fmt.kind in ("corners", "coco"):
        x0, y0, x1, y1 = _floats(obj, range(2, 6))
        spread = 0.08 * max(abs(x1 - x0), abs(y1 - y0), 1.0)
        for i in range(2, 6):
            out[i] = number(round(float(obj[i]) + rng.normal(0, spread), 3))
    else:
        size = _floats(obj, (4, 5, 6))
        for i, s in zip((1, 2, 3), size, strict=True):
            out[i] = number(float(obj[i]) + rng.normal(0, 0.1 * s))
        out[7] = number(float(obj[7]) + rng.normal(0, 0.05))
    return out


def _nested(fmt: BoxFormat, obj: list[str], outer: bool) -> list[str] | None:
    """The box at half (or twice) its size about its centre; a 3D box halved (or doubled) in
    length only, so that its IoU is exactly 0.5 (a threshold the metric uses)."""
    out = list(obj)
    factor = 2.0 if outer else 0.5
    if fmt.kind == "point":
        return None
    if fmt.kind in ("corners", "coco"):
        x0, y0, x1, y1 = _floats(obj, range(2, 6))
        if fmt.kind == "coco":  # COCO's view: x, y, width, height
            w, h = x1 * factor, y1 * factor
            out[2:6] = [number(x0 + (x1 - w) / 2), number(y0 + (y1 - h) / 2), number(w), number(h)]
            return out
        cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        out[2:6] = [number(v) for v in (cx - hw * factor, cy - hh * factor)] + [
            number(v) for v in (cx + hw * factor, cy + hh * factor)
        ]
        return out
    out[5] = number(float(obj[5]) * factor)
    return out


def _degenerate(fmt: BoxFormat, obj: list[str], k: int) -> list[str] | None:
    """Zero width (k even) or reversed corners; a 3D box with no height or a negative width."""
    out = list(obj)
    if fmt.kind == "point":
        return None
    if fmt.kind in ("corners", "coco"):
        if k % 2 == 0:
            out[4] = out[2] if fmt.kind == "corners" else "0"
        else:
            out[2], out[4] = obj[4], obj[2]
        return out
    if k % 2 == 0:
        out[6] = "0"
    else:
        out[4] = number(-float(obj[4]))
    return out


def _some_objects(base: Base, fmt: BoxFormat, rng: np.random.Generator, share: float) -> np.ndarray:
    """Per object of the gold (in reading order), whether it is picked; at least one is."""
    total = sum(len(objects(c, fmt)) for c in base.gold[fmt.column])
    picked = rng.random(total) < share
    if total and not picked.any():
        picked[int(rng.integers(total))] = True
    return picked


def _each_picked(
    base: Base,
    fmt: BoxFormat,
    rng: np.random.Generator,
    share: float,
    change: Callable[[list[str], int], list[str] | None],
) -> Frame:
    """The gold with ``change(obj, k)`` applied to about ``share`` of the objects (k counts
    the changed ones); None where ``change`` does not apply to this format."""
    picked = iter(_some_objects(base, fmt, rng, share))
    count = 0
    applies = True

    def per_row(objs: Objects, row: int) -> Objects:
        nonlocal count, applies
        out = []
        for obj in objs:
            if next(picked):
                changed = change(obj, count)
                count += 1
                if changed is None:
                    applies = False
                    changed = obj
                out.append(changed)
            else:
                out.append(obj)
        return out

    frame = _rewrite(base, fmt, per_row)
    return frame if applies and count else None


def _first_nonempty_row(base: Base, fmt: BoxFormat) -> int | None:
    cells = base.gold[fmt.column]
    rows = [i for i, c in enumerate(cells) if c.strip()]
    return rows[0] if rows else None


def _one_row(base: Base, fmt: BoxFormat, change: Callable[[str], str]) -> Frame:
    row = _first_nonempty_row(base, fmt)
    if row is None:
        return None
    frame = base.gold.copy()
    frame.loc[frame.index[row], fmt.column] = change(frame[fmt.column].iloc[row])
    return frame


def _labels(base: Base, fmt: BoxFormat) -> list[str]:
    return sorted({o[fmt.label] for c in base.gold[fmt.column] for o in objects(c, fmt)})


def _relabelled(base: Base, fmt: BoxFormat, rng: np.random.Generator) -> Frame:
    labels = _labels(base, fmt)
    if len(labels) < 2:
        return None

    def change(obj: list[str], k: int) -> list[str]:
        out = list(obj)
        out[fmt.label] = labels[int(rng.integers(len(labels)))]
        return out

    return _each_picked(base, fmt, rng, 0.3, change)


def _with_confidence(base: Base, fmt: BoxFormat, values: Callable[[int], str]) -> Frame:
    if fmt.confidence is None:
        return None
    counter = iter(range(10**9))

    def change(obj: list[str]) -> list[str]:
        out = list(obj)
        out[fmt.confidence] = values(next(counter))  # type: ignore[index]
        return out

    return _per_object(base, fmt, change)


def _false_positives(base: Base, fmt: BoxFormat, rng: np.random.Generator) -> Frame:
    """Each row gains one to three objects of another row (another image's boxes), at low
    confidence where the format has one."""
    cells = [objects(c, fmt) for c in base.gold[fmt.column]]
    pool = [o for objs in cells for o in objs]
    if not pool:
        return None

    def change(objs: Objects, row: int) -> Objects:
        extra = [list(pool[int(rng.integers(len(pool)))]) for _ in range(int(rng.integers(1, 4)))]
        if fmt.confidence is not None:
            for obj in extra:
                obj[fmt.confidence] = number(round(float(rng.uniform(0.05, 0.3)), 3))
        return objs + extra

    return _rewrite(base, fmt, change)


def _dropped(base: Base, fmt: BoxFormat, rng: np.random.Generator) -> Frame:
    return _rewrite(base, fmt, lambda objs, row: [o for o in objs if rng.random() >= 0.5])


def _blank_rows(base: Base, fmt: BoxFormat, rng: np.random.Generator) -> pd.DataFrame:
    """About a third of the rows (at least one) with no objects: a blank cell."""
    n = len(base.gold)
    blank = rng.random(n) < 1 / 3
    blank[int(rng.integers(n))] = True
    frame = base.gold.copy()
    frame[fmt.column] = np.where(blank, "", frame[fmt.column].to_numpy(dtype=object))
    return frame


def _whitespace_only_rows(base: Base, fmt: BoxFormat, rng: np.random.Generator) -> Frame:
    """About a third of the rows as a single space (not blank once read: text with no token)."""
    frame = _blank_rows(base, fmt, rng)
    frame[fmt.column] = frame[fmt.column].replace("", " ")
    return frame


def _rotated(base: Base, fmt: BoxFormat, rng: np.random.Generator) -> Frame:
    """3D boxes turned a quarter turn (a different footprint) or a half turn (the same one)."""
    if fmt.kind != "box3d":
        return None

    def change(obj: list[str], k: int) -> list[str]:
        out = list(obj)
        out[7] = number(float(obj[7]) + (math.pi / 2 if k % 2 == 0 else math.pi))
        return out

    return _each_picked(base, fmt, rng, 0.5, change)


def _far_away(fmt: BoxFormat, obj: list[str]) -> list[str]:
    """The object a million units along x (its x coordinates moved, its size kept)."""
    out = list(obj)
    xs = {"point": (1,), "corners": (2, 4), "coco": (2,), "box3d": (1,)}[fmt.kind]
    for i in xs:
        out[i] = number(float(obj[i]) + 1e6)
    return out


BoxMutation = Callable[["Base", np.random.Generator, BoxFormat], "Frame"]

NAMES: dict[str, BoxMutation] = {
    "boxes_jittered": lambda b, r, f: _per_object(b, f, lambda o: _jittered(f, o, r)),
    "boxes_half_dropped": lambda b, r, f: _dropped(b, f, r),
    "boxes_false_positives": lambda b, r, f: _false_positives(b, f, r),
    "boxes_relabelled": lambda b, r, f: _relabelled(b, f, r),
    "boxes_duplicated": lambda b, r, f: _rewrite(b, f, lambda objs, row: objs + objs),
    "boxes_touching": lambda b, r, f: _each_picked(
        b, f, r, 0.5, lambda o, k: _moved_box(f, o, f.threshold)
    ),
    "boxes_nested": lambda b, r, f: _each_picked(b, f, r, 0.5, lambda o, k: _nested(f, o, False)),
    "boxes_enclosing": lambda b, r, f: _each_picked(b, f, r, 0.5, lambda o, k: _nested(f, o, True)),
    "boxes_degenerate": lambda b, r, f: _each_picked(
        b, f, r, 0.3, lambda o, k: _degenerate(f, o, k)
    ),
    "boxes_rotated": lambda b, r, f: _rotated(b, f, r),
    "boxes_confidence_ties": lambda b, r, f: _with_confidence(b, f, lambda k: "0.5"),
    "boxes_confidence_random": lambda b, r, f: _with_confidence(
        b, f, lambda k: number(round(float(r.random()), 4))
    ),
    "boxes_blank_rows": lambda b, r, f: _blank_rows(b, f, r),
    "boxes_whitespace_rows": lambda b, r, f: _whitespace_only_rows(b, f, r),
    "boxes_unknown_label": lambda b, r, f: _each_picked(
        b, f, r, 0.2, lambda o, k: [*o[: f.label], f.unknown_label, *o[f.label + 1 :]]
    ),
    "boxes_nan_coordinate": lambda b, r, f: _one_row(
        b, f, lambda c: " ".join([*c.split()[: f.width - 2], "nan", *c.split()[f.width - 1 :]])
    ),
    "boxes_token_dropped": lambda b, r, f: _one_row(b, f, lambda c: " ".join(c.split()[:-1])),
    "boxes_double_spaces": lambda b, r, f: _one_row(b, f, lambda c: "  ".join(c.split())),
    "boxes_far_away": lambda b, r, f: _each_picked(b, f, r, 0.3, lambda o, k: _far_away(f, o)),
}
"""Mutation name -> what it makes of the gold; append new ones at the end."""


def box_mutations(competition_id: str) -> dict[str, Mutation]:
    """The box mutations of ``competition_id`` (none for a competition not graded on boxes)."""
    fmt = FORMATS.get(competition_id)
    if fmt is None:
        return {}

    def bind(mutation: BoxMutation) -> Mutation:
        return lambda base, rng: mutation(base, rng, fmt)

    return {name: bind(mutation) for name, mutation in NAMES.items()}
