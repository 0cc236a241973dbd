"""The paper's aggregates: rank 1.0 without a valid score, missing tasks as failed, modality
weighting, and Tables 2-4's AIDE + GPT-4.1 figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench_adapters.tam import TASK_IDS
from bench_adapters.tam.aggregate import aggregate

# AIDE + GPT-4.1. The paper's appendix (per-task ranks) could not be reached from this
# environment: these rows are a reconstruction that satisfies every published aggregate of
# that agent (Table 2: made 72 % = 13/18, valid 56 % = 10/18; Table 3; Table 4). Eight tasks
# have no valid score (three of them with a submission file), so they rank 1.0; the
# per-task values of the valid ten are consistent with the tables, not the appendix's own.
INVALID_WITH_FILE = {"graph/easy", "graph/medium", "image/medium"}
INVALID_NO_FILE = {"graph/hard", "audio/hard", "image/hard", "multimodal/hard", "tabular/hard"}
VALID_RANKS = {
    "text/easy": 0.60, "text/medium": 0.83, "text/hard": 0.70,
    "tabular/easy": 0.66, "tabular/medium": 0.80,
    "image/easy": 0.76, "audio/easy": 0.80, "audio/medium": 0.87,
    "multimodal/easy": 0.74, "multimodal/medium": 0.84,
}  # fmt: skip


def paper_rows() -> list[dict[str, object]]:
    rows = []
    for task in TASK_IDS:
        valid = task in VALID_RANKS
        rows.append({
            "task": f"tam/{task}",
            "made_submission": valid or task in INVALID_WITH_FILE,
            "valid_submission": valid,
            "rank_pct": VALID_RANKS.get(task),
        })  # fmt: skip
    return rows


def pct(x: float) -> int:
    return round(100 * x)


def test_aide_gpt41_reproduces_tables_2_to_4() -> None:
    result = aggregate(paper_rows())
    assert (
        round(result["made_submission_pct"]) == 72 and round(result["valid_submission_pct"]) == 56
    )
    assert pct(result["average_rank"]) == 87 == pct(result["weighted_rank"])
    assert {k: pct(v) for k, v in result["by_difficulty"].items()} == {
        "easy": 76,
        "medium": 89,
        "hard": 95,
    }
    assert {k: pct(v) for k, v in result["by_modality"].items()} == {
        "tabular": 82, "text": 71, "image": 92, "audio": 89, "graph": 100, "multimodal": 86,
    }  # fmt: skip
    assert result["constraint_pass_pct"] is None  # no task was judged


def test_a_task_without_a_valid_score_ranks_last_whatever_rank_it_carries() -> None:
    rows = [{"task": "tabular/easy", "made_submission": True, "valid_submission": False, "rank_pct": 0.01},
            {"task": "tabular/medium", "made_submission": True, "valid_submission": True, "rank_pct": 0.5}]  # fmt: skip
    result = aggregate(rows)
    assert result["average_rank"] == pytest.approx(0.75) and result["tasks"] == 2
    assert result["by_modality"] == {"tabular": pytest.approx(0.75)}  # as the task ids spell it
    assert list(result["by_difficulty"]) == ["easy", "medium"]


def test_with_the_split_missing_tasks_count_as_failed() -> None:
    rows = [{"task": "text/easy", "made_submission": True, "valid_submission": True,
             "rank_pct": 0.2, "constraint_pass": 0.8}]  # fmt: skip
    alone = aggregate(rows)
    assert alone["made_submission_pct"] == 100.0 and alone["constraint_pass_pct"] == pytest.approx(
        80.0
    )
    full = aggregate(rows, list(TASK_IDS))
    assert full["tasks"] == 18 and len(full["missing"]) == 17
    assert full["made_submission_pct"] == pytest.approx(100 / 18)
    assert full["average_rank"] == pytest.approx((0.2 + 17) / 18)
    assert full["constraint_pass_pct"] == pytest.approx(80.0 / 18)


def test_with_the_split_missing_tasks_count_as_unjudged_unless_some_task_was_judged() -> None:
    ok: dict[str, Any] = {"made_submission": True, "valid_submission": True, "rank_pct": 0.5}
    unjudged = [{"task": "text/easy", **ok}, {"task": "text/medium", **ok, "constraint_pass": None}]
    full = aggregate(unjudged, list(TASK_IDS))
    assert full["constraint_pass_pct"] is None and len(full["missing"]) == 16
    judged = [{"task": "text/easy", **ok, "constraint_pass": 0.5}, unjudged[1]]
    # the judged grid's missing tasks fail their constraints; the unjudged task stays out
    assert aggregate(judged, list(TASK_IDS))["constraint_pass_pct"] == pytest.approx(50 / 17)


def test_weighted_rank_gives_every_modality_the_same_weight() -> None:
    ok = {"made_submission": True, "valid_submission": True}
    rows = [{"task": "text/easy", "rank_pct": 0.1, **ok}, {"task": "text/medium", "rank_pct": 0.1, **ok},
            {"task": "text/hard", "rank_pct": 0.1, **ok}, {"task": "graph/easy", "rank_pct": 0.9, **ok}]  # fmt: skip
    result = aggregate(rows)
    assert result["average_rank"] == pytest.approx(0.3)
    assert result["weighted_rank"] == pytest.approx(0.5)


def test_bad_results_are_errors() -> None:
    with pytest.raises(ValueError, match="not a TAM task"):
        aggregate([{"task": "mlebench/spaceship-titanic"}])
    with pytest.raises(ValueError, match="more than once"):
        aggregate([{"task": "text/easy"}, {"task": "tam/text/easy"}])
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        aggregate([{"task": "text/easy", "valid_submission": True, "rank_pct": 87.0}])


def test_aggregate_command(run_cli_tam, tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in paper_rows()))
    out = run_cli_tam("aggregate", str(path), "--split", "lite")
    assert out.returncode == 0, out.stderr
    assert pct(json.loads(out.stdout)["by_difficulty"]["hard"]) == 95
    path.write_text('{"task": "nope"}\n')
    bad = run_cli_tam("aggregate", str(path))
    assert bad.returncode == 2 and "not a TAM task" in bad.stderr
