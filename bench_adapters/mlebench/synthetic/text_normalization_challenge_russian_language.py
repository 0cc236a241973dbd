"""text-normalization-challenge-russian-language: Russian (Cyrillic) sentences, one row per
token, with the token as written (``before``) and as spoken (``after``): plain words and
punctuation stay as they are; cardinals ("5" -> "пять", "2345" -> "две тысячи триста сорок
пять"), years in the genitive ("1945 года" -> "тысяча девятьсот сорок пятого года"), letters
("СССР" -> "с с с р", though some acronyms are read as words, as "НАТО" is) and measures
with their plural ("5 км" -> "пять километров") are verbalised as in Kaggle's data.

Public: ``ru_train.csv.zip`` (``sentence_id,token_id,class,before,after``),
``ru_test_2.csv.zip`` (``sentence_id,token_id,before``) and
``ru_sample_submission_2.csv.zip`` (``id,after`` with ``after`` = ``before``). Private:
``answers.csv`` (``id,after``) and ``sample_submission.csv`` (the grader's sample). Every
non-numeric field is quoted; ids are ``<sentence>_<token>``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .common import Size
from .textnorm import Token, write_textnorm

ONES = [
    "ноль",
    "один",
    "два",
    "три",
    "четыре",
    "пять",
    "шесть",
    "семь",
    "восемь",
    "девять",
    "десять",
    "одиннадцать",
    "двенадцать",
    "тринадцать",
    "четырнадцать",
    "пятнадцать",
    "шестнадцать",
    "семнадцать",
    "восемнадцать",
    "девятнадцать",
]
TENS = [
    "_",
    "_",
    "двадцать",
    "тридцать",
    "сорок",
    "пятьдесят",
    "шестьдесят",
    "семьдесят",
    "восемьдесят",
    "девяносто",
]
HUNDREDS = [
    "_",
    "сто",
    "двести",
    "триста",
    "четыреста",
    "пятьсот",
    "шестьсот",
    "семьсот",
    "восемьсот",
    "девятьсот",
]
ORDINAL_ONES = [
    "_",
    "первого",
    "второго",
    "третьего",
    "четвертого",
    "пятого",
    "шестого",
    "седьмого",
    "восьмого",
    "девятого",
    "десятого",
    "одиннадцатого",
    "двенадцатого",
    "тринадцатого",
    "четырнадцатого",
    "пятнадцатого",
    "шестнадцатого",
    "семнадцатого",
    "восемнадцатого",
    "девятнадцатого",
]
ORDINAL_TENS = [
    "_",
    "_",
    "двадцатого",
    "тридцатого",
    "сорокового",
    "пятидесятого",
    "шестидесятого",
    "семидесятого",
    "восьмидесятого",
    "девяностого",
]
ORDINAL_HUNDREDS = [
    "_",
    "сотого",
    "двухсотого",
    "трехсотого",
    "четырехсотого",
    "пятисотого",
    "шестисотого",
    "семисотого",
    "восьмисотого",
    "девятисотого",
]
WORDS = [
    "и",
    "в",
    "не",
    "на",
    "что",
    "он",
    "с",
    "это",
    "как",
    "по",
    "но",
    "они",
    "к",
    "у",
    "мы",
    "за",
    "из",
    "от",
    "же",
    "так",
    "все",
    "она",
    "для",
    "был",
    "мне",
    "вот",
    "дом",
    "город",
    "время",
    "человек",
    "жизнь",
    "день",
    "работа",
    "слово",
    "место",
    "друг",
    "вопрос",
    "дело",
    "страна",
    "мир",
    "случай",
    "голова",
    "сила",
    "конец",
    "часть",
    "женщина",
    "деньги",
    "земля",
    "вода",
    "отец",
    "история",
    "закон",
    "война",
    "книга",
    "ночь",
    "стол",
    "имя",
    "область",
    "статья",
    "число",
    "компания",
    "народ",
    "группа",
    "процесс",
    "начало",
    "путь",
    "улица",
    "вечер",
    "дорога",
    "мать",
    "месяц",
    "государство",
    "язык",
    "школа",
    "общество",
    "президент",
    "театр",
    "утро",
]
UNITS = {
    "км": ("километр", "километра", "километров"),
    "кг": ("килограмм", "килограмма", "килограммов"),
}


def plural(n: int, forms: tuple[str, str, str]) -> str:
    """The noun form after ``n``: 1 километр, 2-4 километра, 5+ (and 11-14) километров."""
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def below_thousand(n: int, feminine: bool = False) -> list[str]:
    words = []
    if n >= 100:
        words.append(HUNDREDS[n // 100])
        n %= 100
    if n >= 20:
        words.append(TENS[n // 10])
        n %= 10
    if n or not words:
        if feminine and n in (1, 2):
            words.append("одна" if n == 1 else "две")
        else:
            words.append(ONES[n])
    return words


def cardinal(n: int) -> str:
    """0 <= n < 1,000,000 in the nominative: тысяча девятьсот, две тысячи, пять тысяч."""
    thousands, rest = divmod(n, 1000)
    words = []
    if thousands == 1:
        words.append("тысяча")
    elif thousands:
        words += below_thousand(thousands, feminine=True)
        words.append(plural(thousands, ("тысяча", "тысячи", "тысяч")))
    if rest or not words:
        words += below_thousand(rest)
    return " ".join(words)


def year_genitive(n: int) -> str:
    """1900-2029 as an ordinal in the genitive, only its last word declined: тысяча
    девятисотого, тысяча девятьсот сорок пятого, двухтысячного, две тысячи десятого."""
    if n % 1000 == 0:
        return {1000: "тысячного", 2000: "двухтысячного"}[n]
    if n % 100 == 0:
        return cardinal(n - n % 1000) + " " + ORDINAL_HUNDREDS[n % 1000 // 100]
    head, last = n - n % 100, n % 100
    if last >= 20 and last % 10:
        tail = [TENS[last // 10], ORDINAL_ONES[last % 10]]
    elif last >= 20:
        tail = [ORDINAL_TENS[last // 10]]
    else:
        tail = [ORDINAL_ONES[last]]
    return " ".join([cardinal(head), *tail])


def special(rng: np.random.Generator) -> Token:
    kind = rng.choice(["CARDINAL", "DATE", "LETTERS", "MEASURE"], p=[0.4, 0.3, 0.15, 0.15])
    if kind == "CARDINAL":
        n = int(rng.choice([rng.integers(0, 1000), rng.integers(1000, 100_000)]))
        return ("CARDINAL", str(n), cardinal(n))
    if kind == "DATE":
        n = int(rng.integers(1900, 2030))
        return ("DATE", f"{n} года", f"{year_genitive(n)} года")
    if kind == "LETTERS":
        letters = "".join(rng.choice(list("АБВГДЕКЛМНОПРСТУФХЦШ"), int(rng.integers(2, 5))))
        if rng.random() < 0.15:  # an acronym read as a word, as НАТО is
            return ("PLAIN", letters, letters.lower())
        return ("LETTERS", letters, " ".join(letters.lower()))
    n, unit = int(rng.integers(1, 500)), str(rng.choice(list(UNITS)))
    return ("MEASURE", f"{n} {unit}", f"{cardinal(n)} {plural(n, UNITS[unit])}")


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    write_textnorm(public, private, size, rng, "ru", WORDS, special)
