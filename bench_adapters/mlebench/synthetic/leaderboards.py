"""Stand-in leaderboards for synthetic data, in an upstream-shaped checkout.

``write_checkout`` writes ``<checkout>/mlebench/competitions/<id>/{leaderboard.csv,
config.yaml,description.md}``: 150 teams, best first, from the score of the answers
themselves (team 1) down to the sample submission's (team 150), spaced so that the median
team sits ``median_share`` of the way from the sample to the answers. With the default 0.25
a sound model beats the median; near 1 only the answers do. The medals these boards give
mean "as good as the answers" and "no better than the sample": they say nothing about any
real leaderboard. Where the answers score an infinite value (champs-scalar-coupling: a log of
a zero error), team 1 scores the answers nudged by a thousandth of each predicted column's
spread; where the sample scores NaN (us-patent-phrase-to-phrase-matching: a correlation of
constant predictions), team 150 scores the answers shuffled between rows.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from bench_adapters import CompetitionTask

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


def _grade(task: CompetitionTask, submission: pd.DataFrame, path: Path) -> float | None:
    submission.to_csv(path, index=False)
    return task.grade(path)["score"]


def _altered(gold: pd.DataFrame, *, shuffle: bool) -> pd.DataFrame:
    """The gold submission with each numeric column after the first (the id) shuffled between
    rows, or moved by a thousandth of its spread."""
    rng = np.random.default_rng(0)
    out = gold.copy()
    for column in out.columns[1:]:
        values = out[column]
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        if shuffle:
            out[column] = rng.permutation(values.to_numpy())
        else:
            spread = float(values.std()) or 1.0
            out[column] = values + rng.normal(0, 1e-3 * spread, len(values))
    return out


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
        gold = answers_as_submission(cid, data_dir)
        with tempfile.TemporaryDirectory() as tmp:
            best = _grade(task, gold, Path(tmp) / "gold.csv")
            if best is not None and math.isinf(best):
                best = _grade(task, _altered(gold, shuffle=False), Path(tmp) / "nudged.csv")
            worst = task.grade(task.sample_submission_path)["score"]
            if worst is not None and math.isnan(worst):
                worst = _grade(task, _altered(gold, shuffle=True), Path(tmp) / "shuffled.csv")
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
