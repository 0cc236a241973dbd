"""Synthetic tabular and text tasks: taxi fares, mushrooms, RNA degradation, text
normalization, chatbot preferences and math misconceptions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

N_TRAIN, N_TEST = 600, 150


def _answers_gold(columns: list[str]):  # type: ignore[no-untyped-def]
    def gold(private: Path, path: Path) -> None:
        pd.read_csv(private / "test_labels.csv", dtype=str, keep_default_na=False)[columns].to_csv(
            path, index=False
        )

    return gold


# --- tabular/easy: new-york-city-taxi-fare-prediction -------------------------------------


def taxi(public: Path, private: Path, rng: np.random.Generator) -> None:
    n = N_TRAIN + N_TEST
    seconds = rng.integers(0, 6 * 365 * 86400, n)
    when = pd.Timestamp("2009-01-01") + pd.to_timedelta(seconds, unit="s")
    stamp = when.strftime("%Y-%m-%d %H:%M:%S")
    keys = [f"{s}.{k:07d}" for s, k in zip(stamp, rng.integers(1, 10**7, n), strict=True)]
    plon, plat = rng.uniform(-74.02, -73.93, n), rng.uniform(40.70, 40.80, n)
    dlon, dlat = plon + rng.normal(0, 0.02, n), plat + rng.normal(0, 0.02, n)
    km = 111.0 * np.hypot((dlon - plon) * 0.76, dlat - plat)
    fare = np.round(2.5 + 1.6 * km + 0.4 * (when.hour.to_numpy() >= 16) + rng.normal(0, 0.8, n), 2)
    frame = pd.DataFrame(
        {
            "key": keys,
            "fare_amount": np.maximum(fare, 2.5),
            "pickup_datetime": [f"{s} UTC" for s in stamp],
            "pickup_longitude": plon.round(6),
            "pickup_latitude": plat.round(6),
            "dropoff_longitude": dlon.round(6),
            "dropoff_latitude": dlat.round(6),
            "passenger_count": rng.integers(1, 7, n),
        }
    )
    train, test = frame.iloc[:N_TRAIN], frame.iloc[N_TRAIN:]
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns="fare_amount").to_csv(public / "test.csv", index=False)
    test[["key"]].assign(fare_amount=11.35).to_csv(public / "sample_submission.csv", index=False)
    test[["key", "fare_amount"]].to_csv(private / "test_labels.csv", index=False)


# --- tabular/medium: playground-series-s4e8 (poisonous mushrooms) --------------------------

MUSHROOM_CATEGORIES = {
    "cap-shape": "xfsbopc",
    "cap-surface": "tsyhgdei",
    "cap-color": "nwygoerpuk",
    "does-bruise-or-bleed": "tf",
    "gill-attachment": "adxefps",
    "gill-spacing": "cdf",
    "gill-color": "wnypogekfr",
    "stem-root": "bswcfr",
    "stem-surface": "sykftgih",
    "stem-color": "wnyogepukrfl",
    "veil-type": "u",
    "veil-color": "wynuek",
    "has-ring": "tf",
    "ring-type": "fezplgrm",
    "spore-print-color": "kpwnrgu",
    "habitat": "dglmhpwu",
    "season": "auws",
}


def mushrooms(public: Path, private: Path, rng: np.random.Generator) -> None:
    n = N_TRAIN + N_TEST
    frame = pd.DataFrame({"id": np.arange(n), "class": ""})
    frame["cap-diameter"] = rng.gamma(3.0, 2.0, n).round(2)
    logit = 0.35 * (frame["cap-diameter"].to_numpy() - 6.0)
    for name, letters in MUSHROOM_CATEGORIES.items():
        values = rng.choice(list(letters), n).astype(object)
        values[rng.random(n) < 0.08] = np.nan
        frame[name] = values
        if name in ("cap-color", "gill-color", "ring-type"):
            effect = {c: rng.normal(0, 1.5) for c in letters}
            logit += np.array([effect.get(v, 0.0) for v in values])
        if name == "stem-surface":
            frame["stem-height"] = rng.gamma(4.0, 1.5, n).round(2)
            frame["stem-width"] = rng.gamma(3.0, 3.0, n).round(2)
    logit -= 0.2 * (frame["stem-width"].to_numpy() - 9.0)
    poisonous = rng.random(n) < 1 / (1 + np.exp(-logit))
    frame["class"] = np.where(poisonous, "p", "e")
    frame["id"] = np.arange(n) + np.where(np.arange(n) < N_TRAIN, 0, 3116945 - N_TRAIN)
    train, test = frame.iloc[:N_TRAIN], frame.iloc[N_TRAIN:]
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns="class").to_csv(public / "test.csv", index=False)
    test[["id"]].assign(**{"class": "e"}).to_csv(public / "sample_submission.csv", index=False)
    test[["id", "class"]].to_csv(private / "test_labels.csv", index=False)


# --- tabular/hard: stanford-covid-vaccine (OpenVaccine) -------------------------------------

TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
SEQ_LENGTH, SEQ_SCORED = 107, 68


def _structure(rng: np.random.Generator, length: int) -> tuple[str, str]:
    """A random nested dot-bracket structure and its loop types (S paired, E/H unpaired)."""
    marks = ["."] * length
    i = 2
    while i < length - 12:
        stem = int(rng.integers(3, 7))
        if rng.random() < 0.6 and i + 2 * stem + 4 < length:
            for k in range(stem):
                marks[i + k], marks[i + 2 * stem + 3 - k] = "(", ")"
            i += 2 * stem + 4
        i += int(rng.integers(1, 4))
    structure = "".join(marks)
    loops = "".join(
        "S" if c in "()" else ("E" if j < 2 or j > length - 4 else "H")
        for j, c in enumerate(structure)
    )
    return structure, loops


ERRORS = ["reactivity_error", "deg_error_Mg_pH10", "deg_error_pH10", "deg_error_Mg_50C"]
ERRORS += ["deg_error_50C"]
N_SEQ_TRAIN, N_SEQ_TEST = 80, 20


def covid(public: Path, private: Path, rng: np.random.Generator) -> None:
    train, test, labels = [], [], []
    for k in range(N_SEQ_TRAIN + N_SEQ_TEST):
        sequence = "".join(rng.choice(list("ACGU"), SEQ_LENGTH))
        structure, loops = _structure(rng, SEQ_LENGTH)
        unpaired = np.array([c == "." for c in structure[:SEQ_SCORED]], dtype=float)
        weight = {"A": 0.3, "G": 0.25, "C": 0.05, "U": 0.1}
        base = np.array([weight[b] for b in sequence[:SEQ_SCORED]])
        values = {
            name: (0.15 + 0.6 * unpaired + base) * scale + rng.normal(0, 0.08, SEQ_SCORED)
            for name, scale in zip(TARGETS, (1.0, 0.8, 0.9, 0.85, 0.95), strict=True)
        }
        snr = float(rng.uniform(0.5, 8.0))
        record: dict[str, object] = {
            "index": k if k < N_SEQ_TRAIN else k - N_SEQ_TRAIN,
            "id": f"id_{k:09x}",
            "sequence": sequence,
            "structure": structure,
            "predicted_loop_type": loops,
            "seq_length": SEQ_LENGTH,
            "seq_scored": SEQ_SCORED,
        }
        if k < N_SEQ_TRAIN:
            noise = {e: np.abs(rng.normal(0.1, 0.03, SEQ_SCORED)).round(4).tolist() for e in ERRORS}
            targets = {t: v.round(4).tolist() for t, v in values.items()}
            train.append(
                {**record, "signal_to_noise": round(snr, 3), "SN_filter": int(snr > 1.0),
                 **targets, **noise}
            )  # fmt: skip
            continue
        test.append(record)
        for j in range(SEQ_LENGTH):
            scored = j < SEQ_SCORED
            row = {t: round(float(values[t][j]), 4) if scored else 0.0 for t in TARGETS}
            labels.append({"id_seqpos": f"{record['id']}_{j}", **row, "keep": scored})
    (public / "train.json").write_text("".join(json.dumps(r) + "\n" for r in train))
    (public / "test.json").write_text("".join(json.dumps(r) + "\n" for r in test))
    answers = pd.DataFrame(labels)
    answers.to_csv(private / "test_labels.csv", index=False)
    answers[["id_seqpos"]].assign(**dict.fromkeys(TARGETS, 0.0)).to_csv(
        public / "sample_submission.csv", index=False
    )


WRITERS = {"tabular/easy": taxi, "tabular/medium": mushrooms, "tabular/hard": covid}
GOLDS = {
    "tabular/easy": _answers_gold(["key", "fare_amount"]),
    "tabular/medium": _answers_gold(["id", "class"]),
    "tabular/hard": _answers_gold(["id_seqpos", *TARGETS]),
}
