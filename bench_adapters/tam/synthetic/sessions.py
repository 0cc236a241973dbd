"""Synthetic multimodal tasks: gesture sequences (ZIPs of skeleton frames), shopping sessions
(a parquet submission) and plant traits (images with climate and soil data)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from bench_adapters.tam.synthetic.tables import _answers_gold

GESTURES = 20


def _skeleton(rng: np.random.Generator, sequence: list[int]) -> str:
    """Frames of 3 joints whose right-hand height encodes the gesture being made."""
    lines = ["frame,hand_x,hand_y,hand_z,wrist_y,elbow_y"]
    frame = 0
    for gesture in [0, *(x for g in sequence for x in (g, 0))]:
        for _ in range(6):
            y = 0.1 * gesture + rng.normal(0, 0.01)
            lines.append(
                f"{frame},{rng.normal(0, 0.02):.4f},{y:.4f},{1.5:.4f},{y - 0.1:.4f},{y - 0.3:.4f}"
            )
            frame += 1
    return "\n".join(lines) + "\n"


def gestures(public: Path, private: Path, rng: np.random.Generator) -> None:
    rows = []
    for sample in range(1, 15):
        sequence = rng.choice(
            np.arange(1, GESTURES + 1), int(rng.integers(3, 7)), replace=False
        ).tolist()
        split = "training" if sample <= 10 else "test"
        prefix = "Sample" if split == "training" else "Session"
        name = f"{prefix}{sample:05d}"
        (public / split).mkdir(exist_ok=True)
        with zipfile.ZipFile(public / split / f"{name}.zip", "w") as z:
            z.writestr(f"{name}_skeleton.csv", _skeleton(rng, sequence))
        rows.append(
            {"Id": f"{sample:04d}", "Sequence": " ".join(map(str, sequence)), "split": split}
        )
    frame = pd.DataFrame(rows)
    train, test = frame[frame.split == "training"], frame[frame.split == "test"]
    train[["Id", "Sequence"]].to_csv(public / "training.csv", index=False)
    test[["Id"]].to_csv(public / "test.csv", index=False)
    test[["Id", "Sequence"]].to_csv(private / "test_labels.csv", index=False)
    guesses = [
        " ".join(map(str, rng.permutation(np.arange(1, GESTURES + 1)))) for _ in range(len(test))
    ]
    test[["Id"]].assign(Sequence=guesses).to_csv(public / "randomPredictions.csv", index=False)


LOCALES = ["DE", "JP", "UK"]


def next_products(public: Path, private: Path, rng: np.random.Generator) -> None:
    products = [f"B0{k:08X}" for k in range(300)]
    catalog = pd.DataFrame(
        {
            "id": products,
            "locale": [LOCALES[k % 3] for k in range(300)],
            "title": [f"Product {k} of brand {k % 17}" for k in range(300)],
            "price": rng.uniform(5, 200, 300).round(2),
            "brand": [f"Brand{k % 17}" for k in range(300)],
            "color": rng.choice(["black", "white", "red", "blue"], 300),
            "size": "",
            "model": "",
            "material": "",
            "author": "",
            "desc": "A synthetic product.",
        }
    )
    catalog.to_csv(public / "products_train.csv", index=False)

    def session() -> tuple[list[str], str, str]:
        locale = int(rng.integers(3))
        start = int(rng.integers(0, 90)) * 3 + locale
        chain = [products[(start + 3 * i) % 300] for i in range(int(rng.integers(2, 6)) + 1)]
        return chain[:-1], chain[-1], LOCALES[locale]

    train = [session() for _ in range(400)]
    pd.DataFrame(
        {
            "prev_items": ["[" + " ".join(f"'{p}'" for p in prev) + "]" for prev, _, _ in train],
            "next_item": [nxt for _, nxt, _ in train],
            "locale": [loc for _, _, loc in train],
        }
    ).to_csv(public / "sessions_train.csv", index=False)
    test = [session() for _ in range(60)]
    ids = np.arange(len(test)) * 7 + 11
    pd.DataFrame(
        {
            "session_id": ids,
            "prev_items": ["[" + " ".join(f"'{p}'" for p in prev) + "]" for prev, _, _ in test],
            "locale": [loc for _, _, loc in test],
        }
    ).to_csv(public / "sessions_test.csv", index=False)
    pd.DataFrame({"session_id": ids, "next_item": [n for _, n, _ in test]}).to_csv(
        private / "test_labels.csv", index=False
    )


def next_products_gold(private: Path, path: Path) -> None:
    truth = pd.read_csv(private / "test_labels.csv")
    fillers = [f"X{k:09d}" for k in range(99)]
    lists = [[str(item), *fillers] for item in truth["next_item"]]
    pd.DataFrame({"session_id": truth["session_id"], "next_item_prediction": lists}).to_parquet(
        path, index=False
    )


TRAITS = ["X4", "X11", "X18", "X26", "X50", "X3112"]
ANCILLARY = ["WORLDCLIM_BIO1_annual_mean_temperature", "WORLDCLIM_BIO12_annual_precipitation",
             "SOIL_clay_0.5cm_mean", "SOIL_phh2o_0.5cm_mean",
             "MODIS_2000.2020_monthly_mean_surface_reflectance_band_01_._month_m1",
             "VOD_X_1997_2018_multiyear_mean_m01"]  # fmt: skip


def plant_traits(public: Path, private: Path, rng: np.random.Generator) -> None:
    n_train, n_test = 120, 30
    n = n_train + n_test
    ids = rng.choice(10**9, n, replace=False) + 10**8
    climate = rng.normal(0, 1, (n, len(ANCILLARY)))
    weights = rng.normal(0, 1, (len(ANCILLARY), len(TRAITS)))
    traits = climate @ weights + rng.normal(0, 0.5, (n, len(TRAITS))) + 10
    frame = pd.DataFrame(climate.round(5), columns=ANCILLARY)
    frame.insert(0, "id", ids)
    for j, t in enumerate(TRAITS):
        frame[f"{t}_mean"] = traits[:, j].round(5)
        frame[f"{t}_sd"] = np.abs(rng.normal(0.3, 0.1, n)).round(5)
    for split, part in (("train", frame.iloc[:n_train]), ("test", frame.iloc[n_train:])):
        folder = public / f"{split}_images"
        folder.mkdir()
        for k, row in part.iterrows():
            shade = int(np.clip(128 + 20 * traits[k, 0] - 200, 0, 255))
            Image.new("RGB", (8, 8), (shade, 160, 80)).save(folder / f"{row['id']}.jpeg")
    frame.iloc[:n_train].to_csv(public / "train.csv", index=False)
    test = frame.iloc[n_train:]
    test[["id", *ANCILLARY]].to_csv(public / "test.csv", index=False)
    answers = test[["id"]].assign(**{t: test[f"{t}_mean"] for t in TRAITS})
    answers.to_csv(private / "test_labels.csv", index=False)
    means = frame.iloc[:n_train][[f"{t}_mean" for t in TRAITS]].mean().to_numpy()
    answers.assign(**{t: round(float(m), 5) for t, m in zip(TRAITS, means, strict=True)}).to_csv(
        public / "sample_submission.csv", index=False
    )


WRITERS = {
    "multimodal/easy": gestures,
    "multimodal/medium": next_products,
    "multimodal/hard": plant_traits,
}
GOLDS = {
    "multimodal/easy": _answers_gold(["Id", "Sequence"]),
    "multimodal/medium": next_products_gold,
    "multimodal/hard": _answers_gold(["id", *TRAITS]),
}
