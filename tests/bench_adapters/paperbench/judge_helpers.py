"""Shared helpers of the grading-half tests: stand-in papers and submissions, scripted judges.

The reference data (real rubrics and human-graded trees) is read from ``../shared/reference``;
paper texts and submissions are written here, small, so every prompt can be checked.
"""

from __future__ import annotations

import json
import os
import re
import tarfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scaffolds.messages import ModelResponse, ToolCall, Usage
from scaffolds.replay import ScriptedModel

REPO = Path(__file__).resolve().parents[3]
REFERENCE = REPO.parent / "shared" / "reference" / "paperbench"
HUMAN_GRADED = sorted(p.name for p in (REFERENCE / "judge_eval").iterdir())

PAPER = """# Stand-in paper

We train a small physics-informed network with Adam (learning rate 0.001) and report its
test error in Table 1. The error of the baseline is 0.12; ours is 0.03.
"""
ADDENDUM = "The width of the network may be 50 or 100."
JUDGE_ADDENDUM = "Judges: accept any error below 0.05 as agreeing with Table 1."
REPRODUCE_SH = "#!/bin/bash\npython train.py > results/metrics.csv\n"
REPRODUCE_LOG = "epoch 1 loss 0.5\nepoch 2 loss 0.1\ntest error 0.03\n"

SUBMISSION = {
    "README.md": "# Reproduction\nRun reproduce.sh; it trains the network and writes results.\n",
    "train.py": "import optim\n\ndef train():\n    return optim.adam(learning_rate=0.001)\n",
    "optim.py": "def adam(learning_rate):\n    return {'optimizer': 'adam', 'lr': learning_rate}\n",
    "configs/width.yaml": "width: 50\n",
    "results/metrics.csv": "method,error\nours,0.03\n",
    "results/old_table.csv": "method,error\nbaseline,0.12\n",
    "reproduce.sh": REPRODUCE_SH,
    ".venv/lib/site.py": "print('never read')\n",
    "weights.bin": "\x00\x01binary",
}
CHANGED = ["results/metrics.csv", "reproduce.log"]


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def write_paper(folder: Path, rubric: dict[str, Any], judge_addendum: bool = True) -> Path:
    files = {"paper.md": PAPER, "addendum.md": ADDENDUM, "rubric.json": json.dumps(rubric)}
    if judge_addendum:
        files["judge.addendum.md"] = JUDGE_ADDENDUM
    return write_tree(folder, files)


def leaf(id_: str, category: str, requirements: str, weight: int = 1, **extra: Any) -> dict:
    return {
        "id": id_,
        "requirements": requirements,
        "weight": weight,
        "sub_tasks": [],
        "task_category": category,
        **extra,
    }


def node(id_: str, children: list[dict], weight: int = 1) -> dict:
    return {"id": id_, "requirements": f"group {id_}", "weight": weight, "sub_tasks": children}


SMALL_RUBRIC = node(
    "root",
    [
        node(
            "impl",
            [
                leaf(
                    "cd-adam",
                    "Code Development",
                    "Adam with learning rate 0.001 is implemented.",
                    finegrained_task_category="Method Implementation",
                ),
                leaf(
                    "cd-data",
                    "Code Development",
                    "The dataset is downloaded.",
                    finegrained_task_category="Dataset and Model Acquisition",
                ),
            ],
            weight=2,
        ),
        node(
            "run",
            [
                leaf(
                    "ce-train",
                    "Code Execution",
                    "Training was run with Adam.",
                    finegrained_task_category="Experimental Setup",
                ),
                leaf(
                    "ra-table",
                    "Result Analysis",
                    "The test error is below 0.05, as in Table 1.",
                    finegrained_task_category="Logging, Analysis & Presentation",
                ),
            ],
        ),
    ],
)


def criterion_of(messages: list[dict[str, Any]]) -> str:
    """The requirement a grading (or ranking) prompt asks about."""
    found = re.search(r"<criterion>\n(.*?)\n</criterion>", messages[-1]["content"], re.S)
    assert found, "the last message names no criterion"
    return found.group(1)


def reply(tool: str, arguments: Any, cost: float | None = 0.001) -> ModelResponse:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ModelResponse(
        content=None,
        tool_calls=[ToolCall("call-1", tool, args)],
        usage=Usage(prompt_tokens=100, completion_tokens=10, cost_usd=cost),
    )


def is_ranking(tools: list[dict[str, Any]] | None) -> bool:
    return bool(tools) and "files" in tools[0]["function"]["parameters"]["properties"]


class Recorder:
    """A scripted judge that records every prompt: ``grade(requirement) -> 0 | 1 | raw str``
    answers gradings, ``rank(requirement, listing) -> [paths]`` answers rankings."""

    def __init__(
        self,
        grade: Callable[[str], int | str] = lambda r: 1,
        rank: Callable[[str, str], list[str] | str] | None = None,
        delay_s: float = 0.0,
        name: str = "scripted-judge",
    ):
        self.grade, self.rank, self.delay_s = grade, rank, delay_s
        self.gradings: list[list[dict[str, Any]]] = []
        self.rankings: list[list[dict[str, Any]]] = []
        self._lock = threading.Lock()
        self.model = ScriptedModel(self._policy, name=name)

    def _policy(self, messages: list[dict[str, Any]], tools: Any) -> ModelResponse:
        if self.delay_s:
            time.sleep(self.delay_s)
        tool = tools[0]["function"]["name"]
        requirement = criterion_of(messages)
        if is_ranking(tools):
            with self._lock:
                self.rankings.append(messages)
            listing = messages[-1]["content"]
            files = self.rank(requirement, listing) if self.rank else []
            return reply(tool, files if isinstance(files, str) else {"files": files})
        with self._lock:
            self.gradings.append(messages)
        score = self.grade(requirement)
        if isinstance(score, str):
            return reply(tool, score)
        return reply(
            tool, {"expectations": "what the paper asks", "reality": "what we saw", "score": score}
        )

    def prompt_for(self, requirement: str) -> list[dict[str, Any]]:
        (found,) = [m for m in self.gradings if criterion_of(m) == requirement]
        return found


def leaves_of(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A graded report's leaves by id."""
    found: dict[str, dict[str, Any]] = {}

    def walk(node: dict[str, Any]) -> None:
        if not node["sub_tasks"]:
            found[node["id"]] = node
        for child in node["sub_tasks"]:
            walk(child)

    walk(report["graded_tree"])
    return found


def write_judge_eval(
    data_dir: Path,
    papers: list[str],
    trees: dict[str, dict] | None = None,
    log: str = REPRODUCE_LOG,
    extra: dict[str, str] | None = None,
) -> Path:
    """Upstream's JudgeEval layout with the real human-graded trees and stand-in submissions:
    a tar of ``submission/`` whose ``reproduce.log.creation_time`` predates only the results."""
    for paper in papers:
        tree = (trees or {}).get(paper) or json.loads(
            (
                REFERENCE / "judge_eval" / paper / "0" / "grading" / "expected_result.json"
            ).read_text()
        )
        write_tree(data_dir / "papers" / paper, {"paper.md": PAPER, "addendum.md": ADDENDUM})
        case = data_dir / "judge_eval" / paper / "0"
        write_tree(case / "grading", {"expected_result.json": json.dumps(tree)})
        staging = data_dir / "staging" / paper / "submission"
        write_tree(staging, {k: v for k, v in SUBMISSION.items() if not k.startswith(".venv")})
        write_tree(staging, {"reproduce.log": log, **(extra or {})})
        start = time.time() - 3600
        for path in staging.rglob("*"):
            os.utime(path, (start - 60, start - 60))
        (staging / "reproduce.log.creation_time").write_text(str(int(start)))
        os.utime(staging / "results" / "metrics.csv", (start + 60, start + 60))
        os.utime(staging / "reproduce.log", (start + 120, start + 120))
        with tarfile.open(case / "submission.tar", "w") as tar:
            tar.add(staging, arcname="submission")
    return data_dir
