"""PaperBench tasks: splits, the data layout, missing files, and what the agent is given."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from bench_adapters import TaskNotPrepared, UnknownTask, list_tasks, resolve_task
from bench_adapters.paperbench import split_ids
from bench_adapters.paperbench.demo import demo_data_dir
from bench_adapters.paperbench.layout import read_blacklist
from tests.bench_adapters.paperbench.task_helpers import (
    DEMO,
    REFERENCE,
    paper_cache,
    rubric_requirements,
    run_cli,
)

__all__ = ["paper_cache"]

UPSTREAM_SPLITS = ("all", "dev", "lite", "human", "debug", "testing")


@pytest.mark.parametrize("split", UPSTREAM_SPLITS)
def test_splits_are_upstreams_ids_in_order(split: str) -> None:
    expected = (REFERENCE / "splits" / f"{split}.txt").read_text().split()
    assert split_ids(split) == expected
    assert list_tasks("paperbench", split) == [f"paperbench/{i}" for i in expected]


def test_split_sizes_and_the_demo() -> None:
    sizes = {s: len(split_ids(s)) for s in UPSTREAM_SPLITS}
    assert sizes == {"all": 20, "dev": 3, "lite": 5, "human": 5, "debug": 1, "testing": 1}
    assert set(split_ids("lite")) == set(split_ids("human"))
    assert list_tasks("paperbench", "demo") == [DEMO]
    assert len(list_tasks("paperbench")) == 24  # 20 + 3 dev + the demo


def test_list_cli_and_unknown_split() -> None:
    done = run_cli("bench_adapters", "list", "--benchmark", "paperbench", "--split", "lite")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [f"paperbench/{i}" for i in split_ids("lite")]
    done = run_cli("bench_adapters", "list", "--benchmark", "paperbench", "--split", "nope")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "unknown split 'nope'" in done.stderr


def write_paper(data: Path, paper_id: str, files: dict[str, str]) -> Path:
    folder = data / "papers" / paper_id
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_missing_data_paper_or_rubric_is_one_line_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PAPERBENCH_DATA_DIR", raising=False)
    with pytest.raises(TaskNotPrepared, match=r"PAPERBENCH_DATA_DIR or pass --data-dir"):
        resolve_task("paperbench/rice", data_dir=None)
    with pytest.raises(TaskNotPrepared, match=str(tmp_path / "papers" / "rice")):
        resolve_task("paperbench/rice", data_dir=tmp_path)
    rubric = (REFERENCE / "papers" / "rice" / "rubric.json").read_text()
    folder = write_paper(tmp_path, "rice", {"rubric.json": rubric})
    with pytest.raises(TaskNotPrepared) as caught:
        resolve_task("paperbench/rice", data_dir=tmp_path)
    assert str(caught.value) == f"paperbench/rice: missing {folder / 'paper.md'}"
    (folder / "paper.md").write_text("# RICE\n")
    (folder / "rubric.json").unlink()
    with pytest.raises(TaskNotPrepared) as caught:
        resolve_task("paperbench/rice", data_dir=tmp_path)
    assert str(caught.value) == f"paperbench/rice: missing {folder / 'rubric.json'}"
    (folder / "rubric.json").write_text("{not json")
    with pytest.raises(TaskNotPrepared, match=r"rubric.json: not JSON"):
        resolve_task("paperbench/rice", data_dir=tmp_path)
    with pytest.raises(UnknownTask, match="paperbench/no-such-paper"):
        resolve_task("paperbench/no-such-paper", data_dir=tmp_path)
    done = run_cli(
        "bench_adapters", "instructions", "--task", "paperbench/rice", "--data-dir", str(tmp_path)
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "rubric.json" in done.stderr


def test_an_upstream_layout_paper_resolves_with_its_public_files_only(
    tmp_path: Path, paper_cache: Path
) -> None:
    rubric = (REFERENCE / "papers" / "pinn" / "rubric.json").read_text()
    folder = write_paper(
        tmp_path,
        "pinn",
        {
            "paper.md": "# Challenges in Training PINNs\n",
            "addendum.md": "Use Adam+L-BFGS.\n",
            "blacklist.txt": (REFERENCE / "papers" / "pinn" / "blacklist.txt").read_text(),
            "config.yaml": 'id: pinn\ntitle: "Challenges in Training PINNs"\n',
            "rubric.json": rubric,
            "judge.addendum.md": "JUDGE ONLY: accept L2 error below 1e-3.\n",
        },
    )
    (folder / "assets").mkdir()
    (folder / "assets" / "fig1.png").write_bytes(b"\x89PNG")
    (folder / "judge").mkdir()
    (folder / "judge" / "other-paper.md").write_text("JUDGE ONLY\n")
    task = resolve_task("paperbench/pinn", data_dir=tmp_path)
    public = {p.relative_to(task.public_dir).as_posix() for p in task.public_dir.rglob("*")}
    assert public == {
        "paper", "paper/paper.md", "paper/addendum.md", "paper/blacklist.txt",
        "paper/assets", "paper/assets/fig1.png",
    }  # fmt: skip
    text = task.instructions(hardware="1 NVIDIA A10", time_limit_s=12 * 3600, max_steps=None)
    assert "Challenges in Training PINNs" in text and "12 hours" in text and "1 NVIDIA A10" in text
    assert "https://github.com/pratikrathore8/opt_for_pinns" in text
    assert "JUDGE ONLY" not in text
    leaf_texts = [n["requirements"] for n in _walk(json.loads(rubric))]
    assert not [r for r in leaf_texts if len(r) > 40 and r in text]
    assert read_blacklist(folder / "blacklist.txt") == [
        "https://github.com/pratikrathore8/opt_for_pinns"
    ]


def _walk(node: dict) -> list[dict]:
    return [node] + [n for child in node["sub_tasks"] for n in _walk(child)]


def test_blacklist_reading_follows_upstream(tmp_path: Path) -> None:
    path = tmp_path / "blacklist.txt"
    path.write_text("none\n")
    assert read_blacklist(path) == []
    path.write_text("# comment\n\n  https://a.example/x  \nhttps://b.example/y\n")
    assert read_blacklist(path) == ["https://a.example/x", "https://b.example/y"]
    assert read_blacklist(tmp_path / "missing.txt") == []


def test_demo_instructions_state_the_contract_and_never_the_rubric(paper_cache: Path) -> None:
    task = resolve_task(DEMO, reproduce_timeout=1800)
    text = task.instructions(hardware="a CPU", time_limit_s=5400, max_steps=40)
    for needle in (
        "1 hour 30 minutes",
        "a CPU",
        "at most 40 steps",
        "`submission/`",
        "reproduce.sh",
        "README.md",
        "under 1 GB",
        "only committed files are graded",
        "for at most 30 minutes",
        "https://github.com/paperbench-demo/james-stein-simulation",
        "flagged run scores 0",
        "data/paper/paper.md",
    ):
        assert needle in text, needle
    for requirement in rubric_requirements():
        assert requirement not in text
    assert "rubric" not in text.lower() and "judge.addendum" not in text
    code_dev = resolve_task(DEMO, code_dev=True).instructions(
        hardware="a CPU", time_limit_s=3600, max_steps=None
    )
    assert "not run during grading" in code_dev and "for at most" not in code_dev


def test_demo_private_files_live_in_a_private_cache(paper_cache: Path) -> None:
    task = resolve_task(DEMO)
    data = demo_data_dir()
    assert task.paper.dir == data / "papers" / "demo-james-stein"
    assert (task.paper.dir / "rubric.json").is_file()
    assert (
        data / "judge_eval" / "demo-james-stein" / "0" / "grading" / "expected_result.json"
    ).is_file()
    for folder in (paper_cache, data.parent):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert not list(task.public_dir.rglob("rubric.json"))
    assert not list(task.public_dir.rglob("*judge*"))
    assert task.is_lower_better is False and task.has_metric is False
    assert task.submission_relpath == "submission" and task.submission_is_folder
