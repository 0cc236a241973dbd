"""Synthetic prepared data: upstream's file layout and schema, sizes, and a learnable signal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from bench_adapters.mlebench import synthetic
from bench_adapters.mlebench.graders import get_grader
from bench_adapters.mlebench.synthetic import (
    DEFAULT_SIZES,
    FULL_SIZES,
    answers_as_submission,
    make_prepared,
    synthetic_competitions,
)

TAXI = "new-york-city-taxi-fare-prediction"
TPS_DEC = "tabular-playground-series-dec-2021"
TPS_MAY = "tabular-playground-series-may-2022"
VENTILATOR = "ventilator-pressure-prediction"
S3E18 = "playground-series-s3e18"
SPACESHIP = "spaceship-titanic"
NOMAD = "nomad2018-predict-transparent-conductors"
CPU_ONLY = [TAXI, TPS_DEC, TPS_MAY, VENTILATOR, S3E18, SPACESHIP, NOMAD]

S3E18_FEATURES = [
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
TPS_DEC_COLUMNS = [
    "Id",
    "Elevation",
    "Aspect",
    "Slope",
    "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology",
    "Horizontal_Distance_To_Roadways",
    "Hillshade_9am",
    "Hillshade_Noon",
    "Hillshade_3pm",
    "Horizontal_Distance_To_Fire_Points",
    *[f"Wilderness_Area{k}" for k in range(1, 5)],
    *[f"Soil_Type{k}" for k in range(1, 41)],
    "Cover_Type",
]
NOMAD_FEATURES = [
    "id",
    "spacegroup",
    "number_of_total_atoms",
    "percent_atom_al",
    "percent_atom_ga",
    "percent_atom_in",
    "lattice_vector_1_ang",
    "lattice_vector_2_ang",
    "lattice_vector_3_ang",
    "lattice_angle_alpha_degree",
    "lattice_angle_beta_degree",
    "lattice_angle_gamma_degree",
]
NOMAD_TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]
SPACESHIP_COLUMNS = [
    "PassengerId",
    "HomePlanet",
    "CryoSleep",
    "Cabin",
    "Destination",
    "Age",
    "VIP",
    "RoomService",
    "FoodCourt",
    "ShoppingMall",
    "Spa",
    "VRDeck",
    "Name",
    "Transported",
]

# (train file, train columns, target columns, submission columns), as upstream prepares them.
SCHEMAS: dict[str, tuple[str, list[str], list[str], list[str]]] = {
    TAXI: (
        "labels.csv",
        [
            "key",
            "fare_amount",
            "pickup_datetime",
            "pickup_longitude",
            "pickup_latitude",
            "dropoff_longitude",
            "dropoff_latitude",
            "passenger_count",
        ],
        ["fare_amount"],
        ["key", "fare_amount"],
    ),
    TPS_DEC: ("train.csv", TPS_DEC_COLUMNS, ["Cover_Type"], ["Id", "Cover_Type"]),
    TPS_MAY: (
        "train.csv",
        ["id", *[f"f_{k:02d}" for k in range(31)], "target"],
        ["target"],
        ["id", "target"],
    ),
    VENTILATOR: (
        "train.csv",
        ["id", "breath_id", "R", "C", "time_step", "u_in", "u_out", "pressure"],
        ["pressure"],
        ["id", "pressure"],
    ),
    S3E18: (
        "train.csv",
        ["id", *S3E18_FEATURES, *[f"EC{k}" for k in range(1, 7)]],
        [f"EC{k}" for k in range(1, 7)],
        ["id", "EC1", "EC2"],
    ),
    SPACESHIP: ("train.csv", SPACESHIP_COLUMNS, ["Transported"], ["PassengerId", "Transported"]),
    NOMAD: ("train.csv", NOMAD_FEATURES + NOMAD_TARGETS, NOMAD_TARGETS, ["id", *NOMAD_TARGETS]),
}
SAMPLE_VALUES: dict[str, dict[str, object]] = {
    TAXI: {"fare_amount": 11.35},
    TPS_DEC: {"Cover_Type": 2},
    TPS_MAY: {"target": 0.5},
    VENTILATOR: {"pressure": 0},
    S3E18: {"EC1": 0.5, "EC2": 0.5},
    SPACESHIP: {"Transported": False},
    NOMAD: {"formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892},
}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("synthetic")
    for competition_id in CPU_ONLY:
        make_prepared(competition_id, root)
    return root


def read(data_dir: Path, competition_id: str, relative: str) -> pd.DataFrame:
    return pd.read_csv(data_dir / competition_id / "prepared" / relative)


def test_the_seven_cpu_only_competitions_are_available() -> None:
    assert set(CPU_ONLY) <= set(synthetic_competitions())
    assert FULL_SIZES[VENTILATOR] == (5_432_400, 603_600)
    assert FULL_SIZES[TPS_DEC] == (3_600_000, 400_000)
    assert FULL_SIZES[TAXI][1] == 9_914
    with pytest.raises(ValueError, match="No synthetic data"):
        make_prepared("no-such-competition", Path("unused"))


@pytest.mark.parametrize("competition_id", CPU_ONLY)
def test_layout_columns_and_row_counts_match_upstream(data_dir: Path, competition_id: str) -> None:
    train_file, columns, targets, submission_columns = SCHEMAS[competition_id]
    n_train, n_test = DEFAULT_SIZES[competition_id]
    spec = get_grader(competition_id)
    assert spec is not None
    prepared = data_dir / competition_id / "prepared"
    top_level = {p.relative_to(prepared).as_posix() for p in prepared.glob("*/*") if p.is_file()}
    expected = {
        f"public/{train_file}",
        "public/test.csv",
        "public/sample_submission.csv",
        f"private/{spec.answers}",
    }
    expected |= {"public/GCP-Coupons-Instructions.rtf"} if competition_id == TAXI else set()
    expected |= {"private/gold_submission.csv"} if competition_id == TPS_MAY else set()
    assert top_level == expected
    assert (prepared / "private").stat().st_mode & 0o777 == 0o700  # the agent user cannot enter

    train = read(data_dir, competition_id, f"public/{train_file}")
    test = read(data_dir, competition_id, "public/test.csv")
    answers = read(data_dir, competition_id, f"private/{spec.answers}")
    sample = read(data_dir, competition_id, spec.sample_submission)
    assert list(train.columns) == columns and len(train) == n_train
    assert list(answers.columns) == columns and len(answers) == n_test
    assert list(test.columns) == [c for c in columns if c not in targets]
    assert list(sample.columns) == submission_columns
    test_id = submission_columns[0]
    assert test[test_id].tolist() == answers[test_id].tolist() == sample[test_id].tolist()
    if competition_id not in {VENTILATOR, NOMAD}:  # those two renumber ids per file
        assert not set(train[test_id]) & set(test[test_id])
    for column, value in SAMPLE_VALUES[competition_id].items():
        assert (sample[column] == value).all()
        assert sample[column].dtype == np.asarray(value).dtype


def test_taxi_keys_and_timestamps(data_dir: Path) -> None:
    train = read(data_dir, TAXI, "public/labels.csv")
    answers = read(data_dir, TAXI, "private/test.csv")
    keys = pd.concat([train["key"], answers["key"]])
    assert keys.is_unique
    assert keys.str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{7,9}").all()
    assert answers["pickup_datetime"].str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC").all()
    assert (answers["key"].str[:19] == answers["pickup_datetime"].str[:19]).all()
    assert answers["passenger_count"].dtype == np.int64
    assert (answers["fare_amount"] >= 2.5).all()


def test_tps_dec_original_ids_and_labels(data_dir: Path) -> None:
    train = read(data_dir, TPS_DEC, "public/train.csv")
    answers = read(data_dir, TPS_DEC, "private/test.csv")
    ids = pd.concat([train["Id"], answers["Id"]])
    assert sorted(ids) == list(range(len(ids)))
    assert not answers["Id"].is_monotonic_increasing  # shuffled, not renumbered
    assert (train.dtypes == np.int64).all()
    assert train["Cover_Type"].between(1, 7).all()
    assert train["Cover_Type"].value_counts().idxmax() == 2
    one_hot = train.filter(like="Soil_Type").to_numpy()
    assert set(np.unique(one_hot)) <= {0, 1}


def test_tps_may_renumbered_ids_and_gold_submission(data_dir: Path) -> None:
    n_train, n_test = DEFAULT_SIZES[TPS_MAY]
    train = read(data_dir, TPS_MAY, "public/train.csv")
    answers = read(data_dir, TPS_MAY, "private/test.csv")
    assert train["id"].tolist() == list(range(n_train))
    assert answers["id"].tolist() == list(range(n_train, n_train + n_test))
    assert train["f_27"].str.fullmatch(r"[A-T]{10}").all()
    assert {train[f"f_{k:02d}"].dtype for k in range(7, 19)} == {np.dtype(np.int64)}
    assert set(answers["target"]) == {0, 1}
    gold = read(data_dir, TPS_MAY, "private/gold_submission.csv")
    pd.testing.assert_frame_equal(gold, answers[["id", "target"]])


def test_ventilator_breaths_phases_and_float_format(data_dir: Path) -> None:
    for relative in ("public/train.csv", "private/test.csv"):
        frame = read(data_dir, VENTILATOR, relative)
        assert frame["id"].tolist() == list(range(1, len(frame) + 1))
        breaths = frame.groupby("breath_id", sort=False)
        assert (breaths.size() == 80).all()
        assert (breaths["time_step"].first() == 0).all()
        assert breaths["time_step"].is_monotonic_increasing.all()
        assert set(frame["R"]) <= {5, 20, 50} and set(frame["C"]) <= {10, 20, 50}
        assert set(frame["u_out"]) == {0, 1}
        assert (breaths["u_out"].first() == 0).all() and (breaths["u_out"].last() == 1).all()
    train = read(data_dir, VENTILATOR, "public/train.csv")
    answers = read(data_dir, VENTILATOR, "private/test.csv")
    assert not set(train["breath_id"]) & set(answers["breath_id"])
    assert not answers["breath_id"].drop_duplicates().is_monotonic_increasing
    text = (data_dir / VENTILATOR / "prepared" / "private" / "test.csv").read_text()
    first_row = text.splitlines()[1].split(",")
    assert first_row[4] == "0" and all(
        len(v.replace("-", "").replace(".", "")) <= 10 for v in first_row
    )


def test_s3e18_ids_and_binary_targets(data_dir: Path) -> None:
    train = read(data_dir, S3E18, "public/train.csv")
    answers = read(data_dir, S3E18, "private/test.csv")
    assert sorted(pd.concat([train["id"], answers["id"]])) == list(range(sum(DEFAULT_SIZES[S3E18])))
    for column in [f"EC{k}" for k in range(1, 7)]:
        assert set(answers[column]) == {0, 1} and set(train[column]) == {0, 1}
    for column in ("NumHeteroatoms", "fr_COO", "fr_COO2"):
        assert train[column].dtype == np.int64
    assert answers["EC2"].mean() > answers["EC1"].mean() > 0.5


def test_spaceship_ids_blanks_and_labels(data_dir: Path) -> None:
    train = read(data_dir, SPACESHIP, "public/train.csv")
    answers = read(data_dir, SPACESHIP, "private/test.csv")
    ids = pd.concat([train["PassengerId"], answers["PassengerId"]])
    assert ids.is_unique and ids.str.fullmatch(r"\d{4}_\d{2}").all()
    assert answers["Transported"].dtype == bool and train["Transported"].dtype == bool
    assert set(answers["Transported"]) == {True, False}
    assert train["CryoSleep"].isna().any() and set(train["CryoSleep"].dropna()) == {True, False}
    assert train["Cabin"].dropna().str.fullmatch(r"[A-GT]/\d+/[PS]").all()
    assert train.drop(columns=["PassengerId", "Transported"]).isna().any().all()
    sample = read(data_dir, SPACESHIP, "public/sample_submission.csv")
    assert sample["Transported"].dtype == bool


def test_nomad_ids_geometries_and_targets(data_dir: Path) -> None:
    prepared = data_dir / NOMAD / "prepared"
    for split in ("train", "test"):
        frame = read(data_dir, NOMAD, f"{'private' if split == 'test' else 'public'}/{split}.csv")
        assert frame["id"].tolist() == list(range(1, len(frame) + 1))
        assert (frame[NOMAD_TARGETS] >= 0).all().all()
        fractions = frame[["percent_atom_al", "percent_atom_ga", "percent_atom_in"]].sum(axis=1)
        assert np.allclose(fractions, 1, atol=1e-3)
        folders = sorted(int(p.name) for p in (prepared / "public" / split).iterdir())
        assert folders == frame["id"].tolist()
    geometry = (prepared / "public" / "test" / "1" / "geometry.xyz").read_text().splitlines()
    test = read(data_dir, NOMAD, "public/test.csv")
    assert geometry[0].startswith("#")
    assert sum(line.startswith("lattice_vector ") for line in geometry) == 3
    atoms = [line.split()[-1] for line in geometry if line.startswith("atom ")]
    assert len(atoms) == test.loc[0, "number_of_total_atoms"]
    assert set(atoms) <= {"Al", "Ga", "In", "O"} and "O" in atoms


# --- sizes, seeds, safety -------------------------------------------------------------------


@pytest.mark.parametrize("competition_id", [SPACESHIP, S3E18])
def test_full_size_gives_the_real_row_counts(tmp_path: Path, competition_id: str) -> None:
    make_prepared(competition_id, tmp_path, full_size=True)
    n_train, n_test = FULL_SIZES[competition_id]
    assert len(read(tmp_path, competition_id, "public/train.csv")) == n_train
    assert len(read(tmp_path, competition_id, "private/test.csv")) == n_test


def test_explicit_sizes_win_and_ventilator_counts_whole_breaths(tmp_path: Path) -> None:
    make_prepared(VENTILATOR, tmp_path, n_train=160, n_test=240, full_size=True)
    assert len(read(tmp_path, VENTILATOR, "private/test.csv")) == 240
    with pytest.raises(ValueError, match="multiples of 80"):
        make_prepared(VENTILATOR, tmp_path / "other", n_train=160, n_test=100)


def test_an_existing_dataset_is_replaced_only_on_request(tmp_path: Path) -> None:
    make_prepared(NOMAD, tmp_path, n_train=20, n_test=10, seed=1)
    with pytest.raises(FileExistsError):
        make_prepared(NOMAD, tmp_path, n_train=20, n_test=10, seed=1)
    make_prepared(NOMAD, tmp_path, n_train=30, n_test=5, seed=1, overwrite=True)
    assert len(list((tmp_path / NOMAD / "prepared" / "public" / "test").iterdir())) == 5


def test_the_same_seed_gives_the_same_files(tmp_path: Path) -> None:
    def files(seed: int, folder: str) -> list[bytes]:
        prepared = make_prepared(SPACESHIP, tmp_path / folder, seed=seed, overwrite=True)
        return [p.read_bytes() for p in sorted(prepared.rglob("*.csv"))]

    assert files(5, "a") == files(5, "b")
    assert files(5, "a") != files(6, "c")


def test_chunks_are_written_as_one_csv(tmp_path: Path) -> None:
    frames = [pd.DataFrame({"a": [k, k + 1], "b": [0.5, 1.5]}) for k in range(0, 6, 2)]
    path = tmp_path / "chunked.csv"
    synthetic.common.write_csv(path, frames)
    pd.testing.assert_frame_equal(pd.read_csv(path), pd.concat(frames, ignore_index=True))
    assert [(s.start, s.stop) for s in synthetic.common.spans(5, size=2)] == [
        (0, 2),
        (2, 4),
        (4, 5),
    ]


@pytest.mark.parametrize("competition_id", CPU_ONLY)
def test_answers_as_submission_is_the_gold_submission(data_dir: Path, competition_id: str) -> None:
    spec = get_grader(competition_id)
    assert spec is not None
    gold = answers_as_submission(competition_id, data_dir)
    sample = read(data_dir, competition_id, spec.sample_submission)
    assert list(gold.columns) == list(sample.columns) and len(gold) == len(sample)
    answers = read(data_dir, competition_id, f"private/{spec.answers}")
    assert spec.grade(gold, answers) == spec.grade(answers, answers)


# --- learnable signal -------------------------------------------------------------------------

Solver = Callable[[pd.DataFrame, pd.DataFrame, pd.DataFrame], pd.DataFrame]


def solve_taxi(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    def features(frame: pd.DataFrame) -> pd.DataFrame:
        dx = (frame["dropoff_longitude"] - frame["pickup_longitude"]) * 0.76
        dy = frame["dropoff_latitude"] - frame["pickup_latitude"]
        hour = frame["pickup_datetime"].str[11:13].astype(int)
        return pd.DataFrame(
            {
                "km": np.hypot(dx, dy) * 111,
                "rush": hour.between(16, 19),
                "late": frame["pickup_datetime"].str[:4].astype(int) >= 2012,
            }
        )

    model = LinearRegression().fit(features(train), train["fare_amount"])
    return sample.assign(fare_amount=model.predict(features(test)))


def solve_tps_dec(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    columns = ["Elevation", "Wilderness_Area2"]
    model = DecisionTreeClassifier(max_depth=4, random_state=0).fit(
        train[columns], train["Cover_Type"]
    )
    return sample.assign(Cover_Type=model.predict(test[columns]))


def solve_tps_may(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    def features(frame: pd.DataFrame) -> pd.DataFrame:
        numeric = frame.drop(columns=["id", "f_27", "target"], errors="ignore")
        return numeric.assign(
            a_count=frame["f_27"].str.count("A"), mix=frame["f_29"] * frame["f_30"]
        )

    model = make_pipeline(StandardScaler(), LogisticRegression())
    model.fit(features(train), train["target"])
    return sample.assign(target=model.predict_proba(features(test))[:, 1])


def solve_ventilator(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    def features(frame: pd.DataFrame) -> pd.DataFrame:
        dt = frame.groupby("breath_id")["time_step"].diff().fillna(0)
        volume = (frame["u_in"] * dt * (1 - frame["u_out"])).groupby(frame["breath_id"]).cumsum()
        return pd.DataFrame(
            {
                "resistive": frame["R"] * frame["u_in"],
                "elastic": volume / frame["C"],
                "out": frame["u_out"],
            }
        )

    model = LinearRegression().fit(features(train), train["pressure"])
    return sample.assign(pressure=model.predict(features(test)))


def solve_s3e18(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    def features(frame: pd.DataFrame) -> np.ndarray:
        return np.log1p(frame[S3E18_FEATURES].abs().to_numpy())

    predictions = {
        target: LogisticRegression(max_iter=2000)
        .fit(features(train), train[target])
        .predict_proba(features(test))[:, 1]
        for target in ("EC1", "EC2")
    }
    return sample.assign(**predictions)


def solve_spaceship(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    spends = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]

    def features(frame: pd.DataFrame) -> pd.DataFrame:
        return (
            frame[spends]
            .fillna(0)
            .assign(
                cryo=frame["CryoSleep"].eq(True),
                europa=frame["HomePlanet"].eq("Europa"),
                earth=frame["HomePlanet"].eq("Earth"),
                starboard=frame["Cabin"].str.endswith("S", na=False),
            )
        )

    model = LogisticRegression(max_iter=2000).fit(features(train), train["Transported"])
    return sample.assign(Transported=model.predict(features(test)))


def solve_nomad(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> pd.DataFrame:
    columns = ["percent_atom_al", "percent_atom_ga", "percent_atom_in", "spacegroup"]
    features = {
        name: pd.get_dummies(frame[columns], columns=["spacegroup"])
        for name, frame in (("train", train), ("test", test))
    }
    predictions = {
        target: LinearRegression()
        .fit(features["train"], train[target])
        .predict(features["test"])
        .clip(0)
        for target in NOMAD_TARGETS
    }
    return sample.assign(**predictions)


SOLVERS: dict[str, Solver] = {
    TAXI: solve_taxi,
    TPS_DEC: solve_tps_dec,
    TPS_MAY: solve_tps_may,
    VENTILATOR: solve_ventilator,
    S3E18: solve_s3e18,
    SPACESHIP: solve_spaceship,
    NOMAD: solve_nomad,
}
LOWER_IS_BETTER = {TAXI, VENTILATOR, NOMAD}


@pytest.mark.parametrize("competition_id", CPU_ONLY)
def test_a_model_fitted_on_train_beats_the_sample_submission(
    data_dir: Path, competition_id: str
) -> None:
    spec = get_grader(competition_id)
    assert spec is not None
    train = read(data_dir, competition_id, f"public/{SCHEMAS[competition_id][0]}")
    test = read(data_dir, competition_id, "public/test.csv")
    sample = read(data_dir, competition_id, spec.sample_submission)
    answers = read(data_dir, competition_id, f"private/{spec.answers}")
    model_score = spec.grade(SOLVERS[competition_id](train, test, sample), answers)
    sample_score = spec.grade(sample, answers)
    if competition_id in LOWER_IS_BETTER:
        assert model_score < 0.7 * sample_score
    else:
        assert model_score > sample_score + 0.1
