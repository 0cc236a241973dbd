"""The RLE codec: both pixel orders, upstream MLE-bench's decoder checks and quirks, overlaps
counted from runs, and a module that loads nothing but numpy."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

import rlecodec
from bench_adapters.mlebench.graders import supported_competitions
from rlecodec import (
    CONVENTIONS,
    RunLengthError,
    decode,
    dice,
    encode,
    encode_intervals,
    intersection,
    parse,
)


def pixels(mask: np.ndarray) -> set[int]:
    """0-based flat indices of the masked pixels, column-major (upstream's numbering)."""
    return set(np.flatnonzero(mask.T.ravel()).tolist())


def test_numbering_orders_and_round_trip() -> None:
    mask = np.zeros((3, 4), dtype=bool)
    mask[1, 0] = mask[2, 0] = mask[0, 1] = True  # column-major pixels 2, 3, 4: one run
    mask[0, 3] = True  # column-major 10, row-major 4
    assert encode(mask) == "2 3 10 1"
    assert encode(mask, "row") == "2 1 4 2 9 1"  # pixels 2, 4, 5 and 9
    assert encode(np.zeros((3, 4))) == "" and encode(np.zeros((3, 4)), empty="-") == "-"
    rng = np.random.default_rng(0)
    for _ in range(50):
        height, width = rng.integers(1, 9, 2)
        mask = rng.random((height, width)) < rng.random()
        for order in ("column", "row"):
            assert (decode(encode(mask, order), height, width, order) == mask).all()


def test_upstream_checks_and_quirks() -> None:
    def masked(rle: str, size: int = 12) -> set[int]:
        return pixels(decode(rle, 3, size // 3))

    assert masked("") == masked("  \t ") == set()
    assert masked("1 2 10") == {0, 1, 9, 10}  # three tokens: both starts take the length
    assert masked("5") == set()  # one token: broadcast against no length, no run
    assert masked("11 5") == {10, 11}  # clipped at the last pixel
    assert masked("2 1 13 5 99 1") == {1}  # runs starting past the last pixel are ignored
    assert masked("+2 1 1_0 2 \u0661\u0662 1") == {1, 9, 10, 11}  # Python's int() reads them
    assert masked("13 2 13 1") == set()  # an overlap past the image is not seen, as upstream's
    assert masked("1 9223372036854775807") == set(range(12))
    assert masked("2 9223372036854775807") == set()  # int64 wraps: the run ends before it starts
    assert masked("2 1 99999999999999999999 1") == {1}  # an object array: exact integers
    for bad, reason in [
        ("3 1 1 1", "sorted"),
        ("0 1", "positive"),
        ("1 0", "positive"),
        ("1 -2", "positive"),
        ("1 2 3 4 5", "broadcast"),
        ("1.0 2", "integer"),
        ("a", "integer"),
        ("-", "integer"),
        ("1 3 3 1", "Overlapping"),
        ("2 1 2 1", "Overlapping"),
        ("2 1 9223372036854775808 1", "slice indices"),  # uint64 meets int64: floats
        ("2 18446744073709551615", "slice indices"),
    ]:
        with pytest.raises(RunLengthError, match=reason):
            parse(bad, 12)
    for not_text in (math.nan, None, 5):
        with pytest.raises(RunLengthError, match="Expected a string"):
            parse(not_text, 12)


def test_long_encodings_read_a_chunk_at_a_time_read_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = ["1 2 10", "2\t1  4 3 9 1", "13 2 13 1", "2 1 99999999999999999999 1", "3 1 1 1"]
    cases += ["1.0 2", "1 2 3 4 5", "+2 1 1_0 2"]

    def outcome(rle: str) -> object:
        try:
            return pixels(decode(rle, 3, 4))
        except RunLengthError as e:
            return str(e)

    whole = [outcome(rle) for rle in cases]
    monkeypatch.setattr(rlecodec, "_CHUNK", 2)
    assert [outcome(rle) for rle in cases] == whole


def test_row_order_is_the_transpose_of_column_order() -> None:
    rle = "2 3 7 1"
    assert (decode(rle, 4, 3, "row") == decode(rle, 3, 4, "column").T).all()


def test_intersection_areas_and_dice_from_runs() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        a, b = rng.random((2, 5, 7)) < rng.random(2)[:, None, None]
        runs_a, runs_b = parse(encode(a), 35), parse(encode(b), 35)
        assert (runs_a.area, runs_b.area) == (a.sum(), b.sum())
        overlap = intersection(runs_a, runs_b)
        assert overlap == (a & b).sum()
        expected = 2 * overlap / (a.sum() + b.sum()) if a.any() or b.any() else 1.0
        assert dice(overlap, runs_a.area, runs_b.area, both_empty=1.0) == expected
    assert math.isnan(dice(0, 0, 0, both_empty=math.nan))


def test_encode_intervals_merges_what_overlaps_or_touches() -> None:
    rng = np.random.default_rng(2)
    for _ in range(100):
        lo = rng.integers(0, 60, 8)
        hi = lo + rng.integers(0, 9, 8)
        mask = np.zeros(70, dtype=bool)
        for a, b in zip(lo, hi, strict=True):
            mask[a:b] = True
        assert encode_intervals(lo, hi, empty="-") == encode(mask[:, None].T, "row", empty="-")


def test_conventions_cover_the_mask_competitions() -> None:
    assert set(CONVENTIONS) <= set(supported_competitions())
    assert {c: v.order for c, v in CONVENTIONS.items() if v.order == "row"} == {
        "vesuvius-challenge-ink-detection": "row"
    }


def test_importing_the_codec_loads_only_numpy() -> None:
    code = "import json, sys, rlecodec; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    assert "numpy" in loaded
    assert not loaded & {"pandas", "bench_adapters", "baselines", "scaffolds", "scipy"}
