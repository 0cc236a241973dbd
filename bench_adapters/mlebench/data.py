"""Where MLE-bench data lives: prepared data, and the upstream checkout's competition files.

Prepared data: ``--data-dir`` / ``MLEBENCH_DATA_DIR`` / ``~/.cache/mle-bench/data``, holding
``<id>/prepared/{public,private}``. Checkout: ``--mlebench-dir`` / ``MLEBENCH_DIR``, holding
``mlebench/competitions/<id>/{config.yaml,description.md,description_obfuscated.md,leaderboard.csv}``.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from bench_adapters.errors import LeaderboardError
from bench_adapters.leaderboard import Leaderboard

log = logging.getLogger(__name__)

DEFAULT_DATA_DIR = "~/.cache/mle-bench/data"

LOWER_IS_BETTER = frozenset(
    {
        "new-york-city-taxi-fare-prediction",
        "ventilator-pressure-prediction",
        "nomad2018-predict-transparent-conductors",
        "denoising-dirty-documents",
        "dog-breed-identification",
        "dogs-vs-cats-redux-kernels-edition",
        "leaf-classification",
        "spooky-author-identification",
        "statoil-iceberg-classifier-challenge",
        "multi-modal-gesture-recognition",
        "stanford-covid-vaccine",
        "lmsys-chatbot-arena",
        "inaturalist-2019-fgvc6",
        "champs-scalar-coupling",
        "icecube-neutrinos-in-deep-ice",
        "hms-harmful-brain-activity-classification",
        "petfinder-pawpularity-score",
        "predict-volcanic-eruptions-ingv-oe",
        "rsna-2022-cervical-spine-fracture-detection",
        "smartphone-decimeter-2022",
        "billion-word-imputation",
        "bms-molecular-translation",
    }
)
"""Metric direction of the natively graded competitions, used only when no leaderboard exists."""


def resolve_data_dir(option: str | Path | None = None) -> Path:
    value = option or os.environ.get("MLEBENCH_DATA_DIR") or DEFAULT_DATA_DIR
    return Path(value).expanduser()


def resolve_checkout(option: str | Path | None = None) -> Path | None:
    value = option or os.environ.get("MLEBENCH_DIR")
    return Path(value).expanduser() if value else None


def competition_dir(checkout: Path | None, competition_id: str) -> Path | None:
    """``<checkout>/mlebench/competitions/<id>`` (the package or competitions dir also work)."""
    if checkout is None:
        return None
    for base in (checkout / "mlebench" / "competitions", checkout / "competitions", checkout):
        if (base / competition_id).is_dir():
            return base / competition_id
    return None


@dataclass(frozen=True)
class CompetitionInfo:
    name: str
    description: str
    description_obfuscated: str
    leaderboard: Leaderboard | None
    no_leaderboard_reason: str


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def redact(text: str, names: list[str]) -> str:
    """Drop references to Kaggle and to the competition's names from a description."""
    text = re.sub(r"\(?https?://[^\s)]*kaggle\.com[^\s)]*\)?", "", text, flags=re.IGNORECASE)
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(re.escape(name), "this task", text, flags=re.IGNORECASE)
    return re.sub(r"\bkaggle\b", "the host platform", text, flags=re.IGNORECASE)


def load_leaderboard(path: Path | None, where: str) -> tuple[Leaderboard | None, str]:
    """The leaderboard at ``path``, or ``None`` and the reason there is none."""
    if path is None or not path.is_file():
        return None, f"no leaderboard.csv found ({where})"
    try:
        return Leaderboard.from_csv(path), ""
    except LeaderboardError as e:
        return None, f"leaderboard unusable: {e}"


def load_info(
    competition_id: str,
    prepared_dir: Path,
    checkout: Path | None,
    leaderboard_path: Path | None = None,
) -> CompetitionInfo:
    """Name, descriptions and leaderboard of one competition, from whatever is available."""
    comp = competition_dir(checkout, competition_id)
    config: dict[str, object] = {}
    if comp is not None and (comp / "config.yaml").is_file():
        config = yaml.safe_load((comp / "config.yaml").read_text(encoding="utf-8")) or {}
    name = str(config.get("name") or competition_id)
    description = _read(prepared_dir / "public" / "description.md")
    if description is None and comp is not None:
        description = _read(comp / "description.md")
    if description is None:
        log.info(
            "%s: no description.md (set MLEBENCH_DIR to an mle-bench checkout)", competition_id
        )
        description = f"# {name}\n\nNo description is available for this competition.\n"
    obfuscated = _read(comp / "description_obfuscated.md") if comp is not None else None
    if obfuscated is None:
        obfuscated = redact(description, [name, competition_id])
    if leaderboard_path is None and comp is not None:
        leaderboard_path = comp / "leaderboard.csv"
    where = "set MLEBENCH_DIR or --mlebench-dir to an mle-bench checkout with Git LFS files"
    leaderboard, reason = load_leaderboard(leaderboard_path, where)
    return CompetitionInfo(name, description, obfuscated, leaderboard, reason)
