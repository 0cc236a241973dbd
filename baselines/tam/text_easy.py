"""tam/text/easy (English text normalization): the most frequent normalization of each token
seen in training, and rules for the tokens never seen: numbers spoken, capitals spelled out.

    python -m baselines run --task tam/text/easy
    python -m baselines.tam.text_easy --public-dir DATA/text/easy/prepared/public --out submission.csv

Reads public/en_train.csv and public/en_test.csv; writes ``id,after`` for every test token,
``id = <sentence_id>_<token_id>``, in the order of en_sample_submission.csv. The memory is
keyed on the token's text; its class is not in the test file, so a token never seen in
training gets the class its shape suggests (CARDINAL for digits, LETTERS for capitals, PLAIN
otherwise) and that class's rule. Metric: exact-match accuracy on hold-out sentences (higher is
better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "accuracy"
SEED = 0  # hold-out split
HOLDOUT = 0.2  # share of the training sentences kept back
SMOKE_SENTENCES = 80  # --smoke: learn from this many sentences
TIME_BUDGET_S = 5 * 60.0  # the whole script, data to file
THREADS = 1  # no parallel work

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
ONES += "fifteen sixteen seventeen eighteen nineteen"
TENS = "twenty thirty forty fifty sixty seventy eighty ninety"


def spoken(number: int) -> str:
    """A non-negative integer in English words (up to the billions)."""
    ones, tens = ONES.split(), TENS.split()
    if number < 20:
        return ones[number]
    if number < 100:
        ten, one = divmod(number, 10)
        return tens[ten - 2] + ("" if one == 0 else " " + ones[one])
    for size, name in (
        (10**9, "billion"),
        (10**6, "million"),
        (1000, "thousand"),
        (100, "hundred"),
    ):
        if number >= size:
            head, rest = divmod(number, size)
            return f"{spoken(head)} {name}" + ("" if rest == 0 else " " + spoken(rest))
    raise AssertionError(number)


def guess(before: str) -> str:
    """The rule of the class a token's shape suggests."""
    if before.isdigit() and len(before) < 10:
        return spoken(int(before))
    if before.isalpha() and before.isupper() and len(before) > 1:
        return " ".join(before.lower())
    return before


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    read = {"dtype": {"before": str, "after": str}, "keep_default_na": False}
    train = pd.read_csv(public_dir / "en_train.csv", **read)
    test = pd.read_csv(public_dir / "en_test.csv", **read)
    if smoke:
        train = train[train.sentence_id.isin(train.sentence_id.unique()[:SMOKE_SENTENCES])]
    budget.log(f"read en_train.csv: {len(train):,} tokens; en_test.csv: {len(test):,} tokens")

    rng = np.random.default_rng(SEED)
    sentences = train.sentence_id.unique()
    held = set(rng.choice(sentences, max(1, int(HOLDOUT * len(sentences))), replace=False))
    fit, val = train[~train.sentence_id.isin(held)], train[train.sentence_id.isin(held)]

    def memory(rows: pd.DataFrame) -> dict[str, str]:
        counts = rows.groupby(["before", "after"]).size().reset_index(name="n")
        return (
            counts.sort_values("n")
            .drop_duplicates("before", keep="last")
            .set_index("before")["after"]
            .to_dict()
        )

    seen = memory(fit)
    accuracy = float(
        np.mean([seen.get(b, guess(b)) == a for b, a in zip(val.before, val.after, strict=True)])
    )
    metric_line(METRIC, accuracy, f"{len(held)} hold-out sentences")
    seen = memory(train)
    after = [seen.get(b, guess(b)) for b in test.before]
    ids = test.sentence_id.astype(str) + "_" + test.token_id.astype(str)
    write_submission(pd.DataFrame({"id": ids, "after": after}), out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
