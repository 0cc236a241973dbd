"""Run records: append-only trajectory, atomic run.json, secrets never written."""

from __future__ import annotations

import json
import os
import stat

import pytest

from scaffolds.record import (
    REDACTED,
    JsonlLog,
    Redactor,
    RunRecord,
    atomic_file,
    write_atomic,
    write_json_atomic,
)


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
    assert summary["status"] == "running" and summary["format_version"] == 2
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


def test_a_whole_file_is_written_by_rename_with_the_callers_mode(tmp_path) -> None:
    private, shared = tmp_path / "private.json", tmp_path / "shared.html"
    write_atomic(private, "{}\n")
    old_umask = os.umask(0o022)
    try:
        write_atomic(shared, b"<html>", 0o666)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(shared.stat().st_mode) == 0o644
    assert shared.read_bytes() == b"<html>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["private.json", "shared.html"]


def test_a_link_at_the_target_is_replaced_never_followed(tmp_path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me")
    target = tmp_path / "run.json"
    target.symlink_to(elsewhere)
    write_json_atomic(target, {"status": "running"})
    assert not target.is_symlink() and json.loads(target.read_text()) == {"status": "running"}
    assert elsewhere.read_text() == "keep me"


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path) -> None:
    target = tmp_path / "tree.html"
    target.write_text("old")

    with pytest.raises(RuntimeError), atomic_file(target) as f:
        f.write(b"half of the new")
        raise RuntimeError("killed")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["tree.html"]
