"""AIDE with several nodes in flight: whole runs through real kernels, folders, validator and
grader, driven by a cassette keyed by node and call."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from aide_tree.cassette import keyed, operator_reply, review_call, write_cassette
from aide_tree.journal import KEYED_VERSION, TIMING
from scaffolds.aide import main
from scaffolds.view.load import read_tree

REPO = Path(__file__).resolve().parents[2]
SAMPLE = 'import shutil\nshutil.copy("data/sample_submission.csv", "submission/submission.csv")\n'
BROKEN = 'import csv\nprint(next(csv.DictReader(open("data/train.csv")))["nope"])\n'
DIE = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
ENV = 'import os\nprint("threads", os.environ.get("OMP_NUM_THREADS"), "end")\n'
NODES: list[tuple[str, bool, float | None]] = [  # (code, is_bug, metric) by node id
    (SAMPLE + ENV + "import time\ntime.sleep(1.5)\n", False, 0.5),
    (BROKEN, True, None),
    (SAMPLE + "import time\ntime.sleep(1.5)\n", False, 0.6),
    (SAMPLE + "import time\ntime.sleep(1.0)\n", False, 0.55),
    (BROKEN, True, None),
    (SAMPLE, False, 0.7),
    (SAMPLE + "import time\ntime.sleep(0.5)\n", False, 0.65),
]


def cassette(folder: Path, nodes: list[tuple[str, bool, float | None]] = NODES) -> Path:
    replies = {
        i: [operator_reply(f"Attempt {i}.", code), review_call(bug, f"Review {i}.", metric)]
        for i, (code, bug, metric) in enumerate(nodes)
    }
    return write_cassette(folder / "keyed.jsonl", keyed(replies))


def flags(steps: int, width: int) -> list[str]:
    return [
        *("--task", "demo/tabular-binary", "--steps", str(steps), "--num-drafts", "2"),
        *("--debug-prob", "0.5", "--seed", "3", "--parallel-nodes", str(width)),
    ]


def journal(run_dir: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *nodes = (json.loads(line) for line in (run_dir / "journal.jsonl").open())
    return header, nodes


def deterministic(run_dir: Path) -> list[dict[str, Any]]:
    """The nodes by id, without what depends on the machine's speed."""
    _, nodes = journal(run_dir)
    drop = {"duration_s", *TIMING}
    return sorted(
        ({k: v for k, v in n.items() if k not in drop} for n in nodes), key=lambda n: n["id"]
    )


def events(run_dir: Path) -> list[dict[str, Any]]:
    """The trajectory's events (a line still being written is left out)."""
    lines = (run_dir / "trajectory.jsonl").read_text().split("\n")[:-1]
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def reference(runs_root: Path) -> Path:
    """The same keyed replay run twice with three nodes in flight."""
    folder = runs_root / "parallel-reference"
    folder.mkdir(mode=0o711)
    replay = cassette(folder)
    for name in ("first", "second"):
        argv = ["--model", f"replay:{replay}", "--out", str(folder / name), *flags(len(NODES), 3)]
        assert main(argv) == 0
    return folder


def test_three_nodes_in_flight_finish_with_a_valid_graded_submission(reference: Path) -> None:
    run_dir = reference / "first"
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["status"] == "step_limit" and summary["steps"] == len(NODES)
    assert summary["grade"]["valid_submission"]
    assert summary["best_node"] == 5  # metric 0.7, the best of the working nodes
    assert (run_dir / "best_solution.py").read_text() == SAMPLE
    assert "3 nodes in flight" in summary["node_resources"]

    header, nodes = journal(run_dir)
    assert header["format_version"] == KEYED_VERSION
    assert sorted(n["id"] for n in nodes) == list(range(len(NODES)))
    by_id = {n["id"]: n for n in nodes}
    assert all(n["ended_at"] >= n["started_at"] for n in nodes)
    # the nodes really ran at once: some started before an earlier-decided one ended
    assert any(by_id[i + 1]["started_at"] < by_id[i]["ended_at"] for i in range(len(NODES) - 1))
    # each lane's kernel got its share of the cores, and works in its own folder
    assert f"threads {max(1, (os.cpu_count() or 1) // 3)} end" in by_id[0]["output"]
    for lane in ("1", "2"):
        assert (run_dir / "workspace" / "nodes" / lane / "submission").is_dir()
        assert os.readlink(run_dir / "workspace" / "nodes" / lane / "data") == "../../data"
    # the pages read the keyed journal: every node, with its times for a timeline
    tree = read_tree(run_dir, "demo/tabular-binary")
    assert tree is not None and sorted(n["id"] for n in tree["nodes"]) == list(range(len(NODES)))
    assert all("started_at" in n for n in tree["nodes"]) and tree["best_id"] == 5
    # the trajectory names each model call's node
    calls = [e for e in events(run_dir) if e["kind"] == "model_call"]
    assert sorted(e["node"] for e in calls) == sorted(2 * list(range(len(NODES))))


def test_the_same_keyed_replay_gives_the_same_journal_whatever_the_timing(
    reference: Path,
) -> None:
    first, second = deterministic(reference / "first"), deterministic(reference / "second")
    assert first == second
    assert {n["operator"] for n in first} >= {"draft", "improve"}


def test_one_node_kernel_dying_does_not_stop_the_others(runs_root: Path, run_dir: Path) -> None:
    nodes = [
        (SAMPLE, False, 0.5),
        (DIE, True, None),
        (SAMPLE + "import time\ntime.sleep(1)\n", False, 0.6),
    ]
    nodes += [(SAMPLE, False, 0.65), (SAMPLE, False, 0.4)]
    replay = cassette(run_dir.parent, nodes)
    argv = ["--model", f"replay:{replay}", "--out", str(run_dir), *flags(len(nodes), 3)]
    assert main(argv) == 0
    by_id = {n["id"]: n for n in journal(run_dir)[1]}
    assert len(by_id) == len(nodes)
    assert by_id[1]["exception"] == "KernelDied" and by_id[1]["is_buggy"]
    assert sorted(i for i, n in by_id.items() if not n["is_buggy"]) == [0, 2, 3, 4]
    assert json.loads((run_dir / "run.json").read_text())["grade"]["valid_submission"]


def test_the_time_limit_stops_every_node_in_flight(run_dir: Path) -> None:
    slow = SAMPLE + "import time\ntime.sleep(120)\n"
    nodes = [(SAMPLE, False, 0.5)] + [(slow, False, 0.6)] * 5
    replay = cassette(run_dir.parent, nodes)
    argv = ["--model", f"replay:{replay}", "--out", str(run_dir), *flags(len(nodes), 3)]
    started = time.monotonic()
    main([*argv, "--time-limit", "8s"])
    assert time.monotonic() - started < 60
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["status"] in {"time_limit", "wall_limit"}
    finished = {n["id"] for n in journal(run_dir)[1]}
    stopped = {e["id"] for e in events(run_dir) if e["kind"] == "node_stopped"}
    assert 0 in finished and not finished & stopped
    started_ids = {e["node"] for e in events(run_dir) if e["kind"] == "model_call"}
    assert started_ids == finished | stopped  # every node begun either completed or was stopped
    assert summary["grade"]["valid_submission"]  # node 0's submission stands


def test_a_killed_parallel_run_resumes_rerunning_only_the_nodes_in_flight(
    reference: Path, run_dir: Path
) -> None:
    """SIGKILL with nodes in flight, then --resume: the journal of an uninterrupted run.
    Slow: two runs in subprocesses, each starting three kernels and grading (about 40 s)."""
    replay = cassette(run_dir.parent)
    command = [sys.executable, "-m", "scaffolds.aide"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [*command, "--model", f"replay:{replay}", "--out", str(run_dir), *flags(len(NODES), 3)],
        cwd=REPO,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    path = run_dir / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:  # 2 nodes done, others in flight
        lines = path.read_text().split("\n")[1:-1] if path.is_file() else []
        if len(lines) >= 2:
            done_ids = {json.loads(line)["id"] for line in lines}
            if {e["node"] for e in events(run_dir) if e["kind"] == "model_call"} - done_ids:
                break
        time.sleep(0.02)
    assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed = {n["id"]: n for n in deterministic(run_dir)}
    begun = {e["node"] for e in events(run_dir) if e["kind"] == "model_call"}
    in_flight = begun - set(killed)
    assert in_flight, "the kill should land with nodes in flight"

    done = subprocess.run(
        [*command, "--resume", str(run_dir)], cwd=REPO, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert deterministic(run_dir) == deterministic(reference / "first")
    resumed = deterministic(run_dir)
    assert all(resumed[i] == node for i, node in killed.items())  # kept, not rerun
    trail = events(run_dir)
    [resume] = [e for e in trail if e["kind"] == "resume"]
    assert resume["node_ids"] == sorted(killed)
    node_events = [e["id"] for e in trail if e["kind"] == "node"]
    assert len(node_events) == len(set(node_events))  # no node recorded twice
    assert set(range(len(NODES))) - set(killed) <= set(node_events)  # the rest were made


def test_one_node_at_a_time_is_todays_search_with_either_kind_of_replay(run_dir: Path) -> None:
    """--parallel-nodes 1 writes today's journal (format 2, no timing fields), and a keyed
    replay of the same answers gives it too."""
    nodes = NODES[:4]
    keyed_file = cassette(run_dir.parent, nodes)
    in_order = [json.loads(line) for line in keyed_file.open()]
    for record in in_order:
        del record["node"], record["call"]
    stream = write_cassette(run_dir.parent / "stream.jsonl", in_order)  # node 0's, node 1's...
    runs = {}
    for name, replay, extra in (
        ("stream", stream, []),
        ("stream-n1", stream, ["--parallel-nodes", "1"]),
        ("keyed-n1", keyed_file, ["--parallel-nodes", "1"]),
    ):
        out = run_dir.parent / name
        argv = ["--model", f"replay:{replay}", "--out", str(out), *flags(len(nodes), 1)[:-2]]
        assert main([*argv, *extra]) == 0
        header, records = journal(out)
        assert header["format_version"] == 2 and [n["id"] for n in records] == [0, 1, 2, 3]
        assert not any(set(TIMING) & set(n) for n in records)
        runs[name] = deterministic(out)
    assert runs["stream"] == runs["stream-n1"] == runs["keyed-n1"]


def test_a_replay_in_order_is_refused_with_nodes_in_flight(run_dir: Path, capsys: Any) -> None:
    stream = write_cassette(run_dir.parent / "stream.jsonl", [operator_reply("p", SAMPLE)])
    argv = ["--model", f"replay:{stream}", "--out", str(run_dir), *flags(2, 2)]
    assert main(argv) != 0
    assert "keyed by node" in capsys.readouterr().err
