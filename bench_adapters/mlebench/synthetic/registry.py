"""Which competitions have a generator, and how large their synthetic data is.

The generator of competition ``<id>`` is the module ``synthetic.<id lower-cased, - as _>``;
it is imported only when used. ``smoke`` sizes are small (tests, a first look); ``full``
sizes are the real prepared data's, labelled by where they come from: ``prep`` (stated in
upstream's ``prepare.py``), ``derived`` (worked out from its split of the raw counts) or
``estimate``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from ..graders import module_name
from .common import Size


@dataclass(frozen=True)
class Sizes:
    smoke: Size
    full: Size
    unit: str = "rows"
    """What ``n_train`` and ``n_test`` count."""
    source: str = "derived"
    """Where the full size comes from: prep, derived or estimate."""


SIZES: dict[str, Sizes] = {
    # The seven CPU-only competitions (tabular).
    "new-york-city-taxi-fare-prediction": Sizes(Size(800, 200), Size(55_413_942, 9_914)),
    "tabular-playground-series-dec-2021": Sizes(Size(800, 200), Size(3_600_000, 400_000)),
    "tabular-playground-series-may-2022": Sizes(Size(800, 200), Size(800_000, 100_000)),
    "ventilator-pressure-prediction": Sizes(
        Size(16 * 80, 4 * 80), Size(5_432_400, 603_600), "rows (80 per breath)"
    ),
    "playground-series-s3e18": Sizes(Size(800, 200), Size(13_354, 1_484)),
    "spaceship-titanic": Sizes(Size(800, 200), Size(7_823, 870)),
    "nomad2018-predict-transparent-conductors": Sizes(Size(400, 100), Size(2_160, 240)),
    # Images: real image counts; the full side is the real one where it is small (cactus,
    # histopathology) and a moderate stand-in for multi-megapixel photographs elsewhere.
    "aerial-cactus-identification": Sizes(Size(400, 100, 32), Size(14_175, 3_325, 32), "images"),
    "aptos2019-blindness-detection": Sizes(Size(200, 60, 32), Size(3_295, 367, 512), "images"),
    "denoising-dirty-documents": Sizes(Size(8, 3, 48), Size(115, 29, 540), "images (side: width)"),
    "dog-breed-identification": Sizes(Size(600, 120, 32), Size(9_199, 1_023, 320), "images"),
    "dogs-vs-cats-redux-kernels-edition": Sizes(
        Size(200, 60, 32), Size(22_500, 2_500, 320), "images"
    ),
    "histopathologic-cancer-detection": Sizes(
        Size(300, 100, 32), Size(174_464, 45_561, 96), "images"
    ),
    "leaf-classification": Sizes(Size(396, 99, 64), Size(891, 99, 512), "leaves"),
    "plant-pathology-2020-fgvc7": Sizes(Size(200, 60, 32), Size(1_638, 183, 512), "images"),
    "ranzcr-clip-catheter-line-classification": Sizes(
        Size(300, 100, 32), Size(27_074, 3_009, 512), "images", "prep"
    ),
    "siim-isic-melanoma-classification": Sizes(
        Size(300, 100, 32), Size(28_984, 4_142, 512), "images", "prep"
    ),
    # Text: Kaggle's own files (insults, jigsaw) or upstream's split of them.
    "detecting-insults-in-social-commentary": Sizes(
        Size(400, 150), Size(3_947, 2_647), "comments", "prep"
    ),
    "jigsaw-toxic-comment-classification-challenge": Sizes(
        Size(600, 300), Size(159_571, 153_164), "comments", "prep"
    ),
    "random-acts-of-pizza": Sizes(Size(300, 100), Size(2_878, 1_162), "requests"),
    "spooky-author-identification": Sizes(Size(600, 150), Size(17_621, 1_958), "sentences"),
    "text-normalization-challenge-english-language": Sizes(
        Size(4_000, 1_500), Size(8_924_976, 993_465), "tokens", "prep"
    ),
    "text-normalization-challenge-russian-language": Sizes(
        Size(4_000, 1_500), Size(9_515_325, 1_059_191), "tokens", "prep"
    ),
    # Audio at the real rates: 10 s at 16 kHz (birds), 2 s at 2 kHz (whales).
    "mlsp-2013-birds": Sizes(Size(40, 20), Size(258, 64), "recordings", "prep"),
    "the-icml-2013-whale-challenge-right-whale-redux": Sizes(
        Size(300, 100), Size(15_000, 15_000), "clips", "estimate"
    ),
    # Batch B1 (accuracy, AUC and kin). Row counts from upstream's split of Kaggle's tables;
    # payloads (images, BSON, DICOM, spectrograms) are capped stand-ins, see each generator.
    "cassava-leaf-disease-classification": Sizes(
        Size(200, 60, 32), Size(18_721, 2_676, 256), "images"
    ),
    "cdiscount-image-classification-challenge": Sizes(
        Size(400, 100, 16), Size(6_362_906, 706_990, 16), "products (train.bson capped at 200k)"
    ),
    "iwildcam-2020-fgvc7": Sizes(
        Size(300, 100, 32), Size(156_484, 61_475, 128), "images (side: width)", "estimate"
    ),
    "alaska2-image-steganalysis": Sizes(
        Size(60, 100, 32), Size(70_000, 5_000, 64), "train covers (x4 images), test images"
    ),
    "rsna-miccai-brain-tumor-radiogenomic-classification": Sizes(
        Size(30, 12, 16), Size(526, 59, 64), "patients (4 series of side // 4 DICOM slices)"
    ),
    "seti-breakthrough-listen": Sizes(
        Size(300, 100, 16), Size(54_000, 6_000, 32), "cadences (side: frequency channels)"
    ),
    "inaturalist-2019-fgvc6": Sizes(
        Size(200, 40, 32), Size(232_882, 32_331, 64), "images", "estimate"
    ),
    "nfl-player-contact-detection": Sizes(
        Size(1_500, 400), Size(4_249_456, 472_162), "label rows", "estimate"
    ),
    "jigsaw-unintended-bias-in-toxicity-classification": Sizes(
        Size(600, 300), Size(1_804_874, 97_320), "comments", "prep"
    ),
    "rsna-breast-cancer-detection": Sizes(
        Size(40, 12, 32), Size(10_721, 1_192, 96), "patients (about 4.6 DICOM images each)"
    ),
    # Batch B2 (label sets, integer labels, rankings). Row counts from upstream's split of
    # Kaggle's tables; images are small stand-ins (capped side) for the real photographs.
    "facebook-recruiting-iii-keyword-extraction": Sizes(
        Size(800, 200), Size(5_430_775, 603_420), "questions", "derived"
    ),
    "imet-2020-fgvc7": Sizes(Size(240, 60, 32), Size(120_801, 21_318, 128), "images", "derived"),
    "plant-pathology-2021-fgvc8": Sizes(
        Size(200, 60, 32), Size(14_905, 3_727, 512), "images", "derived"
    ),
    # Herbarium: the test share is upstream's per-species 20% (rounded up per species, so a
    # little above 20%); sheets are 2:3 portraits capped at 64 pixels high at full size.
    "herbarium-2020-fgvc7": Sizes(
        Size(240, 60, 32), Size(811_623, 219_124, 64), "images", "estimate"
    ),
    "herbarium-2021-fgvc8": Sizes(
        Size(240, 60, 32), Size(1_780_407, 477_352, 64), "images", "estimate"
    ),
    "herbarium-2022-fgvc9": Sizes(
        Size(240, 60, 32), Size(664_068, 175_704, 64), "images", "estimate"
    ),
    # iWildCam 2019: 196,157 frames split by site; upstream chose its seed for a 44% test share.
    "iwildcam-2019-fgvc6": Sizes(
        Size(240, 80, 32), Size(109_848, 86_309, 128), "images", "estimate"
    ),
    # H&M: n_train counts transactions before the cut, n_test the customers who buy after it
    # (customers and articles follow, at Kaggle's ratios); article photographs capped at 64 px.
    "h-and-m-personalized-fashion-recommendations": Sizes(
        Size(4_000, 200, 32),
        Size(31_488_324, 80_000, 64),
        "transactions before the cut, buyers after it",
        "estimate",
    ),
    "hotel-id-2021-fgvc8": Sizes(Size(240, 60, 32), Size(87_796, 9_756, 256), "images", "derived"),
    "whale-categorization-playground": Sizes(
        Size(240, 60, 32), Size(7_240, 2_610, 256), "images", "estimate"
    ),
    # Batch C (text metrics, and the graded competitions that had no generator). Row counts
    # from upstream's split of Kaggle's tables; payloads are capped, see each generator.
    "billion-word-imputation": Sizes(
        Size(2_000, 300), Size(3_000_000, 303_010), "sentences (train capped)", "estimate"
    ),
    "bms-molecular-translation": Sizes(
        Size(200, 60, 64), Size(1_939_348, 484_838, 256), "images", "derived"
    ),
    "tweet-sentiment-extraction": Sizes(Size(600, 150), Size(24_732, 2_749), "tweets"),
    "chaii-hindi-and-tamil-question-answering": Sizes(Size(200, 50), Size(1_002, 112), "questions"),
    "AI4Code": Sizes(Size(160, 40), Size(119_256, 20_000), "notebooks", "prep"),
    "lmsys-chatbot-arena": Sizes(Size(400, 100), Size(51_729, 5_748), "conversations"),
    "multi-modal-gesture-recognition": Sizes(
        Size(9, 3), Size(297, 96), "sessions (+3 unlabelled ones per test one)", "estimate"
    ),
    "stanford-covid-vaccine": Sizes(
        Size(160, 30), Size(2_160, 240), "sequences (107 answer rows each)", "prep"
    ),
    "statoil-iceberg-classifier-challenge": Sizes(Size(48, 16), Size(1_283, 321), "images"),
    "tensorflow-speech-recognition-challenge": Sizes(
        Size(150, 40), Size(58_254, 6_473), "clips (words and 6 noise recordings)"
    ),
    # Batch D (numeric metrics). Counts from upstream's split of Kaggle's tables; payloads
    # (audio, seismic segments, DICOM, pulses, GNSS logs) are capped, see each generator.
    "champs-scalar-coupling": Sizes(
        Size(60, 20), Size(76_502, 8_501), "molecules (about 55 coupling rows each)"
    ),
    "freesound-audio-tagging-2019": Sizes(
        Size(16, 12), Size(4_970, 3_361), "clips (train: curated; noisy about 4x)", "estimate"
    ),
    "google-quest-challenge": Sizes(Size(300, 100), Size(5_471, 608)),
    "icecube-neutrinos-in-deep-ice": Sizes(
        Size(400, 100), Size(2_000_000, 13_200_000), "events (train capped; 118.8 M real)"
    ),
    "learning-agency-lab-automated-essay-scoring-2": Sizes(
        Size(300, 100), Size(15_576, 1_731), "essays"
    ),
    "osic-pulmonary-fibrosis-progression": Sizes(
        Size(30, 8, 32), Size(158, 18, 64), "patients (6 to 10 visits, one CT scan each)"
    ),
    "petfinder-pawpularity-score": Sizes(Size(200, 60, 32), Size(8_920, 992, 256), "images"),
    "predict-volcanic-eruptions-ingv-oe": Sizes(
        Size(90, 30), Size(3_987, 444), "segments (3,001 samples of 10 sensors; 60,001 real)"
    ),
    "rsna-2022-cervical-spine-fracture-detection": Sizes(
        Size(20, 30, 32), Size(202, 1_817, 64), "studies (12 CT slices each; about 300 real)"
    ),
    "smartphone-decimeter-2022": Sizes(
        Size(8, 3), Size(55, 7), "drives (a date each, 1 to 3 phones)", "estimate"
    ),
    "us-patent-phrase-to-phrase-matching": Sizes(Size(600, 200), Size(32_825, 3_648), "pairs"),
    # Batch F (boxes and structured answers). Counts from upstream's split of Kaggle's tables;
    # pages, radiographs and lidar sweeps are capped stand-ins, see each generator.
    "kuzushiji-recognition": Sizes(
        Size(40, 12, 64), Size(3_492, 389, 512), "pages (side: height)", "derived"
    ),
    "siim-covid19-detection": Sizes(
        Size(60, 20, 32), Size(5_448, 606, 128), "studies (about 1.05 images each)", "derived"
    ),
    "vinbigdata-chest-xray-abnormalities-detection": Sizes(
        Size(80, 30, 32), Size(13_500, 1_500, 128), "images", "prep"
    ),
    "3d-object-detection-for-autonomous-vehicles": Sizes(
        Size(24, 12, 64),
        Size(18_144, 4_536, 1_024),
        "lidar samples (side: points a sweep; 126 a scene)",
        "estimate",
    ),
    "tensorflow2-question-answering": Sizes(
        Size(200, 50, 200),
        Size(30_000, 30_738, 5_500),
        "examples (side: mean page tokens; train capped at 30,000 of 276,635)",
        "derived",
    ),
    "hms-harmful-brain-activity-classification": Sizes(
        Size(300, 100, 400),
        Size(96_120, 10_680, 1_000),
        "label rows (about 6 an EEG; side: samples a recording, capped)",
        "estimate",
    ),
    # Batch A: the dev split. Row and image counts from upstream's split of Kaggle's tables;
    # photographs are stand-ins at 320 pixels (Kaggle's are 640 to 1,154).
    "invasive-species-monitoring": Sizes(
        Size(160, 50, 32), Size(1_836, 459, 320), "images (side: width)"
    ),
    "ml2021spring-hw2": Sizes(Size(2_000, 500), Size(899_641, 330_291), "frames (429 features)"),
    "movie-review-sentiment-analysis-kernels-only": Sizes(
        Size(1_200, 300), Size(109_242, 46_818), "phrases"
    ),
    "paddy-disease-classification": Sizes(
        Size(200, 60, 32), Size(7_805, 2_602, 320), "images (side: height)"
    ),
    "plant-seedlings-classification": Sizes(Size(240, 60, 32), Size(4_084, 666, 320), "images"),
    # Batch E (run-length encoded masks). Counts from upstream's split of Kaggle's data; masks
    # keep Kaggle's resolution where they are small, image payloads are capped stand-ins.
    "google-research-identify-contrails-reduce-global-warming": Sizes(
        Size(40, 12, 16),
        Size(18_673, 1_856, 64),
        "records (as many validation ones as test; side: masks, Kaggle's 256; bands <= 32)",
        "prep",
    ),
    "hubmap-kidney-segmentation": Sizes(
        Size(12, 3, 128),
        Size(12, 3, 50_000),
        "slides (side: the longest; TIFFs shrunk to 1,024 pixels)",
        "prep",
    ),
    "tgs-salt-identification-challenge": Sizes(
        Size(120, 40, 101), Size(3_000, 1_000, 101), "images", "prep"
    ),
    "uw-madison-gi-tract-image-segmentation": Sizes(
        Size(5, 2, 32),
        Size(76, 9, 266),
        "cases (1 to 6 days of slices, 3 rows a slice; training days after the 4th are test)",
        "prep",
    ),
    "vesuvius-challenge-ink-detection": Sizes(
        Size(6, 6, 96),
        Size(65, 65, 7_606),
        "volume slices of the 2 training and the test fragment (side: the test one's height; "
        "volumes shrunk to 1,024 pixels)",
        "estimate",
    ),
}
"""Competition id -> smoke and full sizes."""


def synthetic_competitions() -> list[str]:
    """Competition ids a generator exists for, sorted."""
    return sorted(SIZES)


def generator(competition_id: str) -> ModuleType:
    """The generator module of ``competition_id`` (``write`` and maybe ``check_size``)."""
    if competition_id not in SIZES:
        raise ValueError(
            f"No synthetic data for {competition_id!r}; available: {synthetic_competitions()}"
        )
    return importlib.import_module(f"{__package__}.{module_name(competition_id)}")
