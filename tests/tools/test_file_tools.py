"""view, create, str_replace and insert, through the toolset, on real files."""

import json
from pathlib import Path

import pytest

from tools import Observation, Sandbox, Toolset, Workspace


def call(toolset: Toolset, name: str, **args: object) -> Observation:
    return toolset.call(name, json.dumps(args))


@pytest.fixture
def notes(workspace: Workspace, toolset: Toolset, request: pytest.FixtureRequest) -> str:
    """A fresh five-line file in working/, written by the agent; returns its relative path."""
    rel = f"working/{request.node.name}.txt"
    obs = call(toolset, "create", path=rel, file_text="one\ntwo\nthree\ntwo\nfive\n")
    assert obs.kind == "ok", obs.text
    return rel


def test_view_numbers_lines_and_honours_a_range(
    toolset: Toolset, workspace: Workspace, notes: str
) -> None:
    text = call(toolset, "view", path=notes).text
    assert text.splitlines()[0] == f"{workspace.resolve(notes)}, lines 1-5 of 5:"
    assert text.splitlines()[1:] == [
        f"{i:6}\t{w}" for i, w in enumerate(["one", "two", "three", "two", "five"], 1)
    ]
    part = call(toolset, "view", path=notes, view_range=[2, 3]).text.splitlines()
    assert part[1:] == ["     2\ttwo", "     3\tthree"]
    assert call(toolset, "view", path=notes, view_range=[4, -1]).text.splitlines()[1:] == [
        "     4\ttwo",
        "     5\tfive",
    ]
    clamped = call(toolset, "view", path=notes, view_range=[5, 99])
    assert clamped.kind == "ok" and "file ends at line 5" in clamped.text


def test_view_line_out_of_range_missing_file_and_bad_range(toolset: Toolset, notes: str) -> None:
    obs = call(toolset, "view", path=notes, view_range=[9, 12])
    assert obs.kind == "tool_error" and "has 5 lines" in obs.text
    obs = call(toolset, "view", path="working/nope.txt")
    assert obs.kind == "tool_error" and "does not exist" in obs.text
    assert call(toolset, "view", path=notes, view_range=[3, 2]).kind == "tool_error"
    assert call(toolset, "view", path=notes, view_range=[1]).kind == "tool_error"


def test_view_directory_two_levels_without_hidden_entries(
    toolset: Toolset, workspace: Workspace
) -> None:
    setup = "mkdir -p working/tree/a/b/c working/tree/.hidden && touch working/tree/a/b/deep.txt working/tree/top.txt working/tree/.dot"
    assert call(toolset, "bash", command=setup).kind == "ok"
    lines = call(toolset, "view", path="working/tree").text.splitlines()
    assert lines[0].startswith(f"Files and directories in {workspace.working / 'tree'}")
    assert lines[1:] == ["a/", "a/b/", "top.txt"]
    root_listing = call(toolset, "view", path=".").text
    assert "data/train.csv" in root_listing and "data/images/a.png" not in root_listing


def test_view_refuses_binary_files(toolset: Toolset) -> None:
    call(toolset, "bash", command="printf 'a\\0b' > working/blob.bin")
    obs = call(toolset, "view", path="working/blob.bin")
    assert obs.kind == "tool_error" and "binary" in obs.text


def test_create_new_nested_and_overwrite(
    toolset: Toolset, workspace: Workspace, sandbox: Sandbox
) -> None:
    obs = call(toolset, "create", path="code/pkg/deep/mod.py", file_text="x = 1\n")
    assert obs.kind == "ok" and obs.text.startswith("Created") and "(1 lines)" in obs.text
    target = workspace.code / "pkg" / "deep" / "mod.py"
    assert target.read_text() == "x = 1\n"
    if sandbox.isolated:
        assert target.stat().st_uid == sandbox.uid
    obs = call(toolset, "create", path=str(target), file_text="y = 2")
    assert obs.text.startswith("Overwrote") and target.read_text() == "y = 2"


def test_create_on_a_directory_or_in_data_fails(toolset: Toolset, sandbox: Sandbox) -> None:
    obs = call(toolset, "create", path="working", file_text="x")
    assert obs.kind == "tool_error" and "is a directory" in obs.text
    if sandbox.isolated:
        obs = call(toolset, "create", path="data/train.csv", file_text="overwritten")
        refusal = "Read-only file system" if sandbox.backend == "namespace" else "Permission denied"
        assert obs.kind == "tool_error" and refusal in obs.text


def test_str_replace_exactly_one_occurrence(
    toolset: Toolset, workspace: Workspace, notes: str
) -> None:
    path = workspace.resolve(notes)
    obs = call(toolset, "str_replace", path=notes, old_str="three", new_str="3")
    assert obs.kind == "ok" and "     3\t3" in obs.text
    assert path.read_text() == "one\ntwo\n3\ntwo\nfive\n"
    obs = call(toolset, "str_replace", path=notes, old_str="seven", new_str="7")
    assert obs.kind == "tool_error" and "does not occur" in obs.text
    obs = call(toolset, "str_replace", path=notes, old_str="two", new_str="2")
    assert obs.kind == "tool_error" and "occurs 2 times" in obs.text and "lines 2, 4" in obs.text
    assert path.read_text() == "one\ntwo\n3\ntwo\nfive\n"  # untouched by the failures
    obs = call(toolset, "str_replace", path=notes, old_str="two\nfive\n", new_str="")
    assert obs.kind == "ok" and path.read_text() == "one\ntwo\n3\n"


def test_str_replace_missing_file_directory_and_empty_old_str(toolset: Toolset, notes: str) -> None:
    assert (
        "does not exist"
        in call(toolset, "str_replace", path="working/none.py", old_str="a", new_str="b").text
    )
    assert (
        "is a directory"
        in call(toolset, "str_replace", path="working", old_str="a", new_str="b").text
    )
    assert (
        "old_str is empty" in call(toolset, "str_replace", path=notes, old_str="", new_str="b").text
    )


def test_str_replace_keeps_bytes_that_are_not_utf8(toolset: Toolset, workspace: Workspace) -> None:
    call(toolset, "bash", command="printf 'caf\\xe9 old\\n' > working/latin1.txt")
    obs = call(toolset, "str_replace", path="working/latin1.txt", old_str="old", new_str="new")
    assert obs.kind == "ok"
    assert (workspace.working / "latin1.txt").read_bytes() == b"caf\xe9 new\n"


def test_insert_top_middle_end_and_out_of_range(
    toolset: Toolset, workspace: Workspace, notes: str
) -> None:
    path = workspace.resolve(notes)
    assert call(toolset, "insert", path=notes, insert_line=0, insert_text="zero").kind == "ok"
    assert call(toolset, "insert", path=notes, insert_line=6, insert_text="six\n").kind == "ok"
    obs = call(toolset, "insert", path=notes, insert_line=2, insert_text="a\nb")
    assert obs.kind == "ok" and "     3\ta" in obs.text and "     4\tb" in obs.text
    assert path.read_text() == "zero\none\na\nb\ntwo\nthree\ntwo\nfive\nsix\n"
    obs = call(toolset, "insert", path=notes, insert_line=10, insert_text="x")
    assert obs.kind == "tool_error" and "has 9 lines" in obs.text and "0 to 9" in obs.text
    assert call(toolset, "insert", path=notes, insert_line=-1, insert_text="x").kind == "tool_error"
    assert (
        "does not exist"
        in call(toolset, "insert", path="nope.txt", insert_line=0, insert_text="x").text
    )


def test_insert_after_a_last_line_without_newline(toolset: Toolset, workspace: Workspace) -> None:
    call(toolset, "create", path="working/nonl.txt", file_text="a\nb")
    call(toolset, "insert", path="working/nonl.txt", insert_line=2, insert_text="c")
    assert (workspace.working / "nonl.txt").read_text() == "a\nb\nc\n"


def test_absolute_paths_outside_the_workspace_work_like_the_agents_own(toolset: Toolset) -> None:
    obs = call(toolset, "view", path="/etc/hostname")
    assert obs.kind == "ok" and Path("/etc/hostname").read_text().strip() in obs.text


def test_view_of_a_large_file_is_capped_and_counts_every_line(toolset: Toolset) -> None:
    call(toolset, "bash", command="seq 1 200000 > working/big.txt")
    text = call(toolset, "view", path="working/big.txt").text
    assert "lines 1-200000 of 200000" in text and "characters elided" in text
    assert len(text) < 16_300 and text.endswith("200000\t200000")
    part = call(toolset, "view", path="working/big.txt", view_range=[150000, 150001]).text
    assert part.splitlines()[1:] == ["150000\t150000", "150001\t150001"]
