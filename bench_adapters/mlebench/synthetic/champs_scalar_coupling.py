"""champs-scalar-coupling: small organic molecules (C, N, O and H, at most 9 heavy atoms, QM9
names ``dsgdb9nsd_NNNNNN``) and the J-couplings between each hydrogen and the C, N and H atoms
one to three bonds away (types ``1JHC`` ... ``3JHN``).

Public: ``train.csv`` (``id,molecule_name,atom_index_0,atom_index_1,type,
scalar_coupling_constant``, molecules in split order, ids numbered over the whole raw file in
molecule order), ``test.csv`` (the same without the target), ``sample_submission.csv``
(``id,scalar_coupling_constant`` = 0), and, for the *training* molecules only (upstream's
known issue: the test molecules' structures are missing), ``structures.csv``,
``structures/<molecule>.xyz``, ``dipole_moments.csv``, ``magnetic_shielding_tensors.csv``,
``mulliken_charges.csv``, ``potential_energy.csv`` and ``scalar_coupling_contributions.csv``
(``fc + sd + pso + dso`` is the constant). Private: ``answers.csv`` (the test rows with the
target). The constant is mostly a function of the type, then of the distance between the two
atoms, which is the signal a model learns (from the type alone on the test molecules).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size

QM9_MOLECULES = 133_885
# Per type: mean constant (Hz), change per Angstrom away from the type's usual distance, the
# usual distance, and the spread left unexplained.
COUPLINGS = {
    "1JHC": (94.9, -180.0, 1.09, 4.0),
    "1JHN": (47.5, -120.0, 1.01, 3.0),
    "2JHC": (-0.3, 4.0, 2.15, 2.5),
    "2JHH": (-10.3, 6.0, 1.78, 2.0),
    "2JHN": (3.1, 3.0, 2.10, 2.0),
    "3JHC": (3.7, 3.0, 2.85, 1.8),
    "3JHH": (4.8, 5.0, 2.60, 2.2),
    "3JHN": (1.0, 1.5, 2.95, 0.8),
}
_CHARGE = {"C": -0.15, "N": -0.40, "O": -0.35, "H": 0.10}
_SHIELDING = {"C": 130.0, "N": 200.0, "O": 300.0, "H": 30.0}
_ENERGY = {"C": -38.0, "N": -54.6, "O": -75.1, "H": -0.6}


def _molecule(rng: np.random.Generator) -> tuple[list[str], np.ndarray, list[list[int]]]:
    """Atoms (heavy first, then hydrogens), coordinates (Angstrom) and bonds (adjacency)."""
    n_heavy = int(rng.choice([5, 6, 7, 8, 9], p=[0.03, 0.07, 0.15, 0.3, 0.45]))  # as QM9
    heavy = ["C", *rng.choice(["C", "C", "C", "N", "O"], n_heavy - 1)]
    parents = [-1] + [int(rng.integers(0, i)) for i in range(1, n_heavy)]
    hosts = [i for i, a in enumerate(heavy) if a != "O"]
    n_h = int(rng.integers(n_heavy // 2 + 3, n_heavy + 6))
    atoms = heavy + ["H"] * n_h
    links = [*enumerate(parents), *((n_heavy + k, int(rng.choice(hosts))) for k in range(n_h))]
    steps = rng.normal(size=(len(atoms), 3))
    lengths = np.r_[rng.uniform(1.38, 1.52, n_heavy), np.full(n_h, 1.09)]
    steps *= (lengths / np.linalg.norm(steps, axis=1))[:, None]
    coords = np.zeros((len(atoms), 3))
    bonds: list[list[int]] = [[] for _ in atoms]
    for child, parent in links[1:]:
        coords[child] = coords[parent] + steps[child]
        bonds[child].append(parent)
        bonds[parent].append(child)
    return atoms, coords.round(6), bonds


def _pairs(atoms: list[str], bonds: list[list[int]]) -> list[tuple[int, int, str]]:
    """``(hydrogen, partner, type)`` for every C, N or later H one to three bonds away."""
    out = []
    for i in (i for i, a in enumerate(atoms) if a == "H"):
        seen, frontier = {i: 0}, [i]
        for depth in (1, 2, 3):
            frontier = [n for a in frontier for n in bonds[a] if n not in seen]
            seen.update((n, depth) for n in frontier)
        for j, depth in sorted(seen.items()):
            if atoms[j] in "CN" or (atoms[j] == "H" and j > i):
                out.append((i, j, f"{depth}JH{atoms[j]}"))
    return out


def _tables(rng: np.random.Generator, names: list[str]) -> dict[str, pd.DataFrame]:
    atom_rows: list[tuple[str, int, str]] = []
    coord_rows: list[np.ndarray] = []
    pair_rows: list[tuple[str, int, int, str]] = []
    distances: list[float] = []
    for name in names:
        atoms, coords, bonds = _molecule(rng)
        atom_rows += [(name, i, a) for i, a in enumerate(atoms)]
        coord_rows.append(coords)
        for i, j, kind in _pairs(atoms, bonds):
            pair_rows.append((name, i, j, kind))
            distances.append(float(np.linalg.norm(coords[i] - coords[j])))
    structures = pd.DataFrame(atom_rows, columns=["molecule_name", "atom_index", "atom"])
    structures[["x", "y", "z"]] = np.concatenate(coord_rows)
    coupling_cols = ["molecule_name", "atom_index_0", "atom_index_1", "type"]
    couplings = pd.DataFrame(pair_rows, columns=coupling_cols)
    mean, slope, usual, spread = np.array([COUPLINGS[t] for t in couplings["type"]]).T
    noise = rng.normal(0, 1, len(couplings)) * spread
    value = (mean + slope * (np.array(distances) - usual) + noise).round(4)
    contributions = couplings.copy()
    parts = rng.normal([0.2, 0.5, -0.3], 0.2, (len(couplings), 3)).round(5)
    contributions["fc"] = (value - parts.sum(axis=1)).round(5)
    contributions[["sd", "pso", "dso"]] = parts
    couplings["scalar_coupling_constant"] = value

    n = len(structures)
    kind = structures["atom"]
    charge = kind.map(_CHARGE).to_numpy() + rng.normal(0, 0.05, n)
    iso = kind.map(_SHIELDING).to_numpy() + rng.normal(0, 8, n)
    tensors = (rng.normal(0, 5, (n, 3, 3)) + iso[:, None, None] * np.eye(3)).round(4)
    tensor_cols = ["XX", "YX", "ZX", "XY", "YY", "ZY", "XZ", "YZ", "ZZ"]  # column-major
    shielding = structures[["molecule_name", "atom_index"]].copy()
    shielding[tensor_cols] = tensors.transpose(0, 2, 1).reshape(n, 9)
    charges = structures[["molecule_name", "atom_index"]].assign(mulliken_charge=charge.round(6))
    moment = (structures[["x", "y", "z"]].to_numpy() * charge[:, None]).round(4)
    dipoles = (
        pd.DataFrame(moment, columns=["X", "Y", "Z"])
        .groupby(structures["molecule_name"], sort=False)
        .sum()
        .round(4)
        .reset_index()
    )
    energy = kind.map(_ENERGY).groupby(structures["molecule_name"], sort=False).sum()
    energies = (energy + rng.normal(0, 0.5, len(energy))).round(5).rename("potential_energy")
    return {
        "couplings": couplings,
        "structures": structures,
        "dipole_moments": dipoles,
        "magnetic_shielding_tensors": shielding,
        "mulliken_charges": charges,
        "potential_energy": energies.reset_index(),
        "scalar_coupling_contributions": contributions,
    }


def _write_xyz(folder: Path, structures: pd.DataFrame) -> None:
    """One ``<molecule>.xyz`` a molecule: the atom count, a blank comment line, the atoms."""
    folder.mkdir(parents=True, exist_ok=True)
    names = structures["molecule_name"].to_numpy()
    lines = (
        structures["atom"]
        + " "
        + structures[["x", "y", "z"]].map("{:.6f}".format).agg(" ".join, axis=1)
    ).to_numpy()
    starts = np.flatnonzero(np.r_[True, names[1:] != names[:-1]])
    for start, end in zip(starts, [*starts[1:], len(names)], strict=True):
        body = "\n".join(lines[start:end])
        (folder / f"{names[start]}.xyz").write_text(f"{end - start}\n\n{body}\n", encoding="utf-8")


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    total = size.n_train + size.n_test
    numbers = np.sort(rng.choice(np.arange(1, QM9_MOLECULES + 1), total, replace=False))
    names = [f"dsgdb9nsd_{k:06d}" for k in numbers]
    tables = _tables(rng, names)
    couplings = tables.pop("couplings")
    couplings.insert(0, "id", np.arange(len(couplings)))
    order = rng.permutation(total)  # train_test_split of the molecule groups
    test_names = [names[k] for k in order[: size.n_test]]
    train_names = [names[k] for k in order[size.n_test :]]
    by_molecule = couplings.groupby("molecule_name", sort=False)
    # Every molecule has a hydrogen bonded to a C or an N, hence at least one coupling.
    answers = pd.concat([by_molecule.get_group(n) for n in test_names])
    train = pd.concat([by_molecule.get_group(n) for n in train_names])

    answers.to_csv(private / "answers.csv", index=False)
    train.to_csv(public / "train.csv", index=False)
    answers.drop(columns=["scalar_coupling_constant"]).to_csv(public / "test.csv", index=False)
    answers[["id"]].assign(scalar_coupling_constant=0).to_csv(
        public / "sample_submission.csv", index=False
    )
    in_train = set(train_names)
    for name, table in tables.items():
        table[table["molecule_name"].isin(in_train)].to_csv(public / f"{name}.csv", index=False)
    structures = tables["structures"]
    _write_xyz(public / "structures", structures[structures["molecule_name"].isin(in_train)])
