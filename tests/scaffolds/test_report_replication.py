"""``python -m scaffolds.report`` on a PaperBench grid: the replication score (mean ± SEM over
seeds of the mean over papers), per-paper scores and the judge's cost, against hand values.

    paper   seed 0   seed 1
    rice    0.40     0.20
    pinn    0.10     (crashed: counts 0)
    => per-seed means 0.25, 0.10; score 0.175 ± 0.075
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scaffolds.grid.plan import needs_gpu
from scaffolds.report import main

SCORES = {("rice", 0): 0.4, ("rice", 1): 0.2, ("pinn", 0): 0.1}


def row(paper: str, seed: int) -> dict[str, Any]:
    score = SCORES.get((paper, seed))
    return {
        "scaffold": "iterative", "model": "o1", "task": f"paperbench/{paper}", "seed": seed,
        "status": "crashed" if score is None else "time_limit",
        "made_submission": score is not None, "valid_submission": score is not None,
        "score": score, "normalized_reward": score,
        "judge_cost_usd": None if score is None else 1.25, "tokens": 10, "cost_usd": 0.5,
    }  # fmt: skip


def test_paperbench_section_of_the_summary(tmp_path: Path) -> None:
    rows = [row(p, s) for p in ("rice", "pinn") for s in (0, 1)]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main([str(tmp_path), "--no-plots"]) == 0
    text = (tmp_path / "summary.md").read_text()
    section = text[text.index("## PaperBench replication score") :]
    assert "| iterative | `o1` | 0.175 ± 0.075 | 3.7500 | 0 |" in section
    assert "| rice | 0.300 ± 0.100 |" in section
    assert "| pinn | 0.050 ± 0.050 |" in section


def test_no_section_without_paperbench_runs(tmp_path: Path) -> None:
    plain = {**row("rice", 0), "task": "demo/tabular-binary"}
    (tmp_path / "results.jsonl").write_text(json.dumps(plain) + "\n")
    assert main([str(tmp_path), "--no-plots"]) == 0
    assert "PaperBench" not in (tmp_path / "summary.md").read_text()


def test_papers_ask_for_a_gpu_but_the_demo_does_not() -> None:
    assert needs_gpu("paperbench/rice") and not needs_gpu("paperbench/demo-james-stein")
