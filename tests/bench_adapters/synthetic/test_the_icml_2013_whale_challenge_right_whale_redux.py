"""the-icml-2013-whale-challenge-right-whale-redux: upstream's layout (zipped train2/ and
test2/ folders of AIFF clips, time-ordered names), 2 kHz clips, and up-calls that show."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import numpy as np
import soundfile as sf

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from tests.bench_adapters.synthetic.helpers import cv_auc, layout, prepared, read

CID = "the-icml-2013-whale-challenge-right-whale-redux"
TRAIN_NAME = re.compile(r"train2/(\d{8})_\d{6}_\d{3}s\dms_TRAIN(\d+)_([01])\.aif")


def test_layout_names_and_audio(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    n_train, n_test = DEFAULT_SIZES[CID]
    assert layout(root) == {
        "private/test.csv": 1,
        "public/sampleSubmission.csv": 1,
        "public/test2.zip": n_test,
        "public/train2.zip": n_train,
    }
    with zipfile.ZipFile(root / "public" / "train2.zip") as zf:
        names = zf.namelist()
        matches = [TRAIN_NAME.fullmatch(n) for n in names]
        assert all(matches)
        assert sorted(int(m.group(2)) for m in matches) == list(range(n_train))
        by_index = sorted(matches, key=lambda m: int(m.group(2)))
        assert [m.string for m in by_index] == sorted(names)  # numbered in time order
        samples, rate = sf.read(io.BytesIO(zf.read(names[0])))
        assert sf.info(io.BytesIO(zf.read(names[0]))).format == "AIFF"
    assert rate == 2000 and len(samples) == 4000
    days = {m.group(1) for m in matches}
    answers, sample = read(root, "private/test.csv"), read(root, "public/sampleSubmission.csv")
    assert list(answers.columns) == list(sample.columns) == ["clip", "probability"]
    assert (
        answers["clip"].tolist() == sample["clip"].tolist() and (sample["probability"] == 0).all()
    )
    assert answers["clip"].str.fullmatch(r"\d{8}_\d{6}_\d{3}s\dms_Test\d+\.aif").all()
    assert not days & {c[:8] for c in answers["clip"]}  # other days than train
    with zipfile.ZipFile(root / "public" / "test2.zip") as zf:
        assert sorted(zf.namelist()) == sorted(f"test2/{c}" for c in answers["clip"])
    assert set(answers["probability"]) == {0, 1}


def test_up_calls_raise_the_call_band(mlebench_data: Path) -> None:
    root = prepared(mlebench_data, CID)
    rows, labels = [], []
    with zipfile.ZipFile(root / "public" / "train2.zip") as zf:
        for name in zf.namelist():
            samples, _ = sf.read(io.BytesIO(zf.read(name)))
            spectrum = np.abs(np.fft.rfft(samples)) ** 2
            freqs = np.fft.rfftfreq(len(samples), 1 / 2000)
            band = spectrum[(freqs > 120) & (freqs < 200)].sum() / spectrum.sum()
            rows.append([np.log(band + 1e-9)])
            labels.append(int(name.endswith("_1.aif")))
    assert cv_auc(np.array(rows), np.array(labels)) > 0.7
