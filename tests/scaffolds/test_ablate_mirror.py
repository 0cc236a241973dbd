"""Streaming a run folder from a Ray worker back into the driver's copy (scaffolds.grid.mirror):
record logs as appends, everything else whole, run.json last, the grid's own files never."""

from __future__ import annotations

import io
import json
import os
import socket
import tarfile
from pathlib import Path

import pytest

from scaffolds.grid import mirror
from scaffolds.grid.mirror import MirrorError, Outbox, apply_delta, scan
from scaffolds.grid.transfer import pack, unpack
from scaffolds.record import JsonlLog, write_json_atomic


def driver_folder(root: Path) -> Path:
    run = root / "driver" / "run"
    (run / "workspace" / "data").mkdir(parents=True)
    (run / "workspace" / "data" / "train.csv").write_text("big public data\n")
    (run / "workspace" / "old.txt").write_text("to be deleted\n")
    write_json_atomic(run / "run.json", {"status": "running", "steps": 1})
    JsonlLog(run / "trajectory.jsonl").append({"kind": "checkpoint", "step": 1})
    (run / "grid_attempts.jsonl").write_text('{"event": "start"}\n')
    (run / "grid_run.json").write_text("{}\n")
    return run


def worker_copy(root: Path, run: Path) -> Path:
    copy = root / "worker" / run.name
    unpack(pack(run), copy)
    return copy


def same_tree(a: Path, b: Path) -> bool:
    return {k: v[1] for k, v in scan(a).items()} == {k: v[1] for k, v in scan(b).items()} and all(
        (a / rel).read_bytes() == (b / rel).read_bytes()
        for rel in scan(a)
        if (a / rel).is_file() and not (a / rel).is_symlink()
    )


def test_changes_travel_back_and_the_driver_copy_matches_the_worker(tmp_path: Path) -> None:
    run = driver_folder(tmp_path)
    work = worker_copy(tmp_path, run)
    assert not (work / "workspace" / "data").exists()  # the public data stays behind
    outbox = Outbox(work)
    assert not outbox.take()  # nothing changed yet
    logged = (work / "trajectory.jsonl").stat().st_size
    JsonlLog(work / "trajectory.jsonl").append({"kind": "checkpoint", "step": 2})
    write_json_atomic(work / "run.json", {"status": "running", "steps": 2})
    (work / "workspace" / "old.txt").unlink()
    (work / "workspace" / "model").mkdir()
    (work / "workspace" / "model" / "weights.bin").write_bytes(b"\0\1\2")
    os.symlink("weights.bin", work / "workspace" / "model" / "latest")
    (work / "scaffold.log").write_text("output\n")
    (work / "grid_attempts.jsonl").write_text("the worker's copy, never sent back\n")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(work / "workspace" / "kernel.sock"))  # not a file: it stays
    delta = outbox.take()
    server.close()
    assert [(rel, offset) for rel, offset, _ in delta.appends] == [("trajectory.jsonl", logged)]
    assert delta.gone == ["workspace/old.txt"]
    with tarfile.open(fileobj=io.BytesIO(delta.members)) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers()]
    assert names[-1] == "run.json"  # written last on the driver
    assert "grid_attempts.jsonl" not in names and "trajectory.jsonl" not in names
    apply_delta(run, delta)
    assert json.loads((run / "run.json").read_text())["steps"] == 2
    assert [e["step"] for e in JsonlLog(run / "trajectory.jsonl").read()] == [1, 2]
    assert os.readlink(run / "workspace" / "model" / "latest") == "weights.bin"
    assert (run / "grid_attempts.jsonl").read_text() == '{"event": "start"}\n'
    assert (run / "workspace" / "data" / "train.csv").is_file()  # the driver's own stays
    assert not (run / "workspace" / "kernel.sock").exists()
    (work / "workspace" / "kernel.sock").unlink()
    assert same_tree(run, work)
    assert not any(p.name.endswith(".part") for p in run.rglob("*"))
    assert not outbox.take()  # sent once


def test_a_checkpoint_sends_the_folder_and_in_between_only_the_logs_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = driver_folder(tmp_path)
    work = worker_copy(tmp_path, run)
    outbox = Outbox(work)
    assert outbox.due() is None
    JsonlLog(work / "trajectory.jsonl").append({"kind": "tool_call"})
    (work / "workspace" / "notes.txt").write_text("mid-step\n")
    assert outbox.due() is None  # mid-step: nothing until the checkpoint, or SYNC_S
    monkeypatch.setattr(mirror, "SYNC_S", 0.0)
    assert outbox.due() == "logs"
    logs = outbox.take(logs_only=True)
    assert [rel for rel, _, _ in logs.appends] == ["trajectory.jsonl"] and not logs.members
    apply_delta(run, logs)
    assert not (run / "workspace" / "notes.txt").exists()  # the workspace waits
    monkeypatch.setattr(mirror, "SYNC_S", 3600.0)
    write_json_atomic(work / "run.json", {"status": "running", "steps": 2})
    assert outbox.due() == "checkpoint"
    apply_delta(run, outbox.take())
    assert outbox.due() is None and same_tree(run, work)


def test_a_log_cut_back_on_the_worker_is_sent_whole(tmp_path: Path) -> None:
    run = driver_folder(tmp_path)
    work = worker_copy(tmp_path, run)
    with (work / "trajectory.jsonl").open("a") as f:
        f.write('{"kind": "torn')  # a kill mid-write on an earlier node
    outbox = Outbox(work)
    JsonlLog(work / "trajectory.jsonl")  # a resumed run drops the torn line on open
    delta = outbox.take()
    assert not delta.appends and delta.members
    apply_delta(run, delta)
    assert (run / "trajectory.jsonl").read_bytes() == (work / "trajectory.jsonl").read_bytes()


def test_an_append_the_driver_cannot_place_is_an_error_not_a_gap(tmp_path: Path) -> None:
    run = driver_folder(tmp_path)
    work = worker_copy(tmp_path, run)
    outbox = Outbox(work)
    JsonlLog(work / "trajectory.jsonl").append({"kind": "checkpoint", "step": 2})
    (run / "trajectory.jsonl").write_text("")  # the driver's copy lost its bytes
    with pytest.raises(MirrorError, match=r"trajectory\.jsonl"):
        apply_delta(run, outbox.take())
