"""Native graders for MLE-bench competitions, one module per competition id.

Each module (the id with ``-`` replaced by ``_``) defines ``ANSWERS`` (a file under
``<id>/prepared/private/``), ``SAMPLE_SUBMISSION`` (a path under ``<id>/prepared/``),
optionally ``GOLD_SUBMISSION``, and ``grade(submission, answers) -> float``, which returns the
raw metric value and raises on any fault: ``InvalidSubmissionError`` where upstream MLE-bench
raises its own ``InvalidSubmissionError`` (a submission-side fault), otherwise whatever the
answer checks, pandas or scikit-learn raise. Rounding and the None-on-error rule belong to the
caller. Modules are imported lazily, so importing this package costs nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["GraderSpec", "InvalidSubmissionError", "get_grader", "supported_competitions"]


class InvalidSubmissionError(Exception):
    """The submission, not the answers, is at fault (upstream's ``InvalidSubmissionError``)."""


@dataclass(frozen=True)
class GraderSpec:
    """Where a competition's answers live and how a submission is scored against them."""

    competition_id: str
    answers: str
    """File name under ``<id>/prepared/private/``, e.g. ``test.csv``."""
    sample_submission: str
    """Path under ``<id>/prepared/``, e.g. ``public/sample_submission.csv``."""
    grade: Callable[[pd.DataFrame, pd.DataFrame], float]
    """``grade(submission, answers) -> raw score``; raises on any fault."""
    gold_submission: str | None = None
    """File under ``<id>/prepared/private/`` when it differs from the answers file."""


# The 7 CPU-only competitions and the 22 of the Lite split (4 ids are in both), and the 5
# TAM-Bench Lite shares with MLE-bench beyond those (speech, iceberg, gesture, covid, lmsys).
_SUPPORTED: tuple[str, ...] = (
    "aerial-cactus-identification",
    "aptos2019-blindness-detection",
    "denoising-dirty-documents",
    "detecting-insults-in-social-commentary",
    "dog-breed-identification",
    "dogs-vs-cats-redux-kernels-edition",
    "histopathologic-cancer-detection",
    "jigsaw-toxic-comment-classification-challenge",
    "leaf-classification",
    "lmsys-chatbot-arena",
    "mlsp-2013-birds",
    "multi-modal-gesture-recognition",
    "new-york-city-taxi-fare-prediction",
    "nomad2018-predict-transparent-conductors",
    "plant-pathology-2020-fgvc7",
    "playground-series-s3e18",
    "random-acts-of-pizza",
    "ranzcr-clip-catheter-line-classification",
    "siim-isic-melanoma-classification",
    "spaceship-titanic",
    "spooky-author-identification",
    "stanford-covid-vaccine",
    "statoil-iceberg-classifier-challenge",
    "tabular-playground-series-dec-2021",
    "tabular-playground-series-may-2022",
    "tensorflow-speech-recognition-challenge",
    "text-normalization-challenge-english-language",
    "text-normalization-challenge-russian-language",
    "the-icml-2013-whale-challenge-right-whale-redux",
    "ventilator-pressure-prediction",
)


def supported_competitions() -> list[str]:
    """Competition ids that have a grader, sorted."""
    return list(_SUPPORTED)


def get_grader(competition_id: str) -> GraderSpec | None:
    """The grader for ``competition_id``, or None when there is none."""
    if competition_id not in _SUPPORTED:
        return None
    module = importlib.import_module(f"{__name__}.{competition_id.replace('-', '_')}")
    return GraderSpec(
        competition_id=competition_id,
        answers=module.ANSWERS,
        sample_submission=module.SAMPLE_SUBMISSION,
        grade=module.grade,
        gold_submission=getattr(module, "GOLD_SUBMISSION", None),
    )
