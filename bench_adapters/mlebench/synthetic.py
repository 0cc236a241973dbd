"""Synthetic prepared data for the seven CPU-only MLE-bench competitions.

``make_prepared`` writes ``<data_dir>/<id>/prepared/public/...`` and ``.../private/<answers>``
in the schema upstream's ``prepare.py`` writes: the same file names, column order, dtypes on
read-back, id formats, renumbering, row order and sample-submission constants. The values are
invented but carry signal (targets are functions of the features plus noise), so a model
fitted on ``train`` beats the sample submission. Sizes are small by default; ``full_size=True``
(or explicit ``n_train``/``n_test``) gives the real competitions' row counts, written in chunks.

Example::

    prepared = make_prepared("spaceship-titanic", Path("/tmp/data"), seed=1)
    gold = answers_as_submission("spaceship-titanic", Path("/tmp/data"))
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "DEFAULT_SIZES",
    "FULL_SIZES",
    "answers_as_submission",
    "make_prepared",
    "synthetic_competitions",
]

TAXI = "new-york-city-taxi-fare-prediction"
TPS_DEC = "tabular-playground-series-dec-2021"
TPS_MAY = "tabular-playground-series-may-2022"
VENTILATOR = "ventilator-pressure-prediction"
S3E18 = "playground-series-s3e18"
SPACESHIP = "spaceship-titanic"
NOMAD = "nomad2018-predict-transparent-conductors"

# (train rows, test rows) after upstream's split; ventilator counts rows, 80 per breath.
FULL_SIZES: dict[str, tuple[int, int]] = {
    TAXI: (55_413_942, 9_914),
    TPS_DEC: (3_600_000, 400_000),
    TPS_MAY: (800_000, 100_000),
    VENTILATOR: (5_432_400, 603_600),
    S3E18: (13_354, 1_484),
    SPACESHIP: (7_823, 870),
    NOMAD: (2_160, 240),
}
DEFAULT_SIZES: dict[str, tuple[int, int]] = {
    TAXI: (800, 200),
    TPS_DEC: (800, 200),
    TPS_MAY: (800, 200),
    VENTILATOR: (16 * 80, 4 * 80),
    S3E18: (800, 200),
    SPACESHIP: (800, 200),
    NOMAD: (400, 100),
}
BREATH_STEPS = 80
_CHUNK_ROWS = 500_000

Writer = Callable[[Path, Path, int, int, np.random.Generator], None]


def synthetic_competitions() -> list[str]:
    """Competition ids ``make_prepared`` can generate."""
    return sorted(_WRITERS)


def make_prepared(
    competition_id: str,
    data_dir: Path,
    n_train: int | None = None,
    n_test: int | None = None,
    seed: int = 0,
    *,
    full_size: bool = False,
    overwrite: bool = False,
) -> Path:
    """Write a synthetic prepared dataset and return ``<data_dir>/<id>/prepared``.

    Sizes default to ``DEFAULT_SIZES`` (``FULL_SIZES`` with ``full_size``); an explicit
    ``n_train``/``n_test`` wins over both. An existing, non-empty prepared folder is replaced only
    with ``overwrite=True``, so a real dataset is never clobbered by accident.
    """
    if competition_id not in _WRITERS:
        raise ValueError(
            f"No synthetic data for {competition_id!r}; available: {synthetic_competitions()}"
        )
    default_train, default_test = (FULL_SIZES if full_size else DEFAULT_SIZES)[competition_id]
    n_train = default_train if n_train is None else n_train
    n_test = default_test if n_test is None else n_test
    _check_sizes(competition_id, n_train, n_test)

    prepared = Path(data_dir) / competition_id / "prepared"
    if prepared.exists() and any(prepared.iterdir()):
        if not overwrite:
            raise FileExistsError(f"{prepared} is not empty; pass overwrite=True to replace it")
        shutil.rmtree(prepared)
    public, private = prepared / "public", prepared / "private"
    public.mkdir(parents=True)
    private.mkdir(parents=True)
    _WRITERS[competition_id](public, private, n_train, n_test, np.random.default_rng(seed))
    return prepared


def answers_as_submission(competition_id: str, data_dir: Path) -> pd.DataFrame:
    """The private answers in submission form (the gold submission): the sample submission's
    columns taken from the answers, in the answers' row order."""
    from .graders import get_grader

    spec = get_grader(competition_id)
    if spec is None:
        raise ValueError(f"No grader for {competition_id!r}")
    prepared = Path(data_dir) / competition_id / "prepared"
    columns = pd.read_csv(prepared / spec.sample_submission, nrows=0).columns
    return _read_exact(prepared / "private" / spec.answers)[list(columns)]


def _read_exact(path: Path) -> pd.DataFrame:
    """Read a CSV so that every float round-trips (pandas 3 does so by default)."""
    if int(pd.__version__.split(".")[0]) >= 3:
        return pd.read_csv(path)
    return pd.read_csv(path, float_precision="round_trip")


def _check_sizes(competition_id: str, n_train: int, n_test: int) -> None:
    if n_train < 2 or n_test < 2:
        raise ValueError(f"n_train and n_test must be at least 2, got {n_train} and {n_test}")
    if competition_id == VENTILATOR and (n_train % BREATH_STEPS or n_test % BREATH_STEPS):
        raise ValueError(f"ventilator row counts must be multiples of {BREATH_STEPS}")


# ---------------------------------------------------------------------------------------------
# Shared pieces


def _write_csv(path: Path, frames: Iterable[pd.DataFrame], **to_csv: object) -> None:
    """Write frames one after another into one CSV with a single header."""
    for index, frame in enumerate(frames):
        frame.to_csv(
            path, index=False, mode="w" if index == 0 else "a", header=index == 0, **to_csv
        )


def _spans(n: int, size: int = _CHUNK_ROWS) -> Iterator[slice]:
    for start in range(0, n, size):
        yield slice(start, min(start + size, n))


def _both_classes(labels: np.ndarray) -> np.ndarray:
    """Binary labels with at least one 0 and one 1 (AUC needs both)."""
    labels = labels.astype(np.int64)
    if labels.min() == labels.max():
        labels[:2] = [0, 1]
    return labels


def _bernoulli(rng: np.random.Generator, logit: np.ndarray) -> np.ndarray:
    return _both_classes(rng.random(len(logit)) < 1 / (1 + np.exp(-logit)))


def _blank(rng: np.random.Generator, values: np.ndarray, share: float) -> np.ndarray:
    """The values as objects with about ``share`` of them missing (blank in the CSV)."""
    out = values.astype(object)
    out[rng.random(len(out)) < share] = np.nan
    return out


def _write_split_files(
    public: Path,
    private: Path,
    test: pd.DataFrame,
    targets: list[str],
    sample: pd.DataFrame,
    **to_csv: object,
) -> None:
    test.drop(columns=targets).to_csv(public / "test.csv", index=False, **to_csv)
    test.to_csv(private / "test.csv", index=False, **to_csv)
    sample.to_csv(public / "sample_submission.csv", index=False, **to_csv)


# ---------------------------------------------------------------------------------------------
# new-york-city-taxi-fare-prediction: train is public/labels.csv; keys are opaque, unique
# "YYYY-MM-DD HH:MM:SS.<7+ digits>" strings.

_TAXI_START = np.datetime64("2009-01-01T00:00:00")
_TAXI_SPAN_S = 6 * 365 * 24 * 3600
_TAXI_RTF = "{\\rtf1\\ansi Synthetic stand-in for the GCP coupon instructions.\\par}\n"


def _taxi_rows(rng: np.random.Generator, serials: np.ndarray) -> pd.DataFrame:
    n = len(serials)
    when = _TAXI_START + rng.integers(0, _TAXI_SPAN_S, n).astype("timedelta64[s]")
    stamp = pd.Series(np.datetime_as_string(when, unit="s")).str.replace("T", " ", regex=False)
    pickup_lon, pickup_lat = rng.uniform(-74.02, -73.93, n), rng.uniform(40.70, 40.80, n)
    dropoff_lon = pickup_lon + rng.normal(0, 0.02, n)
    dropoff_lat = pickup_lat + rng.normal(0, 0.02, n)
    km = 111.0 * np.hypot((dropoff_lon - pickup_lon) * 0.76, dropoff_lat - pickup_lat)
    hour = when.astype("datetime64[h]").astype(np.int64) % 24
    year = when.astype("datetime64[Y]").astype(np.int64) + 1970
    passengers = rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.69, 0.15, 0.04, 0.02, 0.07, 0.03])
    fare = 3.0 + 2.2 * km + 1.0 * ((hour >= 16) & (hour < 20)) + 0.8 * (year >= 2012)
    fare = np.round(np.maximum(fare + rng.normal(0, 1.2, n), 2.5), 2)
    return pd.DataFrame(
        {
            "key": stamp + "." + pd.Series(serials).astype(str).str.zfill(7),
            "fare_amount": fare,
            "pickup_datetime": stamp + " UTC",
            "pickup_longitude": pickup_lon.round(6),
            "pickup_latitude": pickup_lat.round(6),
            "dropoff_longitude": dropoff_lon.round(6),
            "dropoff_latitude": dropoff_lat.round(6),
            "passenger_count": passengers,
        }
    )


def _write_taxi(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    train = (_taxi_rows(rng, np.arange(s.start, s.stop) + 1) for s in _spans(n_train))
    _write_csv(public / "labels.csv", train)
    test = _taxi_rows(rng, np.arange(n_train, n_train + n_test) + 1)
    sample = pd.DataFrame({"key": test["key"], "fare_amount": 11.35})
    _write_split_files(public, private, test, ["fare_amount"], sample)
    (public / "GCP-Coupons-Instructions.rtf").write_text(_TAXI_RTF)


# ---------------------------------------------------------------------------------------------
# tabular-playground-series-dec-2021: original Ids in shuffled order, Cover_Type 1-7 with
# class 2 the majority, set mostly by elevation.

_TPS_DEC_TERRAIN: dict[str, tuple[int, int]] = {
    "Aspect": (0, 361),
    "Slope": (0, 53),
    "Horizontal_Distance_To_Hydrology": (0, 1400),
    "Vertical_Distance_To_Hydrology": (-150, 600),
    "Horizontal_Distance_To_Roadways": (0, 7000),
    "Hillshade_9am": (0, 256),
    "Hillshade_Noon": (0, 256),
    "Hillshade_3pm": (0, 256),
    "Horizontal_Distance_To_Fire_Points": (0, 7000),
}


def _tps_dec_rows(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    elevation = rng.normal(2980, 290, n).round().astype(np.int64)
    area = rng.choice(4, n, p=[0.26, 0.04, 0.66, 0.04])
    soil = rng.integers(0, 40, n)
    columns: dict[str, np.ndarray] = {"Id": ids, "Elevation": elevation}
    columns |= {name: rng.integers(low, high, n) for name, (low, high) in _TPS_DEC_TERRAIN.items()}
    columns |= {f"Wilderness_Area{k + 1}": (area == k).astype(np.int8) for k in range(4)}
    columns |= {f"Soil_Type{k + 1}": (soil == k).astype(np.int8) for k in range(40)}
    z = (elevation - 2980) / 290 + 0.4 * (area == 1) + rng.normal(0, 0.3, n)
    cover = np.select([z < -2.2, z < -1.6, z < 0.35, z < 1.9], [6, 3, 2, 1], default=7)
    flipped = rng.random(n) < 0.03
    cover[flipped] = rng.integers(1, 8, flipped.sum())
    columns["Cover_Type"] = cover
    return pd.DataFrame(columns)


def _write_tps_dec(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    ids = rng.permutation(n_train + n_test)
    train_ids = ids[n_test:]
    _write_csv(public / "train.csv", (_tps_dec_rows(rng, train_ids[s]) for s in _spans(n_train)))
    test = _tps_dec_rows(rng, ids[:n_test])
    sample = pd.DataFrame({"Id": test["Id"], "Cover_Type": 2})
    _write_split_files(public, private, test, ["Cover_Type"], sample)


# ---------------------------------------------------------------------------------------------
# tabular-playground-series-may-2022: ids renumbered (train 0.., test continuing), f_27 is a
# 10-letter string, target 0/1; private/gold_submission.csv holds id,target.


def _tps_may_rows(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    columns: dict[str, np.ndarray] = {"id": ids}
    columns |= {f"f_{k:02d}": rng.normal(0, 1, n).round(6) for k in range(7)}
    columns |= {f"f_{k:02d}": rng.poisson(1 + k % 5, n) for k in range(7, 19)}
    columns |= {f"f_{k:02d}": rng.normal(0, 2.5, n).round(6) for k in range(19, 27)}
    letter_p = 0.6 ** np.arange(20)
    letters = rng.choice(20, (n, 10), p=letter_p / letter_p.sum()).astype(np.uint8)
    columns["f_27"] = (letters + ord("A")).view("S10").ravel().astype(str)
    columns["f_28"] = rng.normal(0, 240, n).round(6)
    columns["f_29"] = (rng.random(n) < 0.35).astype(np.int64)
    columns["f_30"] = rng.integers(0, 3, n)
    logit = (
        0.9 * columns["f_00"]
        - 0.7 * columns["f_01"]
        + 0.25 * columns["f_21"]
        + 0.3 * (columns["f_07"] - 3)
        + 0.5 * ((letters == 0).sum(axis=1) - 4)
        + 0.8 * columns["f_29"] * (columns["f_30"] - 1)
    )
    columns["target"] = _bernoulli(rng, logit)
    return pd.DataFrame(columns)


def _write_tps_may(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    train = (_tps_may_rows(rng, np.arange(s.start, s.stop)) for s in _spans(n_train))
    _write_csv(public / "train.csv", train)
    test = _tps_may_rows(rng, np.arange(n_train, n_train + n_test))
    sample = pd.DataFrame({"id": test["id"], "target": 0.5})
    _write_split_files(public, private, test, ["target"], sample)
    test[["id", "target"]].to_csv(private / "gold_submission.csv", index=False)


# ---------------------------------------------------------------------------------------------
# ventilator-pressure-prediction: 80 steps per breath, breaths in shuffled order with their
# original breath_id, id reset to 1..n per file, u_out 0 (scored) then 1, "%.10g" floats.

_VENTILATOR_FLOATS = "%.10g"


def _ventilator_rows(
    rng: np.random.Generator, breath_ids: np.ndarray, first_id: int
) -> pd.DataFrame:
    b, s = len(breath_ids), BREATH_STEPS
    r = rng.choice([5, 20, 50], b)[:, None]
    c = rng.choice([10, 20, 50], b)[:, None]
    dt = rng.uniform(0.0325, 0.0345, (b, s))
    dt[:, 0] = 0.0
    time = np.cumsum(dt, axis=1)
    inspiratory_steps = rng.integers(28, 34, b)[:, None]
    u_out = (np.arange(s)[None, :] >= inspiratory_steps).astype(np.int64)
    amplitude, tau = rng.uniform(5, 60, (b, 1)), rng.uniform(0.05, 0.4, (b, 1))
    u_in = amplitude * (1 - np.exp(-time / tau)) + rng.normal(0, 1, (b, s))
    u_in = np.where(u_out == 1, rng.uniform(0, 5, (b, s)), u_in).clip(0, 100)
    volume = np.cumsum(u_in * dt * (1 - u_out), axis=1)
    pressure = 5 + r * u_in / 100 + 4 * volume / c
    last = inspiratory_steps - 1
    peak = np.take_along_axis(pressure, last, axis=1)
    released = 5 + (peak - 5) * np.exp(-(time - np.take_along_axis(time, last, axis=1)) / 0.25)
    pressure = np.where(u_out == 1, released, pressure) + rng.normal(0, 0.2, (b, s))
    return pd.DataFrame(
        {
            "id": np.arange(first_id, first_id + b * s),
            "breath_id": np.repeat(breath_ids, s),
            "R": np.repeat(r.ravel(), s),
            "C": np.repeat(c.ravel(), s),
            "time_step": time.ravel(),
            "u_in": u_in.ravel(),
            "u_out": u_out.ravel(),
            "pressure": pressure.ravel(),
        }
    )


def _write_ventilator(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    test_breaths, train_breaths = n_test // BREATH_STEPS, n_train // BREATH_STEPS
    total = test_breaths + train_breaths
    breath_ids = rng.choice(np.arange(1, max(125_750, 2 * total)), total, replace=False)
    train_ids = breath_ids[test_breaths:]
    per_chunk = _CHUNK_ROWS // BREATH_STEPS
    train = (
        _ventilator_rows(rng, train_ids[s], 1 + s.start * BREATH_STEPS)
        for s in _spans(train_breaths, per_chunk)
    )
    _write_csv(public / "train.csv", train, float_format=_VENTILATOR_FLOATS)
    test = _ventilator_rows(rng, breath_ids[:test_breaths], 1)
    sample = pd.DataFrame({"id": test["id"], "pressure": 0})
    _write_split_files(public, private, test, ["pressure"], sample, float_format=_VENTILATOR_FLOATS)


# ---------------------------------------------------------------------------------------------
# playground-series-s3e18: original ids in shuffled order, 31 descriptors, EC1-EC6 (0/1); only
# EC1 and EC2 are submitted.

_S3E18_FEATURES = [
    "BertzCT",
    "Chi1",
    "Chi1n",
    "Chi1v",
    "Chi2n",
    "Chi2v",
    "Chi3v",
    "Chi4n",
    "EState_VSA1",
    "EState_VSA2",
    "ExactMolWt",
    "FpDensityMorgan1",
    "FpDensityMorgan2",
    "FpDensityMorgan3",
    "HallKierAlpha",
    "HeavyAtomMolWt",
    "Kappa3",
    "MaxAbsEStateIndex",
    "MinEStateIndex",
    "NumHeteroatoms",
    "PEOE_VSA10",
    "PEOE_VSA14",
    "PEOE_VSA6",
    "PEOE_VSA7",
    "PEOE_VSA8",
    "SMR_VSA10",
    "SMR_VSA5",
    "SlogP_VSA3",
    "VSA_EState9",
    "fr_COO",
    "fr_COO2",
]
_S3E18_COUNTS = ("NumHeteroatoms", "fr_COO", "fr_COO2")
_S3E18_NEGATIVE = ("HallKierAlpha", "MinEStateIndex")
_S3E18_EC_SHIFT = (0.8, 1.5, -0.6, -0.8, -0.7, -1.2)  # prevalences like Kaggle's: EC2 most common


def _s3e18_rows(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    latent = rng.normal(size=(n, 4))
    floats = [name for name in _S3E18_FEATURES if name not in _S3E18_COUNTS]
    mixing = rng.normal(0, 0.5, (4, len(floats)))
    scale = rng.uniform(1, 300, len(floats))
    values = np.exp(latent @ mixing + rng.normal(0, 0.2, (n, len(floats)))) * scale
    columns: dict[str, np.ndarray] = {"id": ids}
    for k, name in enumerate(floats):
        sign = -1 if name in _S3E18_NEGATIVE else 1
        columns[name] = (sign * values[:, k]).round(6)
    columns["NumHeteroatoms"] = rng.poisson(np.exp(1.8 + 0.3 * latent[:, 0]))
    columns["fr_COO"] = rng.poisson(np.exp(-1.2 + 0.5 * latent[:, 3]))
    columns["fr_COO2"] = columns["fr_COO"].copy()
    columns = {name: columns[name] for name in ["id", *_S3E18_FEATURES]}
    effects = latent @ rng.normal(0, 1.2, (4, 6)) + rng.normal(0, 0.5, (n, 6))
    for k, shift in enumerate(_S3E18_EC_SHIFT):
        columns[f"EC{k + 1}"] = _bernoulli(rng, effects[:, k] + shift)
    return pd.DataFrame(columns)


def _write_s3e18(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    frame = _s3e18_rows(rng, rng.permutation(n_train + n_test))
    test, train = frame.iloc[:n_test], frame.iloc[n_test:]
    train.to_csv(public / "train.csv", index=False)
    sample = pd.DataFrame({"id": test["id"], "EC1": 0.5, "EC2": 0.5})
    _write_split_files(public, private, test, [f"EC{k}" for k in range(1, 7)], sample)


# ---------------------------------------------------------------------------------------------
# spaceship-titanic: PassengerId "gggg_pp" (group, member), blanks in every column but the id
# and Transported, which is never blank (it reads back as bool).

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
        "HomePlanet": _blank(rng, home, 0.023),
        "CryoSleep": _blank(rng, cryo, 0.025),
        "Cabin": _blank(rng, cabin.to_numpy(), 0.023),
        "Destination": _blank(rng, destination, 0.021),
        "Age": _blank(rng, age, 0.02).astype(float),
        "VIP": _blank(rng, rng.random(n) < 0.023, 0.023),
    }
    columns |= {name: _blank(rng, spends[name], 0.021).astype(float) for name in _SPENDS}
    columns["Name"] = _blank(rng, names, 0.023)
    columns["Transported"] = _bernoulli(rng, logit).astype(bool)
    return pd.DataFrame(columns)


def _write_spaceship(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    frame = _spaceship_rows(rng, n_train + n_test)
    order = rng.permutation(len(frame))
    test, train = frame.iloc[order[:n_test]], frame.iloc[order[n_test:]]
    train.to_csv(public / "train.csv", index=False)
    sample = pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": False})
    _write_split_files(public, private, test, ["Transported"], sample)


# ---------------------------------------------------------------------------------------------
# nomad2018-predict-transparent-conductors: ids renumbered 1..n per file (answers in id order),
# and one FHI-aims style public/{train,test}/<id>/geometry.xyz per row.

_NOMAD_TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]


def _nomad_rows(rng: np.random.Generator, n: int) -> pd.DataFrame:
    spacegroup = rng.choice([12, 33, 167, 194, 206, 227], n)
    atoms = rng.choice([10, 20, 30, 40, 60, 80], n, p=[0.05, 0.05, 0.1, 0.4, 0.1, 0.3])
    metals = atoms * 2 // 5
    share = rng.dirichlet([1.0, 1.0, 1.0], n)
    al = np.floor(share[:, 0] * metals)
    ga = np.floor(share[:, 1] * metals)
    fractions = np.stack([al, ga, metals - al - ga], axis=1) / metals[:, None]
    size = np.cbrt(atoms)[:, None] * rng.uniform(2.2, 2.8, (n, 3))
    hexagonal = np.isin(spacegroup, [167, 194])
    angles = 90 + rng.normal(0, 0.3, (n, 3))
    angles[:, 2] = np.where(hexagonal, 120 + rng.normal(0, 0.3, n), angles[:, 2])
    formation = 0.12 + 0.25 * fractions[:, 0] - 0.05 * fractions[:, 2] + 0.03 * (spacegroup == 227)
    bandgap = 1.0 + 3.2 * fractions[:, 0] + 1.4 * fractions[:, 1] - 0.3 * (spacegroup == 206)
    columns = {
        "id": np.arange(1, n + 1),
        "spacegroup": spacegroup,
        "number_of_total_atoms": atoms.astype(float),
        "percent_atom_al": fractions[:, 0].round(4),
        "percent_atom_ga": fractions[:, 1].round(4),
        "percent_atom_in": fractions[:, 2].round(4),
    }
    for k, axis in enumerate(["1", "2", "3"]):
        columns[f"lattice_vector_{axis}_ang"] = size[:, k].round(4)
    for k, angle in enumerate(["alpha", "beta", "gamma"]):
        columns[f"lattice_angle_{angle}_degree"] = angles[:, k].round(4)
    columns["formation_energy_ev_natom"] = np.clip(formation + rng.normal(0, 0.03, n), 0, None)
    columns["bandgap_energy_ev"] = np.clip(bandgap + rng.normal(0, 0.15, n), 0, None)
    columns["formation_energy_ev_natom"] = columns["formation_energy_ev_natom"].round(4)
    columns["bandgap_energy_ev"] = columns["bandgap_energy_ev"].round(4)
    return pd.DataFrame(columns)


def _lattice(lengths: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    """Row vectors a, b, c of a cell from its edge lengths and angles (alpha, beta, gamma)."""
    alpha, beta, gamma = np.radians(degrees)
    cx = np.cos(beta)
    cy = (np.cos(alpha) - np.cos(beta) * np.cos(gamma)) / np.sin(gamma)
    unit = np.array(
        [
            [1.0, 0.0, 0.0],
            [np.cos(gamma), np.sin(gamma), 0.0],
            [cx, cy, np.sqrt(max(1.0 - cx**2 - cy**2, 0.0))],
        ]
    )
    return unit * lengths[:, None]


def _geometry_text(rng: np.random.Generator, row: pd.Series) -> str:
    lattice = _lattice(
        row.filter(like="lattice_vector").to_numpy(float),
        row.filter(like="lattice_angle").to_numpy(float),
    )
    atoms = int(row["number_of_total_atoms"])
    metals = atoms * 2 // 5
    counts = np.round(row[["percent_atom_al", "percent_atom_ga"]].to_numpy(float) * metals)
    elements = ["Al"] * int(counts[0]) + ["Ga"] * int(counts[1])
    elements += ["In"] * (metals - len(elements)) + ["O"] * (atoms - metals)
    positions = rng.random((atoms, 3)) @ lattice
    lines = ["#" + "=" * 55, "# Synthetic structure (FHI-aims geometry format)", "#" + "=" * 55]
    lines += ["lattice_vector " + " ".join(f"{v:.8f}" for v in vector) for vector in lattice]
    lines += [
        f"atom {x:.8f} {y:.8f} {z:.8f} {element}"
        for (x, y, z), element in zip(positions, elements, strict=True)
    ]
    return "\n".join(lines) + "\n"


def _write_geometries(rng: np.random.Generator, frame: pd.DataFrame, folder: Path) -> None:
    for _, row in frame.iterrows():
        target = folder / str(int(row["id"]))
        target.mkdir(parents=True)
        (target / "geometry.xyz").write_text(_geometry_text(rng, row))


def _write_nomad(
    public: Path, private: Path, n_train: int, n_test: int, rng: np.random.Generator
) -> None:
    train, test = _nomad_rows(rng, n_train), _nomad_rows(rng, n_test)
    train.to_csv(public / "train.csv", index=False)
    sample = pd.DataFrame(
        {"id": test["id"], "formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892}
    )
    _write_split_files(public, private, test, _NOMAD_TARGETS, sample)
    _write_geometries(rng, train, public / "train")
    _write_geometries(rng, test, public / "test")


_WRITERS: dict[str, Writer] = {
    TAXI: _write_taxi,
    TPS_DEC: _write_tps_dec,
    TPS_MAY: _write_tps_may,
    VENTILATOR: _write_ventilator,
    S3E18: _write_s3e18,
    SPACESHIP: _write_spaceship,
    NOMAD: _write_nomad,
}
