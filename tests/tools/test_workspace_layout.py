import os
import stat
from pathlib import Path

import pytest

from tools import Workspace


def test_create_copies_public_files_read_only(shared_root: Path, public_dir: Path) -> None:
    before = {p: p.stat().st_mode for p in public_dir.rglob("*")}
    ws = Workspace.create(shared_root / "layout-1", public_dir)
    for name in ("data", "submission", "code", "working"):
        assert (ws.root / name).is_dir()
    copy = ws.data / "train.csv"
    assert copy.read_text() == (public_dir / "train.csv").read_text()
    assert copy.stat().st_ino != (public_dir / "train.csv").stat().st_ino  # not a hard link
    assert copy.stat().st_nlink == 1
    assert copy.stat().st_mode & 0o222 == 0
    assert (ws.data / "images" / "a.png").exists()
    assert {p: p.stat().st_mode for p in public_dir.rglob("*")} == before  # source untouched


def test_create_refuses_an_existing_workspace_and_open_resumes(shared_root: Path) -> None:
    ws = Workspace.create(shared_root / "layout-2", None)
    assert list(ws.data.iterdir()) == []
    with pytest.raises(FileExistsError, match=r"Workspace\.open"):
        Workspace.create(ws.root, None)
    assert Workspace.open(ws.root) == ws
    with pytest.raises(FileNotFoundError, match="missing"):
        Workspace.open(shared_root / "public")


def test_resolve_starts_relative_paths_at_the_root(shared_root: Path) -> None:
    ws = Workspace(shared_root / "w")
    assert ws.resolve("submission/s.csv") == shared_root / "w" / "submission" / "s.csv"
    assert ws.resolve("working/../code/x.py") == shared_root / "w" / "code" / "x.py"
    assert ws.resolve("/etc/hostname") == Path("/etc/hostname")
    assert ws.resolve(".") == shared_root / "w"


def test_data_directories_stay_listable(shared_root: Path, public_dir: Path) -> None:
    ws = Workspace.create(shared_root / "layout-3", public_dir)
    mode = os.stat(ws.data / "images").st_mode
    assert stat.S_IMODE(mode) == 0o755
