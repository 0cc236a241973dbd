"""nomad2018-predict-transparent-conductors: ids renumbered 1..n per file (answers in id
order), and one FHI-aims style ``public/{train,test}/<id>/geometry.xyz`` per row.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, write_split_files

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


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    train, test = _nomad_rows(rng, n_train), _nomad_rows(rng, n_test)
    train.to_csv(public / "train.csv", index=False)
    sample = pd.DataFrame(
        {"id": test["id"], "formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892}
    )
    write_split_files(public, private, test, _NOMAD_TARGETS, sample)
    _write_geometries(rng, train, public / "train")
    _write_geometries(rng, test, public / "test")
