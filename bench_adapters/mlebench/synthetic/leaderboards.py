"""Stand-in leaderboards for synthetic data, in an upstream-shaped checkout.

``write_checkout`` writes ``<checkout>/mlebench/competitions/<id>/{leaderboard.csv,
config.yaml,description.md}``: 150 teams, best first, from the score of the answers
themselves (team 1) down to the sample submission's (team 150), spaced so that the median
team sits ``median_share`` of the way from the sample to the answers. With the default 0.25
a sound model beats the median; near 1 only the answers do. The medals these boards give
mean "as good as the answers" and "no better than the sample": they say nothing about any
real leaderboard.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

TEAMS = 150


def scores(best: float, worst: float, median_share: float = 0.25, teams: int = TEAMS) -> np.ndarray:
    """``teams`` scores from ``best`` to ``worst`` whose median is ``median_share`` of the
    way from ``worst`` to ``best``."""
    if not 0 < median_share < 1:
        raise ValueError(f"median_share must be in (0, 1), got {median_share}")
    power = np.log(median_share) / np.log(0.5)
    share = np.linspace(1.0, 0.0, teams) ** power
    return np.round(worst + (best - worst) * share, 6)


def write_leaderboard(folder: Path, board: np.ndarray) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "leaderboard.csv"
    pd.DataFrame(
        {
            "scoreNullable": board,
            "teamId": range(len(board)),
            "hasTeamName": True,
            "submissionDate": "2024-01-01 00:00:00",
            "score": board,
            "hasScore": True,
        }
    ).to_csv(path, index=False)
    return path


FILES = ("leaderboard.csv", "config.yaml", "description.md")
"""What ``write_checkout`` writes in each competition's folder."""


def refuse_existing(checkout: Path, competition_ids: Iterable[str]) -> None:
    """Raise ``FileExistsError`` naming the first file ``write_checkout`` would replace (a
    real mle-bench checkout has all three for every competition)."""
    folders = [checkout / "mlebench" / "competitions" / cid for cid in competition_ids]
    existing = [folder / name for folder in folders for name in FILES if (folder / name).exists()]
    if existing:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise FileExistsError(f"{existing[0]} exists{more}")


def write_checkout(
    checkout: Path,
    data_dir: Path,
    competition_ids: Iterable[str],
    median_share: float = 0.25,
    *,
    overwrite: bool = False,
) -> Path:
    """Leaderboards (and a config and description) for each competition prepared under
    ``data_dir``, graded with the real graders; returns ``checkout``. Raises
    ``FileExistsError``, before writing anything, when one of them is there already, unless
    ``overwrite``."""
    from bench_adapters import CompetitionTask, resolve_task

    from . import answers_as_submission

    competition_ids = list(competition_ids)
    if not overwrite:
        refuse_existing(checkout, competition_ids)
    for cid in competition_ids:
        task = resolve_task(f"mlebench/{cid}", data_dir=data_dir)
        assert isinstance(task, CompetitionTask)
        with tempfile.TemporaryDirectory() as tmp:
            gold = Path(tmp) / "gold.csv"
            answers_as_submission(cid, data_dir).to_csv(gold, index=False)
            best = task.grade(gold)["score"]
        worst = task.grade(task.sample_submission_path)["score"]
        if best is None or worst is None:
            raise ValueError(f"{cid}: the answers or the sample submission did not grade")
        folder = checkout / "mlebench" / "competitions" / cid
        write_leaderboard(folder, scores(best, worst, median_share))
        title = cid.replace("-", " ").title()
        (folder / "config.yaml").write_text(f"id: {cid}\nname: {title}\n", encoding="utf-8")
        (folder / "description.md").write_text(
            f"# {title}\n\nA synthetic stand-in for the Kaggle competition {cid} "
            f"(https://www.kaggle.com/c/{cid}), in its prepared layout.\n"
            f"Welcome to {title}! Predict the target.\n",
            encoding="utf-8",
        )
    return checkout
