"""What a rerun does with each kind of run folder, and run folders travelling to Ray workers."""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
from pathlib import Path

from scaffolds.grid.job import ensure_workspace_data, prepare
from scaffolds.grid.plan import RunSpec
from scaffolds.grid.runstate import State, state_of
from scaffolds.grid.transfer import pack, unpack

SPEC = RunSpec("basic", "m", "demo/tabular-binary", 0)


def run_folder(grid: Path, status: str | None, crashed: bool = False) -> Path:
    run_dir = grid / "runs" / SPEC.name
    (run_dir / "workspace" / "submission").mkdir(parents=True)
    (run_dir / "scaffold.log").write_text("log of the first try\n")
    if status is not None:
        (run_dir / "run.json").write_text(json.dumps({"status": status}))
    if crashed:
        (run_dir / "grid_error.txt").write_text("the scaffold exited with code 1\n")
    return run_dir


def test_state_of_each_kind_of_run_folder(tmp_path) -> None:
    cases = {
        "missing": (None, False, State.FRESH),
        "finished": ("submitted", False, State.FINISHED),
        "also finished": ("model_exhausted", False, State.FINISHED),
        "running": ("running", False, State.RESUME),
        "interrupted": ("interrupted", False, State.RESUME),
        "crashed while running": ("running", True, State.RESUME),
        "crashed after finishing": ("submitted", True, State.RESTART),
        "never began": (None, True, State.RESTART),
    }
    for label, (status, crashed, expected) in cases.items():
        grid = tmp_path / label.replace(" ", "-")
        if label == "missing":
            assert state_of(grid / "runs" / SPEC.name) is expected
            continue
        run_dir = run_folder(grid, status, crashed)
        assert state_of(run_dir) is expected, label
        if crashed:
            assert state_of(run_dir, retry_crashed=False) is State.CRASHED


def test_restart_keeps_a_finished_record_aside_and_a_bare_folder_in_place(tmp_path) -> None:
    recorded = run_folder(tmp_path / "a", "submitted", crashed=True)
    job = prepare(SPEC, tmp_path / "a", retry_crashed=True)
    assert job is not None and not job.resume
    aside = tmp_path / "a" / "old_attempts" / f"{SPEC.name}.1"
    assert json.loads((aside / "run.json").read_text())["status"] == "submitted"
    assert sorted(p.name for p in recorded.iterdir()) == ["grid_run.json"]

    bare = run_folder(tmp_path / "b", None, crashed=True)
    job = prepare(SPEC, tmp_path / "b", retry_crashed=True)
    assert job is not None and not job.resume
    assert sorted(p.name for p in bare.iterdir()) == ["grid_run.json", "scaffold.log"]
    assert (bare / "scaffold.log").read_text() == "log of the first try\n"
    assert not (tmp_path / "b" / "old_attempts").exists()

    assert prepare(SPEC, tmp_path / "b", retry_crashed=True) is not None
    run_folder(tmp_path / "c", "step_limit")
    assert prepare(SPEC, tmp_path / "c", retry_crashed=True) is None


def test_a_run_folder_travels_without_its_public_data_and_keeps_modes(tmp_path) -> None:
    src = tmp_path / "src" / "run"
    (src / "workspace" / "data").mkdir(parents=True)
    (src / "workspace" / "data" / "train.csv").write_text("x\n" * 1000)
    (src / "workspace" / "working").mkdir()
    (src / "workspace" / "working" / "model.txt").write_text("weights")
    (src / "run.json").write_text("{}")
    os.chmod(src / "run.json", 0o600)
    os.chmod(src, 0o711)
    (src / "grid.lock").write_text("")
    os.symlink("/etc/passwd", src / "workspace" / "working" / "escape")
    os.symlink("model.txt", src / "workspace" / "working" / "inside")

    dst = tmp_path / "dst" / "run"
    unpack(pack(src), dst)
    assert (dst / "workspace" / "working" / "model.txt").read_text() == "weights"
    assert not (dst / "workspace" / "data").exists() and not (dst / "grid.lock").exists()
    assert stat.S_IMODE((dst / "run.json").stat().st_mode) == 0o600
    assert stat.S_IMODE(dst.stat().st_mode) == 0o711
    assert not (dst / "workspace" / "working" / "escape").is_symlink()  # points outside: dropped
    assert os.readlink(dst / "workspace" / "working" / "inside") == "model.txt"


def test_unpack_skips_members_that_would_land_outside(tmp_path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in ("run/ok.txt", "run/../../evil.txt", "/abs.txt"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    dst = tmp_path / "deep" / "run"
    unpack(buffer.getvalue(), dst)
    assert (dst / "ok.txt").read_bytes() == b"hi"
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "deep" / "evil.txt").exists()
    assert not Path("/abs.txt").exists()


def test_a_resumed_run_gets_its_public_data_back_read_only(tmp_path) -> None:
    run_dir = tmp_path / "run"
    (run_dir / "workspace" / "submission").mkdir(parents=True)
    ensure_workspace_data(run_dir, SPEC.task, None)
    data = run_dir / "workspace" / "data"
    assert (data / "train.csv").is_file() and (data / "sample_submission.csv").is_file()
    assert not (data / "train.csv").stat().st_mode & 0o222
    before = (data / "train.csv").stat().st_mtime_ns
    ensure_workspace_data(run_dir, SPEC.task, None)  # present: left alone
    assert (data / "train.csv").stat().st_mtime_ns == before
    ensure_workspace_data(tmp_path / "no-workspace", SPEC.task, None)
    assert not (tmp_path / "no-workspace").exists()


def test_the_grids_own_files_in_a_run_folder_are_the_harnesss_alone(tmp_path) -> None:
    """Another run's agent must find nothing to read in this run's folder (the user-based
    sandbox refuses to start a run while it could)."""
    from scaffolds.grid.local import open_log
    from scaffolds.grid.runstate import ERROR_FILE, LOG_FILE, record_crash

    (tmp_path / LOG_FILE).write_text("old log\n")
    (tmp_path / LOG_FILE).chmod(0o644)  # as an older version left it
    with open_log(tmp_path, ["python", "-m", "scaffolds.basic"]) as log:
        log.write(b"a line\n")
    record_crash(tmp_path, "the scaffold exited with code 2")
    for name in (LOG_FILE, ERROR_FILE):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    assert "a line" in (tmp_path / ERROR_FILE).read_text()
