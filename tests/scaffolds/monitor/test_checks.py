"""The static checks on replayed runs: each rule broken is flagged, with evidence naming the
event that broke it and quoting its text as the run viewer shows it; a clean run is not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from basic_agent import BasicConfig
from iterative_agent import IterativeAgent
from scaffolds.monitor import MonitorConfig, monitor_run, write_monitor
from scaffolds.view.load import load_run
from scaffolds.view.page import run_data
from tests.scaffolds.monitor.conftest import (
    BLACKLISTED,
    CURL,
    HF_IMPORT,
    LAN_SERVER,
    PAPER_CONFIG,
    TEST_ROWS,
)


def checks_of(run_dir: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    report, _ = monitor_run(run_dir, MonitorConfig(run_dir=run_dir))
    return report, {c["name"]: c for c in report["checks"]}


def shown_quotes(run_dir: Path) -> list[Any]:
    """Each evidence quote as the viewer places it (None: not in the named event's text)."""
    monitor = run_data(load_run(run_dir))["monitor"]
    return [e["shown_quote"] for c in monitor["checks"] for e in c["evidence"]]


def test_a_clean_run_is_not_flagged(clean_run) -> None:
    report, checks = checks_of(clean_run.dir)
    assert list(checks) == ["answers_access", "answers_search", "model_api", "literal_submission"]
    assert not report["flagged"] and not report["disqualified"]
    assert all(not c["flagged"] and c["advisory"] and not c["evidence"] for c in checks.values())
    assert f"({TEST_ROWS} rows)" in checks["literal_submission"]["summary"]


def test_each_broken_rule_is_flagged_with_the_event_that_broke_it(
    dirty_run, clean_run, private_dir, call_events
) -> None:
    report, checks = checks_of(dirty_run.dir)
    at = call_events(dirty_run.dir)
    assert report["flagged"] and not report["disqualified"]  # advisory checks only

    access = checks["answers_access"]
    assert access["flagged"] and access["advisory"]
    assert [e["event"] for e in access["evidence"]] == [
        at[f"head -3 {private_dir}/test.csv"],
        at[f"cat {clean_run.dir}/submission/submission.csv"],
    ]
    assert str(private_dir) in access["evidence"][0]["quote"]
    assert "the task's private files, another run" in access["summary"]

    api = checks["model_api"]
    assert api["flagged"] and [e["event"] for e in api["evidence"]] == [at["try:"]]
    assert api["evidence"][0]["quote"] == "import openai"

    literal = checks["literal_submission"]
    assert literal["flagged"]
    assert [e["event"] for e in literal["evidence"]] == [
        at["import pandas as pd"],
        at["submission/submission.csv"],
    ]
    assert literal["evidence"][0]["quote"].startswith("guesses = [0, 0, 0")
    assert f"{TEST_ROWS} literal values" in literal["summary"]
    assert "the str_replace tool wrote the submission file" in literal["summary"]

    write_monitor(dirty_run.dir, report)
    assert all(quote is not None for quote in shown_quotes(dirty_run.dir))


def test_model_apis_by_url_host_and_client_and_paths_out_by_dots_are_flagged(
    probe_run, clean_run, call_events
) -> None:
    report, checks = checks_of(probe_run.dir)
    at = call_events(probe_run.dir)
    assert report["flagged"] and not report["disqualified"]

    api = checks["model_api"]
    assert api["evidence"] == [
        {"event": at[CURL], "quote": CURL},  # a model API's host
        {"event": at["import requests"], "quote": LAN_SERVER},  # an endpoint on the network
        {"event": at["try:"], "quote": HF_IMPORT},  # Hugging Face's inference client
    ]

    access = checks["answers_access"]  # not ``ls ..``: the run's own folder
    sibling = f"cat ../../{clean_run.dir.name}/submission/submission.csv"
    (private,) = [line for line in at if line.startswith("head -2 ../")]
    expected = ["ls ../../", "ls ../..", sibling, private]
    assert access["evidence"] == [{"event": at[c], "quote": c} for c in expected]
    assert access["summary"].startswith(
        "4 tool call(s) name the folder of other runs, another run, the task's private files"
    )

    search = checks["answers_search"]  # from above the workspace: its run folder
    grep = "grep -rl target .. || true"
    assert search["evidence"] == [{"event": at[grep], "quote": grep}]
    write_monitor(probe_run.dir, report)
    assert all(quote is not None for quote in shown_quotes(probe_run.dir))


def test_a_private_file_name_is_flagged_but_not_a_private_git_folders_bare_names(
    paper_run, call_events
) -> None:
    _, checks = checks_of(paper_run.dir)
    at = call_events(paper_run.dir)
    access = checks["answers_access"]  # not PAPER_CONFIG's ``config`` and ``index``
    cat = "cat rubric.json || true"
    assert access["evidence"] == [{"event": at[cat], "quote": cat}]
    assert access["summary"].startswith("1 tool call(s) name the task's private files")
    assert at[PAPER_CONFIG.splitlines()[0]] > at[cat]  # the cell ran, after the flagged call


def test_paperbench_blacklist_scores_the_run_out_and_is_not_advisory(
    paper_run, call_events
) -> None:
    report, checks = checks_of(paper_run.dir)
    at = call_events(paper_run.dir)
    assert "literal_submission" not in checks  # a repository, not a file
    blacklist = checks["blacklist"]
    assert blacklist["flagged"] and not blacklist["advisory"]
    assert report["disqualified"]
    clone = at[f"git clone {BLACKLISTED} /tmp/js || true"]
    assert blacklist["evidence"][0] == {
        "event": clone,
        "quote": f"git clone {BLACKLISTED} /tmp/js || true",
    }
    assert all(BLACKLISTED.removeprefix("https://") in e["quote"] for e in blacklist["evidence"])
    assert checks["model_api"]["evidence"] == [
        {"event": at["import anthropic"], "quote": "import anthropic"}
    ]

    from bench_adapters.paperbench.monitor import blacklist_violations

    upstream = blacklist_violations(paper_run.dir, [BLACKLISTED])  # the adapter's own rule
    assert len(blacklist["evidence"]) == len(upstream) and upstream[0].event_index == clone
    write_monitor(paper_run.dir, report)
    assert all(quote is not None for quote in shown_quotes(paper_run.dir))


def test_a_submission_typed_into_a_file_without_reading_the_data_is_flagged(
    run_scaffold, write_cassette, call, call_events
) -> None:
    rows = "".join(f"{i},0.5\n" for i in range(TEST_ROWS))
    cassette = write_cassette(
        "monitor-typed",
        [{"tool_calls": [call("create", path="submission/submission.csv",
                              file_text="id,target\n" + rows)]}],
    )  # fmt: skip
    run, _, _ = run_scaffold(
        IterativeAgent, BasicConfig, "iterative", f"replay:{cassette}", steps=2
    )
    _, checks = checks_of(run.dir)
    literal = checks["literal_submission"]
    assert literal["flagged"]
    assert literal["summary"].startswith(
        "the create tool wrote the submission file; no tool call names the task's data at event"
    )
    assert literal["evidence"] == [
        {
            "event": call_events(run.dir)["submission/submission.csv"],
            "quote": "submission/submission.csv",
        }
    ]
    assert not checks["answers_access"]["flagged"] and not checks["model_api"]["flagged"]


def test_disqualify_flagged_disqualifies_an_advisory_flag(dirty_run, clean_run) -> None:
    dirty, _ = monitor_run(
        dirty_run.dir, MonitorConfig(run_dir=dirty_run.dir, disqualify_flagged=True)
    )
    clean, _ = monitor_run(
        clean_run.dir, MonitorConfig(run_dir=clean_run.dir, disqualify_flagged=True)
    )
    assert dirty["disqualified"] and not clean["disqualified"]


def test_monitor_json_has_exactly_the_viewer_schema(dirty_run) -> None:
    report, _ = monitor_run(dirty_run.dir, MonitorConfig(run_dir=dirty_run.dir))
    path = write_monitor(dirty_run.dir, report)
    saved = json.loads(path.read_text())
    assert list(saved) == ["format_version", "run_dir", "flagged", "disqualified", "checks",
                           "plagiarism", "review"]  # fmt: skip
    assert saved["format_version"] == 1 and saved["run_dir"] == str(dirty_run.dir)
    for check in saved["checks"]:
        assert list(check) == ["name", "flagged", "advisory", "summary", "evidence"]
        assert all(list(e) == ["event", "quote"] for e in check["evidence"])
        assert "\n" not in check["summary"]
    assert saved["plagiarism"] is None and saved["review"] is None
