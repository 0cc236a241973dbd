"""jigsaw-unintended-bias-in-toxicity-classification: Civil Comments, each with the share of
annotators who found it toxic (``target`` in train, ``toxicity`` in the answers; 8% at 0.5 or
more, as on Kaggle), five toxicity sub-types and, for about a quarter of the comments, the
share who saw each of 24 identities mentioned (blank otherwise). Toxic comments use words of
their own; a mentioned identity puts its name in the comment, toxic or not (the confusion
the metric's bias terms measure).

Public: ``train.csv`` (Kaggle's 45 columns: ``id, target, comment_text``, the sub-types, the
identities, the comment's metadata and annotator counts), ``test.csv`` (``id,comment_text``),
``sample_submission.csv`` (``id,prediction`` = 0.0). Private: ``test.csv``, Kaggle's
``test_private_expanded.csv`` (45 columns, ``toxicity`` for ``target``, in the Civil Comments
column order). Every identity the metric scores has toxic and non-toxic comments in the
answers, as its AUCs need. Ids: train from 59,848, test from 7,000,000, each file sorted.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, at_least
from .words import sentence

SUBTYPES = ["severe_toxicity", "obscene", "identity_attack", "insult", "threat"]
IDENTITIES = [
    "asian",
    "atheist",
    "bisexual",
    "black",
    "buddhist",
    "christian",
    "female",
    "heterosexual",
    "hindu",
    "homosexual_gay_or_lesbian",
    "intellectual_or_learning_disability",
    "jewish",
    "latino",
    "male",
    "muslim",
    "other_disability",
    "other_gender",
    "other_race_or_ethnicity",
    "other_religion",
    "other_sexual_orientation",
    "physical_disability",
    "psychiatric_or_mental_illness",
    "transgender",
    "white",
]
SCORED = [
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
]
"""The identities Kaggle's metric scores."""
META = [
    "created_date",
    "publication_id",
    "parent_id",
    "article_id",
    "rating",
    "funny",
    "wow",
    "sad",
    "likes",
    "disagree",
]
TRAIN_COLUMNS = [
    "id",
    "target",
    "comment_text",
    *SUBTYPES,
    *IDENTITIES,
    *META,
    "sexual_explicit",
    "identity_annotator_count",
    "toxicity_annotator_count",
]
ANSWER_COLUMNS = [
    "id",
    "comment_text",
    *META,
    "toxicity",
    "severe_toxicity",
    "obscene",
    "sexual_explicit",
    "identity_attack",
    "insult",
    "threat",
    "male",
    "female",
    "transgender",
    "other_gender",
    "heterosexual",
    "homosexual_gay_or_lesbian",
    "bisexual",
    "other_sexual_orientation",
    "christian",
    "jewish",
    "muslim",
    "hindu",
    "buddhist",
    "atheist",
    "other_religion",
    "black",
    "white",
    "asian",
    "latino",
    "other_race_or_ethnicity",
    "physical_disability",
    "intellectual_or_learning_disability",
    "psychiatric_or_mental_illness",
    "other_disability",
    "identity_annotator_count",
    "toxicity_annotator_count",
]
TOXIC_WORDS = ["stupid", "idiot", "pathetic", "moron", "disgusting", "loser", "hate", "garbage"]
NAMES = {i: i.replace("_or_", " ").replace("_", " ").split()[0] for i in IDENTITIES}
TOXIC_SHARE = 0.08
ANNOTATED_SHARE = 0.25
MENTION_SHARE = 0.15
"""Of the identity-annotated comments, how many mention a given scored identity."""


def shares(rng: np.random.Generator, high: np.ndarray, annotators: np.ndarray) -> np.ndarray:
    """Annotator shares (k of n), at least 0.5 where ``high`` and below it elsewhere."""
    p = np.where(high, rng.uniform(0.55, 1.0, len(high)), rng.beta(1, 8, len(high)) * 0.9)
    k = rng.binomial(annotators, p)
    k = np.where(high, np.maximum(k, -(-annotators // 2)), np.minimum(k, (annotators - 1) // 2))
    return np.round(k / annotators, 6)


def comments(rng: np.random.Generator, ids: np.ndarray, force: bool) -> pd.DataFrame:
    """``len(ids)`` comments with every label and metadata column (train naming)."""
    n = len(ids)
    toxic = rng.random(n) < TOXIC_SHARE
    toxic[:1] = True  # a toxic comment in every file, however small
    annotated = rng.random(n) < ANNOTATED_SHARE
    mentions = {
        i: annotated & (rng.random(n) < (MENTION_SHARE if i in SCORED else 0.03))
        for i in IDENTITIES
    }
    if force:  # every scored identity: two toxic and two non-toxic comments mention it
        toxic = at_least(toxic, 4, rng).astype(bool)
        toxic_rows, calm_rows = np.flatnonzero(toxic), np.flatnonzero(~toxic)
        for k, identity in enumerate(SCORED):
            picks = [2 * k, 2 * k + 1]
            rows = [
                *toxic_rows[np.mod(picks, len(toxic_rows))],
                *calm_rows[np.mod(picks, len(calm_rows))],
            ]
            annotated[rows] = True
            mentions[identity][rows] = True
    raters = rng.integers(4, 11, n)
    frame = pd.DataFrame({"id": ids, "target": shares(rng, toxic, raters)})
    texts = []
    for row in range(n):
        named = [NAMES[i] for i in IDENTITIES if mentions[i][row]]
        marked = [*(TOXIC_WORDS if toxic[row] else []), *named]
        texts.append(sentence(rng, int(rng.integers(8, 40)), marked, 0.12 if marked else 0.0))
    frame["comment_text"] = texts
    for subtype in SUBTYPES:
        frame[subtype] = np.round(frame["target"] * rng.uniform(0, 0.6, n), 6)
    identity_raters = np.where(annotated, rng.integers(4, 11, n), 0)
    for identity in IDENTITIES:
        value = shares(rng, mentions[identity], np.maximum(identity_raters, 1))
        frame[identity] = np.where(annotated, value, np.nan)
    seconds = rng.integers(1_447_000_000, 1_510_000_000, n)
    frame["created_date"] = pd.to_datetime(np.sort(seconds), unit="s").strftime(
        "%Y-%m-%d %H:%M:%S.%f+00"
    )
    frame["publication_id"] = rng.integers(2, 116, n)
    frame["parent_id"] = np.where(rng.random(n) < 0.4, rng.integers(60_000, 6_300_000, n), np.nan)
    frame["article_id"] = rng.integers(2_000, 400_000, n)
    frame["rating"] = np.where(rng.random(n) < 0.9, "approved", "rejected")
    for name, mean in (
        ("funny", 0.3),
        ("wow", 0.05),
        ("sad", 0.1),
        ("likes", 2.5),
        ("disagree", 0.6),
    ):
        frame[name] = rng.poisson(mean, n)
    frame["sexual_explicit"] = np.round(frame["target"] * rng.uniform(0, 0.3, n), 6)
    frame["identity_annotator_count"] = identity_raters
    frame["toxicity_annotator_count"] = raters
    return frame[TRAIN_COLUMNS]


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    train_ids = np.sort(59_848 + rng.choice(4 * size.n_train, size.n_train, replace=False))
    test_ids = np.sort(7_000_000 + rng.choice(2 * size.n_test, size.n_test, replace=False))
    train = comments(rng, train_ids, force=False)
    test = comments(rng, test_ids, force=True).rename(columns={"target": "toxicity"})
    train.to_csv(public / "train.csv", index=False)
    test[ANSWER_COLUMNS].to_csv(private / "test.csv", index=False)
    test[["id", "comment_text"]].to_csv(public / "test.csv", index=False)
    test[["id"]].assign(prediction=0.0).to_csv(public / "sample_submission.csv", index=False)
