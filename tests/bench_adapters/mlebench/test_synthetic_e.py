"""Batch E generators (run-length encoded masks): each smoke fixture's layout in upstream's
prepared form, a signal a simple rule finds in the payload, and ``baselines check`` on every
one of them (the gold file medals, the sample is valid and not above the median, corrupted
copies are rejected), following upstream's validity where its grader accepts a corrupted
copy.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from scipy.ndimage import uniform_filter

from baselines.check import check_corrupted, check_gold, check_sample
from bench_adapters import CompetitionTask, resolve_task
from bench_adapters.mlebench.graders import get_grader
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES, make_prepared
from bench_adapters.mlebench.synthetic.leaderboards import write_checkout
from bench_adapters.mlebench.synthetic.mask_mutations import COLUMNS, mask_mutations
from rlecodec import CONVENTIONS, decode, encode

CONTRAILS = "google-research-identify-contrails-reduce-global-warming"
HUBMAP = "hubmap-kidney-segmentation"
SALT = "tgs-salt-identification-challenge"
GUT = "uw-madison-gi-tract-image-segmentation"
INK = "vesuvius-challenge-ink-detection"
COMPETITIONS = [CONTRAILS, HUBMAP, SALT, GUT, INK]


def score(cid: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(cid)
    assert spec is not None
    return spec.grade(submission, answers)


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Smoke data of every batch E competition and stand-in leaderboards for them."""
    data = tmp_path_factory.mktemp("e-data")
    for cid in COMPETITIONS:
        make_prepared(cid, data, seed=7)
    checkout = write_checkout(tmp_path_factory.mktemp("e-checkout"), data, COMPETITIONS)
    return data, checkout


@pytest.fixture(scope="module")
def check_report(fixtures: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``baselines check``'s gold, sample and corrupted-copy outcomes for each competition (its
    baseline's smoke check is tests/baselines/mlebench/'s)."""
    data, checkout = fixtures
    tasks = []
    for cid in COMPETITIONS:
        task = resolve_task(f"mlebench/{cid}", data_dir=data, mlebench_dir=checkout)
        assert isinstance(task, CompetitionTask)
        folder = tmp_path_factory.mktemp(f"check-{cid}")
        outcomes = [*check_gold(task, folder), *check_sample(task), *check_corrupted(task, folder)]
        tasks.append({"task": f"mlebench/{cid}", "outcomes": [asdict(o) for o in outcomes]})
    return {"tasks": tasks}


USUAL = {
    ("gold", "valid"): "pass",
    ("gold", "gold medal"): "pass",
    ("sample", "valid"): "pass",
    ("sample", "not above median"): "pass",
    ("missing-column", "invalid, with a message"): "pass",
    ("wrong-row-count", "invalid, with a message"): "pass",
}
ACCEPTED = {  # corrupted copies upstream grades, with the expectation check sets instead
    CONTRAILS: "missing-column",
    GUT: "wrong-row-count",
}


@pytest.mark.parametrize("cid", COMPETITIONS)
def test_check_gold_medals_sample_stays_below_corrupted_rejected(
    check_report: Any, cid: str
) -> None:
    (task,) = [t for t in check_report["tasks"] if t["task"] == f"mlebench/{cid}"]
    outcomes = {(o["submission"], o["expectation"]): o for o in task["outcomes"]}
    expected = dict(USUAL)
    if cid in ACCEPTED:
        name = ACCEPTED[cid]
        del expected[name, "invalid, with a message"]
        expected[name, "valid, as upstream"] = "pass"
    assert {k: o["status"] for k, o in outcomes.items()} == expected, task["outcomes"]


def test_mask_mutations_are_the_five_competitions_own(fixtures: tuple[Path, Path]) -> None:
    assert set(COLUMNS) == set(CONVENTIONS) == set(COMPETITIONS)
    assert mask_mutations("spaceship-titanic") == {}
    for cid, column in COLUMNS.items():
        spec = get_grader(cid)
        assert spec is not None
        sample = read(fixtures[0] / cid / "prepared", spec.sample_submission)
        assert column in sample.columns


def files(root: Path) -> dict[str, int]:
    """Relative path -> 1 for a file, or the number of files under a folder."""
    out = {}
    for path in sorted(root.glob("*/*")):
        name = path.relative_to(root).as_posix()
        out[name + ("/" if path.is_dir() else "")] = (
            sum(1 for p in path.rglob("*") if p.is_file()) if path.is_dir() else 1
        )
    return out


def read(root: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(root / name)


def test_contrails_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / CONTRAILS / "prepared"
    n_train, n_test = DEFAULT_SIZES[CONTRAILS]
    bands = [f"band_{b:02}.npy" for b in range(8, 17)]
    assert files(root) == {
        "private/answers.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": 9 * n_test,
        "public/train/": 11 * n_train,
        "public/train_metadata.json": 1,
        "public/validation/": 10 * n_test,
        "public/validation_metadata.json": 1,
    }
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    assert list(answers.columns) == list(sample.columns) == [
        "record_id", "encoded_pixels", "height", "width"
    ]  # fmt: skip
    assert answers["record_id"].dtype == np.int64 and len(answers) == n_test
    assert answers["record_id"].tolist() == sample["record_id"].tolist()
    assert set(sample["encoded_pixels"]) <= {"1 3 10 5", "-"}
    assert sorted(int(p.name) for p in (root / "public/test").iterdir()) == sorted(
        answers["record_id"]
    )
    metadata = json.loads((root / "public/train_metadata.json").read_text())
    assert len(metadata) == n_train and {m["record_id"] for m in metadata} == {
        p.name for p in (root / "public/train").iterdir()
    }
    record = next((root / "public/train").iterdir())
    assert sorted(p.name for p in record.iterdir()) == [
        *bands, "human_individual_masks.npy", "human_pixel_masks.npy"
    ]  # fmt: skip
    band = np.load(record / "band_14.npy")
    side = int(answers["height"].iloc[0])
    assert band.dtype == np.float16 and band.shape == (side, side, 8)
    individual = np.load(record / "human_individual_masks.npy")
    pixel = np.load(record / "human_pixel_masks.npy")
    assert individual.shape[:3] == pixel.shape == (side, side, 1) and pixel.dtype == np.int32
    assert ((individual.sum(-1) * 2 > individual.shape[-1]) == pixel).all()  # the majority
    # Contrails are colder than the sky in the labelled frame: thresholding band 14 against
    # its local sky (band 8, nearly unchanged) finds them far better than the sample.
    guesses = []
    for record_id in answers["record_id"]:
        folder = root / "public/test" / str(record_id)
        frame = np.load(folder / "band_14.npy")[..., 4].astype(float)
        sky = np.load(folder / "band_08.npy")[..., 4].astype(float) + 18
        guesses.append(encode(frame - sky < -2.5, empty="-"))
    guess = answers[["record_id"]].assign(encoded_pixels=guesses)
    assert score(CONTRAILS, guess, answers) > 0.5 > 0.05 > score(CONTRAILS, sample, answers)
    for cell in answers["encoded_pixels"]:
        if cell != "-":
            assert decode(cell, side, side).sum() >= 1


def test_hubmap_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / HUBMAP / "prepared"
    n_train, n_test = DEFAULT_SIZES[HUBMAP]
    assert files(root) == {
        "private/gold_submission.csv": 1,
        "private/test.csv": 1,
        "public/HuBMAP-20-dataset_information.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": 3 * n_test + 1,
        "public/train.csv": 1,
        "public/train/": 3 * n_train,
    }
    train, info = (
        read(root, "public/train.csv"),
        read(root, "public/HuBMAP-20-dataset_information.csv"),
    )
    answers, gold = read(root, "private/test.csv"), read(root, "private/gold_submission.csv")
    sample = read(root, "public/sample_submission.csv")
    assert list(train.columns) == ["id", "encoding"] and len(train) == n_train
    assert list(answers.columns) == ["id", "encoding", "width_pixels", "height_pixels"]
    assert list(gold.columns) == list(sample.columns) == ["id", "predicted"]
    assert gold["id"].tolist() == sample["id"].tolist() == answers["id"].tolist()
    assert gold["predicted"].tolist() == answers["encoding"].tolist()
    assert sample["predicted"].isna().all()  # written blank
    assert read(root, "public/test/sample_submission.csv").equals(sample)
    assert len(info) == n_train + n_test  # the test slides' sizes are public, as upstream's
    assert set(info["image_file"]) == {f"{i}.tiff" for i in [*train["id"], *answers["id"]]}
    sizes = info.set_index("image_file")[["width_pixels", "height_pixels"]]
    guesses = []
    for row in answers.itertuples():
        folder = root / "public/test"
        polygons = json.loads((folder / f"{row.id}.json").read_text())
        assert {p["properties"]["classification"]["name"] for p in polygons} == {"glomerulus"}
        structures = json.loads((folder / f"{row.id}-anatomical-structure.json").read_text())
        assert [s["properties"]["classification"]["name"] for s in structures] == [
            "Cortex", "Medulla"
        ]  # fmt: skip
        assert tuple(sizes.loc[f"{row.id}.tiff"]) == (row.width_pixels, row.height_pixels)
        with Image.open(folder / f"{row.id}.tiff") as image:
            assert image.mode == "RGB" and image.size == (row.width_pixels, row.height_pixels)
            pixels = np.asarray(image).astype(int)
        truth = decode(row.encoding, row.height_pixels, row.width_pixels)
        assert truth.any()
        # Glomeruli are the purple tufts: low green, high blue, where the tissue is pink.
        guesses.append(encode((pixels[..., 1] < 130) & (pixels[..., 2] > 110)))
    guess = answers[["id"]].assign(predicted=guesses)
    assert score(HUBMAP, guess, answers) > 0.6 > score(HUBMAP, sample, answers) == 0.0


def test_salt_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / SALT / "prepared"
    n_train, n_test = DEFAULT_SIZES[SALT]
    assert files(root) == {
        "private/test.csv": 1,
        "public/depths.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train.csv": 1,
        "public/train/": 2 * n_train,
    }
    train, depths = read(root, "public/train.csv"), read(root, "public/depths.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert (
        list(train.columns) == list(answers.columns) == list(sample.columns) == ["id", "rle_mask"]
    )
    for frame in (train, answers, sample, depths):
        assert frame["id"].is_monotonic_increasing  # upstream sorts every table by id
    assert (sample["rle_mask"] == "1 1").all() and sample["id"].equals(answers["id"])
    assert depths["id"].tolist() == train["id"].tolist() and list(depths.columns) == ["id", "z"]
    assert 0.2 < train["rle_mask"].isna().mean() < 0.6  # images without salt: blank
    image_id = train["id"].iloc[0]
    for folder in ("images", "masks"):
        with Image.open(root / "public/train" / folder / f"{image_id}.png") as image:
            assert image.mode == "L" and image.size == (101, 101)
    with Image.open(root / "public/train/masks" / f"{image_id}.png") as image:
        mask = np.asarray(image) > 0
    truth = train["rle_mask"].fillna("").iloc[0]
    assert (decode(truth, 101, 101) == mask).all()
    # Salt is smooth and bright, sediment striped: a local mean and spread find it.
    guesses = []
    for image_id in answers["id"]:
        with Image.open(root / "public/test/images" / f"{image_id}.png") as image:
            pixels = np.asarray(image, dtype=float)
        mean = uniform_filter(pixels, 7)
        spread = np.sqrt(np.maximum(uniform_filter(pixels**2, 7) - mean**2, 0))
        guesses.append(encode((mean > 135) & (spread < 20)))
    guess = answers[["id"]].assign(rle_mask=guesses)
    assert score(SALT, guess, answers) > 0.5 > 0.1 > score(SALT, sample, answers)


def test_gut_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / GUT / "prepared"
    n_train, n_test = DEFAULT_SIZES[GUT]
    got = files(root)
    assert set(got) == {
        "private/test.csv", "public/sample_submission.csv", "public/test.csv", "public/test/",
        "public/train.csv", "public/train/",
    }  # fmt: skip
    train, public_test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == ["id", "class", "segmentation"]
    assert list(answers.columns) == ["id", "class", "predicted", "image_width", "image_height"]
    assert (
        list(sample.columns) == ["id", "class", "predicted"]
        and (sample["predicted"] == "1 1 5 2").all()
    )
    assert public_test.equals(answers[["id", "class"]]) and sample["id"].equals(answers["id"])
    assert answers["image_width"].dtype == float  # upstream's .loc leaves the sizes as floats
    assert (
        answers["class"] == ["large_bowel", "small_bowel", "stomach"] * (len(answers) // 3)
    ).all()
    assert 0.3 < answers["predicted"].isna().mean() < 0.95
    cases = {
        split: {p.name for p in (root / "public" / split).iterdir()} for split in ("train", "test")
    }
    assert len(cases["train"]) == n_train and len(cases["test"] - cases["train"]) == n_test
    # Upstream's day rule: a training case's days after its fourth are test days.
    for case in cases["train"] & cases["test"]:
        assert len(list((root / "public/train" / case).iterdir())) == 4
    assert got["public/test/"] == len(answers) // 3 and got["public/train/"] == len(train) // 3
    guesses = []
    for slice_id, width, height in (
        answers[["id", "image_width", "image_height"]].drop_duplicates().itertuples(index=False)
    ):
        case, day, _, k = slice_id.split("_")
        folder = root / "public/test" / case / f"{case}_{day}" / "scans"
        (path,) = folder.glob(f"slice_{k}_{int(width)}_{int(height)}_*.png")
        with Image.open(path) as image:
            pixels = np.asarray(image).astype(float)
        assert pixels.shape == (height, width) and pixels.max() > 255  # 16-bit
        bands = {"large_bowel": (7500, 11500), "small_bowel": (4500, 7500), "stomach": (11500, 1e9)}
        guesses += [encode((pixels > lo) & (pixels <= hi)) for lo, hi in bands.values()]
    guess = answers[["id", "class"]].assign(predicted=guesses)
    assert score(GUT, guess, answers) > 0.7 > score(GUT, sample, answers)
    some = answers.dropna().iloc[0]
    assert decode(some["predicted"], int(some["image_height"]), int(some["image_width"])).any()


def test_ink_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / INK / "prepared"
    n_train, n_test = DEFAULT_SIZES[INK]
    assert files(root) == {
        "private/gold_submission.csv": 1,
        "private/inklabels_rle.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test + 1,
        "public/train/": 2 * (n_train + 4),
    }
    for name in ("1", "2"):
        folder = root / "public/train" / name
        assert sorted(p.name for p in folder.iterdir()) == [
            "inklabels.png", "inklabels_rle.csv", "ir.png", "mask.png", "surface_volume"
        ]  # fmt: skip
        labels = read(folder, "inklabels_rle.csv")
        assert labels["Id"].astype(str).tolist() == [name]
        with Image.open(folder / "inklabels.png") as image:
            drawn = np.asarray(image) > 0
        assert (decode(labels["Predicted"].iloc[0], *drawn.shape, "row") == drawn).all()
    answers, gold = (
        read(root, "private/inklabels_rle.csv"),
        read(root, "private/gold_submission.csv"),
    )
    sample = read(root, "public/sample_submission.csv")
    assert list(answers.columns) == ["Id", "Predicted", "width", "height"]
    assert gold.equals(answers[["Id", "Predicted"]]) and answers["Id"].tolist() == ["a"]
    assert sample.to_dict("list") == {"Id": ["a"], "Predicted": ["1 1 5 1"]}
    width, height = int(answers["width"].iloc[0]), int(answers["height"].iloc[0])
    with Image.open(root / "public/test/a/mask.png") as image:
        assert image.size == (width, height)
    # The middle slices are brighter over ink: their excess over the outer ones finds it.
    volume = []
    for k in range(n_test):
        with Image.open(root / "public/test/a/surface_volume" / f"{k:02}.tif") as image:
            assert image.mode == "I;16" and image.size == (width, height)
            volume.append(np.asarray(image, dtype=float))
    middle = np.mean(volume[n_test // 2 - 1 : n_test // 2 + 1], axis=0)
    outer = np.mean(volume[:1] + volume[-1:], axis=0)
    guess = answers[["Id"]].assign(Predicted=encode(middle - outer > 3000, "row") or " ")
    assert score(INK, guess, answers) > 0.5 > 0.1 > score(INK, sample, answers)
