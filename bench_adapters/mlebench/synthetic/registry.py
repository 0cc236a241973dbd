"""Which competitions have a generator, and how large their synthetic data is.

The generator of competition ``<id>`` is the module ``synthetic.<id with - as _>``; it is
imported only when used. ``smoke`` sizes are small (tests, a first look); ``full`` sizes are
the real prepared data's, labelled by where they come from: ``prep`` (stated in upstream's
``prepare.py``), ``derived`` (worked out from its split of the raw counts) or ``estimate``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

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
    return importlib.import_module(f"{__package__}.{competition_id.replace('-', '_')}")
