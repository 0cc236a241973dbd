"""chaii-hindi-and-tamil-question-answering: extractive questions on Hindi and Tamil passages
(Kaggle's shares of each language), the answer a span of the passage.

A passage states facts about a few cities, one a sentence ("<city> <property> <value> है।" in
Hindi, "<city> நகரின் <property> <value> ஆகும்." in Tamil), among filler sentences and
paragraph breaks; the question asks for one property of one city ("<city> <property> क्या
है?"). The values are drawn afresh for every passage (years, counts, rivers, names), so the
answer must be read from the passage: find the sentence naming the city and the property,
take what follows.

Public: ``train.csv`` (``id,context,question,answer_text,answer_start,language``, ``language``
being ``hindi`` or ``tamil``), ``test.csv`` (``id,context,question,language``),
``sample_submission.csv`` (``id,PredictionString`` = ``dummy text``). Private: ``test.csv``
(``id,PredictionString``, the answer text). Ids are 9 hex digits; rows are in the shuffled
order of upstream's split; ``answer_start`` is the answer's character offset in the passage.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, hex_ids, split

SAMPLE_TEXT = "dummy text"
HINDI_SHARE = 0.67


@dataclass(frozen=True)
class Language:
    name: str
    cities: list[str]
    properties: dict[str, list[str] | str]
    """Property -> the values a passage may give it, or ``"year"`` or ``"count"`` (drawn)."""
    fact: str
    """``{city}``, ``{property}``, ``{value}``."""
    question: str
    filler: list[str]


HINDI = Language(
    "hindi",
    ["दिल्ली", "मुंबई", "जयपुर", "पटना", "भोपाल", "लखनऊ", "आगरा", "वाराणसी", "इंदौर", "कानपुर"],
    {
        "की स्थापना का वर्ष": "year",
        "की जनसंख्या": "count",
        "की प्रमुख नदी": ["गंगा", "यमुना", "नर्मदा", "गोमती", "चंबल", "सोन"],
        "के संस्थापक": ["राजा भोज", "जय सिंह", "अकबर", "शेरशाह सूरी", "अशोक", "हर्षवर्धन"],
    },
    "{city} {property} {value} है।",
    "{city} {property} क्या है?",
    [
        "यह शहर अपने इतिहास के लिए जाना जाता है।",
        "यहाँ हर साल कई पर्यटक आते हैं।",
        "इस क्षेत्र में खेती प्रमुख व्यवसाय है।",
        "शहर में कई पुराने मंदिर और बाज़ार हैं।",
        "रेल और सड़क से यहाँ पहुँचना आसान है।",
    ],
)
TAMIL = Language(
    "tamil",
    ["சென்னை", "மதுரை", "கோயம்புத்தூர்", "திருச்சி", "சேலம்", "வேலூர்", "தஞ்சாவூர்", "நெல்லை"],
    {
        "நிறுவப்பட்ட ஆண்டு": "year",
        "மக்கள் தொகை": "count",
        "முக்கிய நதி": ["காவேரி", "வைகை", "தாமிரபரணி", "பாலாறு", "பவானி"],
        "புகழ்பெற்ற கோயில்": ["மீனாட்சி அம்மன் கோயில்", "பிரகதீஸ்வரர் கோயில்", "கபாலீஸ்வரர் கோயில்"],
    },
    "{city} நகரின் {property} {value} ஆகும்.",
    "{city} நகரின் {property} என்ன?",
    [
        "இந்த நகரம் வரலாற்றுக்கு பெயர் பெற்றது.",
        "இங்கு ஆண்டுதோறும் பல சுற்றுலா பயணிகள் வருகின்றனர்.",
        "இப்பகுதியில் விவசாயம் முக்கிய தொழிலாகும்.",
        "நகரில் பல பழைய கோயில்களும் சந்தைகளும் உள்ளன.",
    ],
)


def _value(rng: np.random.Generator, values: list[str] | str) -> str:
    if values == "year":
        return str(int(rng.integers(1200, 1990)))
    if values == "count":
        return str(1000 * int(rng.integers(2, 990)))
    return str(rng.choice(values))


def passage(rng: np.random.Generator, language: Language) -> tuple[str, str, str, int]:
    """``(context, question, answer_text, answer_start)``."""
    properties = list(language.properties)
    cities = rng.choice(language.cities, int(rng.integers(2, 5)), replace=False)
    facts = []
    for city in cities:
        for k in rng.choice(len(properties), int(rng.integers(1, len(properties) + 1)), False):
            value = _value(rng, language.properties[properties[k]])
            facts.append((str(city), properties[k], value))
    order = rng.permutation(len(facts))
    asked = facts[int(rng.integers(len(facts)))]
    paragraphs = []
    for k in order:
        city, prop, value = facts[k]
        sentences = [str(s) for s in rng.choice(language.filler, int(rng.integers(0, 3)))]
        sentences.insert(int(rng.integers(0, len(sentences) + 1)), language.fact.format(
            city=city, property=prop, value=value
        ))  # fmt: skip
        paragraphs.append(" ".join(sentences))
    context = "\n".join(paragraphs)
    city, prop, value = asked
    sentence = language.fact.format(city=city, property=prop, value=value)
    start = context.index(sentence) + sentence.index(value, len(city) + 1)
    question = language.question.format(city=city, property=prop)
    return context, question, value, start


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    languages = [HINDI if rng.random() < HINDI_SHARE else TAMIL for _ in range(n)]
    rows = [passage(rng, language) for language in languages]
    frame = pd.DataFrame(
        {
            "id": hex_ids(rng, n, 9),
            "context": [r[0] for r in rows],
            "question": [r[1] for r in rows],
            "answer_text": [r[2] for r in rows],
            "answer_start": [r[3] for r in rows],
            "language": [language.name for language in languages],
        }
    )
    train_rows, test_rows = split(rng, n, size.n_test)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    answers = test[["id", "answer_text"]].set_axis(["id", "PredictionString"], axis=1)
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=["answer_start", "answer_text"]).to_csv(public / "test.csv", index=False)
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(PredictionString=SAMPLE_TEXT).to_csv(
        public / "sample_submission.csv", index=False
    )
