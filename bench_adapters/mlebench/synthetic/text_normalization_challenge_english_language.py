"""text-normalization-challenge-english-language: English sentences, one row per token, with
the token as written (``before``) and as spoken (``after``): plain words and punctuation stay
as they are; cardinals ("123" -> "one hundred twenty three"), years ("1999" -> "nineteen
ninety nine"), letters ("BBC" -> "b b c"), measures ("5 km" -> "five kilometers"), money
("$20" -> "twenty dollars") and "&" ("and") are verbalised as in Kaggle's data. As there, a
few numbers in the years' range are cardinals ("1950 people"), so context matters.

Public: ``en_train.csv.zip`` (``sentence_id,token_id,class,before,after``),
``en_test_2.csv.zip`` (``sentence_id,token_id,before``) and
``en_sample_submission_2.csv.zip`` (``id,after`` with ``after`` = ``before``). Private:
``answers.csv`` (``id,after``) and ``sample_submission.csv`` (the grader's sample). Every
non-numeric field is quoted; ids are ``<sentence>_<token>``, sentences renumbered from 0 in
train and test alike.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .common import Size
from .textnorm import Token, write_textnorm

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
TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "was",
    "that",
    "for",
    "it",
    "with",
    "as",
    "on",
    "be",
    "by",
    "this",
    "he",
    "at",
    "from",
    "his",
    "an",
    "were",
    "are",
    "which",
    "have",
    "but",
    "had",
    "they",
    "not",
    "she",
    "one",
    "all",
    "been",
    "their",
    "there",
    "has",
    "who",
    "her",
    "or",
    "more",
    "will",
    "would",
    "city",
    "river",
    "world",
    "music",
    "team",
    "school",
    "family",
    "album",
    "season",
    "war",
    "film",
    "game",
    "party",
    "church",
]
UNITS = {"km": "kilometer", "kg": "kilogram", "cm": "centimeter"}


def cardinal(n: int) -> str:
    """0 <= n < 1,000,000 in words, as Kaggle's data spells them (no "and", no hyphens)."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + cardinal(rest))
    rest = n % 1000
    return cardinal(n // 1000) + " thousand" + ("" if rest == 0 else " " + cardinal(rest))


def year(n: int) -> str:
    """1900-2029 as read aloud: nineteen oh five, two thousand five, twenty fifteen."""
    if 2000 <= n < 2010:
        return cardinal(n)
    high, low = divmod(n, 100)
    if low == 0:
        return cardinal(high) + " hundred"
    return cardinal(high) + " " + ("oh " + ONES[low] if low < 10 else cardinal(low))


def special(rng: np.random.Generator) -> Token:
    kind = rng.choice(
        ["CARDINAL", "DATE", "LETTERS", "MEASURE", "MONEY", "VERBATIM"],
        p=[0.35, 0.25, 0.15, 0.1, 0.1, 0.05],
    )
    if kind == "CARDINAL":  # mostly outside 1900-2029, which usually read as years
        low, high = (1900, 2030) if rng.random() < 0.1 else (0, 100_000)
        n = int(rng.integers(low, high)) if rng.random() < 0.5 else int(rng.integers(0, 1000))
        return ("CARDINAL", str(n), cardinal(n))
    if kind == "DATE":
        n = int(rng.integers(1900, 2030))
        return ("DATE", str(n), year(n))
    if kind == "LETTERS":
        letters = "".join(rng.choice(list("ABCDEFGHIJKLMNOPRSTUVWXYZ"), int(rng.integers(2, 5))))
        return ("LETTERS", letters, " ".join(letters.lower()))
    if kind == "MEASURE":
        n, unit = int(rng.integers(1, 500)), str(rng.choice(list(UNITS)))
        return ("MEASURE", f"{n} {unit}", f"{cardinal(n)} {UNITS[unit]}{'' if n == 1 else 's'}")
    if kind == "MONEY":
        n = int(rng.integers(1, 1000))
        return ("MONEY", f"${n}", f"{cardinal(n)} dollar{'' if n == 1 else 's'}")
    return ("VERBATIM", "&", "and")


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    write_textnorm(public, private, size, rng, "en", WORDS, special)
