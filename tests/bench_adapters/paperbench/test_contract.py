"""The submission contract: what ``validate`` accepts and refuses, read without git or links.

What counts is ``HEAD``'s tree (what the snapshot bundle holds), read from git's object files;
``git ls-tree`` is the oracle for loose objects, packs with both kinds of delta, and SHA-256.
"""

from __future__ import annotations

import os
import subprocess
import zlib
from pathlib import Path

import pytest

from bench_adapters.paperbench import gitobjects
from bench_adapters.paperbench.contract import check_submission, parse_index, read_repository
from tests.bench_adapters.paperbench.task_helpers import GIT, git, make_repo

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


def test_staged_files_do_not_count_as_committed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", {"run.py": "print(1)\n"})
    write = {"reproduce.sh": "python run.py\n", "README.md": "# Replication\n"}
    for name, text in write.items():
        (repo / name).write_text(text)
    git(repo, "add", "reproduce.sh", "README.md")
    ok, message = check_submission(repo)  # the bundle that gets graded would lack both
    assert not ok
    assert "reproduce.sh is staged but not committed: git commit it" in message
    assert "README.md is staged but not committed: git commit it" in message
    assert len(message.splitlines()) == 1
    git(repo, "commit", "--quiet", "-m", "add the script")
    assert check_submission(repo)[0]
    git(repo, "rm", "--cached", "--quiet", "reproduce.sh")  # unstaged, still committed
    assert check_submission(repo)[0]


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
    # a link in place of an object: refused, not followed
    sneaky = make_repo(tmp_path / "sneaky", GOOD)
    blob = _loose_object(sneaky, "reproduce.sh")
    blob.unlink()
    blob.symlink_to(_loose_object(real, "reproduce.sh"))
    ok, message = check_submission(sneaky)
    assert not ok and "cannot read the git repository" in message
    # the index is only read for a hint: a link there is not followed, and changes nothing
    hinted = make_repo(tmp_path / "hinted", {"README.md": "x"})
    (hinted / ".git" / "index").unlink()
    (hinted / ".git" / "index").symlink_to(real / ".git" / "index")  # stages reproduce.sh
    ok, message = check_submission(hinted)
    assert not ok and "reproduce.sh is not committed" in message and "staged" not in message


def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", GOOD)
    blob = _loose_object(repo, "run.py")
    blob.unlink()
    os.mkfifo(blob)
    ok, message = check_submission(repo)  # returns at once instead of blocking on the FIFO
    assert not ok and "not a regular file" in message
    index = make_repo(tmp_path / "index", GOOD)
    (index / ".git" / "index").unlink()
    os.mkfifo(index / ".git" / "index")
    assert check_submission(index)[0]  # the hint is skipped, unread


def _ls_tree(repo: Path) -> list[tuple[str, int, int]]:
    listed = git(repo, "ls-tree", "-r", "-l", "-z", "HEAD").split("\0")
    rows = [line.split("\t", 1) for line in listed if line]
    return sorted((path, int(meta.split()[0], 8), int(meta.split()[3])) for meta, path in rows)


def _read(repo: Path) -> list[tuple[str, int, int]]:
    return sorted((f.path, f.mode, f.size) for f in read_repository(repo).committed)


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_head_tree_matches_git_loose_packed_and_deltified(
    tmp_path: Path, object_format: str
) -> None:
    repo = tmp_path / "sub"
    repo.mkdir()
    git(repo, "init", "--quiet", f"--object-format={object_format}")
    lines = [f"line {i} of a file that changes a little every commit\n" for i in range(400)]
    files = {**GOOD, "src/model.py": "".join(lines), "data/blob.bin": "x" * 5000}
    for step in range(6):
        files[f"src/step{step}.py"] = f"STEP = {step}\n"
        files["src/model.py"] += f"# commit {step}\n"
        for rel, text in files.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text)
        os.symlink("src/model.py", repo / f"link{step}")
        git(repo, "add", "-A")
        git(repo, "commit", "--quiet", "-m", f"step {step}")
    assert _read(repo) == _ls_tree(repo)  # loose objects
    git(repo, "checkout", "--quiet", "--detach", "HEAD~3")  # an older tree: stored as deltas
    git(repo, "gc", "--quiet", "--aggressive")
    assert not any((repo / ".git" / "objects").glob("??/*"))
    assert _read(repo) == _ls_tree(repo)  # offset deltas
    git(repo, "-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "--quiet")
    assert _read(repo) == _ls_tree(repo)  # reference deltas
    git(repo, "pack-refs", "--all")
    git(repo, "checkout", "--quiet", "-")  # HEAD's ref is now packed only
    assert not any((repo / ".git" / "refs" / "heads").iterdir())
    assert read_repository(repo).commit == git(repo, "rev-parse", "HEAD").strip()
    assert _read(repo) == _ls_tree(repo)
    assert check_submission(repo)[0]
    ok, message = check_submission(repo, max_bytes=4000)
    assert not ok and "more than the 1 GB allowed" in message


def test_borrowed_objects_are_not_read(tmp_path: Path) -> None:
    real = make_repo(tmp_path / "real", GOOD)
    borrower = tmp_path / "borrower"
    git(tmp_path, "clone", "--quiet", "--shared", str(real), str(borrower))
    ok, message = check_submission(borrower)  # its objects lie in real/.git/objects
    assert not ok and "not found (objects/info/alternates is not read" in message
    git(borrower, "repack", "-a", "-d", "--quiet")
    (borrower / ".git" / "objects" / "info" / "alternates").unlink()
    assert check_submission(borrower)[0]


def test_sizes_are_the_blobs_own_not_the_index_32_bits(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", {**GOOD, "weights.bin": "tiny"})
    # the object of a 5 GB file: only its header is read, so a header is all it takes
    blob = _loose_object(repo, "weights.bin")
    os.chmod(blob, 0o644)
    blob.write_bytes(zlib.compress(b"blob 5000000000\0"))
    assert {f.path: f.size for f in read_repository(repo).committed}["weights.bin"] == 5 * 10**9
    ok, message = check_submission(repo)
    assert not ok and "the committed files take 5.00 GB" in message
    assert 5 * 10**9 % 2**32 < 10**9  # what a 32-bit size (the index's) would have claimed


def test_a_git_bomb_ends_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(tmp_path / "sub", GOOD)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    for _ in range(4):  # 10 ** 4 copies of the same three files, four trees in all
        rows = "".join(f"040000 tree {tree}\td{i}\n" for i in range(10))
        tree = subprocess.run([*GIT, "-C", str(repo), "mktree"], input=rows, capture_output=True,
                              text=True, check=True).stdout.strip()  # fmt: skip
    commit = git(repo, "commit-tree", tree, "-m", "bomb").strip()
    git(repo, "update-ref", "HEAD", commit)
    monkeypatch.setattr(gitobjects, "MAX_FILES", 1000)
    ok, message = check_submission(repo)
    assert not ok and "more than 1000 files are committed" in message


def test_index_versions_are_read_for_the_staged_hint(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", {**GOOD, "data/blob.bin": "x" * 5000})
    for version in ("2", "3", "4"):
        git(repo, "update-index", "--index-version", version)
        index = (repo / ".git" / "index").read_bytes()
        listed = git(repo, "ls-files", "-s").splitlines()
        assert sorted(e.path for e in parse_index(index)) == sorted(
            line.split("\t")[1] for line in listed
        )
        assert {e.path: e.size for e in parse_index(index)}["data/blob.bin"] == 5000


def test_garbage_never_raises(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "sub", GOOD)
    (repo / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x02\x00\x00\x00\x09garbage")
    assert check_submission(repo)[0]  # the index gives hints only
    for garbage in (b"not zlib at all", zlib.compress(b"blob nonsense"), b""):
        blob = _loose_object(repo, "README.md")
        os.chmod(blob, 0o644)
        blob.write_bytes(garbage)
        ok, message = check_submission(repo)
        assert not ok and message.startswith("Submission invalid!")
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    (repo / ".git" / "objects" / tree[:2] / tree[2:]).chmod(0o644)
    (repo / ".git" / "objects" / tree[:2] / tree[2:]).write_bytes(zlib.compress(b"tree 3\0abc"))
    ok, message = check_submission(repo)  # a forged tree does not match its hash
    assert not ok and "does not match its hash" in message
    with pytest.raises(ValueError):
        parse_index(b"nope")


def _loose_object(repo: Path, path: str) -> Path:
    oid = git(repo, "rev-parse", f"HEAD:{path}").strip()
    return repo / ".git" / "objects" / oid[:2] / oid[2:]
