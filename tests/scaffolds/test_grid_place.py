"""A Ray node writes the driver's copy of an input (a cassette, a task folder) at the same path,
whole or not at all, through the suite's one atomic writer (``scaffolds.record.atomic_file``)."""

from __future__ import annotations

import os
from pathlib import Path

from scaffolds.grid.remote import place, shipped


def test_a_file_is_placed_whole_with_the_drivers_mode_and_no_temporary_left(
    tmp_path: Path,
) -> None:
    source = tmp_path / "driver" / "cassette.jsonl"
    source.parent.mkdir()
    source.write_bytes(b'{"content": "hi"}\n')
    source.chmod(0o664)
    target = tmp_path / "node" / "deep" / "cassette.jsonl"
    old_umask = os.umask(0o022)
    try:
        place(shipped(source), target)
    finally:
        os.umask(old_umask)
    assert target.read_bytes() == b'{"content": "hi"}\n'
    assert target.stat().st_mode & 0o7777 == 0o664  # the driver's mode, not less the umask
    assert [p.name for p in target.parent.iterdir()] == ["cassette.jsonl"]


def test_a_link_planted_at_the_path_is_replaced_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    source = tmp_path / "cassette.jsonl"
    source.write_text("new\n")
    target = tmp_path / "node" / "cassette.jsonl"
    target.parent.mkdir()
    target.symlink_to(victim)
    place(shipped(source), target)
    assert victim.read_text() == "keep me"
    assert not target.is_symlink() and target.read_text() == "new\n"


def test_a_task_folder_is_placed_once_and_a_later_copy_keeps_the_first(tmp_path: Path) -> None:
    task = tmp_path / "driver" / "tabular-binary"
    (task / "prepared" / "public").mkdir(parents=True)
    (task / "prepared" / "public" / "train.csv").write_text("a,b\n1,2\n")
    (task / "description.md").write_text("first\n")
    (task / "raw.zip").mkdir()  # not part of a task folder's copy
    target = tmp_path / "node" / "tabular-binary"
    place(shipped(task), target)
    assert (target / "prepared" / "public" / "train.csv").read_text() == "a,b\n1,2\n"
    assert (target / "description.md").read_text() == "first\n"
    assert not (target / "raw.zip").exists()

    (task / "description.md").write_text("second\n")
    place(shipped(task), target)  # another run on this node was first: its copy stays
    assert (target / "description.md").read_text() == "first\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["tabular-binary"]
