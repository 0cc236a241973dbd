"""hubmap-kidney-segmentation: PAS-stained kidney slides with glomeruli, as upstream's split of
Kaggle's 15 training slides into 12 and 3.

A slide is pink tissue (an oval with a cortex and a medulla) on white; glomeruli are round
purple tufts in the cortex, about 2% of the tissue, some 0.6% of the slide's side across
(about 300 pixels on a 50,000-pixel slide). Their masks are exact ellipses, written as
run-length encodings (``rlecodec``, down each column, then across) straight from the
ellipses' column spans, so that a gigapixel mask is never held in memory.

Public: ``train.csv`` (``id, encoding``), ``HuBMAP-20-dataset_information.csv`` (every one of
the 15 slides, test ones included, as upstream keeps them: ``image_file``, ``width_pixels``,
``height_pixels``, the annotation files, anonymized patient data), ``sample_submission.csv``
(``id, predicted`` blank), ``train/`` and ``test/`` holding ``<id>.tiff``, ``<id>.json``
(the glomerulus polygons: upstream's known leak, they are in ``test/`` too) and
``<id>-anatomical-structure.json``, and ``test/sample_submission.csv`` (upstream copies it
there). Private: ``test.csv`` (``id, encoding, width_pixels, height_pixels``) and
``gold_submission.csv`` (``id, predicted``). Ids are 9 hex digits.

``side`` is the longest slide side (Kaggle's slides are up to about 50,000 pixels); each
slide's sides are 35% to 100% of it. The masks, polygons and sizes in the tables are at that
scale; the TIFFs are RGB stand-ins at most ``TIFF_CAP`` pixels a side, the slide shrunk
evenly (a gigapixel TIFF is gigabytes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rlecodec import encode_intervals

from .common import Size, hex_ids
from .imaging import Canvas, jitter, save

TIFF_CAP = 1024
GLOMERULUS_SHARE = 0.006
"""A glomerulus's radius as a share of the longest slide side (at least 3 pixels)."""
TISSUE = (232, 190, 205)
MEDULLA = (222, 176, 196)
GLOMERULUS = (150, 80, 150)
CLASS_COLOURS = {"glomerulus": -3140401, "Cortex": -16711936, "Medulla": -65536}


@dataclass(frozen=True)
class Slide:
    id: str
    width: int
    height: int
    glomeruli: np.ndarray
    """One row per glomerulus: centre x, centre y, semi-axis x, semi-axis y (pixels)."""


def check_size(size: Size) -> None:
    if size.side < 32:
        raise ValueError(f"side must be at least 32 pixels, got {size.side}")


def draw_slide(rng: np.random.Generator, slide_id: str, side: int) -> Slide:
    width, height = (np.round(side * rng.uniform(0.35, 1.0, 2))).astype(int)
    radius = max(3.0, GLOMERULUS_SHARE * side)
    tissue = 0.8 * width * height * np.pi / 4  # the cortex: most of the tissue oval
    count = max(3, round(0.02 * tissue / (np.pi * radius**2)))
    angle = rng.uniform(0, 2 * np.pi, count)
    reach = np.sqrt(rng.uniform(0.3, 1.0, count)) * 0.4  # the outer ring: the cortex
    centres = np.column_stack(
        [width * (0.5 + reach * np.cos(angle)), height * (0.5 + reach * np.sin(angle))]
    )
    axes = radius * rng.uniform(0.7, 1.3, (count, 1)) * rng.uniform(0.8, 1.2, (count, 2))
    return Slide(slide_id, int(width), int(height), np.column_stack([centres, axes]))


def column_spans(slide: Slide) -> tuple[np.ndarray, np.ndarray]:
    """Each glomerulus's pixels (centres inside the ellipse) as flat ``[lo, hi)`` intervals,
    one per column it crosses, numbered down each column."""
    los, his = [], []
    for cx, cy, ax, ay in slide.glomeruli:
        x = np.arange(max(0, int(np.ceil(cx - ax))), min(slide.width, int(cx + ax) + 1))
        half = ay * np.sqrt(np.clip(1 - ((x - cx) / ax) ** 2, 0, None))
        top = np.clip(np.ceil(cy - half), 0, slide.height).astype(np.int64)
        bottom = np.clip(np.floor(cy + half) + 1, 0, slide.height).astype(np.int64)
        los.append(x * slide.height + top)
        his.append(x * slide.height + bottom)
    return np.concatenate(los), np.concatenate(his)


def polygon(cx: float, cy: float, ax: float, ay: float, points: int = 24) -> list[list[int]]:
    t = np.linspace(0, 2 * np.pi, points, endpoint=False)
    ring = [[round(cx + ax * np.cos(a)), round(cy + ay * np.sin(a))] for a in t]
    return [*ring, ring[0]]


def feature(name: str, ring: list[list[int]], locked: bool) -> dict[str, object]:
    return {
        "type": "Feature",
        "id": "PathAnnotationObject",
        "geometry": {"type": "Polygon", "coordinates": [ring]},
        "properties": {
            "classification": {"name": name, "colorRGB": CLASS_COLOURS[name]},
            "isLocked": locked,
            "measurements": [],
        },
    }


def write_slide(rng: np.random.Generator, slide: Slide, folder: Path) -> None:
    """The TIFF stand-in and both JSON files of one slide."""
    scale = min(1.0, TIFF_CAP / max(slide.width, slide.height))
    canvas = Canvas(max(1, round(slide.width * scale)), max(1, round(slide.height * scale)),
                    jitter(rng, (245, 243, 245), 5))  # fmt: skip
    canvas.ellipse(0.5, 0.5, 0.47, 0.47, jitter(rng, TISSUE, 8))
    canvas.ellipse(0.5, 0.5, 0.2, 0.2, jitter(rng, MEDULLA, 8))
    for cx, cy, ax, ay in slide.glomeruli:
        canvas.ellipse(cx / slide.width, cy / slide.height, ax / slide.width,
                       ay / slide.height, jitter(rng, GLOMERULUS, 15))  # fmt: skip
    save(canvas.finish(rng, noise=6), folder / f"{slide.id}.tiff")
    glomeruli = [feature("glomerulus", polygon(*g), True) for g in slide.glomeruli]
    (folder / f"{slide.id}.json").write_text(json.dumps(glomeruli))
    w, h = slide.width, slide.height
    structures = [
        feature("Cortex", polygon(w / 2, h / 2, 0.47 * w, 0.47 * h), False),
        feature("Medulla", polygon(w / 2, h / 2, 0.2 * w, 0.2 * h), False),
    ]
    (folder / f"{slide.id}-anatomical-structure.json").write_text(json.dumps(structures))


def dataset_information(rng: np.random.Generator, slides: list[Slide]) -> pd.DataFrame:
    n = len(slides)
    height_cm = rng.uniform(155, 190, n).round(1)
    weight = rng.uniform(55, 110, n).round(1)
    cortex = rng.uniform(50, 100, n).round(0)
    return pd.DataFrame(
        {
            "image_file": [f"{s.id}.tiff" for s in slides],
            "width_pixels": [s.width for s in slides],
            "height_pixels": [s.height for s in slides],
            "anatomical_structures_segmention_file": [
                f"{s.id}-anatomical-structure.json" for s in slides
            ],
            "glomerulus_segmentation_file": [f"{s.id}.json" for s in slides],
            "patient_number": rng.integers(60000, 70000, n),
            "race": rng.choice(["White", "Black or African American"], n),
            "ethnicity": rng.choice(["Not Hispanic or Latino", "Hispanic or Latino"], n),
            "sex": rng.choice(["Male", "Female"], n),
            "age": rng.integers(30, 80, n),
            "weight_kilograms": weight,
            "height_centimeters": height_cm,
            "bmi_kg/m^2": (weight / (height_cm / 100) ** 2).round(1),
            "laterality": rng.choice(["Left", "Right"], n),
            "percent_cortex": cortex,
            "percent_medulla": 100 - cortex,
        }
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    ids = hex_ids(rng, size.n_train + size.n_test, 9)
    slides = [draw_slide(rng, slide_id, size.side) for slide_id in ids]
    encodings = {s.id: encode_intervals(*column_spans(s)) for s in slides}
    dataset_information(rng, slides).to_csv(
        public / "HuBMAP-20-dataset_information.csv", index=False
    )
    order = rng.permutation(len(slides))
    train = [slides[k] for k in order[size.n_test :]]
    test = [slides[k] for k in order[: size.n_test]]
    for folder, group in (("train", train), ("test", test)):
        for slide in group:
            write_slide(rng, slide, public / folder)
    pd.DataFrame(
        {"id": [s.id for s in train], "encoding": [encodings[s.id] for s in train]}
    ).to_csv(public / "train.csv", index=False)
    answers = pd.DataFrame(
        {
            "id": [s.id for s in test],
            "encoding": [encodings[s.id] for s in test],
            "width_pixels": [s.width for s in test],
            "height_pixels": [s.height for s in test],
        }
    )
    answers.to_csv(private / "test.csv", index=False)
    sample = answers[["id"]].assign(predicted="")
    sample.to_csv(public / "sample_submission.csv", index=False)
    sample.to_csv(public / "test" / "sample_submission.csv", index=False)
    answers[["id"]].assign(predicted=answers["encoding"]).to_csv(
        private / "gold_submission.csv", index=False
    )
