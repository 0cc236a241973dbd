"""Native graders for MLE-bench competitions, one module per competition id.

Each module (``module_name``: the id lower-cased, ``-`` as ``_``) defines ``ANSWERS`` (a file
under ``<id>/prepared/private/``), ``SAMPLE_SUBMISSION`` (a path under ``<id>/prepared/``),
optionally ``GOLD_SUBMISSION``, ``CHECK_NOTES`` (see ``GraderSpec.check_notes``) and
``load_answers`` (see ``GraderSpec.load_answers``), and
``grade(submission, answers) -> float``, which returns the
raw metric value and raises on any fault: ``InvalidSubmissionError`` where upstream MLE-bench
raises its own ``InvalidSubmissionError`` (a submission-side fault), otherwise whatever the
answer checks, pandas or scikit-learn raise. Rounding and the None-on-error rule belong to the
caller. Modules are imported lazily, so importing this package costs nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "GraderSpec",
    "InvalidSubmissionError",
    "get_grader",
    "module_name",
    "supported_competitions",
]


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
    check_notes: Mapping[str, str] = field(default_factory=dict)
    load_answers: Callable[[Path], Any] | None = None
    """Reads the answers file when upstream's reading (``csvio.load_answers``) would hold far
    more than grading needs (a module's ``load_answers``: tensorflow2-question-answering's
    gigabyte of records)."""
    """``baselines check`` submissions (``gold``, ``sample``, ``wrong-row-count``...) that
    upstream grades against the usual expectation, with why (a module's ``CHECK_NOTES``)."""


# The 7 CPU-only competitions and the 22 of the Lite split (4 ids are in both), and the 5
# TAM-Bench Lite shares with MLE-bench beyond those (speech, iceberg, gesture, covid, lmsys).
_SUPPORTED: tuple[str, ...] = (
    "AI4Code",
    "3d-object-detection-for-autonomous-vehicles",
    "aerial-cactus-identification",
    "alaska2-image-steganalysis",
    "aptos2019-blindness-detection",
    "billion-word-imputation",
    "bms-molecular-translation",
    "cassava-leaf-disease-classification",
    "cdiscount-image-classification-challenge",
    "chaii-hindi-and-tamil-question-answering",
    "champs-scalar-coupling",
    "denoising-dirty-documents",
    "detecting-insults-in-social-commentary",
    "dog-breed-identification",
    "dogs-vs-cats-redux-kernels-edition",
    "facebook-recruiting-iii-keyword-extraction",
    "freesound-audio-tagging-2019",
    "google-quest-challenge",
    "google-research-identify-contrails-reduce-global-warming",
    "h-and-m-personalized-fashion-recommendations",
    "herbarium-2020-fgvc7",
    "herbarium-2021-fgvc8",
    "herbarium-2022-fgvc9",
    "histopathologic-cancer-detection",
    "hms-harmful-brain-activity-classification",
    "hubmap-kidney-segmentation",
    "icecube-neutrinos-in-deep-ice",
    "hotel-id-2021-fgvc8",
    "imet-2020-fgvc7",
    "inaturalist-2019-fgvc6",
    "invasive-species-monitoring",
    "iwildcam-2019-fgvc6",
    "iwildcam-2020-fgvc7",
    "jigsaw-toxic-comment-classification-challenge",
    "jigsaw-unintended-bias-in-toxicity-classification",
    "kuzushiji-recognition",
    "learning-agency-lab-automated-essay-scoring-2",
    "leaf-classification",
    "lmsys-chatbot-arena",
    "ml2021spring-hw2",
    "mlsp-2013-birds",
    "movie-review-sentiment-analysis-kernels-only",
    "multi-modal-gesture-recognition",
    "new-york-city-taxi-fare-prediction",
    "nfl-player-contact-detection",
    "nomad2018-predict-transparent-conductors",
    "osic-pulmonary-fibrosis-progression",
    "paddy-disease-classification",
    "petfinder-pawpularity-score",
    "plant-pathology-2020-fgvc7",
    "plant-pathology-2021-fgvc8",
    "plant-seedlings-classification",
    "playground-series-s3e18",
    "predict-volcanic-eruptions-ingv-oe",
    "random-acts-of-pizza",
    "ranzcr-clip-catheter-line-classification",
    "rsna-2022-cervical-spine-fracture-detection",
    "rsna-breast-cancer-detection",
    "rsna-miccai-brain-tumor-radiogenomic-classification",
    "seti-breakthrough-listen",
    "siim-covid19-detection",
    "siim-isic-melanoma-classification",
    "smartphone-decimeter-2022",
    "spaceship-titanic",
    "spooky-author-identification",
    "stanford-covid-vaccine",
    "statoil-iceberg-classifier-challenge",
    "tabular-playground-series-dec-2021",
    "tabular-playground-series-may-2022",
    "tensorflow-speech-recognition-challenge",
    "tensorflow2-question-answering",
    "tgs-salt-identification-challenge",
    "text-normalization-challenge-english-language",
    "text-normalization-challenge-russian-language",
    "the-icml-2013-whale-challenge-right-whale-redux",
    "tweet-sentiment-extraction",
    "us-patent-phrase-to-phrase-matching",
    "uw-madison-gi-tract-image-segmentation",
    "ventilator-pressure-prediction",
    "vesuvius-challenge-ink-detection",
    "vinbigdata-chest-xray-abnormalities-detection",
    "whale-categorization-playground",
)


def supported_competitions() -> list[str]:
    """Competition ids that have a grader, sorted."""
    return list(_SUPPORTED)


def module_name(competition_id: str) -> str:
    """The id lower-cased, ``-`` as ``_``: its module's name (``AI4Code``: ``ai4code``)."""
    return competition_id.lower().replace("-", "_")


def get_grader(competition_id: str) -> GraderSpec | None:
    """The grader for ``competition_id``, or None when there is none."""
    if competition_id not in _SUPPORTED:
        return None
    module = importlib.import_module(f"{__name__}.{module_name(competition_id)}")
    return GraderSpec(
        competition_id=competition_id,
        answers=module.ANSWERS,
        sample_submission=module.SAMPLE_SUBMISSION,
        grade=module.grade,
        gold_submission=getattr(module, "GOLD_SUBMISSION", None),
        check_notes=getattr(module, "CHECK_NOTES", {}),
        load_answers=getattr(module, "load_answers", None),
    )
