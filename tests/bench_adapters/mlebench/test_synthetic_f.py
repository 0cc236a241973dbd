"""Batch F generators (boxes and structured answers): each smoke fixture's layout in upstream's
prepared form, a signal a simple model finds, and ``baselines check``'s expectations on every
one of them (the gold file medals, the sample is valid and not above the median, corrupted
copies are rejected; baseline runs are the baselines issues')."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import NearestCentroid

from baselines.check import check_corrupted, check_gold, check_sample
from bench_adapters import CompetitionTask, resolve_task
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES, make_prepared
from bench_adapters.mlebench.synthetic.leaderboards import write_checkout

KUZUSHIJI = "kuzushiji-recognition"
SIIM = "siim-covid19-detection"
VINBIG = "vinbigdata-chest-xray-abnormalities-detection"
LYFT = "3d-object-detection-for-autonomous-vehicles"
TF2 = "tensorflow2-question-answering"
HMS = "hms-harmful-brain-activity-classification"
COMPETITIONS = [KUZUSHIJI, SIIM, VINBIG, LYFT, TF2, HMS]


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Smoke data of every batch F competition and stand-in leaderboards for them."""
    data = tmp_path_factory.mktemp("f-data")
    for cid in COMPETITIONS:
        make_prepared(cid, data, seed=7)
    checkout = write_checkout(tmp_path_factory.mktemp("f-checkout"), data, COMPETITIONS)
    return data, checkout


@pytest.fixture(scope="module")
def check_report(
    fixtures: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[tuple[str, str], str]]:
    """``baselines check``'s gold, sample and corrupted-copy expectations for each competition
    (its baseline runs are the baselines issues' business, and need their own data)."""
    data, checkout = fixtures
    out: dict[str, dict[tuple[str, str], str]] = {}
    for cid in COMPETITIONS:
        task = resolve_task(f"mlebench/{cid}", data_dir=data, mlebench_dir=checkout)
        assert isinstance(task, CompetitionTask)
        folder = tmp_path_factory.mktemp(f"check-{cid}")
        outcomes = [*check_gold(task, folder), *check_sample(task), *check_corrupted(task, folder)]
        out[cid] = {(o.submission, o.expectation): f"{o.status}: {o.evidence}" for o in outcomes}
    return out


USUAL = {
    ("gold", "valid"),
    ("gold", "gold medal"),
    ("sample", "valid"),
    ("sample", "not above median"),
    ("missing-column", "invalid, with a message"),
    ("wrong-row-count", "invalid, with a message"),
}


@pytest.mark.parametrize("cid", COMPETITIONS)
def test_check_gold_medals_sample_stays_below_corrupted_rejected(
    check_report: dict[str, dict[tuple[str, str], str]], cid: str
) -> None:
    got = check_report[cid]
    assert set(got) == USUAL, got
    assert all(status.startswith("pass") for status in got.values()), got


def gain_over_majority(features: np.ndarray, labels: np.ndarray) -> float:
    """Cross-validated accuracy of a logistic regression minus the majority class's share."""
    model = LogisticRegression(max_iter=3000)
    accuracy = cross_val_score(model, features, labels, cv=3, scoring="accuracy").mean()
    return float(accuracy - pd.Series(labels).value_counts(normalize=True).iloc[0])


def files(root: Path) -> dict[str, int]:
    """Relative path -> 1 for a file, the number of files under a folder or in a zip."""
    out = {}
    for path in sorted(root.glob("*/*")):
        name = path.relative_to(root).as_posix()
        if path.is_dir():
            out[name + "/"] = sum(1 for p in path.rglob("*") if p.is_file())
        elif path.suffix == ".zip":
            out[name] = len(zipfile.ZipFile(path).namelist())
        else:
            out[name] = 1
    return out


# --- kuzushiji-recognition --------------------------------------------------------------------


def test_kuzushiji_layout_gold_and_glyphs(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / KUZUSHIJI / "prepared"
    n_train, n_test = DEFAULT_SIZES[KUZUSHIJI]
    assert files(root) == {
        "private/gold_submission.csv": 1,
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test_images.zip": n_test,
        "public/train.csv": 1,
        "public/train_images.zip": n_train,
        "public/unicode_translation.csv": 1,
    }
    train = pd.read_csv(root / "public/train.csv")
    test = pd.read_csv(root / "private/test.csv")
    gold = pd.read_csv(root / "private/gold_submission.csv")
    sample = pd.read_csv(root / "public/sample_submission.csv")
    assert list(train.columns) == list(test.columns) == list(gold.columns) == ["image_id", "labels"]
    assert test["image_id"].tolist() == gold["image_id"].tolist() == sample["image_id"].tolist()
    assert (sample["labels"] == "U+003F 1 1 U+FF2F 2 2").all()
    with zipfile.ZipFile(root / "public/test_images.zip") as zf:
        assert sorted(zf.namelist()) == sorted(f"{i}.jpg" for i in test["image_id"])
    first = test["labels"].iloc[0].split()
    assert gold["labels"].iloc[0].split()[:3] == [
        first[0],
        str(int(first[1]) + 1),
        str(int(first[2]) + 1),
    ]
    codes = set(pd.read_csv(root / "public/unicode_translation.csv")["Unicode"])
    assert {t for labels in train["labels"] for t in labels.split()[0::5]} <= codes

    # the signal: ink inside the boxes, and each character's own glyph
    crops, classes, inside, outside = [], [], [], []
    with zipfile.ZipFile(root / "public/train_images.zip") as zf:
        for image_id, labels in train.itertuples(index=False):
            image = Image.open(io.BytesIO(zf.read(f"{image_id}.jpg"))).convert("L")
            pixels = np.asarray(image, np.float32) / 255
            boxes = np.zeros(pixels.shape, bool)
            tokens = labels.split()
            for code, *box in zip(*(tokens[k::5] for k in range(5)), strict=True):
                x, y, w, h = map(int, box)
                boxes[y : y + h, x : x + w] = True
                crop = image.crop((x, y, x + w, y + h)).resize((8, 8))
                crops.append(np.asarray(crop, np.float32).ravel() / 255)
                classes.append(code)
            inside.append(pixels[boxes].mean())
            outside.append(pixels[~boxes].mean())
    assert np.mean(inside) < np.mean(outside) - 0.05
    accuracy = cross_val_score(NearestCentroid(), np.array(crops), np.array(classes), cv=2).mean()
    assert accuracy > 0.5  # 48 classes: chance is 2%


# --- siim-covid19-detection -------------------------------------------------------------------


def test_siim_layout_answers_and_opacities(fixtures: tuple[Path, Path]) -> None:
    import pydicom

    root = fixtures[0] / SIIM / "prepared"
    n_train, n_test = DEFAULT_SIZES[SIIM]
    study = pd.read_csv(root / "public/train_study_level.csv")
    images = pd.read_csv(root / "public/train_image_level.csv")
    answers = pd.read_csv(root / "private/test.csv")
    sample = pd.read_csv(root / "public/sample_submission.csv")
    assert list(study.columns) == [
        "id", "Negative for Pneumonia", "Typical Appearance", "Indeterminate Appearance",
        "Atypical Appearance",
    ]  # fmt: skip
    assert list(images.columns) == ["id", "boxes", "label", "StudyInstanceUID"]
    assert len(study) == n_train and study["id"].is_monotonic_increasing
    assert (study.iloc[:, 1:].sum(axis=1) == 1).all()
    assert study["id"].str.fullmatch(r"[0-9a-f]{12}_study").all()
    assert set(images["StudyInstanceUID"] + "_study") == set(study["id"])
    test_studies = answers[answers["id"].str.endswith("_study")]
    test_images = answers[answers["id"].str.endswith("_image")]
    assert len(test_studies) == n_test
    assert answers["id"].tolist() == [*sorted(test_studies["id"]), *sorted(test_images["id"])]
    assert sample["id"].tolist() == answers["id"].tolist()
    assert set(sample["PredictionString"]) == {"negative 1 0 0 1 1", "none 1 0 0 1 1"}
    assert (
        test_studies["PredictionString"]
        .str.fullmatch(r"(negative|typical|indeterminate|atypical) 1 0 0 1 1")
        .all()
    )
    dicoms = sorted((root / "public/test").rglob("*.dcm"))
    assert sorted(f"{p.stem}_image" for p in dicoms) == sorted(test_images["id"])
    assert {p.parents[1].name + "_study" for p in dicoms} == set(test_studies["id"])

    # the signal: bright opacities inside the boxes, where the appearance puts them
    paths = {p.stem: p for p in (root / "public/train").rglob("*.dcm")}
    appearance = study.set_index("id").to_numpy().argmax(axis=1)
    by_study = dict(zip(study["id"], appearance, strict=True))
    features, labels, boxes, clear = [], [], [], []
    for row in images.itertuples(index=False):
        pixels = pydicom.dcmread(paths[row.id.removesuffix("_image")]).pixel_array.astype(float)
        tokens = row.label.split()
        if tokens[0] == "opacity":
            x0, y0, x1, y1 = (int(float(t)) for t in tokens[2:6])
            boxes.append((pixels, (slice(y0 + 1, y1), slice(x0 + 1, x1))))
        else:
            clear.append(pixels)
        h, w = pixels.shape
        regions = [pixels[h // 2 :, : w // 2], pixels[h // 2 :, w // 2 :], pixels[: h // 2]]
        features.append([r.mean() for r in regions])
        labels.append(by_study[f"{row.StudyInstanceUID}_study"])
    no_opacity = np.mean(clear, axis=0)  # the same places in the images without one
    brighter = [pixels[box].mean() - no_opacity[box].mean() for pixels, box in boxes]
    assert np.mean(brighter) > 500
    assert gain_over_majority(np.array(features), np.array(labels)) > 0.2


# --- vinbigdata-chest-xray-abnormalities-detection ---------------------------------------------


def test_vinbig_layout_consensus_and_findings(fixtures: tuple[Path, Path]) -> None:
    import pydicom

    root = fixtures[0] / VINBIG / "prepared"
    n_train, n_test = DEFAULT_SIZES[VINBIG]
    assert files(root) == {
        "private/answers.csv": 1,
        "private/gold_submission.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train/": n_train,
        "public/train.csv": 1,
    }
    train = pd.read_csv(root / "public/train.csv")
    answers = pd.read_csv(root / "private/answers.csv")
    gold = pd.read_csv(root / "private/gold_submission.csv")
    sample = pd.read_csv(root / "public/sample_submission.csv")
    corners = ["x_min", "y_min", "x_max", "y_max"]
    assert list(train.columns) == ["image_id", "class_name", "class_id", "rad_id", *corners]
    assert list(answers.columns) == ["image_id", "class_id", "class_name", "rad_id", *corners]
    assert train.groupby("image_id")["rad_id"].nunique().eq(3).all()
    assert train.loc[train["class_id"] == 14, corners].isna().all().all()
    assert not answers.duplicated(["image_id", "class_id"]).any()
    assert answers.equals(answers.sort_values(["image_id", "class_id"], ignore_index=True))
    no_finding = answers[answers["class_id"] == 14]
    assert (no_finding[corners].to_numpy() == [0.0, 0.0, 1.0, 1.0]).all()
    assert set(sample["image_id"]) == set(answers["image_id"]) == set(gold["image_id"])
    assert (sample["PredictionString"] == "14 1 0 0 1 1").all()
    assert gold["image_id"].is_monotonic_increasing
    first = answers[answers["image_id"] == gold["image_id"].iloc[0]].iloc[0]
    assert gold["PredictionString"].iloc[0].split()[:6] == [
        str(first["class_id"]), "1.0", *(str(first[c]) for c in corners)
    ]  # fmt: skip

    # the signal: each kind of finding in its own place, and drawn inside its box
    found = train[train["class_id"] < 14]
    found = found[found.groupby("class_id")["class_id"].transform("size") >= 3]  # 3-fold CV
    images = {
        p.stem: pydicom.dcmread(p).pixel_array.astype(float)
        for p in (root / "public/train").glob("*.dicom")
    }
    height, width = next(iter(images.values())).shape
    place = np.stack(
        [
            (found["x_min"] + found["x_max"]) / 2 / width,
            (found["y_min"] + found["y_max"]) / 2 / height,
            (found["x_max"] - found["x_min"]) / width,
            (found["y_max"] - found["y_min"]) / height,
        ],
        axis=1,
    )
    assert gain_over_majority(place, found["class_id"].to_numpy()) > 0.15  # 14 kinds
    normal = np.mean([images[i] for i in set(train["image_id"]) - set(found["image_id"])], axis=0)
    changed = []
    for row in found.itertuples():
        inner = (
            slice(int(row.y_min) + 1, int(row.y_max) - 2),
            slice(int(row.x_min) + 1, int(row.x_max) - 2),
        )
        difference = np.abs(images[row.image_id] - normal)[inner]
        if difference.size:
            changed.append(difference.mean())
    assert np.mean(changed) > 300


# --- 3d-object-detection-for-autonomous-vehicles ----------------------------------------------


def test_lyft_tables_lidar_and_boxes(fixtures: tuple[Path, Path]) -> None:
    import json

    root = fixtures[0] / LYFT / "prepared"
    n_train, n_test = DEFAULT_SIZES[LYFT]
    tables = {"attribute", "calibrated_sensor", "category", "ego_pose", "log", "map", "sample",
              "sample_data", "scene", "sensor", "visibility"}  # fmt: skip
    assert {p.stem for p in (root / "public/test_data").iterdir()} == tables
    assert {p.stem for p in (root / "public/train_data").iterdir()} == tables | {
        "instance", "sample_annotation"
    }  # fmt: skip
    layout = files(root)
    assert layout["public/train_lidar/"] == layout["public/train_images/"] == n_train
    assert layout["public/test_lidar/"] == layout["public/test_images/"] == n_test
    assert layout["public/test_maps/"] == layout["public/train_maps/"] == 1
    train = pd.read_csv(root / "public/train.csv")
    test = pd.read_csv(root / "private/test.csv")
    sample = pd.read_csv(root / "public/sample_submission.csv", keep_default_na=False)
    assert (len(train), len(test)) == (n_train, n_test)
    assert sample["Id"].tolist() == test["Id"].tolist() and (sample["PredictionString"] == "").all()
    assert train["PredictionString"].str.split(" ").str.len().mod(8).eq(0).all()
    test_tokens = test["PredictionString"].str.split(" ")
    assert test_tokens.str.len().mod(9).eq(0).all() and (test_tokens.str[0] == "1.0").all()

    def load(split: str, table: str) -> list[dict]:
        return json.loads((root / f"public/{split}_data/{table}.json").read_text())

    logs = {log["token"] for log in load("test", "log")}
    assert {s["scene_token"] for s in load("test", "sample")} <= logs  # upstream splits on it
    assert {s["token"] for s in load("test", "sample")} == set(test["Id"])
    assert {s["token"] for s in load("train", "sample")} == set(train["Id"])
    assert logs.isdisjoint(log["token"] for log in load("train", "log"))

    # the signal: off the ground, the lidar points lie on the sample's boxes
    poses = {p["token"]: p for p in load("train", "ego_pose")}
    sweeps = {
        d["sample_token"]: d for d in load("train", "sample_data") if d["fileformat"] == "bin"
    }
    on_boxes, sizes = [], {}
    for row in train.itertuples(index=False):
        sweep = sweeps[row.Id]
        points = (
            np.frombuffer(
                (root / "public/train_lidar" / Path(sweep["filename"]).name).read_bytes(), "<f4"
            )
            .reshape(-1, 5)[:, :3]
            .astype(float)
        )
        pose = poses[sweep["ego_pose_token"]]
        w, _, _, z = pose["rotation"]
        heading = 2 * np.arctan2(z, w)
        c, s = np.cos(heading), np.sin(heading)
        x, y = points[:, 0] * c - points[:, 1] * s, points[:, 0] * s + points[:, 1] * c
        world = np.column_stack([x, y, points[:, 2] + 1.84]) + pose["translation"]
        raised = world[world[:, 2] > pose["translation"][2] + 0.05]
        inside = np.zeros(len(raised), bool)
        tokens = row.PredictionString.split(" ")
        for k in range(0, len(tokens), 8):
            bx, by, bz, bw, bl, bh, yaw = (float(t) for t in tokens[k : k + 7])
            sizes.setdefault(tokens[k + 7], []).append(bl)
            dx, dy = raised[:, 0] - bx, raised[:, 1] - by
            along = dx * np.cos(yaw) + dy * np.sin(yaw)
            across = -dx * np.sin(yaw) + dy * np.cos(yaw)
            inside |= (
                (np.abs(along) <= bl / 2 + 0.01)
                & (np.abs(across) <= bw / 2 + 0.01)
                & (np.abs(raised[:, 2] - bz) <= bh / 2 + 0.01)
            )
        on_boxes.append(inside.mean())
    assert np.mean(on_boxes) > 0.99
    assert np.mean(sizes["car"]) > 3 * np.mean(sizes.get("pedestrian", [1.0]))


# --- tensorflow2-question-answering -----------------------------------------------------------


def test_tf2_records_gold_and_answers_on_the_page(fixtures: tuple[Path, Path]) -> None:
    import json

    root = fixtures[0] / TF2 / "prepared"
    n_train, n_test = DEFAULT_SIZES[TF2]
    assert files(root) == {
        "private/gold_submission.csv": 1,
        "private/test.jsonl": 1,
        "public/sample_submission.csv": 1,
        "public/simplified-nq-test.jsonl": 1,
        "public/simplified-nq-train.jsonl": 1,
    }

    def records(name: str) -> list[dict]:
        return [json.loads(line) for line in (root / name).read_text().splitlines()]

    train, test = records("public/simplified-nq-train.jsonl"), records("private/test.jsonl")
    public_test = records("public/simplified-nq-test.jsonl")
    assert (len(train), len(test)) == (n_train, n_test)
    assert list(test[0]) == [
        "document_text", "long_answer_candidates", "question_text", "annotations",
        "document_url", "example_id",
    ]  # fmt: skip
    assert list(public_test[0]) == [
        "example_id", "question_text", "document_text", "long_answer_candidates"
    ]  # fmt: skip
    assert [r["example_id"] for r in public_test] == [r["example_id"] for r in test]
    assert "\\/" in (root / "private/test.jsonl").read_text()[:100_000]  # pandas' escaping
    gold = pd.read_csv(root / "private/gold_submission.csv", keep_default_na=False)
    sample = pd.read_csv(root / "public/sample_submission.csv", keep_default_na=False)
    ids = [f"{r['example_id']}_{part}" for r in test for part in ("short", "long")]
    assert gold["example_id"].tolist() == sample["example_id"].tolist() == ids
    assert (sample["PredictionString"] == "").all()

    # the signal: the question names what the answer paragraph says
    kinds = {"long": 0, "short": 0, "none": 0}
    for r in train:
        annotation, words = r["annotations"][0], r["document_text"].split(" ")
        long = annotation["long_answer"]
        if long["start_token"] == -1:
            kinds["none"] += 1
            continue
        kinds["long"] += 1
        paragraph = " ".join(words[long["start_token"] : long["end_token"]]).lower()
        candidate = r["long_answer_candidates"][long["candidate_index"]]
        assert (candidate["start_token"], candidate["end_token"]) == (
            long["start_token"],
            long["end_token"],
        )
        entity = r["question_text"].split(" of ")[-1] if " of " in r["question_text"] else None
        if annotation["short_answers"]:
            kinds["short"] += 1
            span = annotation["short_answers"][0]
            assert words[span["start_token"] - 1] == "is" and entity in paragraph
    assert min(kinds.values()) > 0 and kinds["none"] > 0.3 * len(train)

    task = resolve_task(f"mlebench/{TF2}", data_dir=fixtures[0])
    assert task.grade(root / "private/gold_submission.csv")["score"] == 1.0  # streamed answers


# --- hms-harmful-brain-activity-classification ----------------------------------------------


def test_hms_layout_votes_and_eeg_signal(fixtures: tuple[Path, Path]) -> None:
    from bench_adapters.mlebench.synthetic.hms_harmful_brain_activity_classification import (
        CHANNELS,
        COLUMNS,
        TARGETS,
    )

    root = fixtures[0] / HMS / "prepared"
    n_train, n_test = DEFAULT_SIZES[HMS]
    train = pd.read_csv(root / "public/train.csv")
    answers = pd.read_csv(root / "private/test.csv")
    public_test = pd.read_csv(root / "public/test.csv")
    gold = pd.read_csv(root / "private/gold_submission.csv")
    sample = pd.read_csv(root / "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == COLUMNS and len(COLUMNS) == 15
    assert (len(train), len(answers)) == (n_train, n_test)
    assert list(public_test.columns) == ["spectrogram_id", "eeg_id", "patient_id"]
    assert list(gold.columns) == list(sample.columns) == ["eeg_id", *TARGETS]
    assert gold["eeg_id"].tolist() == answers["eeg_id"].tolist() == sample["eeg_id"].tolist()
    assert np.allclose(sample[TARGETS], 1 / 6) and np.allclose(gold[TARGETS].sum(axis=1), 1)
    assert answers["eeg_id"].duplicated().any()  # upstream's repeated ids
    assert (answers.groupby("eeg_id")[TARGETS].nunique() == 1).all().all()  # one EEG, one vote
    assert set(train["spectrogram_id"]).isdisjoint(answers["spectrogram_id"])
    assert set(train["eeg_id"]).isdisjoint(answers["eeg_id"])
    layout = files(root)
    assert layout["public/test_eegs/"] == answers["eeg_id"].nunique()
    assert layout["public/train_spectrograms/"] == train["spectrogram_id"].nunique()
    assert layout["public/example_figures/"] == 6
    spectrogram = pd.read_parquet(
        root / f"public/test_spectrograms/{answers['spectrogram_id'].iloc[0]}.parquet"
    )
    assert spectrogram.columns[0] == "time" and spectrogram.shape[1] == 401
    assert spectrogram.columns[1] == "LL_0.59" and spectrogram.columns[-1] == "RP_19.92"

    # the signal: each kind of activity shows in the recordings
    eegs = train.drop_duplicates("eeg_id")
    features = []
    for eeg_id in eegs["eeg_id"]:
        signal = pd.read_parquet(root / f"public/train_eegs/{eeg_id}.parquet")
        assert list(signal.columns) == CHANNELS
        left, right = signal[["Fp1", "F3", "C3", "P3"]], signal[["Fp2", "F4", "C4", "P4"]]
        slow = signal.rolling(40).mean().dropna()
        features.append(
            [left.std().mean(), right.std().mean(), signal.abs().max().mean(),
             slow[["Fp1", "C3"]].std().mean(), slow[["Fp2", "C4"]].std().mean()]
        )  # fmt: skip
    assert gain_over_majority(np.array(features), eegs["expert_consensus"].to_numpy()) > 0.4
