"""Helpers the baseline tests share: the CPU-only ids, a CLI runner type, stand-in leaderboards."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from bench_adapters import resolve_task
from bench_adapters.mlebench import split_ids
from bench_adapters.mlebench.synthetic import answers_as_submission

CPU_ONLY = split_ids("cpu_only")

RunCli = Callable[..., subprocess.CompletedProcess[str]]


def write_checkout(root: Path, data_dir: Path, ids: list[str], median_share: float) -> Path:
    """A stand-in mle-bench checkout: one 150-team leaderboard per competition, best first.

    Team scores run from the answers' score (team 1) to the sample submission's (team 150),
    spaced so that the median team sits ``median_share`` of the way from the sample to the
    answers: 0.25 is a field a sound model beats; 0.999 one no model but the answers beats.
    """
    power = np.log(median_share) / np.log(0.5)
    share = np.linspace(1.0, 0.0, 150) ** power
    for cid in ids:
        task = resolve_task(f"mlebench/{cid}", data_dir=data_dir)
        gold_path = root / f"{cid}-gold.csv"
        root.mkdir(parents=True, exist_ok=True)
        answers_as_submission(cid, data_dir).to_csv(gold_path, index=False)
        best = task.grade(gold_path)["score"]
        worst = task.grade(task.sample_submission_path)["score"]
        scores = np.round(worst + (best - worst) * share, 6)
        folder = root / "mlebench" / "competitions" / cid
        folder.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(
            {
                "scoreNullable": scores,
                "teamId": range(150),
                "hasTeamName": True,
                "submissionDate": "2024-01-01 00:00:00",
                "score": scores,
                "hasScore": True,
            }
        ).to_csv(folder / "leaderboard.csv", index=False)
    return root


def write_pizza(data_dir: Path, n: int = 24) -> Path:
    """A tiny prepared random-acts-of-pizza (a Lite competition with no baseline) in upstream's
    file layout: ``public/sampleSubmission.csv`` and ``private/test.csv``."""
    prepared = data_dir / "random-acts-of-pizza" / "prepared"
    (prepared / "public").mkdir(parents=True)
    (prepared / "private").mkdir(parents=True)
    ids = [f"t3_{i:05x}" for i in range(n)]
    labels = [i % 3 == 0 for i in range(n)]
    pd.DataFrame({"request_id": ids, "requester_received_pizza": labels}).to_csv(
        prepared / "private" / "test.csv", index=False
    )
    pd.DataFrame({"request_id": ids, "requester_received_pizza": 0}).to_csv(
        prepared / "public" / "sampleSubmission.csv", index=False
    )
    return prepared
