"""text-normalization-challenge-english-language's baseline: a smoke run through the real
grader, and its rules checked by hand on tokens it has never seen."""

from __future__ import annotations

from typing import Any

import pandas as pd

from baselines.kit import takes
from baselines.mlebench import text_normalization_challenge_english_language as script
from baselines.textnorm import learn, normalise
from tests.baselines.helpers import assert_smoke_check_holds

CID = "text-normalization-challenge-english-language"


def test_smoke_run_is_valid_and_beats_the_sample(lite_check: dict[str, Any]) -> None:
    folder = assert_smoke_check_holds(lite_check, CID)
    assert list(pd.read_csv(folder / "submission.csv").columns) == ["id", "after"]
    assert not {"device", "pretrained"} & takes(script)  # no GPU needed


def test_rules_by_hand() -> None:
    cases = {
        "7": "seven",
        "13": "thirteen",
        "40": "forty",
        "101": "one hundred one",
        "2345": "two thousand three hundred forty five",
        "1000000": "one million",
        "1905": "nineteen oh five",
        "1990": "nineteen ninety",
        "2008": "two thousand eight",
        "2017": "twenty seventeen",
        "$1": "one dollar",
        "$25": "twenty five dollars",
        "1 km": "one kilometer",
        "12 kg": "twelve kilograms",
        "NASA": "n a s a",
        "&": "and",
    }
    assert {token: script.rules(token) for token in cases} == cases
    assert script.rules("house") is None and script.rules(".") is None


def test_memory_wins_over_rules_and_keeps_the_commonest_form() -> None:
    train = pd.DataFrame(
        {
            "class": ["CARDINAL", "DATE", "DATE", "PLAIN"],
            "before": ["1984", "1984", "1984", "read"],
            "after": ["one thousand nine hundred eighty four", "nineteen eighty four",
                      "nineteen eighty four", "read"],
        }
    )  # fmt: skip
    after, counts = normalise(pd.Series(["1984", "read", "3", "cat"]), learn(train), script.rules)
    assert after == ["nineteen eighty four", "read", "three", "cat"]
    assert counts == {"memory": 2, "rules": 1, "as is": 1}
