"""Both text-normalization generators: upstream's layout (zips only in public, every
non-numeric field quoted), Cyrillic Russian, and the spoken forms checked by hand."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pandas as pd
import pytest

from bench_adapters.mlebench.synthetic import DEFAULT_SIZES
from bench_adapters.mlebench.synthetic import text_normalization_challenge_english_language as en
from bench_adapters.mlebench.synthetic import text_normalization_challenge_russian_language as ru
from tests.bench_adapters.synthetic.helpers import layout, prepared, read

EN = "text-normalization-challenge-english-language"
RU = "text-normalization-challenge-russian-language"


@pytest.mark.parametrize(("cid", "lang"), [(EN, "en"), (RU, "ru")])
def test_layout_quoting_and_ids(mlebench_data: Path, cid: str, lang: str) -> None:
    root = prepared(mlebench_data, cid)
    assert layout(root) == {
        "private/answers.csv": 1,
        "private/sample_submission.csv": 1,
        f"public/{lang}_sample_submission_2.csv.zip": 1,
        f"public/{lang}_test_2.csv.zip": 1,
        f"public/{lang}_train.csv.zip": 1,
    }
    with zipfile.ZipFile(root / "public" / f"{lang}_train.csv.zip") as zf:
        assert zf.namelist() == [f"{lang}_train.csv"]
        first_rows = zf.read(f"{lang}_train.csv").decode().splitlines()[:2]
    assert first_rows[0] == '"sentence_id","token_id","class","before","after"'
    assert first_rows[1].startswith('0,0,"')  # numbers bare, text quoted (QUOTE_NONNUMERIC)
    train = pd.read_csv(root / "public" / f"{lang}_train.csv.zip", keep_default_na=False)
    test = pd.read_csv(root / "public" / f"{lang}_test_2.csv.zip", keep_default_na=False)
    answers = read(root, "private/answers.csv")
    sample = pd.read_csv(
        root / "public" / f"{lang}_sample_submission_2.csv.zip", keep_default_na=False
    )
    assert (len(train), len(test)) == DEFAULT_SIZES[cid]
    assert list(test.columns) == ["sentence_id", "token_id", "before"]
    assert list(answers.columns) == list(sample.columns) == ["id", "after"]
    ids = test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str)
    assert ids.tolist() == answers["id"].tolist() == sample["id"].tolist()
    assert sample["after"].astype(str).tolist() == test["before"].astype(str).tolist()
    assert sample.equals(
        pd.read_csv(root / "private" / "sample_submission.csv", keep_default_na=False)
    )
    assert train["sentence_id"].iloc[0] == 0 and test["sentence_id"].iloc[0] == 0
    assert {"PLAIN", "PUNCT", "CARDINAL", "DATE", "LETTERS", "MEASURE"} <= set(train["class"])
    changed = (train["before"] != train["after"]).mean()
    assert 0.03 < changed < 0.3  # most tokens are said as written
    if lang == "ru":
        assert train["before"].str.contains(r"[а-яё]").mean() > 0.5  # Cyrillic text


def test_english_forms_by_hand() -> None:
    assert en.cardinal(0) == "zero" and en.cardinal(15) == "fifteen"
    assert en.cardinal(2345) == "two thousand three hundred forty five"
    assert en.cardinal(100_000) == "one hundred thousand"
    assert [en.year(y) for y in (1905, 1900, 1999, 2005, 2019)] == [
        "nineteen oh five", "nineteen hundred", "nineteen ninety nine", "two thousand five",
        "twenty nineteen",
    ]  # fmt: skip


def test_russian_forms_by_hand() -> None:
    assert ru.cardinal(1) == "один" and ru.cardinal(1000) == "тысяча"
    assert ru.cardinal(2345) == "две тысячи триста сорок пять"
    assert ru.cardinal(21_000) == "двадцать одна тысяча"
    assert ru.cardinal(15_011) == "пятнадцать тысяч одиннадцать"
    assert [ru.year_genitive(y) for y in (1945, 1900, 2000, 2010, 2021)] == [
        "тысяча девятьсот сорок пятого", "тысяча девятисотого", "двухтысячного",
        "две тысячи десятого", "две тысячи двадцать первого",
    ]  # fmt: skip
    forms = ("километр", "километра", "километров")
    assert [ru.plural(n, forms) for n in (1, 3, 5, 11, 21, 112)] == [
        "километр", "километра", "километров", "километров", "километр", "километров",
    ]  # fmt: skip
