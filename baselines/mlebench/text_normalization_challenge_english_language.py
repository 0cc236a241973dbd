"""text-normalization-challenge-english-language: each token's most frequent spoken form in
training, and rules for tokens never seen (cardinals, years, letters, units, money).

    python -m baselines run --task mlebench/text-normalization-challenge-english-language
    python -m baselines.mlebench.text_normalization_challenge_english_language --public-dir DATA/text-normalization-challenge-english-language/prepared/public --out submission.csv

Why: most tokens are words and punctuation said as written, and most others recur (the same
years, the same abbreviations), so memorising training pairs gets the bulk right (~0.99 on
Kaggle); what is left are unseen numbers and acronyms, which a few rules verbalise. It needs no
GPU and runs in seconds. Reads public/en_train.csv.zip and public/en_test_2.csv.zip; writes
``id,after`` with ``id = <sentence>_<token>``. Validation: 10% of training sentences held out,
after the submission is written, sampled down to what the time budget has left. Metric:
accuracy over tokens (higher is better).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pandas as pd

from baselines.kit import Budget, metric_line, standalone, write_submission
from baselines.textnorm import predict, validate

METRIC = "accuracy"
SEED = 0  # held-out sentences
HOLDOUT = 0.1  # share of training sentences held out for the metric
SMOKE_ROWS = 3000  # --smoke: learn from this many training tokens
TIME_BUDGET_S = 15 * 60.0  # the whole script; minutes at full size
THREADS = 1  # pandas only

ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
UNITS = {"km": "kilometer", "kg": "kilogram", "cm": "centimeter", "m": "meter", "mi": "mile"}


def number_words(n: int) -> str:
    """English cardinal, without "and": 2345 -> two thousand three hundred forty five."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + (f" {ONES[n % 10]}" if n % 10 else "")
    for size, name in (
        (10**9, "billion"),
        (10**6, "million"),
        (1000, "thousand"),
        (100, "hundred"),
    ):
        if n >= size:
            rest = n % size
            return f"{number_words(n // size)} {name}" + (f" {number_words(rest)}" if rest else "")
    raise AssertionError(n)


def year_words(n: int) -> str:
    """1905 -> nineteen oh five, 1900 -> nineteen hundred, 2005 -> two thousand five,
    2015 -> twenty fifteen."""
    if 2000 <= n <= 2009:
        return number_words(n)
    high, low = divmod(n, 100)
    if low == 0:
        return f"{number_words(high)} hundred"
    return f"{number_words(high)} " + (f"oh {ONES[low]}" if low < 10 else number_words(low))


def rules(token: str) -> str | None:
    """The spoken form of a token never seen in training, or None to keep it as it is."""
    if re.fullmatch(r"\d{1,12}", token):
        n = int(token)
        return year_words(n) if len(token) == 4 and 1900 <= n <= 2029 else number_words(n)
    if m := re.fullmatch(r"\$(\d{1,12})", token):
        n = int(m.group(1))
        return f"{number_words(n)} dollar{'' if n == 1 else 's'}"
    if (m := re.fullmatch(r"(\d{1,12}) ([a-z]+)", token)) and m.group(2) in UNITS:
        n = int(m.group(1))
        return f"{number_words(n)} {UNITS[m.group(2)]}{'' if n == 1 else 's'}"
    if re.fullmatch(r"[A-Z]{2,6}", token):
        return " ".join(token.lower())
    if token == "&":
        return "and"
    return None


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    text = {"before": str, "after": str, "class": str}
    train = pd.read_csv(public_dir / "en_train.csv.zip", dtype=text, keep_default_na=False)
    test = pd.read_csv(
        public_dir / "en_test_2.csv.zip", dtype={"before": str}, keep_default_na=False
    )
    if smoke:
        train = train.head(SMOKE_ROWS)
    budget.log(f"read en_train: {len(train):,} tokens; en_test_2: {len(test):,} tokens")

    after, seconds_per_token = predict(test["before"], train, rules, budget)
    ids = test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str)
    write_submission(pd.DataFrame({"id": ids, "after": after}), out_path, budget)

    # Validation last, in what the budget has left (sampled down when that is not enough).
    score, how = validate(train, rules, budget, seconds_per_token, holdout=HOLDOUT, seed=SEED)
    metric_line(METRIC, score, how)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
