"""random-acts-of-pizza: Reddit requests for a free pizza, with the requester's activity at
the time. About a quarter succeed, as on Kaggle; success is likelier for a request that tells
a story (a job lost, a paycheck late, kids to feed), promises to pay it forward, and comes from
an older, more active account.

Public: ``train.json`` and ``test.json`` (upstream's ``json.dump(indent=4)`` of a list of
requests) and their zips ``train.zip`` and ``test.zip`` (upstream's ``shutil.make_archive``
of each JSON file; the comment there says ``train.json.zip``), ``sampleSubmission.csv``
(``request_id,requester_received_pizza`` = 0). Train requests carry all 32 Kaggle fields
(the outcome, and ``*_at_retrieval`` counts); test requests only the 17 Kaggle's test shows.
Private: ``test.csv`` (``request_id,requester_received_pizza`` as 0/1). Ids look like
``t3_l25d7``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .common import Size, at_least, split
from .words import sentence

TEST_FIELDS = [
    "giver_username_if_known",
    "request_id",
    "request_text_edit_aware",
    "request_title",
    "requester_account_age_in_days_at_request",
    "requester_days_since_first_post_on_raop_at_request",
    "requester_number_of_comments_at_request",
    "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_posts_at_request",
    "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_subreddits_at_request",
    "requester_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request",
    "requester_upvotes_plus_downvotes_at_request",
    "requester_username",
    "unix_timestamp_of_request",
    "unix_timestamp_of_request_utc",
]
STORY = ["job", "lost", "paycheck", "rent", "kids", "family", "broke", "student", "hungry", "bills"]
KIND = ["thank", "grateful", "appreciate", "pay", "forward", "return", "favor"]
PLEA = ["pizza", "request", "please", "anyone", "help", "tonight"]
SUBREDDITS = ["AskReddit", "pics", "funny", "gaming", "Random_Acts_Of_Pizza", "food", "movies"]


def request(rng: np.random.Generator, k: int, success: bool) -> dict[str, Any]:
    age = float(rng.lognormal(5 + 0.7 * success, 1.0))
    comments = int(rng.lognormal(2.5 + 0.7 * success, 1.0))  # heavy-tailed, as real activity
    posts = int(rng.lognormal(1.5 + 0.2 * success, 1.0))
    raop_posts = int(rng.random() < 0.1)
    upvotes = int(rng.lognormal(5 + 0.7 * success, 1.0))
    text = sentence(rng, int(rng.integers(15, 80)), PLEA, 0.08)
    if rng.random() < 0.25 + 0.5 * success:  # a story and thanks: likelier when it worked
        text += " " + sentence(rng, int(rng.integers(5, 20)), STORY + KIND, 0.2)
    stamp = float(1_300_000_000 + rng.integers(0, 80_000_000))
    subreddits = sorted(set(rng.choice(SUBREDDITS, rng.integers(0, 5))))
    name = f"user{k:05d}"
    return {
        "giver_username_if_known": "N/A" if rng.random() < 0.9 else f"giver{k}",
        "number_of_downvotes_of_request_at_retrieval": int(rng.poisson(2)),
        "number_of_upvotes_of_request_at_retrieval": int(rng.poisson(4 + 3 * success)),
        "post_was_edited": bool(rng.random() < 0.1),
        "request_id": f"t3_{np.base_repr(10**6 + 7919 * k, 36).lower()}",
        "request_number_of_comments_at_retrieval": int(rng.poisson(3 + 3 * success)),
        "request_text": text,
        "request_text_edit_aware": text,
        "request_title": "[Request] " + sentence(rng, int(rng.integers(3, 10)), PLEA, 0.3),
        "requester_account_age_in_days_at_request": age,
        "requester_account_age_in_days_at_retrieval": age + 400,
        "requester_days_since_first_post_on_raop_at_request": 0.0,
        "requester_days_since_first_post_on_raop_at_retrieval": float(rng.uniform(0, 500)),
        "requester_number_of_comments_at_request": comments,
        "requester_number_of_comments_at_retrieval": comments + int(rng.poisson(30)),
        "requester_number_of_comments_in_raop_at_request": 0,
        "requester_number_of_comments_in_raop_at_retrieval": int(rng.poisson(1 + 2 * success)),
        "requester_number_of_posts_at_request": posts,
        "requester_number_of_posts_at_retrieval": posts + int(rng.poisson(5)),
        "requester_number_of_posts_on_raop_at_request": raop_posts,
        "requester_number_of_posts_on_raop_at_retrieval": raop_posts + 1,
        "requester_number_of_subreddits_at_request": len(subreddits),
        "requester_received_pizza": bool(success),
        "requester_subreddits_at_request": subreddits,
        "requester_upvotes_minus_downvotes_at_request": upvotes - int(rng.lognormal(2, 1)),
        "requester_upvotes_minus_downvotes_at_retrieval": upvotes + 100,
        "requester_upvotes_plus_downvotes_at_request": upvotes + int(rng.lognormal(2, 1)),
        "requester_upvotes_plus_downvotes_at_retrieval": upvotes + 300,
        "requester_user_flair": "shroom" if success else None,
        "requester_username": name,
        "unix_timestamp_of_request": stamp + 3600 * 7,
        "unix_timestamp_of_request_utc": stamp,
    }


def dump(rows: list[dict[str, Any]], public: Path, name: str) -> None:
    path = public / f"{name}.json"
    path.write_text(json.dumps(rows, indent=4))
    with zipfile.ZipFile(public / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(path, arcname=path.name)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    train_rows, test_rows = split(rng, n, size.n_test)
    success = (rng.random(n) < 0.25).astype(np.int64)
    for part in (train_rows, test_rows):
        success[part] = at_least(success[part], 2, rng)
    requests = [request(rng, k, bool(s)) for k, s in enumerate(success)]
    dump([requests[r] for r in train_rows], public, "train")
    test = [requests[r] for r in test_rows]
    dump([{key: row[key] for key in TEST_FIELDS} for row in test], public, "test")
    answers = pd.DataFrame(
        {
            "request_id": [row["request_id"] for row in test],
            "requester_received_pizza": [int(row["requester_received_pizza"]) for row in test],
        }
    )
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(requester_received_pizza=0).to_csv(public / "sampleSubmission.csv", index=False)
