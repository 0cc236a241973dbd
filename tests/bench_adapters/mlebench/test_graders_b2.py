"""Batch B2 graders (micro-F1 over label sets, macro-F1 on integer labels, MAP@k) on small
hand-built frames, and their generators through ``baselines check``.

Each grader: a perfect submission, a constant one (its score worked out by hand), invalid ones
(``InvalidSubmissionError`` where upstream raises its own, any error where upstream crashes),
and the upstream quirk its docstring names. Each generator: the smoke fixture's layout, then
the gold file medals, the sample is valid and not above the median, corrupted copies are
rejected. Upstream's own numbers on many more submissions are in the parity data
(``tests/bench_adapters/data/upstream_parity.jsonl``).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from baselines.check import CheckOptions, check_tasks
from bench_adapters.mlebench.graders import InvalidSubmissionError, get_grader
from bench_adapters.mlebench.synthetic import DEFAULT_SIZES, make_prepared
from bench_adapters.mlebench.synthetic.leaderboards import write_checkout

FACEBOOK = "facebook-recruiting-iii-keyword-extraction"
IMET = "imet-2020-fgvc7"
PLANT = "plant-pathology-2021-fgvc8"
HERBARIA = ["herbarium-2020-fgvc7", "herbarium-2021-fgvc8", "herbarium-2022-fgvc9"]
IWILDCAM = "iwildcam-2019-fgvc6"
HM = "h-and-m-personalized-fashion-recommendations"
HOTEL = "hotel-id-2021-fgvc8"
WHALE = "whale-categorization-playground"
COMPETITIONS = [FACEBOOK, IMET, PLANT, *HERBARIA, IWILDCAM, HM, HOTEL, WHALE]


def csv_roundtrip(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as the harness reads it back from a submission file."""
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))


def grade(competition_id: str, submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    spec = get_grader(competition_id)
    assert spec is not None
    return float(spec.grade(csv_roundtrip(submission), csv_roundtrip(answers)))


# --- micro-F1 over label sets ---------------------------------------------------------------

FACEBOOK_ANSWERS = pd.DataFrame(
    {
        "Id": [11, 12, 13, 14],
        "Title": ["Sort a list?", "Parse json", "Join tables", "Threads"],
        "Body": ["<p>a\nb</p>", "<p>c</p>", "<p>d, e</p>", "<p>f</p>"],
        "Tags": ["c# java", "python", "php mysql", "java"],
    }
)


def test_facebook_perfect_constant_and_unknown_tags() -> None:
    answers = FACEBOOK_ANSWERS
    perfect = answers.sample(frac=1, random_state=0)  # any row order
    assert grade(FACEBOOK, perfect, answers) == 1.0
    # The sample's constant: javascript is no answer's tag, so it is ignored, not a false
    # positive; per row c#, python, php, java are kept: 16 predicted, 6 true, 5 right.
    constant = answers.assign(Tags="javascript c# python php java")
    assert grade(FACEBOOK, constant, answers) == pytest.approx(2 * 5 / (16 + 6))
    repeated = answers["Tags"].str.split().str[0]  # a repeat counts once
    unknown = answers.assign(Tags=answers["Tags"] + " never-used-tag " + repeated)
    assert grade(FACEBOOK, unknown, answers) == 1.0
    blank = answers.assign(Tags=["c# java", None, None, "java"])  # blank cells: empty sets
    assert grade(FACEBOOK, blank, answers) == pytest.approx(2 * 3 / (3 + 6))


def test_facebook_invalid_submissions() -> None:
    answers = FACEBOOK_ANSWERS
    with pytest.raises(InvalidSubmissionError, match="must have a 'Tags' column"):
        grade(FACEBOOK, answers.drop(columns="Tags"), answers)
    with pytest.raises(InvalidSubmissionError, match="same number of rows"):
        grade(FACEBOOK, answers.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="matching 'Id'"):
        grade(FACEBOOK, answers.assign(Id=[11, 12, 13, 99]), answers)
    with pytest.raises(TypeError, match=r"\.str accessor"):  # numbers cannot be split
        grade(FACEBOOK, answers.assign(Tags=[1, 2, 3, 4]), answers)
    with pytest.raises(TypeError, match="not iterable"):  # numbers and blanks neither
        grade(FACEBOOK, answers.assign(Tags=[1, None, 3, 4]), answers)
    assert grade(FACEBOOK, answers.assign(Tags=None), answers) == 0.0  # blank everywhere


IMET_ANSWERS = pd.DataFrame(
    {"id": ["a1", "b2", "c3"], "attribute_ids": ["13 405 1059", "405", "2000 13"]}
)


def test_imet_perfect_constant_and_invalid() -> None:
    answers = IMET_ANSWERS
    assert grade(IMET, answers.iloc[::-1], answers) == 1.0
    # "0 1 2" names no answer's attribute: nothing kept, 6 true.
    assert grade(IMET, answers.assign(attribute_ids="0 1 2"), answers) == 0.0
    # 405 everywhere: kept in every row, right in the first two.
    assert grade(IMET, answers.assign(attribute_ids="405 7"), answers) == pytest.approx(
        2 * 2 / (3 + 6)
    )
    with pytest.raises(InvalidSubmissionError, match="matching 'id' columns"):
        grade(IMET, answers.assign(id=["a1", "b2", "zz"]), answers)
    with pytest.raises(InvalidSubmissionError, match="must have a 'attribute_ids' column"):
        grade(IMET, answers.rename(columns={"attribute_ids": "attributes"}), answers)
    with pytest.raises(TypeError):  # one id a row reads as a number column: upstream fails
        grade(IMET, answers.assign(attribute_ids=[13, 405, 13]), answers)


PLANT_ANSWERS = pd.DataFrame(
    {
        "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
        "labels": ["healthy", "scab frog_eye_leaf_spot complex", "rust"],
    }
)


def test_plant_pathology_2021_perfect_constant_and_invalid() -> None:
    answers = PLANT_ANSWERS
    assert grade(PLANT, answers, answers) == 1.0
    assert grade(PLANT, answers.assign(labels="healthy"), answers) == pytest.approx(2 / (3 + 5))
    assert grade(PLANT, answers.assign(labels="powdery_mildew"), answers) == 0.0  # unknown
    with pytest.raises(InvalidSubmissionError, match="same number of rows"):
        grade(PLANT, pd.concat([answers, answers.iloc[:1]]), answers)
    with pytest.raises(InvalidSubmissionError, match="matching 'image' columns"):
        grade(PLANT, answers.assign(image=answers["image"].str.upper()), answers)
    with pytest.raises(AssertionError):  # a blank answer: upstream's classes hold NaN
        grade(PLANT, answers, answers.assign(labels=["healthy", None, "rust"]))


# --- macro-F1 on integer labels ---------------------------------------------------------------

HERBARIUM_ANSWERS = pd.DataFrame({"Id": [0, 1, 2, 3, 4], "Predicted": [15504, 15504, 7, 7, 901]})


@pytest.mark.parametrize("cid", HERBARIA)
def test_herbarium_perfect_constant_and_label_union(cid: str) -> None:
    answers = HERBARIUM_ANSWERS
    assert grade(cid, answers.iloc[::-1], answers) == 1.0
    # The sample's 0: the union {0, 7, 901, 15504} all score 0.
    assert grade(cid, answers.assign(Predicted=0), answers) == 0.0
    # 15504 everywhere: F1 4/7 for 15504, 0 for 7 and 901.
    assert grade(cid, answers.assign(Predicted=15504), answers) == pytest.approx(4 / 7 / 3)
    # A guess of a label no answer has adds a zero to the average: 4 labels, not 3.
    wrong = answers.assign(Predicted=[15504, 15504, 7, 7, 42])
    assert grade(cid, wrong, answers) == pytest.approx((1 + 1 + 0 + 0) / 4)
    floats = answers.assign(Predicted=answers["Predicted"] + 0.9)  # int() truncates
    assert grade(cid, floats, answers) == 1.0


@pytest.mark.parametrize("cid", HERBARIA)
def test_herbarium_invalid_submissions(cid: str) -> None:
    answers = HERBARIUM_ANSWERS
    with pytest.raises(InvalidSubmissionError, match="!= answers length"):
        grade(cid, answers.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="'Id' and 'Predicted' columns"):
        grade(cid, answers.rename(columns={"Predicted": "Category"}), answers)
    with pytest.raises(InvalidSubmissionError, match="mismatched 'Id'"):
        grade(cid, answers.assign(Id=[0, 1, 2, 3, 3]), answers)
    with pytest.raises(ValueError, match="NaN"):
        grade(cid, answers.assign(Predicted=[15504, None, 7, 7, 901]), answers)
    with pytest.raises(ValueError):  # "1.0" as text is no int; neither is a word
        grade(cid, answers.assign(Predicted=["1.0", "x", "7", "7", "901"]), answers)
    with pytest.raises(ValueError, match="continuous"):  # numpy makes it a float array
        grade(cid, answers.assign(Predicted=[2**63, 1, 7, 7, 901]), answers)


def test_herbarium_answer_checks_differ_by_edition() -> None:
    answers = HERBARIUM_ANSWERS.rename(columns={"Predicted": "category"})
    submission = HERBARIUM_ANSWERS
    with pytest.raises(AssertionError, match="'Predicted' column"):
        grade("herbarium-2020-fgvc7", submission, answers)
    with pytest.raises(KeyError):  # 2022 checks nothing and fails on the lookup
        grade("herbarium-2022-fgvc9", submission, answers)


def test_iwildcam_2019_perfect_constant_and_invalid() -> None:
    ids = [f"{k:08x}-23d2-11e8-a6a3-ec086b02610b" for k in range(4)]
    answers = pd.DataFrame({"Id": ids, "Category": [0, 0, 19, 11]})
    assert grade(IWILDCAM, answers.iloc[[3, 1, 0, 2]], answers) == 1.0
    # The sample's 0: F1 of class 0 is 2*2/(2+4), classes 19 and 11 score 0.
    assert grade(IWILDCAM, answers.assign(Category=0), answers) == pytest.approx(4 / 6 / 3)
    sample = answers.assign(Category=0).reset_index(names="")  # upstream's index column
    assert grade(IWILDCAM, sample, answers) == pytest.approx(4 / 6 / 3)
    with pytest.raises(InvalidSubmissionError, match="must have 'Category' column"):
        grade(IWILDCAM, sample.drop(columns="Category"), answers)
    with pytest.raises(InvalidSubmissionError, match="!= answers length"):
        grade(IWILDCAM, sample.iloc[:-1], answers)
    with pytest.raises(InvalidSubmissionError, match="mismatched 'Id'"):
        grade(IWILDCAM, answers.assign(Id=[*ids[:3], "other"]), answers)


# --- MAP@k -----------------------------------------------------------------------------------


def test_hotel_id_map_at_5_and_the_float_column() -> None:
    answers = pd.DataFrame(
        {
            "image": ["a.jpg", "b.jpg", "c.jpg", "d.jpg"],
            "chain": [1, 1, 0, 5],
            "hotel_id": [36363, 777, 777, 18807],
            "timestamp": "2018-04-17 18:35:42",
        }
    )
    perfect = answers[["image", "hotel_id"]].iloc[::-1]
    assert grade(HOTEL, perfect, answers) == 1.0
    # The sample's constant ranking: 36363 first (AP 1), 18807 third (AP 1/3), 777 absent.
    sample = perfect.assign(hotel_id="36363 53586 18807 64314 60181")
    assert grade(HOTEL, sample, answers) == pytest.approx((1 + 0 + 0 + 1 / 3) / 4)
    ranked_second = perfect.assign(hotel_id=perfect["hotel_id"].map(lambda h: f"1 {h} {h}"))
    assert grade(HOTEL, ranked_second, answers) == pytest.approx(0.5)  # the repeat scores 0
    late = perfect.assign(hotel_id=perfect["hotel_id"].map(lambda h: f"1 2 3 4 5 {h}"))
    assert grade(HOTEL, late, answers) == 0.0  # beyond the top 5
    # One blank cell makes the column floats: "36363.0" never equals "36363".
    floats = perfect.assign(hotel_id=[18807.0, 777.0, None, 36363.0])
    assert grade(HOTEL, floats, answers) == 0.0
    with pytest.raises(InvalidSubmissionError, match="different ids"):
        grade(HOTEL, perfect.iloc[1:], answers)
    with pytest.raises(InvalidSubmissionError, match="different lengths"):
        grade(HOTEL, pd.concat([perfect, perfect.iloc[:1]]), answers)
    with pytest.raises(InvalidSubmissionError, match="missing `hotel_id` column"):
        grade(HOTEL, perfect[["image"]], answers)


def test_whale_map_at_5_new_whale_and_exact_columns() -> None:
    answers = pd.DataFrame(
        {
            "Image": ["00022e1a.jpg", "000466c4.jpg", "00087b01.jpg"],
            "Id": ["w_e15442c", "new_whale", "w_1287fbc"],
        }
    )
    assert grade(WHALE, answers.iloc[::-1], answers) == 1.0
    sample = answers.assign(Id="new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46")
    assert grade(WHALE, sample, answers) == pytest.approx((0 + 1 + 1 / 2) / 3)
    blank = answers.assign(Id=["w_e15442c", None, "w_1287fbc"])  # read as the word "nan"
    assert grade(WHALE, blank, answers) == pytest.approx(2 / 3)
    with pytest.raises(InvalidSubmissionError, match="'Image' and 'Id' columns"):
        grade(WHALE, answers.assign(extra=1), answers)  # exactly the two columns
    with pytest.raises(InvalidSubmissionError, match="same number of rows"):
        grade(WHALE, answers.iloc[:2], answers)
    with pytest.raises(InvalidSubmissionError, match="different Image IDs"):
        grade(WHALE, answers.assign(Image=["x.jpg", "000466c4.jpg", "00087b01.jpg"]), answers)


def test_h_and_m_map_at_12_zero_padding_and_extra_customers() -> None:
    answers = pd.DataFrame(
        {
            "customer_id": ["00a1", "0b2c", "ff03"],
            "prediction": ["706016001", "372860001 706016001", "156231001"],
        }
    )
    assert grade(HM, answers.iloc[::-1], answers) == 1.0
    # Kaggle's sample spells ids with ten digits, the answers lost the zero: it scores 0.
    padded = answers.assign(
        prediction=answers["prediction"].map(
            lambda p: " ".join(f"{int(a):010d}" for a in p.split())
        )
    )
    assert grade(HM, padded, answers) == 0.0
    # Customers who bought nothing in the test week are dropped before scoring.
    everyone = pd.concat([answers, pd.DataFrame({"customer_id": ["zz99"], "prediction": ["1"]})])
    assert grade(HM, everyone, answers) == 1.0
    half = answers.assign(prediction=["1 706016001", "706016001", "156231001"])
    assert grade(HM, half, answers) == pytest.approx((1 / 2 + 1 / 2 + 1) / 3)
    # A duplicated customer is kept: the rows after it pair with the next customer's answers
    # (00a1, 00a1, 0b2c against 00a1, 0b2c, ff03: 706016001 is one of 0b2c's two).
    doubled = pd.concat([answers, answers.iloc[:1]])
    assert grade(HM, doubled, answers) == pytest.approx((1 + 1 / 2 + 0) / 3)
    with pytest.raises(InvalidSubmissionError, match="superset"):
        grade(HM, answers.iloc[1:], answers)
    with pytest.raises(InvalidSubmissionError, match="'customer_id' and 'prediction' columns"):
        grade(HM, answers.assign(extra=1), answers)


# --- generators through ``baselines check`` ------------------------------------------------


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Smoke data of every B2 competition and stand-in leaderboards for them."""
    data = tmp_path_factory.mktemp("b2-data")
    for cid in COMPETITIONS:
        make_prepared(cid, data, seed=5)
    checkout = write_checkout(tmp_path_factory.mktemp("b2-checkout"), data, COMPETITIONS)
    return data, checkout


@pytest.fixture(scope="module")
def check_report(fixtures: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Any:
    data, checkout = fixtures
    options = CheckOptions(
        out_dir=tmp_path_factory.mktemp("b2-check"),
        task_options={"data_dir": data, "mlebench_dir": checkout},
        smoke=True,
        baselines=False,  # each baseline's smoke check is tests/baselines/mlebench/'s
    )
    return check_tasks([f"mlebench/{cid}" for cid in COMPETITIONS], options).to_dict()


@pytest.mark.parametrize("cid", COMPETITIONS)
def test_check_gold_medals_sample_stays_below_corrupted_rejected(
    check_report: Any, cid: str
) -> None:
    (task,) = [t for t in check_report["tasks"] if t["task"] == f"mlebench/{cid}"]
    got = {(o["submission"], o["expectation"]): o["status"] for o in task["outcomes"]}
    assert got == {
        ("gold", "valid"): "pass",
        ("gold", "gold medal"): "pass",
        ("sample", "valid"): "pass",
        ("sample", "not above median"): "pass",
        ("baseline", "valid, above median"): "skip",  # not run here
        ("missing-column", "invalid, with a message"): "pass",
        ("wrong-row-count", "invalid, with a message"): "pass",
    }, task["outcomes"]


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


def test_facebook_layout(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / FACEBOOK / "prepared"
    n_train, n_test = DEFAULT_SIZES[FACEBOOK]
    assert files(root) == {
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/train.csv": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    answers, sample = read(root, "private/test.csv"), read(root, "public/sample_submission.csv")
    assert list(train.columns) == list(answers.columns) == ["Id", "Title", "Body", "Tags"]
    assert list(sample.columns) == ["Id", "Title", "Body", "Tags"]  # the test table + Tags
    assert list(test.columns) == ["Id", "Title", "Body"]
    assert (len(train), len(test)) == (n_train, n_test)
    assert sorted([*train["Id"], *test["Id"]]) == list(range(1, n_train + n_test + 1))
    assert test["Id"].tolist() == answers["Id"].tolist() == sample["Id"].tolist()
    assert (sample["Tags"] == "javascript c# python php java").all()
    counts = answers["Tags"].str.split().str.len()
    assert counts.between(1, 5).all() and counts.nunique() == 5
    # The signal: most tags are named in their question's title or body.
    words = (answers["Title"] + " " + answers["Body"]).str.split()
    named = [
        t in set(w) for tags, w in zip(answers["Tags"], words, strict=True) for t in tags.split()
    ]
    assert 0.7 < sum(named) / len(named) < 1


def test_imet_layout(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / IMET / "prepared"
    n_train, n_test = DEFAULT_SIZES[IMET]
    assert files(root) == {
        "private/answers.csv": 1,
        "public/labels.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test/": n_test,
        "public/train.csv": 1,
        "public/train/": n_train,
    }
    answers = read(root, "private/answers.csv")
    labels = read(root, "public/labels.csv")
    assert list(answers.columns) == ["id", "attribute_ids"] and len(labels) == 3_474
    assert answers["id"].str.fullmatch("[0-9a-f]{32}").all()
    assert {f"{i}.png" for i in answers["id"]} == {p.name for p in (root / "public/test").iterdir()}
    used = {int(a) for cell in answers["attribute_ids"] for a in cell.split()}
    assert used <= set(labels["attribute_id"])
    assert (read(root, "public/sample_submission.csv")["attribute_ids"] == "0 1 2").all()


def test_plant_pathology_2021_layout(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / PLANT / "prepared"
    n_train, n_test = DEFAULT_SIZES[PLANT]
    assert files(root) == {
        "private/answers.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test_images/": n_test,
        "public/train.csv": 1,
        "public/train_images/": n_train,
    }
    train, answers = read(root, "public/train.csv"), read(root, "private/answers.csv")
    assert list(train.columns) == list(answers.columns) == ["image", "labels"]
    assert answers["image"].str.fullmatch("[0-9a-f]{16}\\.jpg").all()
    singles = {"healthy", "scab", "frog_eye_leaf_spot", "rust", "complex", "powdery_mildew"}
    assert singles <= set(answers["labels"]) and singles <= set(train["labels"])
    assert (read(root, "public/sample_submission.csv")["labels"] == "healthy").all()


def test_herbarium_layouts(fixtures: tuple[Path, Path]) -> None:
    data = fixtures[0]
    for cid, train_meta, test_meta, test_image in (
        (
            "herbarium-2020-fgvc7",
            "public/nybg2020/train/metadata.json",
            "public/nybg2020/test/metadata.json",
            "public/nybg2020/test/images/000/0.jpg",
        ),
        (
            "herbarium-2021-fgvc8",
            "public/train/metadata.json",
            "public/test/metadata.json",
            "public/test/images/000/0.jpg",
        ),
        (
            "herbarium-2022-fgvc9",
            "public/train_metadata.json",
            "public/test_metadata.json",
            "public/test_images/000/test-000000.jpg",
        ),
    ):
        root = data / cid / "prepared"
        n_train, n_test = DEFAULT_SIZES[cid]
        answers, sample = (
            read(root, "private/answers.csv"),
            read(root, "public/sample_submission.csv"),
        )
        assert answers["Id"].tolist() == sample["Id"].tolist() == list(range(n_test))
        assert (sample["Predicted"] == (42 if cid.endswith("2022-fgvc9") else 0)).all()
        train = json.loads((root / train_meta).read_text())
        test = json.loads((root / test_meta).read_text())
        images = test if isinstance(test, list) else test["images"]
        assert len(train["images"]) == len(train["annotations"]) == n_train
        assert len(images) == n_test and (root / test_image).is_file()
        assert "annotations" not in test  # the public test metadata holds no labels
        train_species = {a["category_id"] for a in train["annotations"]}
        assert train_species == set(answers["Predicted"])  # every species on both sides
        assert {c.get("id", c.get("category_id")) for c in train["categories"]} == train_species
        first = train["images"][0]["file_name"]
        cat = train["annotations"][0]["category_id"]
        assert first.split("/")[-3:-1] == [f"{cat // 100:03d}", f"{cat % 100:02d}"]


def test_iwildcam_2019_layout(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / IWILDCAM / "prepared"
    n_train, n_test = DEFAULT_SIZES[IWILDCAM]
    assert files(root) == {
        "private/answers.csv": 1,
        "private/test.csv": 1,
        "public/sample_submission.csv": 1,
        "public/test.csv": 1,
        "public/test_images.zip": 1,
        "public/train.csv": 1,
        "public/train_images.zip": 1,
    }
    train, test = read(root, "public/train.csv"), read(root, "public/test.csv")
    full, answers = read(root, "private/test.csv"), read(root, "private/answers.csv")
    assert list(full.columns) == list(train.columns) and "category_id" not in test.columns
    assert (len(train), len(test)) == (n_train, n_test)
    assert not set(train["location"]) & set(test["location"])  # split by site
    assert answers["Id"].tolist() == test["id"].tolist()
    assert answers["Category"].tolist() == full["category_id"].tolist()
    sample = read(root, "public/sample_submission.csv")
    assert list(sample.columns) == ["Unnamed: 0", "Id", "Category"]  # written with its index
    assert sample["Unnamed: 0"].is_monotonic_increasing and (sample["Category"] == 0).all()
    with zipfile.ZipFile(root / "public/test_images.zip") as archive:
        assert sorted(archive.namelist()) == sorted(test["file_name"])


def test_h_and_m_layout(fixtures: tuple[Path, Path]) -> None:
    root = fixtures[0] / HM / "prepared"
    n_train, n_buyers = DEFAULT_SIZES[HM]
    transactions = read(root, "public/transactions_train.csv")
    assert list(transactions.columns) == [
        "t_dat", "customer_id", "article_id", "price", "sales_channel_id"
    ]  # fmt: skip
    assert len(transactions) == n_train and transactions["t_dat"].is_monotonic_increasing
    assert transactions["t_dat"].max() < "2020-09-15"  # the last 8 days are the answers'
    customers = read(root, "public/customers.csv")
    sample = read(root, "public/sample_submission.csv")
    answers = pd.read_csv(root / "private/answers.csv", dtype=str)
    assert sample["customer_id"].tolist() == customers["customer_id"].tolist()
    assert len(answers) == n_buyers and answers["customer_id"].is_monotonic_increasing
    assert sample["customer_id"].iat[-1] in set(answers["customer_id"])
    articles = pd.read_csv(root / "public/articles.csv", dtype=str)
    assert len(articles.columns) == 25 and articles["article_id"].str.fullmatch("0[0-9]{9}").all()
    bought = {a for cell in answers["prediction"] for a in cell.split()}
    assert bought <= {a.lstrip("0") for a in articles["article_id"]}  # the zero is gone
    assert not any(a.startswith("0") for a in bought)
    first = articles["article_id"].iat[0]
    assert (root / "public/images" / first[:3] / f"{first}.jpg").is_file()


def test_hotel_and_whale_layouts(fixtures: tuple[Path, Path]) -> None:
    hotel = fixtures[0] / HOTEL / "prepared"
    train, answers = read(hotel, "public/train.csv"), read(hotel, "private/test.csv")
    assert (
        list(train.columns) == list(answers.columns) == ["image", "chain", "hotel_id", "timestamp"]
    )
    assert (DEFAULT_SIZES[HOTEL]) == (len(train), len(answers))
    row = train.iloc[0]
    assert (hotel / "public/train_images" / str(row["chain"]) / row["image"]).is_file()
    assert all((hotel / "public/test_images" / i).is_file() for i in answers["image"])
    assert answers["hotel_id"].isin(train["hotel_id"]).mean() > 0.8  # most hotels seen in train

    whale = fixtures[0] / WHALE / "prepared"
    train, answers = read(whale, "public/train.csv"), read(whale, "private/test.csv")
    assert list(train.columns) == list(answers.columns) == ["Image", "Id"]
    assert (len(train), len(answers)) == DEFAULT_SIZES[WHALE]
    assert train["Image"].is_monotonic_increasing and answers["Image"].is_monotonic_increasing
    # A whale only in test is new_whale in the answers; every other one is in train too.
    assert "new_whale" in set(answers["Id"])
    assert set(answers["Id"]) - {"new_whale"} <= set(train["Id"])
    assert (answers["Id"] == "new_whale").sum() > (train["Id"] == "new_whale").mean() * len(answers)


@pytest.mark.slow
def test_grading_benchmark_row_for_facebook_runs(tmp_path: Path) -> None:
    """``bench/grading.py``'s facebook row at a tiny scale: fresh-process grading with its peak
    RSS measured, and the same score in process."""
    script = Path(__file__).resolve().parents[3] / "bench" / "grading.py"
    args = ["--competitions", FACEBOOK, "--scale", "0.002", "--repeat", "1"]
    proc = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    assert row["competition"] == FACEBOOK and row["rows"] == round(603_420 * 0.002)
    assert 0 < row["score"] < 1 and row["answers_in_memory_mib"] > 0
    assert 50 < row["cli_peak_rss_mib_max"] < 2_000  # the child's own peak, not the parent's
    # the imports alone are a floor under the grade's peak, measured in a process of their own
    assert 50 < row["imports_peak_rss_mib"] <= row["cli_peak_rss_mib_max"]
    # the figures are rounded to 0.1 MiB, and the answers at this scale are a fraction of one
    growth = row["cli_peak_rss_mib_max"] - row["imports_peak_rss_mib"]
    assert row["growth_over_answers"] == pytest.approx(
        growth / row["answers_in_memory_mib"], rel=0.5
    )
    assert row["growth_over_answers"] < row["peak_rss_over_answers"]
