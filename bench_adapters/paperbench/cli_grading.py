"""The grading subcommands of ``python -m bench_adapters.paperbench``: ``score`` and ``judge-eval``.

``register(subparsers)`` adds both; each sets ``args.func``, a callable ``(args) -> exit code``
(0 ok, 2 bad input with one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from bench_adapters.paperbench.rubric import (
    RubricError,
    RubricNode,
    is_code_dev,
    load_rubric,
    parse_rubric,
    variant,
)
from bench_adapters.paperbench.scoring import (
    NOT_GRADED,
    LeafGrade,
    graded_tree,
    grades_from_tree,
    summarize,
)

SCORE_EXAMPLE = """example:
  python -m bench_adapters.paperbench score --rubric papers/rice/rubric.json \\
      --grades judge_eval/rice/0/grading/expected_result.json --code-dev

--grades is a flat {"<leaf id>": 0 or 1} map or a graded tree (expected_result.json);
a graded tree is also accepted as its own --rubric. Leaves without a grade score 0. The
rubric's weights are used; when a graded tree weighs nodes differently, a warning says how
many (and "weights_differing" in the output counts them)."""

JUDGE_EVAL_EXAMPLE = """example:
  python -m bench_adapters.paperbench judge-eval --judge-model o3-mini \\
      --data-dir ~/paperbench/data --file-selection both --out judge-eval/

Reads <data-dir>/judge_eval/<paper>/<n>/{submission.tar, grading/expected_result.json} and
<data-dir>/papers/<paper>/paper.md; prints accuracy, precision, recall and F1 per paper and
their macro average. With --out, judge logs make a rerun free."""


class GradesError(Exception):
    """A grades file that cannot be used; the message names it."""


def register(subparsers: Any) -> None:
    """Add ``score`` and ``judge-eval`` to the ``python -m bench_adapters.paperbench`` parser."""
    raw = argparse.RawDescriptionHelpFormatter
    p = subparsers.add_parser(
        "score",
        help="score a rubric from leaf grades (no model); prints JSON",
        description="Aggregate leaf grades up a rubric tree: a parent scores the weighted mean "
        "of its children.",
        epilog=SCORE_EXAMPLE,
        formatter_class=raw,
    )
    p.add_argument("--rubric", required=True, type=Path, help="rubric.json or a graded tree")
    p.add_argument("--grades", required=True, type=Path, help="{leaf_id: 0|1} or a graded tree")
    p.add_argument("--code-dev", action="store_true", help="only Code Development leaves count")
    p.add_argument(
        "--resources-provided",
        action="store_true",
        help='"Dataset and Model Acquisition" leaves weigh 0',
    )
    p.add_argument("--tree", action="store_true", help="include the whole graded tree")
    p.set_defaults(func=run_score)

    p = subparsers.add_parser(
        "judge-eval",
        help="grade the human-graded reference submissions; prints agreement metrics",
        description="JudgeEval: the rubric judge against human grades, leaf by leaf.",
        epilog=JUDGE_EVAL_EXAMPLE,
        formatter_class=raw,
    )
    p.add_argument("--judge-model", help="any litellm model (default: o3-mini, high effort)")
    p.add_argument("--judge-api-base", help="OpenAI-compatible server for --judge-model")
    p.add_argument("--data-dir", type=Path, help="PaperBench data (default: $PAPERBENCH_DATA_DIR)")
    p.add_argument(
        "--file-selection",
        choices=["llm", "bm25", "both"],
        default="llm",
        help="how files are chosen when they do not all fit (default: llm, as upstream)",
    )
    p.add_argument("--paper", action="append", help="only this paper (repeatable)")
    p.add_argument("--workers", type=int, default=16, help="questions in flight (default: 16)")
    p.add_argument("--max-judge-cost", type=float, help="stop asking at this many USD")
    p.add_argument("--out", type=Path, help="folder for judge logs and graded trees")
    p.set_defaults(func=run_judge_eval)


def load_grades(path: Path, rubric: RubricNode) -> tuple[list[LeafGrade], RubricNode | None]:
    """Grades for ``rubric.leaves()`` from a flat ``{leaf_id: 0|1}`` map or a graded tree,
    and that graded tree (None for a flat map)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GradesError(f"grades not found: {path}") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise GradesError(f"{path}: not readable JSON ({exc})") from None
    leaves, tree = rubric.leaves(), None
    if isinstance(data, dict) and "sub_tasks" in data:
        tree = parse_rubric(data, str(path))
        grades = grades_from_tree(data)
        if [leaf.id for leaf in tree.leaves()] == [leaf.id for leaf in leaves]:
            return grades, tree
        by_id: dict[str, LeafGrade] = {}
        for leaf, grade in zip(tree.leaves(), grades, strict=True):
            by_id.setdefault(leaf.id, grade)
    elif isinstance(data, dict):
        by_id = {str(k): LeafGrade(_grade_value(path, k, v)) for k, v in data.items()}
    else:
        raise GradesError(f"{path}: expected a {{leaf_id: 0|1}} object or a graded tree")
    unknown = sorted(set(by_id) - {leaf.id for leaf in leaves})
    if unknown:
        raise GradesError(
            f"{path}: {len(unknown)} grade(s) name no leaf of the rubric, e.g. {unknown[0]!r}"
        )
    return [by_id.get(leaf.id, NOT_GRADED) for leaf in leaves], tree


def differing_weights(rubric: RubricNode, graded: RubricNode) -> int:
    """How many nodes (matched by id) weigh differently in the two trees."""
    theirs = {node.id: node.weight for node in graded.walk()}
    return sum(1 for node in rubric.walk() if theirs.get(node.id, node.weight) != node.weight)


def _grade_value(path: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or value in (0, 1):
        return float(value)
    raise GradesError(f"{path}: grade of {key!r} must be 0 or 1, got {value!r}")


def score(args: argparse.Namespace) -> dict[str, Any]:
    rubric = load_rubric(args.rubric)
    grades, graded_by = load_grades(args.grades, rubric)
    if args.code_dev:
        grades = [g for leaf, g in zip(rubric.leaves(), grades, strict=True) if is_code_dev(leaf)]
    tree = variant(rubric, code_dev_only=args.code_dev, resources=args.resources_provided)
    graded = graded_tree(tree, grades)
    result = {
        **summarize(graded),
        "missing_grades": sum(1 for g in grades if g is NOT_GRADED),
        "weights_differing": None if graded_by is None else differing_weights(rubric, graded_by),
        "code_dev": args.code_dev,
        "resources_provided": args.resources_provided,
    }
    if args.tree:
        result["graded_tree"] = graded
    return result


def run_score(args: argparse.Namespace) -> int:
    try:
        result = score(args)
    except (RubricError, GradesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if result["weights_differing"]:
        print(
            f"warning: {result['weights_differing']} node weight(s) in {args.grades} differ "
            f"from {args.rubric}; the score uses the rubric's (pass the graded tree as "
            "--rubric to use its own)",
            file=sys.stderr,
        )
    print(json.dumps(result, indent=2))
    return 0


def run_judge_eval(args: argparse.Namespace) -> int:
    from bench_adapters.paperbench.grading import DEFAULT_JUDGE_MODEL, GradingOptions
    from bench_adapters.paperbench.judge_eval import judge_eval

    data_dir = args.data_dir or os.environ.get("PAPERBENCH_DATA_DIR")
    if not data_dir:
        print("error: no data folder: pass --data-dir or set PAPERBENCH_DATA_DIR", file=sys.stderr)
        return 2
    selections = ["llm", "bm25"] if args.file_selection == "both" else [args.file_selection]
    reports = {}
    try:
        for selection in selections:
            options = GradingOptions(
                judge_model=args.judge_model or DEFAULT_JUDGE_MODEL,
                judge_api_base=args.judge_api_base,
                max_judge_cost=args.max_judge_cost,
                workers=args.workers,
                file_selection=selection,  # type: ignore[arg-type]
            )
            out = args.out / selection if args.out else None
            reports[selection] = judge_eval(Path(data_dir), options, out_dir=out, papers=args.paper)
    except RubricError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(reports if len(reports) > 1 else reports[selections[0]], indent=2))
    return 0
