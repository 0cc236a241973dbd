"""aptos2019-blindness-detection: retina photographs graded 0-4 for diabetic retinopathy.

Each image is an orange fundus disc on black with an optic disc; the grade sets how many
lesions it shows (dark-red haemorrhages, and yellow exudates from grade 3), so grades are
ordered as the metric (quadratic kappa) assumes. Grades follow Kaggle's shares.

Public: ``train.csv`` (``id_code,diagnosis``), ``test.csv`` (``id_code``),
``sample_submission.csv`` (``id_code,diagnosis`` = 0), ``train_images/<id_code>.png`` and
``test_images/<id_code>.png``. Private: ``test.csv`` (``id_code,diagnosis``). Ids are 12 hex
digits; rows are in the shuffled order of upstream's split.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size, hex_ids, split
from .imaging import Canvas, jitter, pair, save

GRADE_SHARES = [0.49, 0.10, 0.27, 0.05, 0.09]
LESIONS_PER_GRADE = 4.0


def draw(rng: np.random.Generator, side: int, grade: int) -> Image.Image:
    canvas = Canvas(side, side, (0, 0, 0))
    canvas.ellipse(0.5, 0.5, 0.46, 0.46, jitter(rng, (200, 90, 40), 25))
    canvas.ellipse(*pair(rng, 0.3, 0.7), 0.07, 0.08, jitter(rng, (245, 215, 140), 10))
    for _ in range(rng.poisson(0.3 + LESIONS_PER_GRADE * grade)):
        r, a = 0.38 * np.sqrt(rng.random()), rng.uniform(0, 2 * np.pi)
        x, y = 0.5 + r * np.cos(a), 0.5 + r * np.sin(a)
        canvas.ellipse(x, y, *pair(rng, 0.03, 0.06), jitter(rng, (90, 15, 10), 15))
    if grade >= 3:
        for _ in range(rng.poisson(3 * grade)):
            x, y = rng.uniform(0.25, 0.75, 2)
            canvas.ellipse(x, y, *pair(rng, 0.02, 0.04), jitter(rng, (250, 230, 90), 10))
    return canvas.finish(rng, noise=5, blur=0.6)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    grades = rng.choice(5, n, p=GRADE_SHARES)
    grades[:5] = np.arange(5)  # every grade present, however small the fixture
    frame = pd.DataFrame({"id_code": hex_ids(rng, n, 12), "diagnosis": grades})
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    for folder, rows in (("train_images", train), ("test_images", test)):
        for code, grade in zip(rows["id_code"], rows["diagnosis"], strict=True):
            save(draw(rng, size.side, int(grade)), public / folder / f"{code}.png")
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.drop(columns="diagnosis").to_csv(public / "test.csv", index=False)
    test.assign(diagnosis=0).to_csv(public / "sample_submission.csv", index=False)
