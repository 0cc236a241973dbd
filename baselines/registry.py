"""Which tasks have a baseline, and where its script lives.

The script of task ``<benchmark>/<id>`` is the module ``baselines.<benchmark>.<id with - as _>``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

BASELINES: tuple[str, ...] = (
    "mlebench/new-york-city-taxi-fare-prediction",
    "mlebench/tabular-playground-series-dec-2021",
    "mlebench/tabular-playground-series-may-2022",
    "mlebench/ventilator-pressure-prediction",
    "mlebench/playground-series-s3e18",
    "mlebench/spaceship-titanic",
    "mlebench/nomad2018-predict-transparent-conductors",
    # MLE-bench Lite's image competitions (networks on a GPU; leaf and denoising need none)
    "mlebench/aerial-cactus-identification",
    "mlebench/aptos2019-blindness-detection",
    "mlebench/denoising-dirty-documents",
    "mlebench/dog-breed-identification",
    "mlebench/dogs-vs-cats-redux-kernels-edition",
    "mlebench/histopathologic-cancer-detection",
    "mlebench/leaf-classification",
    "mlebench/plant-pathology-2020-fgvc7",
    "mlebench/ranzcr-clip-catheter-line-classification",
    "mlebench/siim-isic-melanoma-classification",
    # MLE-bench Lite's text and audio competitions
    "mlebench/detecting-insults-in-social-commentary",
    "mlebench/jigsaw-toxic-comment-classification-challenge",
    "mlebench/random-acts-of-pizza",
    "mlebench/spooky-author-identification",
    "mlebench/text-normalization-challenge-english-language",
    "mlebench/text-normalization-challenge-russian-language",
    "mlebench/mlsp-2013-birds",
    "mlebench/the-icml-2013-whale-challenge-right-whale-redux",
    # the competitions graded on masks and boxes
    "mlebench/google-research-identify-contrails-reduce-global-warming",
    "mlebench/hubmap-kidney-segmentation",
    "mlebench/tgs-salt-identification-challenge",
    "mlebench/uw-madison-gi-tract-image-segmentation",
    "mlebench/vesuvius-challenge-ink-detection",
    "mlebench/kuzushiji-recognition",
    "mlebench/siim-covid19-detection",
    "mlebench/vinbigdata-chest-xray-abnormalities-detection",
    "mlebench/3d-object-detection-for-autonomous-vehicles",
    # the image competitions beyond Lite (photographs, spectrograms, DICOM)
    "mlebench/cassava-leaf-disease-classification",
    "mlebench/paddy-disease-classification",
    "mlebench/plant-seedlings-classification",
    "mlebench/invasive-species-monitoring",
    "mlebench/statoil-iceberg-classifier-challenge",
    "mlebench/plant-pathology-2021-fgvc8",
    "mlebench/imet-2020-fgvc7",
    "mlebench/petfinder-pawpularity-score",
    "mlebench/hotel-id-2021-fgvc8",
    "mlebench/whale-categorization-playground",
    "mlebench/herbarium-2020-fgvc7",
    "mlebench/herbarium-2021-fgvc8",
    "mlebench/herbarium-2022-fgvc9",
    "mlebench/iwildcam-2019-fgvc6",
    "mlebench/iwildcam-2020-fgvc7",
    "mlebench/seti-breakthrough-listen",
    "mlebench/alaska2-image-steganalysis",
    "mlebench/osic-pulmonary-fibrosis-progression",
    "mlebench/rsna-miccai-brain-tumor-radiogenomic-classification",
    "mlebench/rsna-breast-cancer-detection",
    "mlebench/rsna-2022-cervical-spine-fracture-detection",
    "mlebench/inaturalist-2019-fgvc6",
    "mlebench/cdiscount-image-classification-challenge",
    "mlebench/bms-molecular-translation",
    # the text competitions beyond Lite: readers, rankers and cross-encoders
    "mlebench/AI4Code",
    "mlebench/chaii-hindi-and-tamil-question-answering",
    "mlebench/tweet-sentiment-extraction",
    "mlebench/tensorflow2-question-answering",
    "mlebench/us-patent-phrase-to-phrase-matching",
    # text beyond Lite: TF-IDF linear models on a CPU (+ DistilRoBERTa on a GPU), tag
    # classifiers, a bigram model for the missing words
    "mlebench/google-quest-challenge",
    "mlebench/learning-agency-lab-automated-essay-scoring-2",
    "mlebench/movie-review-sentiment-analysis-kernels-only",
    "mlebench/lmsys-chatbot-arena",
    "mlebench/jigsaw-unintended-bias-in-toxicity-classification",
    "mlebench/facebook-recruiting-iii-keyword-extraction",
    "mlebench/billion-word-imputation",
    # tracking, GNSS, audio and EEG signals
    "mlebench/nfl-player-contact-detection",
    "mlebench/smartphone-decimeter-2022",
    "mlebench/freesound-audio-tagging-2019",
    "mlebench/hms-harmful-brain-activity-classification",
    "mlebench/multi-modal-gesture-recognition",
    "mlebench/tensorflow-speech-recognition-challenge",
    # tabular and signal beyond Lite: boosting, recall-then-rank, an MLP
    "mlebench/ml2021spring-hw2",
    "mlebench/predict-volcanic-eruptions-ingv-oe",
    "mlebench/stanford-covid-vaccine",
    "mlebench/champs-scalar-coupling",
    "mlebench/icecube-neutrinos-in-deep-ice",
    "mlebench/h-and-m-personalized-fashion-recommendations",
    "demo/tabular-binary",
    "demo/tabular-regression",
    "demo/digits-image",
    "paperbench/demo-james-stein",
    "tam/tabular/easy",
    "tam/tabular/medium",
    "tam/tabular/hard",
    "tam/text/easy",
    "tam/text/medium",
    "tam/text/hard",
)
"""Task references with a baseline script: every MLE-bench competition with a generator (the
CPU-only ones, Lite, and those beyond Lite that issues 33-35 cover), every demo task, PaperBench's demo paper (whose baseline writes a submission repository) and the TAM Lite
tabular and text tasks (``baselines.tam.<modality>_<difficulty>``)."""


def task_ref(ref: str) -> str:
    """``<benchmark>/<id>``; a bare id means an MLE-bench competition."""
    return ref if "/" in ref else f"mlebench/{ref}"


def has_baseline(ref: str) -> bool:
    return task_ref(ref) in BASELINES


def module_name(ref: str) -> str:
    """The script's module: the id lower-cased, dashes as underscores (AI4Code: ``ai4code``)."""
    benchmark, _, task_id = task_ref(ref).partition("/")
    return f"baselines.{benchmark}.{task_id.lower().replace('-', '_').replace('/', '_')}"


def baseline_module(ref: str) -> ModuleType:
    """The baseline script of ``ref`` (``main`` and ``METRIC``); ``KeyError`` when it has none."""
    if not has_baseline(ref):
        raise KeyError(f"{ref} has no baseline (baselines exist for: {', '.join(BASELINES)})")
    return importlib.import_module(module_name(ref))
