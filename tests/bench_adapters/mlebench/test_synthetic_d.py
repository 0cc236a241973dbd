"""Batch D generators (numeric metrics): each smoke fixture's layout in upstream's prepared
form, a signal a simple model finds, and ``baselines check`` on every one of them (the gold
file medals, the sample is valid and not above the median, corrupted copies are rejected),
following upstream's validity where its metric breaks the usual expectation: champs' gold
scores -inf, us-patent's constant sample scores NaN, osic scores partial submissions.
"""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pydicom
import pytest
import soundfile as sf

from baselines.check import CheckOptions, check_tasks
from baselines.judges import judge_beats_sample
from bench_adapters import CompetitionTask, resolve_task
from bench_adapters.mlebench.graders import get_grader
from bench_adapters.mlebench.graders.freesound_audio_tagging_2019 import (
    CLASSES as FREESOUND_CLASSES,
)
from bench_adapters.mlebench.graders.google_quest_challenge import TARGETS as QUEST_TARGETS
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES, make_prepared
from bench_adapters.mlebench.synthetic.freesound_audio_tagging_2019 import pitch
from bench_adapters.mlebench.synthetic.leaderboards import write_checkout

CHAMPS = "champs-scalar-coupling"
FREESOUND = "freesound-audio-tagging-2019"
QUEST = "google-quest-challenge"
ICECUBE = "icecube-neutrinos-in-deep-ice"
ESSAYS = "learning-agency-lab-automated-essay-scoring-2"
OSIC = "osic-pulmonary-fibrosis-progression"
PETFINDER = "petfinder-pawpularity-score"
VOLCANO = "predict-volcanic-eruptions-ingv-oe"
SPINE = "rsna-2022-cervical-spine-fracture-detection"
GNSS = "smartphone-decimeter-2022"
PATENT = "us-patent-phrase-to-phrase-matching"
COMPETITIONS = [
    CHAMPS,
    FREESOUND,
    QUEST,
    ICECUBE,
    ESSAYS,
    OSIC,
    PETFINDER,
    VOLCANO,
    SPINE,
    GNSS,
    PATENT,
]


def score(cid: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(cid)
    assert spec is not None
    return spec.grade(submission, answers)


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Smoke data of every batch D competition and stand-in leaderboards for them."""
    data = tmp_path_factory.mktemp("d-data")
    for cid in COMPETITIONS:
        make_prepared(cid, data, seed=7)
    checkout = write_checkout(tmp_path_factory.mktemp("d-checkout"), data, COMPETITIONS)
    return data, checkout


@pytest.fixture(scope="module")
def check_report(fixtures: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Any:
    data, checkout = fixtures
    options = CheckOptions(
        out_dir=tmp_path_factory.mktemp("d-check"),
        task_options={"data_dir": data, "mlebench_dir": checkout},
        smoke=True,
        baselines=False,  # each baseline's smoke check is tests/baselines/mlebench/'s
    )
    return check_tasks([f"mlebench/{cid}" for cid in COMPETITIONS], options).to_dict()


USUAL = {
    ("gold", "valid"): "pass",
    ("gold", "gold medal"): "pass",
    ("sample", "valid"): "pass",
    ("sample", "not above median"): "pass",
    ("baseline", "valid, above median"): "skip",  # not run here
    ("missing-column", "invalid, with a message"): "pass",
    ("wrong-row-count", "invalid, with a message"): "pass",
}
UPSTREAM_WINS = {  # the expectation upstream's validity sets instead, and what check says
    CHAMPS: (("gold", "valid"), "score -inf (upstream's metric"),
    PATENT: (("sample", "valid"), "score nan (upstream's metric"),
    OSIC: (("wrong-row-count", "valid, as upstream"), "score -"),
}


@pytest.mark.parametrize("cid", COMPETITIONS)
def test_check_gold_medals_sample_stays_below_corrupted_rejected(
    check_report: Any, cid: str
) -> None:
    (task,) = [t for t in check_report["tasks"] if t["task"] == f"mlebench/{cid}"]
    outcomes = {(o["submission"], o["expectation"]): o for o in task["outcomes"]}
    expected = dict(USUAL)
    if cid == OSIC:  # upstream scores the rows a submission has
        del expected["wrong-row-count", "invalid, with a message"]
        expected["wrong-row-count", "valid, as upstream"] = "pass"
    assert {k: o["status"] for k, o in outcomes.items()} == expected, task["outcomes"]
    if cid in UPSTREAM_WINS:
        key, evidence = UPSTREAM_WINS[cid]
        assert outcomes[key]["evidence"].startswith(evidence), outcomes[key]
        assert "upstream" in outcomes[key]["evidence"].split("(", 1)[1]


def test_a_baseline_is_not_failed_for_a_sample_that_scores_nan(fixtures: tuple[Path, Path]) -> None:
    """us-patent's sample scores NaN, which nothing beats: with upstream's reason the
    "better than the sample" expectation is skipped and says why; without one, it fails."""
    task = resolve_task(f"mlebench/{PATENT}", data_dir=fixtures[0], mlebench_dir=fixtures[1])
    assert isinstance(task, CompetitionTask)
    note = task.grader_spec.check_notes["sample"]  # type: ignore[attr-defined]
    skipped = judge_beats_sample(task, {"score": 0.8}, float("nan"), note)
    assert skipped.status == "skip" and note in skipped.evidence
    assert judge_beats_sample(task, {"score": 0.8}, float("nan")).status == "fail"
    assert judge_beats_sample(task, {"score": 0.8}, 0.1, note).status == "pass"


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


def test_champs_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / CHAMPS / "prepared"
    n_train, n_test = DEFAULT_SIZES[CHAMPS]
    tables = [
        "dipole_moments", "magnetic_shielding_tensors", "mulliken_charges", "potential_energy",
        "sample_submission", "scalar_coupling_contributions", "structures", "test", "train",
    ]  # fmt: skip
    assert files(root) == {
        "private/answers.csv": 1,
        **{f"public/{name}.csv": 1 for name in tables},
        "public/structures/": n_train,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    coupling = ["id", "molecule_name", "atom_index_0", "atom_index_1", "type"]
    assert list(train.columns) == list(answers.columns) == [*coupling, "scalar_coupling_constant"]
    assert list(test.columns) == coupling
    assert list(sample.columns) == ["id", "scalar_coupling_constant"]
    assert (sample["scalar_coupling_constant"] == 0).all()
    assert test["id"].tolist() == answers["id"].tolist() == sample["id"].tolist()
    assert train["molecule_name"].nunique() == n_train
    assert answers["molecule_name"].nunique() == n_test
    assert sorted([*train["id"], *answers["id"]]) == list(range(len(train) + len(answers)))
    # Upstream's known issue: structures (and the other tables) hold the train molecules only.
    train_molecules = set(train["molecule_name"])
    for name in tables[:4] + tables[5:7]:
        assert set(read(root, f"public/{name}.csv")["molecule_name"]) == train_molecules, name
    parts = train.merge(read(root, "public/scalar_coupling_contributions.csv"))
    assert len(parts) == len(train)
    total = parts[["fc", "sd", "pso", "dso"]].sum(axis=1)
    assert np.allclose(total, parts["scalar_coupling_constant"], atol=1e-4)
    xyz = (root / "public/structures" / f"{train['molecule_name'].iloc[0]}.xyz").read_text()
    count, blank, first = xyz.splitlines()[:3]
    assert int(count) == len(xyz.splitlines()) - 2 and blank == "" and first.startswith("C ")
    # The type alone tells much of the constant: per-type means beat the sample's zeros.
    means = train.groupby("type")["scalar_coupling_constant"].mean()
    guess = answers["type"].map(means).fillna(0)
    by_type = score(CHAMPS, answers[["id"]].assign(scalar_coupling_constant=guess), answers)
    assert by_type < score(CHAMPS, sample, answers) - 1


def test_freesound_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / FREESOUND / "prepared"
    n_train, n_test = DEFAULT_SIZES[FREESOUND]
    got = files(root)
    assert set(got) == {
        "private/test.csv", "public/sample_submission.csv", "public/test.zip",
        "public/train_curated.csv", "public/train_curated.zip", "public/train_noisy.csv",
        "public/train_noisy.zip",
    }  # fmt: skip
    curated = read(root, "public/train_curated.csv")
    noisy = read(root, "public/train_noisy.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(curated.columns) == list(noisy.columns) == ["fname", "labels"]
    assert (len(curated), len(noisy)) == (n_train, round(n_train * 19_815 / 4_970))
    assert list(answers.columns) == list(sample.columns) == ["fname", *FREESOUND_CLASSES]
    assert answers["fname"].tolist() == sample["fname"].tolist() and len(answers) == n_test
    assert (sample[FREESOUND_CLASSES] == 0).all().all()
    assert set(np.unique(answers[FREESOUND_CLASSES])) == {0, 1}
    assert all(set(tags.split(",")) <= set(FREESOUND_CLASSES) for tags in curated["labels"])
    with zipfile.ZipFile(root / "public/test.zip") as archive:
        assert sorted(archive.namelist()) == sorted(answers["fname"])
        # The loudest tone of each clip is one of its labels' pitches: ranking labels by the
        # spectrum near their pitch scores far above the sample.
        guesses = []
        for name in answers["fname"]:
            samples, rate = sf.read(io.BytesIO(archive.read(name)))
            assert rate == 44_100 and samples.ndim == 1
            spectrum = np.abs(np.fft.rfft(samples))
            freqs = np.fft.rfftfreq(len(samples), 1 / rate)
            guesses.append(
                [spectrum[(freqs > pitch(k)) & (freqs < pitch(k) * 1.04)].sum() for k in range(80)]
            )
    guess = answers[["fname"]].join(pd.DataFrame(guesses, columns=FREESOUND_CLASSES))
    assert score(FREESOUND, guess, answers) > 0.8 > 0.1 > score(FREESOUND, sample, answers)


def test_quest_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / QUEST / "prepared"
    n_train, n_test = DEFAULT_SIZES[QUEST]
    assert files(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert (train.shape, test.shape) == ((n_train, 41), (n_test, 11))  # upstream's asserts
    assert list(train.columns) == [*test.columns, *QUEST_TARGETS]
    assert list(answers.columns) == list(sample.columns) == ["qa_id", *QUEST_TARGETS]
    assert test["qa_id"].tolist() == answers["qa_id"].tolist() == sample["qa_id"].tolist()
    assert set(train["qa_id"]).isdisjoint(answers["qa_id"])
    assert (answers[QUEST_TARGETS].nunique() > 1).all()  # upstream's assert, spelling included
    assert np.allclose(sample[QUEST_TARGETS[5]], np.linspace(0, 1, n_test))
    ninths = answers[QUEST_TARGETS].to_numpy() * 9
    assert np.allclose(ninths, ninths.round(), atol=1e-4) and ninths.min() >= 0
    # A bag of words fitted on train ranks the test answers far better than the sample does.
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import Ridge

    def text(frame: pd.DataFrame) -> pd.Series:
        return frame["question_title"] + " " + frame["question_body"] + " " + frame["answer"]

    vectorizer = CountVectorizer().fit(text(train))
    model = Ridge().fit(vectorizer.transform(text(train)), train[QUEST_TARGETS])
    guess = answers.copy()
    guess[QUEST_TARGETS] = model.predict(vectorizer.transform(text(test)))
    assert score(QUEST, guess, answers) > 0.2 > 0.1 > score(QUEST, sample, answers)


def test_icecube_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / ICECUBE / "prepared"
    n_train, n_test = DEFAULT_SIZES[ICECUBE]
    got = files(root)
    assert set(got) == {
        "private/test.csv", "public/sample_submission.csv", "public/sensor_geometry.csv",
        "public/test/", "public/test_meta.parquet", "public/train/", "public/train_meta.parquet",
    }  # fmt: skip
    train = pd.read_parquet(root / "public/train_meta.parquet")
    test = pd.read_parquet(root / "public/test_meta.parquet")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    meta = ["batch_id", "event_id", "first_pulse_index", "last_pulse_index"]
    assert list(train.columns) == [*meta, "azimuth", "zenith"] and list(test.columns) == meta
    assert (len(train), len(test)) == (n_train, n_test)
    assert list(answers.columns) == list(sample.columns) == ["event_id", "azimuth", "zenith"]
    assert answers["event_id"].tolist() == sample["event_id"].tolist() == test["event_id"].tolist()
    assert (sample[["azimuth", "zenith"]] == 1).all().all()
    assert set(train["batch_id"]).isdisjoint(test["batch_id"])  # whole batches are split
    assert got["public/test/"] == test["batch_id"].nunique()
    geometry = read(root, "public/sensor_geometry.csv")
    assert list(geometry.columns) == ["sensor_id", "x", "y", "z"] and len(geometry) == 5160
    # A plane fitted to each test event's pulse times (t = t0 + r.u / c) points the way.
    positions = geometry[["x", "y", "z"]].to_numpy()
    guesses = []
    for batch_id, events in test.groupby("batch_id", sort=False):
        pulses = pd.read_parquet(root / f"public/test/batch_{batch_id}.parquet")
        assert pulses.index.name == "event_id"
        assert pulses.dtypes.astype(str).tolist() == ["int16", "int64", "float64", "bool"]
        for first, last in events[["first_pulse_index", "last_pulse_index"]].to_numpy():
            hits = pulses.iloc[first : last + 1]
            hits = hits[~hits["auxiliary"]]
            design = np.c_[np.ones(len(hits)), positions[hits["sensor_id"]]]
            slope = np.linalg.lstsq(design, hits["time"].to_numpy(float), rcond=None)[0][1:]
            u = slope / np.linalg.norm(slope)
            guesses.append((np.arctan2(u[1], u[0]) % (2 * np.pi), np.arccos(u[2])))
    guess = test[["event_id"]].assign(
        azimuth=[g[0] for g in guesses], zenith=[g[1] for g in guesses]
    )
    assert score(ICECUBE, guess, answers) < 0.1 < 1.0 < score(ICECUBE, sample, answers)


def test_essays_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / ESSAYS / "prepared"
    n_train, n_test = DEFAULT_SIZES[ESSAYS]
    assert files(root) == {
        "private/answers.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == ["essay_id", "full_text", "score"]
    assert list(test.columns) == ["essay_id", "full_text"]
    assert list(sample.columns) == ["essay_id", "score"]
    assert (len(train), len(test)) == (n_train, n_test)
    assert test["essay_id"].tolist() == answers["essay_id"].tolist() == sample["essay_id"].tolist()
    assert sample["score"].between(1, 6).all() and set(train["score"]) <= set(range(1, 7))
    assert answers["full_text"].str.contains("\n\n").all()  # paragraphs
    # Longer essays score higher: rounding a length fit beats the sample's random scores.
    words = train["full_text"].str.split().str.len()
    slope, intercept = np.polyfit(words, train["score"], 1)
    guess = np.clip(np.rint(intercept + slope * answers["full_text"].str.split().str.len()), 1, 6)
    assert score(ESSAYS, answers.assign(score=guess.astype(int)), answers) > 0.6
    assert score(ESSAYS, sample, answers) < 0.3


def test_osic_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / OSIC / "prepared"
    n_train, n_test = DEFAULT_SIZES[OSIC]
    got = files(root)
    assert set(got) == {
        "private/test.csv", "public/sample_submission.csv", "public/test.csv",
        "public/test/", "public/train.csv", "public/train/",
    }  # fmt: skip
    train, first = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    visit = ["Patient", "Weeks", "FVC", "Percent", "Age", "Sex", "SmokingStatus"]
    assert list(train.columns) == list(first.columns) == visit  # upstream's asserts: 7, 9, 3
    assert list(answers.columns) == [*visit, "Patient_Week", "Confidence"]
    assert list(sample.columns) == ["Patient_Week", "FVC", "Confidence"]
    assert (train["Patient"].nunique(), len(first)) == (n_train, n_test)
    assert answers.groupby("Patient").size().nunique() == 1  # every week of the range
    assert answers["Patient_Week"].tolist() == sample["Patient_Week"].tolist()
    assert (sample["FVC"] == 2000).all() and (sample["Confidence"] == 100).all()
    assert got["public/test/"] == n_test * 3 and got["public/train/"] == n_train * 3
    patient = first["Patient"].iloc[0]
    dicom = pydicom.dcmread(root / "public/test" / patient / "1.dcm")
    assert dicom.PatientID == patient and dicom.pixel_array.shape == (32, 32)
    # Extending each patient's first FVC along the training patients' mean slope beats 2000.
    slope = np.mean([np.polyfit(g["Weeks"], g["FVC"], 1)[0] for _, g in train.groupby("Patient")])
    start = first.set_index("Patient")
    guess = answers[["Patient_Week"]].assign(
        FVC=start.loc[answers["Patient"], "FVC"].to_numpy()
        + slope * (answers["Weeks"] - start.loc[answers["Patient"], "Weeks"].to_numpy()),
        Confidence=250,
    )
    assert score(OSIC, guess, answers) > -7.5 > score(OSIC, sample, answers)


def test_petfinder_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / PETFINDER / "prepared"
    n_train, n_test = DEFAULT_SIZES[PETFINDER]
    assert files(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/test.csv": 1,
        "public/train/": n_train,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == [*test.columns, "Pawpularity"]
    assert len(test.columns) == 13 and list(sample.columns) == ["Id", "Pawpularity"]
    assert sample["Pawpularity"].between(1, 100).all()
    assert test["Id"].tolist() == answers["Id"].tolist() == sample["Id"].tolist()
    assert (root / "public/test" / f"{test['Id'].iloc[0]}.jpg").is_file()
    flags = list(test.columns[1:])
    model = np.linalg.lstsq(
        np.c_[np.ones(len(train)), train[flags]], train["Pawpularity"], rcond=None
    )
    guess = np.clip(np.c_[np.ones(len(test)), test[flags]] @ model[0], 1, 100)
    assert (
        score(PETFINDER, answers.assign(Pawpularity=guess), answers)
        < 20
        < score(PETFINDER, sample, answers)
    )


def test_volcano_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / VOLCANO / "prepared"
    n_train, n_test = DEFAULT_SIZES[VOLCANO]
    assert files(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train.csv": 1,
        "public/train/": n_train,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/test.csv")
    sample = read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == ["segment_id", "time_to_eruption"]
    assert answers["segment_id"].tolist() == sample["segment_id"].tolist()
    assert (sample["time_to_eruption"] == 0).all()

    def loudness(folder: str, segment_id: int) -> float:
        segment = read(root, f"public/{folder}/{segment_id}.csv")
        assert list(segment.columns) == [f"sensor_{k}" for k in range(1, 11)]
        return float(segment.std().mean())

    x = [loudness("train", s) for s in train["segment_id"]]
    slope, intercept = np.polyfit(x, train["time_to_eruption"], 1)
    guess = intercept + slope * np.array([loudness("test", s) for s in answers["segment_id"]])
    fitted = score(VOLCANO, answers.assign(time_to_eruption=guess), answers)
    assert isinstance(fitted, int) and fitted < 0.6 * score(VOLCANO, sample, answers)


def test_spine_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / SPINE / "prepared"
    n_train, n_test = DEFAULT_SIZES[SPINE]
    got = files(root)
    assert set(got) == {
        "private/answers.csv", "public/sample_submission.csv", "public/segmentations/",
        "public/test.csv", "public/test_images/", "public/train.csv",
        "public/train_bounding_boxes.csv", "public/train_images/",
    }  # fmt: skip
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/answers.csv"), read(root, "public/sample_submission.csv")
    types = ["patient_overall", *(f"C{k}" for k in range(1, 8))]
    assert list(train.columns) == ["StudyInstanceUID", *types] and len(train) == n_train
    assert list(answers.columns) == ["StudyInstanceUID", "prediction_type", "fractured", "row_id"]
    assert list(test.columns) == ["StudyInstanceUID", "prediction_type", "row_id"]
    assert len(answers) == 8 * n_test and answers["prediction_type"].iloc[0] == "patient_overall"
    assert answers["row_id"].tolist() == test["row_id"].tolist() == sample["row_id"].tolist()
    assert (sample["fractured"] == 0.5).all()
    boxes = read(root, "public/train_bounding_boxes.csv")
    assert list(boxes.columns) == ["StudyInstanceUID", "x", "y", "width", "height", "slice_number"]
    nii = next((root / "public/segmentations").iterdir())
    header = nii.read_bytes()[:352]
    assert struct.unpack_from("<i", header)[0] == 348 and header[344:348] == b"n+1\x00"
    assert struct.unpack_from("<4h", header, 40) == (3, 32, 32, 6)
    study = test["StudyInstanceUID"].iloc[0]
    slices = sorted((root / "public/test_images" / study).iterdir(), key=lambda p: int(p.stem))
    assert [p.name for p in slices] == [f"{k}.dcm" for k in range(1, 7)]

    # A crack darkens the bone disc: dark pixels near each slice's centre tell a fracture.
    yy, xx = np.mgrid[0:32, 0:32] / 32
    centre = (xx - 0.5) ** 2 + (yy - 0.5) ** 2 < 0.15**2

    def cracked(uid: str) -> np.ndarray:
        folder = root / "public/test_images" / uid
        stack = [pydicom.dcmread(folder / f"{k}.dcm").pixel_array for k in range(1, 7)]
        return np.array([(s[centre] < 1150).mean() > 0.05 for s in stack])

    wide = answers.pivot(index="StudyInstanceUID", columns="prediction_type", values="fractured")
    levels = 1 + (np.arange(6) * 7) // 6
    guess = []
    for uid in wide.index:
        dark = cracked(uid)
        per_level = {f"C{v}": float(dark[levels == v].any()) * 0.8 + 0.1 for v in range(1, 8)}
        guess.append({"patient_overall": max(per_level.values()), **per_level})
    guessed = (
        pd.DataFrame(guess, index=wide.index)
        .reset_index()
        .melt(id_vars="StudyInstanceUID", var_name="prediction_type", value_name="fractured")
    )
    guessed["row_id"] = guessed["StudyInstanceUID"] + "_" + guessed["prediction_type"]
    assert (
        score(SPINE, guessed[["row_id", "fractured"]], answers)
        < 0.5
        < score(SPINE, sample, answers)
    )


def test_gnss_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / GNSS / "prepared"
    n_train, n_test = DEFAULT_SIZES[GNSS]
    got = files(root)
    assert set(got) == {
        "private/test.csv", "public/metadata/", "public/sample_submission.csv", "public/test/",
        "public/train/",
    }  # fmt: skip
    drives = {s: sorted((root / "public" / s).iterdir()) for s in ("train", "test")}
    assert (len(drives["train"]), len(drives["test"])) == (n_train, n_test)
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    columns = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
    assert list(answers.columns) == list(sample.columns) == columns
    assert (sample["LatitudeDegrees"] == 37.904611315634504).all()
    assert answers["UnixTimeMillis"].tolist() == sample["UnixTimeMillis"].tolist()
    for phone in drives["train"][0].iterdir():
        assert {p.name for p in phone.iterdir()} == {
            "device_gnss.csv",
            "device_imu.csv",
            "ground_truth.csv",
            "supplemental",
        }
    trips = []
    for drive in drives["test"]:
        for phone in sorted(drive.iterdir()):
            assert not (phone / "ground_truth.csv").exists()
            gnss = read(phone, "device_gnss.csv").groupby("utcTimeMillis").first()
            x, y, z = (gnss[f"WlsPosition{a}EcefMeters"].to_numpy() for a in "XYZ")
            lat = np.degrees(np.arctan2(z, np.hypot(x, y) * (1 - 6.69437999013e-3)))
            lng = np.degrees(np.arctan2(y, x))
            trip = f"{drive.name}-{phone.name}"
            times = gnss.index - 18_000  # GPS time leads UTC
            trips.append(
                pd.DataFrame(
                    {
                        "tripId": trip,
                        "UnixTimeMillis": times,
                        "LatitudeDegrees": lat,
                        "LongitudeDegrees": lng,
                    }
                )
            )
    guess = pd.concat(trips, ignore_index=True)
    assert guess["tripId"].tolist() == answers["tripId"].tolist()
    assert score(GNSS, guess, answers) < 20 < 1000 < score(GNSS, sample, answers)


def test_patent_layout_and_signal(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / PATENT / "prepared"
    n_train, n_test = DEFAULT_SIZES[PATENT]
    assert files(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert (
        list(train.columns)
        == list(answers.columns)
        == ["id", "anchor", "target", "context", "score"]
    )
    assert list(test.columns) == ["id", "anchor", "target", "context"]
    assert (len(train), len(test)) == (n_train, n_test) and (sample["score"] == 0).all()
    assert set(answers["score"]) <= {0, 0.25, 0.5, 0.75, 1}
    shared = [
        len(set(a.split()) & set(t.split()))
        for a, t in zip(answers["anchor"], answers["target"], strict=True)
    ]
    assert score(PATENT, answers.assign(score=shared), answers) > 0.6
