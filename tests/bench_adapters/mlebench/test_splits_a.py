"""The seed environment's ``or_initial`` split, and the known upstream issues of the MLE-bench
adapter as ``python -m bench_adapters list --known-issues`` shows them."""

from __future__ import annotations

import re
from pathlib import Path

from bench_adapters.mlebench import known_ids, split_ids
from bench_adapters.mlebench.adapter import MLEBench
from bench_adapters.mlebench.known_issues import KNOWN_ISSUES
from bench_adapters.registry import list_known_issues
from scaffolds.grid.plan import needs_gpu


def test_or_initial_is_the_75_plus_two_dev_competitions_70_of_them_on_a_gpu(
    reference: Path,
) -> None:
    ids = split_ids("or_initial")
    main = (reference / "mlebench" / "splits" / "all.txt").read_text().split()
    assert len(ids) == len(set(ids)) == 77
    assert set(ids) == set(main) | {"spaceship-titanic", "playground-series-s3e18"}
    on_cpu = [i for i in ids if not needs_gpu(f"mlebench/{i}")]
    assert sorted(on_cpu) == sorted(split_ids("cpu_only"))
    assert len(ids) - len(on_cpu) == 70
    assert "or_initial" in MLEBench().splits()


def test_known_issues_name_known_competitions_and_their_source() -> None:
    assert set(KNOWN_ISSUES) <= set(known_ids())
    adapter = MLEBench()
    for cid in KNOWN_ISSUES:
        for line in adapter.known_issues(cid):
            assert re.fullmatch(
                r"\[(leak|preparation|grading|leaderboard|environment)\] .+ \(.+\)", line
            )
    assert adapter.known_issues("spaceship-titanic") == []
    readme = {"tensorflow-speech-recognition-challenge", "random-acts-of-pizza", "champs-scalar-coupling",
              "smartphone-decimeter-2022", "multi-modal-gesture-recognition", "icecube-neutrinos-in-deep-ice",
              "ranzcr-clip-catheter-line-classification", "hubmap-kidney-segmentation",
              "tabular-playground-series-dec-2021", "tabular-playground-series-may-2022",
              "jigsaw-toxic-comment-classification-challenge"}  # fmt: skip
    assert readme <= {
        c for c, issues in KNOWN_ISSUES.items() if any("README" in i.source for i in issues)
    }


def test_list_known_issues_is_a_separate_view(run_cli) -> None:  # type: ignore[no-untyped-def]
    plain = run_cli("list", "--benchmark", "mlebench", "--split", "lite")
    assert plain.returncode == 0
    assert all(re.fullmatch(r"mlebench/[\w-]+", line) for line in plain.stdout.splitlines())
    view = run_cli("list", "--benchmark", "mlebench", "--split", "lite", "--known-issues")
    assert view.returncode == 0
    lines = view.stdout.splitlines()
    assert lines == [f"{ref}: {text}" for ref, text in list_known_issues("mlebench", "lite")]
    assert "mlebench/random-acts-of-pizza: [leak] the field giver_username_if_known" in view.stdout
    assert {line.split(":")[0] for line in lines} <= set(plain.stdout.split())
    assert "champs-scalar-coupling" not in view.stdout  # not in the lite split
    everything = run_cli("list", "--known-issues").stdout.splitlines()
    assert len(everything) == sum(len(v) for v in KNOWN_ISSUES.values())
    demo = run_cli("list", "--benchmark", "demo", "--known-issues")
    assert demo.returncode == 0 and demo.stdout == ""


def test_every_competition_of_the_main_and_dev_splits_is_graded(run_cli) -> None:  # type: ignore[no-untyped-def]
    for split, size in (("all", 75), ("dev", 7), ("or_initial", 77)):
        listed = run_cli("list", "--benchmark", "mlebench", "--split", split, "--graded")
        assert listed.returncode == 0, listed.stderr
        assert listed.stdout.split() == [f"mlebench/{i}" for i in split_ids(split)]
        assert len(listed.stdout.split()) == size
