"""text-normalization-challenge-russian-language's baseline: a smoke run through the real
grader, and its Russian rules checked by hand on tokens it has never seen."""

from __future__ import annotations

from typing import Any

import pandas as pd

from baselines.mlebench import text_normalization_challenge_russian_language as script
from tests.baselines.helpers import assert_smoke_check_holds

CID = "text-normalization-challenge-russian-language"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    sub = pd.read_csv(folder / "submission.csv", keep_default_na=False)
    assert sub["after"].str.contains(r"[а-яё]").mean() > 0.5  # Cyrillic out


def test_rules_by_hand() -> None:
    cases = {
        "0": "ноль",
        "1": "один",
        "12": "двенадцать",
        "21": "двадцать один",
        "300": "триста",
        "1000": "тысяча",
        "2345": "две тысячи триста сорок пять",
        "21000": "двадцать одна тысяча",
        "5000": "пять тысяч",
        "1000000": "один миллион",
        "1945 года": "тысяча девятьсот сорок пятого года",
        "1900 года": "тысяча девятисотого года",
        "2000 года": "двухтысячного года",
        "2013 года": "две тысячи тринадцатого года",
        "1 км": "один километр",
        "3 км": "три километра",
        "11 кг": "одиннадцать килограммов",
        "22 кг": "двадцать два килограмма",
        "СССР": "с с с р",
    }
    assert {token: script.rules(token) for token in cases} == cases
    assert script.rules("дом") is None and script.rules(",") is None
