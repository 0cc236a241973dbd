"""The CLI end to end, in fresh processes, on demo tasks and synthetic MLE-bench data."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from bench_adapters import REPORT_KEYS, SUMMARY_KEYS
from bench_adapters.mlebench import split_ids


def test_help_shows_an_example(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("--help")
    assert result.returncode == 0
    assert "python -m bench_adapters grade --task" in result.stdout
    sub = run_cli("grade-jsonl", "--help")
    assert sub.returncode == 0 and "examples:" in sub.stdout


def test_list_counts_each_split(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("list", "--benchmark", "mlebench", "--split", "lite")
    assert result.returncode == 0
    refs = result.stdout.split()
    assert len(refs) == 22 and all(r.startswith("mlebench/") for r in refs)
    everything = run_cli("list").stdout.split()
    assert "demo/tabular-binary" in everything and "mlebench/spaceship-titanic" in everything
    known = {i for split in ("all", "dev", "cpu_only") for i in split_ids(split)}
    assert len(known) == 82  # the 75 of `all` plus the 7 dev competitions
    assert {r for r in everything if r.startswith("mlebench/")} == {f"mlebench/{i}" for i in known}
    assert len(run_cli("list", "--benchmark", "mlebench", "--split", "all").stdout.split()) == 75


def test_bad_input_exits_2_with_one_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cases = [
        ("grade", "--task", "mlebench/no-such-competition", "--submission", "x.csv"),
        ("grade", "--task", "nobench/x", "--submission", "x.csv"),
        ("validate", "--task", "demo/no-such-demo", "--submission", "x.csv"),
        (
            "grade",
            "--task",
            "mlebench/spaceship-titanic",
            "--submission",
            "x.csv",
            "--data-dir",
            str(tmp_path / "empty"),
        ),
        ("list", "--split", "no-such-split"),
        ("grade", "--task", "demo/tabular-binary"),  # missing --submission
        ("grade-jsonl", "--submissions", str(tmp_path / "none.jsonl"), "--out", str(tmp_path)),
    ]
    stderr = []
    for args in cases:
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr)
        assert result.stdout == ""
        stderr.append(result.stderr)
    assert "not prepared" in stderr[3] and "spaceship-titanic" in stderr[3]


def test_validate_exit_codes_and_json(run_cli, demo_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    env = {"SCAFFOLDS_DEMO_DIR": str(demo_dir.parent / demo_dir.name)}
    sample = demo_dir / "v1" / "tabular-binary" / "prepared" / "public" / "sample_submission.csv"
    ok = run_cli("validate", "--task", "demo/tabular-binary", "--submission", str(sample), env=env)
    assert ok.returncode == 0
    assert json.loads(ok.stdout) == {"valid": True, "message": "Submission is valid."}
    bad = tmp_path / "bad.csv"
    pd.read_csv(sample).drop(columns="target").to_csv(bad, index=False)
    no = run_cli("validate", "--task", "demo/tabular-binary", "--submission", str(bad), env=env)
    assert no.returncode == 1
    out = json.loads(no.stdout)
    assert out["valid"] is False and "target" in out["message"]
    assert set(out) == {"valid", "message"}


def test_grade_prints_the_report_and_exits_0_even_when_invalid(run_cli, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    env = {"SCAFFOLDS_DEMO_DIR": str(demo_dir)}
    answers = demo_dir / "v1" / "digits-image" / "prepared" / "private" / "test.csv"
    perfect = run_cli("grade", "--task", "demo/digits-image", "--submission", str(answers), env=env)
    assert perfect.returncode == 0
    report = json.loads(perfect.stdout)
    assert tuple(report) == REPORT_KEYS
    assert report["score"] == 1.0 and report["gold_medal"] and report["normalized_reward"] == 1.0
    missing = run_cli("grade", "--task", "demo/digits-image", "--submission", "nope.csv", env=env)
    assert missing.returncode == 0
    report = json.loads(missing.stdout)
    assert report["submission_exists"] is False and report["valid_submission"] is False
    assert report["score"] is None and report["normalized_reward"] == 0.0


def test_grade_mlebench_with_and_without_a_leaderboard(  # type: ignore[no-untyped-def]
    run_cli, mlebench_data: Path, mlebench_checkout: Path, gold_paths: dict[str, Path]
) -> None:
    cid = "spaceship-titanic"
    args = (
        "grade",
        "--task",
        f"mlebench/{cid}",
        "--submission",
        str(gold_paths[cid]),
        "--data-dir",
        str(mlebench_data),
    )
    with_board = run_cli(*args, "--mlebench-dir", str(mlebench_checkout), env={"MLEBENCH_DIR": ""})
    report = json.loads(with_board.stdout)
    assert with_board.returncode == 0 and report["gold_medal"] is True
    assert report["score"] == 1.0 and report["is_lower_better"] is False
    without = run_cli(*args, env={"MLEBENCH_DIR": ""})
    report = json.loads(without.stdout)
    assert without.returncode == 0 and report["score"] == 1.0 and report["valid_submission"]
    medal_fields = [
        "gold_threshold",
        "any_medal",
        "gold_medal",
        "above_median",
        "normalized_reward",
    ]
    assert all(report[k] is None for k in medal_fields)
    assert "leaderboard" in without.stderr  # the warning says why


def test_grade_jsonl_writes_upstreams_report(  # type: ignore[no-untyped-def]
    run_cli,
    mlebench_data: Path,
    mlebench_checkout: Path,
    gold_paths: dict[str, Path],
    tmp_path: Path,
) -> None:
    cpu_only = split_ids("cpu_only")
    lines = [{"competition_id": c, "submission_path": str(gold_paths[c])} for c in cpu_only]
    samples = [
        {"competition_id": c, "submission_path": str(mlebench_data / c / "prepared" / s)}
        for c, s in (("spaceship-titanic", "public/sample_submission.csv"),)
    ]
    missing = [{"competition_id": "spaceship-titanic", "submission_path": str(tmp_path / "x.csv")}]
    jsonl = tmp_path / "submissions.jsonl"
    body = "\n".join(json.dumps(x) for x in lines + samples + missing)
    jsonl.write_text("# a comment line, skipped as upstream does\n" + body + "\n")
    out = tmp_path / "reports"
    result = run_cli(
        "grade-jsonl",
        "--submissions",
        str(jsonl),
        "--out",
        str(out),
        "--data-dir",
        str(mlebench_data),
        "--mlebench-dir",
        str(mlebench_checkout),
    )
    assert result.returncode == 0, result.stderr
    (report_path,) = out.glob("*_grading_report.json")
    assert json.loads(result.stdout)["report_path"] == str(report_path)
    summary = json.loads(report_path.read_text())
    assert tuple(summary) == SUMMARY_KEYS
    assert summary["total_runs"] == 9
    assert summary["total_runs_with_submissions"] == 8
    assert summary["total_valid_submissions"] == 8
    assert summary["total_gold_medals"] == summary["total_medals"] == 7
    assert summary["total_above_median"] == 7
    assert all(tuple(r) == REPORT_KEYS for r in summary["competition_reports"])
    assert [r["competition_id"] for r in summary["competition_reports"][:7]] == cpu_only


def test_instructions_command(run_cli, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli(
        "instructions",
        "--task",
        "demo/tabular-regression",
        "--time-limit",
        "90m",
        "--max-steps",
        "40",
        "--hardware",
        "a CPU",
        env={"SCAFFOLDS_DEMO_DIR": str(demo_dir)},
    )
    assert result.returncode == 0
    assert "1 hour 30 minutes" in result.stdout and "40 steps" in result.stdout
    assert "RMSE" in result.stdout
