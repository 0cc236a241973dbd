"""Run records: append-only trajectory, atomic run.json, secrets never written."""

from __future__ import annotations

import json

from scaffolds.record import REDACTED, JsonlLog, Redactor, RunRecord


def test_secrets_from_environment_never_reach_files(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-abcdef123456")
    monkeypatch.setenv("HF_TOKEN", "hf_secret_value_99")
    monkeypatch.setenv("MY_SECRET", "hunter2hunter2")
    monkeypatch.setenv("HARMLESS", "visible-value")
    record = RunRecord(tmp_path / "run")
    record.start(config={"api_key": "sk-live-abcdef123456", "note": "HARMLESS=visible-value"})
    record.event(
        "observation",
        text="token hf_secret_value_99 and hunter2hunter2 leaked?",
        nested=[{"k": "sk-live-abcdef123456"}],
    )
    record.finish("completed")
    written = (tmp_path / "run" / "run.json").read_text() + (
        tmp_path / "run" / "trajectory.jsonl"
    ).read_text()
    for secret in ("sk-live-abcdef123456", "hf_secret_value_99", "hunter2hunter2"):
        assert secret not in written
    assert REDACTED in written and "visible-value" in written


def test_redactor_walks_structures() -> None:
    redact = Redactor({"X_API_KEY": "abcd1234"})
    assert redact({"a": ["xabcd1234y", 3, None]}) == {"a": [f"x{REDACTED}y", 3, None]}


def test_torn_last_line_is_dropped_on_reopen(tmp_path) -> None:
    path = tmp_path / "t.jsonl"
    log = JsonlLog(path)
    log.append({"n": 1})
    log.append({"n": 2})
    with path.open("a") as f:
        f.write('{"n": 3, "partial')  # a kill in the middle of a write
    reopened = JsonlLog(path)
    reopened.append({"n": 4})
    assert [r["n"] for r in reopened.read()] == [1, 2, 4]


def test_run_json_has_identity_status_and_times(tmp_path) -> None:
    record = RunRecord(tmp_path / "r")
    record.start(scaffold="basic", model="replay:x.jsonl", seed=3)
    summary = json.loads((tmp_path / "r" / "run.json").read_text())
    assert summary["status"] == "running" and summary["format_version"] == 1
    record.finish("model_exhausted", steps=4)
    summary = json.loads((tmp_path / "r" / "run.json").read_text())
    assert summary["status"] == "model_exhausted" and summary["steps"] == 4
    assert summary["ended_at"] and summary["seed"] == 3
    # a resumed run keeps its original start time
    again = RunRecord(tmp_path / "r")
    again.start(seed=3)
    assert (
        json.loads((tmp_path / "r" / "run.json").read_text())["started_at"] == summary["started_at"]
    )
