"""Run-length encoded binary masks, as MLE-bench's five segmentation competitions write them.

A mask of ``height x width`` pixels is numbered 1, 2, ... in one of two orders: ``"column"``
(top to bottom, then left to right: pixel 2 is row 2 of column 1) or ``"row"`` (left to
right, then top to bottom: pixel 2 is column 2 of row 1). Its encoding is
``"start length start length ..."``: 1-based starts, increasing, each run of ``length``
masked pixels. ``CONVENTIONS`` gives each competition's order, how it spells an empty mask
and what its metric gives when both the prediction and the truth are empty.

Reading (``parse``, ``decode``) follows upstream MLE-bench's ``rle_decode``
(``mlebench/competitions/utils.py``), checks and quirks included:

- a blank string (empty or whitespace) is an empty mask; anything that is not a ``str`` is an
  error (a missing CSV cell is a float NaN);
- each token is read with Python's ``int``, so ``+5``, ``1_0`` and non-ASCII digits are numbers
  and ``1.0`` is an error;
- starts must be positive and never decrease, lengths positive;
- an odd number of tokens pairs the starts with the lengths as numpy broadcasting does: one
  token is an empty mask, three (``a n b``) are two runs of length ``n``, any other odd count
  is an error;
- a run past the last pixel is clipped there, one starting past it is ignored, and numbers
  of 2**61 or more behave as in numpy 1.26's arrays (``_huge_runs``);
- a run that overlaps an earlier one inside the image is an error (overlaps past the last
  pixel go unseen, as upstream's slice of the image is empty there).

The graders read with ``parse`` (a long encoding a megabyte at a time, into 8 bytes a token)
and count overlaps run by run, without building a gigapixel mask; the generators and
baseline scripts write with ``encode``. The codec is a package of its
own and imports only numpy, so that a baseline script run alone (which must not load the
harness, ``bench_adapters``) shares it with the graders.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

import numpy as np

__all__ = [
    "CONVENTIONS",
    "Convention",
    "Order",
    "RunLengthError",
    "Runs",
    "decode",
    "dice",
    "encode",
    "encode_intervals",
    "flat",
    "intersection",
    "parse",
]

Order = Literal["column", "row"]


@dataclass(frozen=True)
class Convention:
    """How one competition numbers pixels, writes an empty mask and scores two empty ones."""

    order: Order
    empty: str
    """An empty mask as the submission writes it (a blank CSV cell is read as missing)."""
    both_empty: float
    """The metric's value for an image whose prediction and truth are both empty."""
    note: str


CONVENTIONS: dict[str, Convention] = {
    "google-research-identify-contrails-reduce-global-warming": Convention(
        "column", "-", math.nan, "global Dice over every record: NaN when every mask is empty"
    ),
    "hubmap-kidney-segmentation": Convention(
        "column", "", 1.0, "Dice per image, 1 when both are empty, averaged"
    ),
    "tgs-salt-identification-challenge": Convention(
        "column", "", 1.0, "precision over IoU thresholds per image, 1 when both are empty"
    ),
    "uw-madison-gi-tract-image-segmentation": Convention(
        "column", "", math.nan, "Dice per row, NaN when both are empty, then nanmean"
    ),
    "vesuvius-challenge-ink-detection": Convention(
        "row", " ", 0.0, "F0.5 over pixels (scikit-learn's 0 when nothing is positive); a "
        "blank cell is missing, not a string, so an empty mask is a single space"
    ),
}  # fmt: skip
"""Competition id -> its convention."""


class RunLengthError(ValueError):
    """An encoding upstream's decoder rejects."""


@dataclass(frozen=True)
class Runs:
    """A decoded mask as 0-based half-open intervals ``[lo, hi)`` of its flat pixel index:
    sorted, disjoint, clipped to ``size``."""

    lo: np.ndarray
    hi: np.ndarray
    size: int

    @property
    def area(self) -> int:
        return int((self.hi - self.lo).sum())


_INT64 = 1 << 63
_UINT64 = 1 << 64
_SMALL = 1 << 61
"""Below this in size, no start plus length can leave int64: the fast path."""
_CHUNK = 1 << 20
"""Characters of an encoding turned into Python integers at a time."""


def _tokens(rle: str) -> list[int]:
    try:
        return [int(token) for token in rle.split()]
    except ValueError as e:
        raise RunLengthError(f"not an integer in the encoding: {e}") from None


def _numbers(rle: str) -> np.ndarray | None:
    """The tokens as int64, read a chunk at a time (so a long encoding costs 8 bytes a token,
    not a Python object each); None when one is 2**61 or more in size (the exact path)."""
    parts, start = [], 0
    while start < len(rle):
        end = rle.find(" ", min(start + _CHUNK, len(rle)))  # a space ends a token
        end = len(rle) if end < 0 else end
        values = _tokens(rle[start:end])
        if values and max(max(values), -min(values)) >= _SMALL:
            return None
        parts.append(np.array(values, dtype=np.int64))
        start = end
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _pairing(starts: int, lengths: int) -> str:
    """How numpy broadcasting pairs ``starts`` starts with ``lengths`` lengths (upstream's
    ``starts + lengths``): ``"pairs"``, ``"none"`` (one token: shapes (1,) and (0,) give
    nothing) or ``"one length"`` (three tokens: the length serves both starts)."""
    if starts == lengths:
        return "pairs"
    if lengths == 0:
        return "none"
    if lengths == 1:
        return "one length"
    raise RunLengthError(
        f"operands could not be broadcast together with shapes ({starts},) ({lengths},)"
    )


def _huge_runs(starts: list[int], lengths: list[int], size: int) -> tuple[list[int], list[int]]:
    """``[lo, hi)`` of each run, clipped to ``size``, where some value does not fit in 61
    bits, with numpy 1.26's arithmetic on the arrays upstream makes of them: values from
    2**63 to 2**64 - 1 make a uint64 array, and uint64 meeting a signed integer gives floats,
    which cannot index the image (an error); larger values make an object array (exact
    integers); a sum of two int64 arrays past 2**63 - 1 wraps to a negative end (an empty
    run)."""

    def kind(values: list[int]) -> str:
        top = max(values)
        return "object" if top >= _UINT64 else "uint64" if top >= _INT64 else "int64"

    kinds = {kind(starts), kind(lengths)}
    if "uint64" in kinds:
        raise RunLengthError("slice indices must be integers or None or have an __index__ method")
    lo = [s - 1 for s in starts]
    hi = [a + n for a, n in zip(lo, lengths, strict=True)]
    if kinds == {"int64"}:
        hi = [a if b >= _INT64 else b for a, b in zip(lo, hi, strict=True)]
    return [min(a, size) for a in lo], [min(b, size) for b in hi]


def _exact_runs(values: list[int], size: int) -> tuple[np.ndarray, np.ndarray]:
    """``parse``'s ``[lo, hi)`` arrays from exact Python integers (some too large for int64)."""
    starts, lengths = values[0::2], values[1::2]
    if any(a > b for a, b in pairwise(starts)):
        raise RunLengthError("The pairs in the RLE string must be sorted.")
    if any(x <= 0 for x in starts) or any(x <= 0 for x in lengths):
        raise RunLengthError("All pairs in the RLE string must be positive integers.")
    pairing = _pairing(len(starts), len(lengths))
    if pairing == "none":
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    lo, hi = _huge_runs(starts, lengths * len(starts) if pairing == "one length" else lengths, size)
    return np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)


def parse(rle: object, size: int) -> Runs:
    """The runs of an encoding of a ``size``-pixel mask, with upstream's checks (module
    docstring); raises ``RunLengthError``."""
    if not isinstance(rle, str):
        raise RunLengthError(f"Expected a string, but got {type(rle)}: {rle}")
    values = _numbers(rle)
    if values is None:
        lo, hi = _exact_runs(_tokens(rle), size)
    else:
        starts, lengths = values[0::2], values[1::2]
        if (np.diff(starts) < 0).any():
            raise RunLengthError("The pairs in the RLE string must be sorted.")
        if (starts <= 0).any() or (lengths <= 0).any():
            raise RunLengthError("All pairs in the RLE string must be positive integers.")
        pairing = _pairing(len(starts), len(lengths))
        if pairing == "none":
            starts = lengths = np.zeros(0, dtype=np.int64)
        elif pairing == "one length":
            lengths = np.repeat(lengths, len(starts))
        lo = np.minimum(starts - 1, size)
        hi = np.minimum(starts - 1 + lengths, size)
    kept = lo < hi
    lo, hi = lo[kept], hi[kept]
    if len(lo) > 1 and (lo[1:] < np.maximum.accumulate(hi)[:-1]).any():
        raise RunLengthError("Overlapping RLE pairs are not allowed.")
    return Runs(lo, hi, size)


def flat(mask: np.ndarray, order: Order) -> np.ndarray:
    """The mask's pixels in numbering order, as a 1-D array."""
    return np.asarray(mask).ravel(order="F" if order == "column" else "C")


def decode(rle: object, height: int, width: int, order: Order = "column") -> np.ndarray:
    """The ``height x width`` boolean mask of an encoding (upstream's checks apply)."""
    runs = parse(rle, height * width)
    pixels = np.zeros(height * width, dtype=bool)
    for lo, hi in zip(runs.lo.tolist(), runs.hi.tolist(), strict=True):
        pixels[lo:hi] = True
    if order == "column":
        return pixels.reshape(width, height).T
    return pixels.reshape(height, width)


def encode(mask: np.ndarray, order: Order = "column", empty: str = "") -> str:
    """The encoding of a 2-D mask (any non-zero pixel is masked); ``empty`` when none is."""
    pixels = flat(np.asarray(mask) != 0, order)
    edges = np.flatnonzero(np.diff(np.concatenate([[False], pixels, [False]]).astype(np.int8)))
    starts, ends = edges[0::2], edges[1::2]
    if len(starts) == 0:
        return empty
    pairs = np.column_stack([starts + 1, ends - starts]).ravel()
    return " ".join(map(str, pairs.tolist()))


def encode_intervals(lo: np.ndarray, hi: np.ndarray, empty: str = "") -> str:
    """The encoding of a mask given as 0-based half-open flat intervals ``[lo, hi)``, in any
    order, overlapping or touching (they are merged): for masks too large to hold."""
    lo, hi = np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)
    kept = hi > lo
    lo, hi = lo[kept], hi[kept]
    if len(lo) == 0:
        return empty
    order = np.lexsort((hi, lo))
    lo, hi = lo[order], np.maximum.accumulate(hi[order])
    first = np.flatnonzero(np.concatenate([[True], lo[1:] > hi[:-1]]))  # after a gap
    last = np.concatenate([first[1:], [len(lo)]]) - 1
    starts, ends = lo[first], hi[last]
    return " ".join(map(str, np.column_stack([starts + 1, ends - starts]).ravel().tolist()))


def intersection(a: Runs, b: Runs) -> int:
    """Pixels masked in both, counted from the runs."""
    if len(a.lo) == 0 or len(b.lo) == 0:
        return 0
    edges = np.concatenate([a.lo, a.hi, b.lo, b.hi])
    steps = np.concatenate(
        [np.ones(len(a.lo)), -np.ones(len(a.hi)), np.ones(len(b.lo)), -np.ones(len(b.hi))]
    ).astype(np.int8)
    order = np.argsort(edges, kind="stable")
    edges, depth = edges[order], np.cumsum(steps[order])
    return int(((edges[1:] - edges[:-1]) * (depth[:-1] == 2)).sum())


def dice(overlap: int, area_a: int, area_b: int, both_empty: float) -> float:
    """``2 |A & B| / (|A| + |B|)``, ``both_empty`` when both are empty (upstream's
    ``dice_coefficient``)."""
    if area_a == 0 and area_b == 0:
        return both_empty
    return 2 * overlap / (area_a + area_b)
