"""The 18 TAM-Bench Lite tasks: ids, metric facts, files, and the shipped spec and leaderboard.

Each task is ``tam/<modality>/<difficulty>``. Its upstream spec (``task.json``, or ``task.txt``
where upstream names it so; the content is JSON either way) and its real ``leaderboard.csv``
ship inside this package under ``tasks/<modality>/<difficulty>/``; nothing is read from outside
the package at run time.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

MODALITIES = ("tabular", "text", "image", "audio", "graph", "multimodal")
"""In the order of the paper's Table 4."""
DIFFICULTIES = ("easy", "medium", "hard")
MODALITY_LABELS = {
    "tabular": "Tabular",
    "text": "Text",
    "image": "Image",
    "audio": "Audio",
    "graph": "Graph",
    "multimodal": "MultiModal",
}
SPEC_KEYS = (
    "task_type",
    "goal_description",
    "metric",
    "target_col",
    "data_information",
    "output_format",
    "special_instructions",
)
CONSTRAINT_PATTERN = re.compile(r"\d+\.\s+(.*?)(?=(\d+\.|$))", re.DOTALL)
"""Upstream ``eval_constraint.py``'s split of ``special_instructions`` (119 items in Lite)."""


@dataclass(frozen=True)
class TaskInfo:
    """What this package knows about one task beyond its spec."""

    modality: str
    difficulty: str
    name: str
    """The competition's name (as in the upstream input file's name)."""
    metric: str
    """The metric this package grades with, in words."""
    lower_is_better: bool
    submission: str
    """File name under the workspace's ``submission/`` folder."""
    answers: str
    """File name under ``prepared/private/``."""
    sample: str | None
    """Sample submission under ``prepared/public/``, when the task has one."""
    bounds: tuple[float, float] | None
    """The metric's theoretical range when bounded on both sides (for the difficulty model)."""
    spec_file: str = "task.json"

    @property
    def id(self) -> str:
        return f"{self.modality}/{self.difficulty}"

    @property
    def ref(self) -> str:
        return f"tam/{self.id}"

    @property
    def modality_label(self) -> str:
        return MODALITY_LABELS[self.modality]


def _info(
    ident: str,
    name: str,
    metric: str,
    lower: bool,
    submission: str,
    answers: str,
    sample: str | None,
    bounds: tuple[float, float] | None,
    spec_file: str = "task.json",
) -> TaskInfo:
    modality, difficulty = ident.split("/")
    return TaskInfo(
        modality, difficulty, name, metric, lower, submission, answers, sample, bounds, spec_file
    )


CSV, JSON = "submission.csv", "submission.json"
LABELS = "test_labels.csv"
SAMPLE = "sample_submission.csv"
UNIT = (0.0, 1.0)

TASKS: dict[str, TaskInfo] = {
    t.id: t
    for t in (
        _info("audio/easy", "mlsp-2013-birds", "ROC AUC", False, CSV, LABELS, SAMPLE, UNIT),
        _info(
            "audio/medium",
            "tensorflow-speech-recognition-challenge",
            "multiclass accuracy",
            False,
            CSV,
            LABELS,
            SAMPLE,
            UNIT,
            "task.txt",
        ),
        _info(
            "audio/hard",
            "Cornell Birdcall Identification",
            "mean per-row F1 of the bird sets (nocall = empty set)",
            False,
            CSV,
            LABELS,
            SAMPLE,
            UNIT,
        ),
        _info(
            "graph/easy",
            "IND",
            "weighted AUC (weights: outliers per author)",
            False,
            JSON,
            "test_labels.json",
            "ind_valid_author_submit.json",
            UNIT,
        ),
        _info("graph/medium", "PST", "MAP", False, JSON, "test_labels.json", None, UNIT),
        _info("graph/hard", "AQA", "MAP@20", False, "result.txt", "test_labels.jsonl", None, UNIT),
        _info("image/easy", "denoising-dirty-documents", "RMSE", True, CSV, LABELS, SAMPLE, None),
        _info(
            "image/medium",
            "statoil-iceberg-classifier-challenge",
            "log loss",
            True,
            CSV,
            LABELS,
            SAMPLE,
            None,
        ),
        _info(
            "image/hard",
            "Image Matching Challenge 2024 - Hexathlon",
            "mAA of the registered camera centres",
            False,
            CSV,
            LABELS,
            SAMPLE,
            UNIT,
        ),
        _info(
            "multimodal/easy",
            "multi-modal-gesture-recognition",
            "normalized Levenshtein distance",
            True,
            CSV,
            LABELS,
            "randomPredictions.csv",
            None,
        ),
        _info(
            "multimodal/medium",
            "NextProductPrediction",
            "MRR@100",
            False,
            "submission.parquet",
            LABELS,
            None,
            UNIT,
        ),
        _info(
            "multimodal/hard",
            "planttraits2024",
            "mean R² over 6 traits, each clipped at 0",
            False,
            CSV,
            LABELS,
            SAMPLE,
            None,
            "task.txt",
        ),
        _info(
            "tabular/easy",
            "new-york-city-taxi-fare-prediction",
            "RMSE",
            True,
            CSV,
            LABELS,
            SAMPLE,
            None,
        ),
        _info(
            "tabular/medium",
            "Binary Prediction of Poisonous Mushrooms",
            "Matthews correlation coefficient",
            False,
            CSV,
            LABELS,
            SAMPLE,
            (-1.0, 1.0),
        ),
        _info("tabular/hard", "stanford-covid-vaccine", "MCRMSE", True, CSV, LABELS, SAMPLE, None),
        _info(
            "text/easy",
            "text-normalization-challenge-english-language",
            "accuracy",
            False,
            CSV,
            LABELS,
            "en_sample_submission.csv",
            UNIT,
        ),
        _info("text/medium", "lmsys-chatbot-arena", "log loss", True, CSV, LABELS, SAMPLE, None),
        _info(
            "text/hard",
            "eedi-mining-misconceptions-in-mathematics",
            "MAP@25",
            False,
            CSV,
            LABELS,
            SAMPLE,
            UNIT,
        ),
    )
}
"""Task id (``<modality>/<difficulty>``) -> facts, in modality-then-difficulty order."""

TASK_IDS = tuple(f"{m}/{d}" for m in MODALITIES for d in DIFFICULTIES)


def task_info(task_id: str) -> TaskInfo:
    """The facts of ``task_id``; ``KeyError`` for an unknown id."""
    return TASKS[task_id]


def _package_file(task_id: str, name: str) -> Any:
    return resources.files(__package__).joinpath("tasks", *task_id.split("/"), name)


@cache
def load_spec(task_id: str) -> dict[str, Any]:
    """The task's upstream spec, as shipped (a dict with the 7 keys of :data:`SPEC_KEYS`)."""
    text = _package_file(task_id, TASKS[task_id].spec_file).read_text(encoding="utf-8")
    spec: dict[str, Any] = json.loads(text)
    return spec


def leaderboard_file(task_id: str) -> Any:
    """The shipped ``leaderboard.csv`` (a ``Traversable``; ``open()`` it to read)."""
    return _package_file(task_id, "leaderboard.csv")


def split_constraints(special_instructions: str) -> list[str]:
    """Upstream's numbered split of ``special_instructions``, each item stripped."""
    return [m.group(1).strip() for m in CONSTRAINT_PATTERN.finditer(special_instructions)]


def constraints_of(task_id: str) -> list[str]:
    """The constraints the judge checks for ``task_id``."""
    return split_constraints(load_spec(task_id)["special_instructions"])
