"""Rubric trees: the 23 real rubrics load, leaf counts match upstream's, the variants prune and
reweight as upstream defines them, and a bad rubric is one line naming its file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench_adapters.paperbench.rubric import (
    CODE_DEVELOPMENT,
    DATASET_AND_MODEL_ACQUISITION,
    FINEGRAINED_CATEGORIES,
    RubricError,
    code_dev,
    counts,
    load_rubric,
    resources_provided,
    variant,
)
from tests.bench_adapters.paperbench.judge_helpers import REFERENCE, SMALL_RUBRIC

PAPERS = sorted(p.name for p in (REFERENCE / "papers").iterdir())


def test_all_23_real_rubrics_load_and_the_benchmark_has_8316_leaves() -> None:
    assert len(PAPERS) == 23
    rubrics = {p: load_rubric(REFERENCE / "papers" / p / "rubric.json") for p in PAPERS}
    split_all = (REFERENCE / "splits" / "all.txt").read_text().split()
    assert len(split_all) == 20
    total: Counter[str] = Counter()
    for paper in split_all:
        total.update(counts(rubrics[paper]))
    assert sum(total.values()) == 8316
    assert total == {"Code Execution": 4079, "Code Development": 3671, "Result Analysis": 566}
    assert len(rubrics["pinn"].leaves()) == 1963
    labels = {leaf.finegrained_task_category for r in rubrics.values() for leaf in r.leaves()}
    assert labels == set(FINEGRAINED_CATEGORIES)
    inner = [n for r in rubrics.values() for n in r.walk() if not n.is_leaf()]
    assert all(n.task_category is None for n in inner)


def test_a_graded_tree_loads_as_its_own_rubric() -> None:
    tree = load_rubric(REFERENCE / "judge_eval" / "rice" / "0" / "grading" / "expected_result.json")
    assert len(tree.leaves()) == 361
    assert all(leaf.finegrained_task_category is None for leaf in tree.leaves())


def test_code_dev_keeps_only_code_development_leaves_and_drops_empty_parents() -> None:
    root = load_rubric(REFERENCE / "papers" / "rice" / "rubric.json")
    pruned = code_dev(root)
    assert pruned is not None
    expected = [leaf for leaf in root.leaves() if leaf.task_category == CODE_DEVELOPMENT]
    assert pruned.leaves() == expected  # the same leaves, in the same order
    assert all(n.sub_tasks for n in pruned.walk() if n.task_category is None)
    kept_ids = {n.id for n in pruned.walk()}
    dropped = [n for n in root.walk() if not n.is_leaf() and n.id not in kept_ids]
    assert dropped and all(
        all(leaf.task_category != CODE_DEVELOPMENT for leaf in n.leaves()) for n in dropped
    )


def test_code_dev_of_a_tree_without_code_development_is_an_error() -> None:
    root = load_rubric(REFERENCE / "papers" / "rice" / "rubric.json")
    only_execution = next(
        n for n in root.walk() if n.is_leaf() and n.task_category != CODE_DEVELOPMENT
    )
    assert code_dev(only_execution) is None
    with pytest.raises(RubricError, match="no Code Development leaf"):
        variant(only_execution, code_dev_only=True, resources=False)


def test_resources_provided_zeroes_only_dataset_and_model_acquisition(tmp_path: Path) -> None:
    root = load_rubric(REFERENCE / "papers" / "lca-on-the-line" / "rubric.json")
    zeroed = resources_provided(root)
    pairs = list(zip(root.leaves(), zeroed.leaves(), strict=True))
    acquisition = [
        (a, b) for a, b in pairs if a.finegrained_task_category == DATASET_AND_MODEL_ACQUISITION
    ]
    assert acquisition and all(b.weight == 0 for _, b in acquisition)
    assert all(a.weight == b.weight for a, b in pairs if (a, b) not in acquisition)
    both = variant(root, code_dev_only=True, resources=True)
    assert all(
        leaf.weight == 0
        for leaf in both.leaves()
        if leaf.finegrained_task_category == DATASET_AND_MODEL_ACQUISITION
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "rubric not found"),
        ("{not json", "not JSON"),
        (json.dumps({"id": "r", "requirements": "x", "sub_tasks": []}), "weight must be a number"),
        (json.dumps({"id": "r", "requirements": "x", "weight": -1, "sub_tasks": []}), "weight"),
        (json.dumps({"id": "r", "weight": 1, "sub_tasks": []}), "has no 'requirements'"),
        (
            json.dumps(
                {
                    **SMALL_RUBRIC,
                    "sub_tasks": [
                        {"id": "leaf", "requirements": "x", "weight": 1, "sub_tasks": []}
                    ],
                }
            ),
            "leaf 'leaf' has task_category None",
        ),
        (json.dumps([1, 2]), "is not a JSON object"),
    ],
)
def test_a_missing_or_malformed_rubric_is_one_line_naming_the_file(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "rubric.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RubricError) as caught:
        load_rubric(path)
    text = str(caught.value)
    assert message in text and str(path) in text and "\n" not in text
