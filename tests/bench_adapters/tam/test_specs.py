"""The shipped specs and leaderboards are upstream's, and upstream's regex splits them into
the 119 constraints TASKS.md counts."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest

from bench_adapters import list_tasks
from bench_adapters.tam import TASK_IDS, TASKS, board, constraints_of, load_spec
from bench_adapters.tam.specs import SPEC_KEYS, leaderboard_file, split_constraints

# The "cons." and "rows" columns of TASKS.md.
COUNTS = {
    "audio/easy": (5, 81), "audio/medium": (6, 1314), "audio/hard": (5, 1391),
    "graph/easy": (5, 115), "graph/medium": (9, 42), "graph/hard": (5, 59),
    "image/easy": (6, 162), "image/medium": (4, 3330), "image/hard": (12, 930),
    "multimodal/easy": (10, 19), "multimodal/medium": (11, 174), "multimodal/hard": (5, 398),
    "tabular/easy": (5, 1485), "tabular/medium": (6, 2424), "tabular/hard": (5, 1636),
    "text/easy": (5, 261), "text/medium": (5, 1688), "text/hard": (10, 1449),
}  # fmt: skip


def test_the_lite_split_lists_the_18_tasks_in_table_order() -> None:
    assert list_tasks("tam", "lite") == [f"tam/{t}" for t in TASK_IDS]
    assert len(TASK_IDS) == 18 and set(TASK_IDS) == set(TASKS) == set(COUNTS)


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_shipped_files_are_the_reference_files(task_id: str, tam_reference: Path) -> None:
    info = TASKS[task_id]
    folder = tam_reference / task_id
    assert (folder / info.spec_file).read_bytes() == (
        Path(str(leaderboard_file(task_id))).parent / info.spec_file
    ).read_bytes()
    assert leaderboard_file(task_id).read_bytes() == (folder / "leaderboard.csv").read_bytes()
    spec = load_spec(task_id)
    assert tuple(spec) == SPEC_KEYS or set(spec) == set(SPEC_KEYS)
    assert spec == json.loads((folder / info.spec_file).read_text())


def test_the_regex_gives_119_constraints_with_the_counts_of_tasks_md() -> None:
    counts = {t: len(constraints_of(t)) for t in TASK_IDS}
    assert counts == {t: c for t, (c, _) in COUNTS.items()}
    assert sum(counts.values()) == 119
    every = [c for t in TASK_IDS for c in constraints_of(t)]
    assert all(c and c == c.strip() and not re.match(r"^\d+\.", c) for c in every)
    first = constraints_of("tabular/medium")[0]
    assert first.startswith("Handle categorical values") and first.endswith("preprocessing.")


def test_the_split_is_upstreams_non_greedy_numbered_items() -> None:
    assert split_constraints("1. Use A. 2. Use B.\n3. Done") == ["Use A.", "Use B.", "Done"]
    # upstream's regex cuts at any "<digits>." followed by a space, as its lookahead demands
    assert split_constraints("1. keep 10. items") == ["keep", "items"]
    assert split_constraints("no numbers here") == []


def test_leaderboard_sizes_and_directions_match_the_metric() -> None:
    for task_id in TASK_IDS:
        lb = board(task_id)
        assert len(lb.scores) == COUNTS[task_id][1], task_id
        assert lb.higher_is_better == (not TASKS[task_id].lower_is_better), task_id
        pairs = list(pairwise(lb.scores))  # every board is monotone, best first
        assert all(a >= b if lb.higher_is_better else a <= b for a, b in pairs), task_id
