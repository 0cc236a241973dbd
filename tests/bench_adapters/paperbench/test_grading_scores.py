"""Scoring: the weighted-mean rule reproduces the human-graded trees exactly, the variants score
as upstream defines them, and ``score`` works from a flat map or a graded tree."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench_adapters.paperbench.cli_grading import register
from bench_adapters.paperbench.grading import GradingOptions, grade_paper
from bench_adapters.paperbench.rubric import code_dev, load_rubric, parse_rubric, variant
from bench_adapters.paperbench.scoring import (
    LeafGrade,
    graded_leaves,
    graded_tree,
    grades_from_tree,
    summarize,
    weighted_score,
)
from tests.bench_adapters.paperbench.judge_helpers import (
    HUMAN_GRADED,
    REFERENCE,
    REPO,
    SMALL_RUBRIC,
    write_paper,
)

UPSTREAM_KEYS = {
    "id",
    "requirements",
    "weight",
    "score",
    "valid_score",
    "task_category",
    "explanation",
    "judge_metadata",
    "sub_tasks",
}


def expected(paper: str) -> Path:
    return REFERENCE / "judge_eval" / paper / "0" / "grading" / "expected_result.json"


def pairs(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[dict, dict]]:
    out = [(a, b)]
    for x, y in zip(a["sub_tasks"], b["sub_tasks"], strict=True):
        out += pairs(x, y)
    return out


@pytest.mark.parametrize("paper", HUMAN_GRADED)
def test_every_score_of_the_human_graded_trees_reproduces_exactly(paper: str) -> None:
    data = json.loads(expected(paper).read_text())
    tree = graded_tree(load_rubric(expected(paper)), grades_from_tree(data))
    assert tree["score"] == data["score"]  # exactly: the same sums in the same order
    for ours, theirs in pairs(tree, data):
        assert ours["score"] == theirs["score"] and ours["id"] == theirs["id"]
        assert ours.keys() >= UPSTREAM_KEYS
        assert ours["valid_score"] is True


def test_the_rule_on_a_small_tree_by_hand() -> None:
    assert weighted_score([(2, 1.0), (1, 0.0)]) == 2 / 3
    assert weighted_score([(0, 1.0), (0, 1.0)]) == 0.0
    root = parse_rubric(SMALL_RUBRIC)
    grades = [LeafGrade(1.0), LeafGrade(0.0), LeafGrade(1.0), LeafGrade(0.0, False, "bad")]
    tree = graded_tree(root, grades)
    # impl (w=2): (1+0)/2 = 0.5; run (w=1): (1+0)/2 = 0.5; root: 0.5
    assert tree["score"] == 0.5
    assert [c["valid_score"] for c in tree["sub_tasks"]] == [True, False]
    assert tree["valid_score"] is False
    summary = summarize(tree)
    assert summary["code_dev_score"] == 0.5  # only the two Code Development leaves count
    by_category = summary["breakdown"]["task_category"]
    assert by_category["Result Analysis"] == {"score": 0.0, "leaves": 1, "passed": 0, "invalid": 1}
    assert by_category["Code Execution"]["score"] == 1.0
    assert (
        summary["breakdown"]["finegrained_task_category"]["Method Implementation"]["score"] == 1.0
    )
    provided = variant(root, code_dev_only=False, resources=True)
    # the dataset leaf weighs 0: impl = 1.0, root = (2*1 + 0.5)/3
    assert graded_tree(provided, grades)["score"] == (2 * 1.0 + 0.5) / 3


@pytest.mark.parametrize("paper", ["rice", "pinn"])
def test_the_code_dev_score_is_the_score_of_the_pruned_tree(paper: str) -> None:
    data = json.loads(expected(paper).read_text())
    root = load_rubric(expected(paper))
    grades = grades_from_tree(data)
    full = summarize(graded_tree(root, grades))
    pruned = code_dev(root)
    assert pruned is not None
    kept = [
        g
        for leaf, g in zip(root.leaves(), grades, strict=True)
        if leaf.task_category == "Code Development"
    ]
    assert graded_tree(pruned, kept)["score"] == pytest.approx(full["code_dev_score"], abs=1e-12)
    assert full["breakdown"]["task_category"]["Code Development"]["score"] == full["code_dev_score"]


def run_score(*args: str) -> tuple[int, str, str]:
    """``score ARGS`` in this process, through the subcommand ``register`` adds."""
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    parsed = parser.parse_args(["score", *args])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = parsed.func(parsed)
    return code, out.getvalue(), err.getvalue()


def test_the_module_entry_point_runs_score() -> None:
    tree = str(expected("semantic-self-consistency"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench_adapters.paperbench",
            "score",
            "--rubric",
            tree,
            "--grades",
            tree,
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == json.loads(Path(tree).read_text())["score"]


def test_score_cli_from_a_graded_tree_a_flat_map_and_with_code_dev(tmp_path: Path) -> None:
    tree_path = expected("rice")
    data = json.loads(tree_path.read_text())
    code, out, err = run_score("--rubric", str(tree_path), "--grades", str(tree_path))
    assert code == 0, err
    assert json.loads(out)["score"] == data["score"]

    flat = {leaf["id"]: int(leaf["score"]) for leaf in graded_leaves(data)}
    flat_path = tmp_path / "grades.json"
    flat_path.write_text(json.dumps(flat))
    real_rubric = REFERENCE / "papers" / "rice" / "rubric.json"
    code, text, err = run_score(
        "--rubric", str(real_rubric), "--grades", str(flat_path), "--code-dev", "--tree"
    )
    assert code == 0, err
    out = json.loads(text)
    assert (
        out["score"]
        == out["code_dev_score"]
        == summarize(graded_tree(load_rubric(tree_path), grades_from_tree(data)))["code_dev_score"]
    )
    assert {leaf["task_category"] for leaf in graded_leaves(out["graded_tree"])} == {
        "Code Development"
    }

    partial = dict(list(flat.items())[:10])
    flat_path.write_text(json.dumps(partial))
    out = json.loads(run_score("--rubric", str(real_rubric), "--grades", str(flat_path))[1])
    assert out["missing_grades"] == 361 - 10
    assert out["weights_differing"] is None  # a flat map carries no weights


def test_score_cli_warns_when_the_graded_tree_weighs_nodes_differently() -> None:
    tree = expected("all-in-one")
    rubric = REFERENCE / "papers" / "all-in-one" / "rubric.json"
    code, out, err = run_score("--rubric", str(rubric), "--grades", str(tree))
    assert code == 0
    (line,) = err.splitlines()  # one line, naming the count and both files
    assert line.startswith("warning: 19 node weight(s)") and str(tree) in line
    assert str(rubric) in line
    result = json.loads(out)
    assert result["weights_differing"] == 19
    human = json.loads(tree.read_text())["score"]
    assert result["score"] == pytest.approx(0.5782, abs=1e-4) != pytest.approx(human)
    code, out, err = run_score("--rubric", str(tree), "--grades", str(tree))
    assert code == 0 and err == "" and json.loads(out)["weights_differing"] == 0
    assert json.loads(out)["score"] == human == pytest.approx(0.714, abs=1e-3)
    rice = REFERENCE / "papers" / "rice" / "rubric.json"  # same weights: no warning
    code, out, err = run_score("--rubric", str(rice), "--grades", str(expected("rice")))
    assert code == 0 and err == "" and json.loads(out)["weights_differing"] == 0


@pytest.mark.parametrize(
    ("grades", "message"),
    [
        ({"no-such-leaf": 1}, "name no leaf"),
        ({}, None),
        ([1, 2], "expected a"),
        ("x", "expected a"),
    ],
)
def test_score_cli_rejects_bad_grades_in_one_line(
    tmp_path: Path, grades: Any, message: str | None
) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(grades))
    code, out, err = run_score(
        "--rubric", str(expected("semantic-self-consistency")), "--grades", str(path)
    )
    if message is None:  # nothing graded: every leaf scores 0
        assert code == 0 and json.loads(out)["score"] == 0.0
        return
    assert code == 2 and message in err
    assert err.count("\n") == 1 and str(path) in err


def test_score_cli_names_a_missing_rubric(tmp_path: Path) -> None:
    code, _, err = run_score(
        "--rubric", str(tmp_path / "none.json"), "--grades", str(tmp_path / "g.json")
    )
    assert code == 2 and err == f"error: rubric not found: {tmp_path / 'none.json'}\n"


def test_without_a_judge_model_the_report_is_ungraded_with_the_leaf_counts(tmp_path: Path) -> None:
    paper = write_paper(tmp_path / "paper", SMALL_RUBRIC)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "reproduce.sh").write_text("echo hi\n")
    report = grade_paper(paper, tmp_path / "sub", None, None, GradingOptions())
    assert report["graded"] is False and "judge model" in report["reason"]
    assert report["leaves"] == {
        "total": 4,
        "Code Development": 2,
        "Code Execution": 1,
        "Result Analysis": 1,
    }
    assert report["valid_submission"] is True and report["normalized_reward"] is None
    code_dev_only = grade_paper(paper, tmp_path / "none", None, None, GradingOptions(code_dev=True))
    assert code_dev_only["leaves"] == {"total": 2, "Code Development": 2}
    assert code_dev_only["valid_submission"] is False
    (paper / "rubric.json").write_text("{")
    broken = grade_paper(paper, tmp_path / "sub", None, None, GradingOptions())
    assert broken["graded"] is False and "not JSON" in broken["rubric_error"]
