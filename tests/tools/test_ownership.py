"""Handing the agent its folders: made where missing, remade where the agent left a link or a
file, given away whole, and never through a link (the escape suites run it on a real resume)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tools.ownership import give_folders
from tools.sandbox import ensure_user

pytestmark = pytest.mark.usefixtures("as_root")


def test_nested_folders_are_made_and_a_link_on_the_way_is_replaced(
    agent_dir: Callable[[str], Path], agent_user: str
) -> None:
    agent = ensure_user(agent_user)
    root = agent_dir("scaffolds-owner-")
    outside = root / "outside"
    (outside / "python3.11").mkdir(parents=True)
    (root / ".pydeps").mkdir()
    (root / ".pydeps" / "lib").symlink_to(outside)  # a link one level down
    (root / "code").write_text("notes")  # a file where a folder belongs
    (root / "working" / "deep").mkdir(parents=True)
    (root / "working" / "deep" / "made-by-root.txt").write_text("x")
    (root / "working" / "out").symlink_to(outside)
    repairs = give_folders(
        root,
        [".pydeps/lib/python3.11/site-packages", "code", "working"],
        agent.pw_uid,
        agent.pw_gid,
    )
    assert repairs == [
        f"{root}/.pydeps/lib was a link to {outside}: removed the link, made an empty folder",
        f"{root}/code was not a folder: renamed it to code.not-a-folder, made an empty folder",
    ]
    site = root / ".pydeps" / "lib" / "python3.11" / "site-packages"
    assert site.is_dir() and not (root / ".pydeps" / "lib").is_symlink()
    assert (root / "code.not-a-folder").read_text() == "notes"
    mine = [root / ".pydeps", site, root / "code", root / "working" / "deep" / "made-by-root.txt"]
    assert all(p.stat().st_uid == agent.pw_uid for p in mine)
    assert os.lstat(root / "working" / "out").st_uid == agent.pw_uid  # the link itself
    assert [p.stat().st_uid for p in (outside, outside / "python3.11")] == [0, 0]
    assert list((outside / "python3.11").iterdir()) == []  # nothing made through the link
