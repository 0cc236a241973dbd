"""The submission contract: what ``validate`` accepts and refuses, read without git or links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench_adapters.paperbench.contract import check_submission, parse_index, tracked_files
from tests.bench_adapters.paperbench.task_helpers import git, make_repo

GOOD = {"reproduce.sh": "python run.py\n", "README.md": "# Replication\n", "run.py": "print(1)\n"}


def test_a_committed_repository_with_script_and_readme_is_valid(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", GOOD)
    ok, message = check_submission(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    assert ok and message.startswith("Submission is valid") and head[:12] in message
    assert "3 committed file(s)" in message


@pytest.mark.parametrize(
    ("files", "commit", "expected"),
    [
        ({"README.md": "x"}, True, "reproduce.sh is not committed"),
        ({"reproduce.sh": "x"}, True, "no README"),
        ({"reproduce.sh": "x", "docs/README.md": "x"}, True, "no README"),
        (GOOD, False, "no commit yet"),
    ],
)
def test_contract_breaches_say_what_is_missing(
    tmp_path: Path, files: dict[str, str], commit: bool, expected: str
) -> None:
    ok, message = check_submission(make_repo(tmp_path / "sub", files, commit=commit))
    assert not ok and message.startswith("Submission invalid!") and expected in message


def test_untracked_files_do_not_count_as_committed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", {"README.md": "x"})
    (repo / "reproduce.sh").write_text("echo untracked\n")
    ok, message = check_submission(repo)
    assert not ok and "reproduce.sh is not committed" in message


def test_not_a_folder_not_a_repository_and_nothing_there(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "reproduce.sh").write_text("x")
    assert "not a git repository" in check_submission(plain)[1]
    assert "no folder" in check_submission(tmp_path / "missing")[1].lower()
    assert "not a folder" in check_submission(plain / "reproduce.sh")[1]


def test_links_are_refused_never_followed(tmp_path: Path) -> None:
    real = make_repo(tmp_path / "real", GOOD)
    linked = tmp_path / "linked"
    linked.symlink_to(real)
    assert check_submission(linked)[0] is False
    repo = tmp_path / "git-link"
    repo.mkdir()
    (repo / ".git").symlink_to(real / ".git")
    ok, message = check_submission(repo)
    assert not ok and "link" in message
    # a link at the index: refused, not followed
    sneaky = make_repo(tmp_path / "sneaky", GOOD)
    (sneaky / ".git" / "index").unlink()
    (sneaky / ".git" / "index").symlink_to(real / ".git" / "index")
    assert check_submission(sneaky)[0] is False


def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", GOOD)
    (repo / ".git" / "index").unlink()
    os.mkfifo(repo / ".git" / "index")
    ok, message = check_submission(repo)  # returns at once instead of blocking on the FIFO
    assert not ok and "not a regular file" in message


def test_packed_refs_index_versions_and_size_limit(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", {**GOOD, "data/blob.bin": "x" * 5000})
    git(repo, "pack-refs", "--all")
    assert (repo / ".git" / "packed-refs").is_file()
    assert not any((repo / ".git" / "refs" / "heads").iterdir())  # HEAD's ref is packed only
    for version in ("2", "3", "4"):
        git(repo, "update-index", "--index-version", version)
        commit, entries = tracked_files(repo)
        assert commit == git(repo, "rev-parse", "HEAD").strip()
        listed = git(repo, "ls-files", "-s").splitlines()
        assert sorted(e.path for e in entries) == sorted(line.split("\t")[1] for line in listed)
        assert {e.path: e.size for e in entries}["data/blob.bin"] == 5000
    assert check_submission(repo)[0]
    ok, message = check_submission(repo, max_bytes=4000)
    assert not ok and "more than the 1 GB allowed" in message


def test_garbage_never_raises(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", GOOD)
    (repo / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x02\x00\x00\x00\x09garbage")
    ok, message = check_submission(repo)
    assert not ok and message.startswith("Submission invalid!")
    with pytest.raises(ValueError):
        parse_index(b"nope")
