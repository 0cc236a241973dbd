"""mlsp-2013-birds: upstream's layout (essential and supplemental data, the three filtered
feature files with their one header), 16 kHz recordings, and species that the supplied
features tell apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf
from PIL import Image

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, prepared, read

CID = "mlsp-2013-birds"
HEADER = "rec_id,[histogram of segment features]"


def test_layout_and_files(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    n = n_train + n_test
    got = layout(root)
    assert len(list((root / "public/essential_data/src_wavs").glob("*.wav"))) == n
    for folder in ("spectrograms", "filtered_spectrograms", "supervised_segmentation"):
        assert len(list((root / "public" / "supplemental_data" / folder).iterdir())) == n
    assert 0 < len(list((root / "public/supplemental_data/segmentation_examples").iterdir())) < n
    assert set(got) == {
        "private/answers.csv", "public/essential_data/", "public/sample_submission.csv",
        "public/supplemental_data/",
    }  # fmt: skip
    essential = root / "public" / "essential_data"
    folds = read(essential, "CVfolds_2.txt")
    assert list(folds.columns) == ["rec_id", "fold"] and folds["rec_id"].tolist() == list(range(n))
    assert (folds["fold"] == 1).sum() == n_test
    names = read(essential, "rec_id2filename.txt")
    assert list(names.columns) == ["rec_id", "filename"]
    lines = (essential / "rec_labels_test_hidden.txt").read_text().splitlines()
    assert lines[0] == "rec_id,[labels]" and len(lines) == n + 1
    test_recs = set(folds.loc[folds["fold"] == 1, "rec_id"])
    for line in lines[1:]:
        rec, *rest = line.split(",")
        assert (rest == ["?"]) == (int(rec) in test_recs) and all(
            r == "?" or r.isdigit() for r in rest
        )
    assert (essential / "species_list.txt").read_text().startswith("class_id,code,species\n0,BRCR,")
    info = sf.info(essential / "src_wavs" / f"{names['filename'][0]}.wav")
    assert (info.samplerate, info.channels, round(info.duration)) == (16_000, 1, 10)
    supplemental = root / "public" / "supplemental_data"
    for name in ("histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"):
        assert (supplemental / name).read_text().splitlines()[0] == HEADER
    histogram = (supplemental / "histogram_of_segments.txt").read_text().splitlines()[1:]
    assert len(histogram) == n and all(len(h.split(",")) == 101 for h in histogram)
    features = (supplemental / "segment_features.txt").read_text().splitlines()[1:]
    assert all(len(f.split(",")) == 40 for f in features)
    assert Image.open(supplemental / "spectrograms" / f"{names['filename'][0]}.bmp").format == "BMP"
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    assert (
        answers["Id"].tolist()
        == sample["Id"].tolist()
        == [r * 100 + k for r in sorted(test_recs) for k in range(19)]
    )
    assert (sample["Probability"] == 0).all() and set(answers["Probability"]) == {0, 1}


def test_histograms_tell_the_species(mlebench_data: Path) -> None:
    """The commonest species of the training recordings is heard in their segment histograms."""
    root = prepared(mlebench_data, CID)
    lines = (root / "public/supplemental_data/histogram_of_segments.txt").read_text().splitlines()
    x = np.array([line.split(",")[1:] for line in lines[1:]], float)
    labels = (root / "public/essential_data/rec_labels_test_hidden.txt").read_text().splitlines()
    train = {int(r): s for r, *s in (line.split(",") for line in labels[1:]) if s != ["?"]}
    rows = sorted(train)
    counts = np.bincount([int(k) for r in rows for k in train[r]], minlength=19)
    common = int(counts.argmax())
    heard = np.array([int(str(common) in train[r]) for r in rows])
    assert cv_auc(x[rows], heard) > 0.75
