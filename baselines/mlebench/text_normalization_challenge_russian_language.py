"""text-normalization-challenge-russian-language: each token's most frequent spoken form in
training, and Russian rules for tokens never seen: cardinals in the nominative, years as
genitive ordinals ("1945 года" -> "тысяча девятьсот сорок пятого года"), letters, and units
with the right plural ("5 км" -> "пять километров").

    python -m baselines run --task mlebench/text-normalization-challenge-russian-language
    python -m baselines.mlebench.text_normalization_challenge_russian_language --public-dir DATA/text-normalization-challenge-russian-language/prepared/public --out submission.csv

Why: as in English, memorising training pairs gets most tokens right (~0.97 on Kaggle); unseen
numbers are where Russian's cases and plurals matter, so the rules decline the last word of
an ordinal and pick the noun form after a number. It needs no GPU and runs in seconds. Reads
public/ru_train.csv.zip and public/ru_test_2.csv.zip; writes ``id,after``. Validation: 10% of
training sentences held out, after the submission is written, sampled down to what the time
budget has left. Metric: accuracy over tokens (higher is better).
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

UNITS = ["ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"]
TEENS = ["десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать",
         "шестнадцать", "семнадцать", "восемнадцать", "девятнадцать"]  # fmt: skip
TENS = ["", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят",
        "восемьдесят", "девяносто"]  # fmt: skip
HUNDREDS = ["", "сто", "двести", "триста", "четыреста", "пятьсот", "шестьсот", "семьсот",
            "восемьсот", "девятьсот"]  # fmt: skip
# Genitive masculine ordinals: the form of a year's last word ("...пятого года").
ORD_UNITS = ["", "первого", "второго", "третьего", "четвертого", "пятого", "шестого",
             "седьмого", "восьмого", "девятого"]  # fmt: skip
ORD_TEENS = ["десятого", "одиннадцатого", "двенадцатого", "тринадцатого", "четырнадцатого",
             "пятнадцатого", "шестнадцатого", "семнадцатого", "восемнадцатого",
             "девятнадцатого"]  # fmt: skip
ORD_TENS = ["", "", "двадцатого", "тридцатого", "сорокового", "пятидесятого", "шестидесятого",
            "семидесятого", "восьмидесятого", "девяностого"]  # fmt: skip
ORD_HUNDREDS = ["", "сотого", "двухсотого", "трехсотого", "четырехсотого", "пятисотого",
                "шестисотого", "семисотого", "восьмисотого", "девятисотого"]  # fmt: skip
NOUNS = {  # unit -> its forms after 1, 2-4 and 5+ (or 11-14)
    "км": ("километр", "километра", "километров"),
    "кг": ("килограмм", "килограмма", "килограммов"),
    "м": ("метр", "метра", "метров"),
}


def form(n: int, forms: tuple[str, str, str]) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return forms[1]
    return forms[2]


def hundreds(n: int, feminine: bool = False) -> list[str]:
    """0 < n < 1000 in words; ``feminine`` for thousands (одна, две тысячи)."""
    words = [HUNDREDS[n // 100]] if n >= 100 else []
    n %= 100
    if 10 <= n <= 19:
        return [*words, TEENS[n - 10]]
    if n >= 20:
        words.append(TENS[n // 10])
    if n % 10:
        unit = UNITS[n % 10]
        words.append({"один": "одна", "два": "две"}.get(unit, unit) if feminine else unit)
    return words


def number_words(n: int) -> str:
    """Russian cardinal in the nominative: 1945 -> тысяча девятьсот сорок пять."""
    if n == 0:
        return "ноль"
    words = []
    for size, names, feminine in (
        (10**9, ("миллиард", "миллиарда", "миллиардов"), False),
        (10**6, ("миллион", "миллиона", "миллионов"), False),
        (1000, ("тысяча", "тысячи", "тысяч"), True),
    ):
        count, n = divmod(n, size)
        if count:
            if count == 1 and size == 1000:
                words.append("тысяча")
            else:
                words += [*hundreds(count, feminine), form(count, names)]
    return " ".join(words + (hundreds(n) if n else []))


def year_words(n: int) -> str:
    """A year as a genitive ordinal: only the last word is declined."""
    if n % 1000 == 0:
        return {1000: "тысячного", 2000: "двухтысячного"}.get(n, number_words(n))
    if n % 100 == 0:
        return f"{number_words(n - n % 1000)} {ORD_HUNDREDS[n % 1000 // 100]}"
    head, low = n - n % 100, n % 100
    if 10 <= low <= 19:
        last = [ORD_TEENS[low - 10]]
    elif low % 10 == 0:
        last = [ORD_TENS[low // 10]]
    else:
        last = ([TENS[low // 10]] if low >= 20 else []) + [ORD_UNITS[low % 10]]
    return " ".join(([number_words(head)] if head else []) + last)


def rules(token: str) -> str | None:
    """The spoken form of a token never seen in training, or None to keep it as it is."""
    if re.fullmatch(r"\d{1,12}", token):
        return number_words(int(token))
    if m := re.fullmatch(r"(\d{3,4}) года", token):
        return f"{year_words(int(m.group(1)))} года"
    if (m := re.fullmatch(r"(\d{1,12}) (\w+)", token)) and m.group(2) in NOUNS:
        n = int(m.group(1))
        return f"{number_words(n)} {form(n, NOUNS[m.group(2)])}"
    if re.fullmatch(r"[А-ЯЁ]{2,6}", token):
        return " ".join(token.lower())
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
    train = pd.read_csv(public_dir / "ru_train.csv.zip", dtype=text, keep_default_na=False)
    test = pd.read_csv(
        public_dir / "ru_test_2.csv.zip", dtype={"before": str}, keep_default_na=False
    )
    if smoke:
        train = train.head(SMOKE_ROWS)
    budget.log(f"read ru_train: {len(train):,} tokens; ru_test_2: {len(test):,} tokens")

    after, seconds_per_token = predict(test["before"], train, rules, budget)
    ids = test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str)
    write_submission(pd.DataFrame({"id": ids, "after": after}), out_path, budget)

    # Validation last, in what the budget has left (sampled down when that is not enough).
    score, how = validate(train, rules, budget, seconds_per_token, holdout=HOLDOUT, seed=SEED)
    metric_line(METRIC, score, how)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
