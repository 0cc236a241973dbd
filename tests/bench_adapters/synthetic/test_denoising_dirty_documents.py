"""denoising-dirty-documents: upstream's layout, one answer row per test pixel, and dirty
pages whose clean versions a simple filter recovers better than the all-white sample."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import layout, prepared, read

CID = "denoising-dirty-documents"


def test_layout_and_pixel_ids(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/answers.csv": 1,
        "public/sampleSubmission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
        "public/train_cleaned/": n_train,
    }
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sampleSubmission.csv")
    assert list(answers.columns) == list(sample.columns) == ["id", "value"]
    assert sample["id"].tolist() == answers["id"].tolist() and (sample["value"] == 1).all()
    pages = sorted((root / "public" / "test").glob("*.png"))  # upstream's order: sorted paths
    assert sum(np.prod(Image.open(p).size) for p in pages) == len(answers)
    first = Image.open(pages[0])
    width, height = first.size
    assert first.mode == "L" and width == 48
    assert answers["id"][0] == f"{pages[0].stem}_1_1"
    assert answers["id"][width * height - 1] == f"{pages[0].stem}_{height}_{width}"
    assert answers["value"].between(0, 1).all()
    train = sorted(p.name for p in (root / "public" / "train").iterdir())
    assert train == sorted(p.name for p in (root / "public" / "train_cleaned").iterdir())


def test_thresholding_the_dirty_page_beats_the_white_sample(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    dirty = np.asarray(Image.open(next((root / "public" / "train").glob("*.png"))), float) / 255
    clean_path = (
        root / "public" / "train_cleaned" / next((root / "public" / "train").glob("*.png")).name
    )
    clean = np.asarray(Image.open(clean_path), float) / 255
    white = np.sqrt(((1 - clean) ** 2).mean())
    threshold = np.sqrt(((np.where(dirty > 0.45, 1.0, dirty) - clean) ** 2).mean())
    assert threshold < 0.7 * white
