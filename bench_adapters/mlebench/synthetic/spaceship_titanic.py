"""spaceship-titanic: PassengerId ``gggg_pp`` (group, member), blanks in every column but the
id and Transported, which is never blank (it reads back as bool).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, bernoulli, blank, write_split_files

_FIRST_NAMES = ["Ada", "Bel", "Cora", "Dax", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]
_LAST_NAMES = ["Ambs", "Brity", "Coxter", "Dunnison", "Estron", "Flatte", "Gainey", "Hubbs"]
_SPENDS = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]


def _passenger_ids(rng: np.random.Generator, n: int) -> np.ndarray:
    sizes = rng.choice(np.arange(1, 9), n, p=[0.55, 0.2, 0.1, 0.06, 0.04, 0.025, 0.015, 0.01])
    sizes = sizes[: np.searchsorted(np.cumsum(sizes), n) + 1]
    sizes[-1] -= sizes.sum() - n
    group = np.repeat(np.arange(1, len(sizes) + 1), sizes)
    member = np.arange(n) - np.repeat(np.cumsum(sizes) - sizes, sizes) + 1
    return (
        pd.Series(group).astype(str).str.zfill(4) + "_" + pd.Series(member).astype(str).str.zfill(2)
    ).to_numpy()


def _spaceship_rows(rng: np.random.Generator, n: int) -> pd.DataFrame:
    home = rng.choice(["Earth", "Europa", "Mars"], n, p=[0.54, 0.25, 0.21])
    cryo = rng.random(n) < 0.35
    side = rng.choice(["P", "S"], n)
    deck = rng.choice(list("ABCDEFGT"), n, p=[0.03, 0.09, 0.09, 0.06, 0.1, 0.33, 0.299, 0.001])
    cabin = pd.Series(deck) + "/" + pd.Series(rng.integers(0, 1900, n)).astype(str) + "/" + side
    destination = rng.choice(
        ["TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"], n, p=[0.69, 0.21, 0.1]
    )
    age = np.clip(rng.normal(29, 14, n), 0, 79).round()
    idle = cryo | (age < 13)
    spends = {
        name: np.where(idle | (rng.random(n) < 0.6), 0.0, rng.lognormal(5.5, 1.5, n).round())
        for name in _SPENDS
    }
    logit = (
        2.2 * cryo
        - 0.0012 * (spends["RoomService"] + spends["Spa"] + spends["VRDeck"])
        + 0.0004 * (spends["FoodCourt"] + spends["ShoppingMall"])
        + 0.6 * (home == "Europa")
        - 0.35 * (home == "Earth")
        + 0.3 * (side == "S")
        + 0.2 * (destination == "55 Cancri e")
        - 0.4
    )
    names = rng.choice(_FIRST_NAMES, n) + " " + rng.choice(_LAST_NAMES, n).astype(object)
    columns = {
        "PassengerId": _passenger_ids(rng, n),
        "HomePlanet": blank(rng, home, 0.023),
        "CryoSleep": blank(rng, cryo, 0.025),
        "Cabin": blank(rng, cabin.to_numpy(), 0.023),
        "Destination": blank(rng, destination, 0.021),
        "Age": blank(rng, age, 0.02).astype(float),
        "VIP": blank(rng, rng.random(n) < 0.023, 0.023),
    }
    columns |= {name: blank(rng, spends[name], 0.021).astype(float) for name in _SPENDS}
    columns["Name"] = blank(rng, names, 0.023)
    columns["Transported"] = bernoulli(rng, logit).astype(bool)
    return pd.DataFrame(columns)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    frame = _spaceship_rows(rng, n_train + n_test)
    order = rng.permutation(len(frame))
    test, train = frame.iloc[order[:n_test]], frame.iloc[order[n_test:]]
    train.to_csv(public / "train.csv", index=False)
    sample = pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": False})
    write_split_files(public, private, test, ["Transported"], sample)
