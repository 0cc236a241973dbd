"""The five CSV tasks MLE-bench has no grader for, each with the competition's real metric.

Where the spec and upstream TAM's ``grade.py`` disagree, the choice is stated per task. Common
to all: rows are matched by id and may come in any order (upstream demands the test file's
order for audio/hard and multimodal/hard); every test id must be present exactly once.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from bench_adapters.tam import camera, metrics
from bench_adapters.tam.graders.common import Invalid, aligned, read_table


def birdcall(submission: Path, answers: Path) -> float:
    """audio/hard (Cornell Birdcall): ``row_id,birds``, birds space-separated eBird codes or
    ``nocall``. Score: the mean over rows of each row's set F1, ``nocall`` being the empty set
    and two empty sets scoring 1. That is upstream's computation (the spec calls it micro F1).
    A blank ``birds`` cell is invalid: a window without birds is ``nocall``."""
    sub, truth = aligned(read_table(submission), read_table(answers), "row_id", ["birds"])
    blank = sub["birds"].isna() | (sub["birds"].astype(str).str.strip() == "")
    if blank.any():
        raise Invalid(f"birds is blank on {int(blank.sum())} row(s); write nocall for no bird")
    truth_sets = [metrics.bird_set(x) for x in truth["birds"]]
    return metrics.mean_set_f1(truth_sets, [metrics.bird_set(x) for x in sub["birds"]])


def mushrooms(submission: Path, answers: Path) -> float:
    """tabular/medium (playground-series-s4e8): ``id,class`` with class ``e`` or ``p``.
    Score: Matthews correlation coefficient. As upstream, every class must be text; here it
    must also be one of the answers' labels."""
    sub, truth = aligned(read_table(submission), read_table(answers), "id", ["class"])
    labels = set(truth["class"].astype(str))
    predicted = sub["class"]
    unknown = predicted[~predicted.astype(str).isin(labels) | predicted.isna()]
    if len(unknown):
        raise Invalid(
            f"class must be one of {sorted(labels)}; found {unknown.iloc[0]!r} "
            f"({len(unknown)} row(s))"
        )
    return metrics.mcc(truth["class"].astype(str), predicted.astype(str))


TRAITS = ["X4", "X11", "X18", "X26", "X50", "X3112"]


def plant_traits(submission: Path, answers: Path) -> float:
    """multimodal/hard (planttraits2024): ``id,X4,X11,X18,X26,X50,X3112``, one row per test
    image. Score: the mean over the six traits of R², each clipped at 0 (upstream's reading of
    the spec's "only R² > 0 are considered"). Rows may come in any order (upstream: the test
    file's order)."""
    sub, truth = aligned(read_table(submission), read_table(answers), "id", TRAITS, numbers=TRAITS)
    predicted = sub[TRAITS].to_numpy(dtype=float)
    return metrics.clipped_mean_r2(truth[TRAITS].to_numpy(dtype=float), predicted)


TOP_MISCONCEPTIONS = 25


def _misconception_ids(cell: object) -> list[str]:
    """A blank cell predicts nothing; otherwise up to 25 integers (``7`` and ``7.0`` alike)."""
    if pd.isna(cell):
        return []
    parts = str(cell).split()
    if len(parts) > TOP_MISCONCEPTIONS:
        raise Invalid(
            f"at most {TOP_MISCONCEPTIONS} MisconceptionId values per row, got {len(parts)}"
        )
    try:
        values: list[float] | None = [float(p) for p in parts]
    except ValueError:
        values = None
    if values is None or not all(v.is_integer() for v in values):  # inf and nan are not
        raise Invalid(f"MisconceptionId must be space-separated integers, got {cell!r}")
    return [str(int(v)) for v in values]


def misconceptions(submission: Path, answers: Path) -> float:
    """text/hard (Eedi): ``QuestionId_Answer,MisconceptionId`` with up to 25 space-separated
    ids, best first. Score: MAP@25 with one true misconception per row, so each row scores
    1/position of the truth (a repeat counts where it first appears). Every test row must be
    present: upstream silently averages over the rows submitted, Kaggle does not."""
    sub, truth = aligned(
        read_table(submission), read_table(answers), "QuestionId_Answer", ["MisconceptionId"]
    )
    ranked = [_misconception_ids(cell) for cell in sub["MisconceptionId"]]
    targets = [str(int(t)) for t in truth["MisconceptionId"]]
    scores = [
        metrics.reciprocal_rank(r, t, TOP_MISCONCEPTIONS)
        for r, t in zip(ranked, targets, strict=True)
    ]
    return float(np.mean(scores))


POSE_COLUMNS = ["dataset", "scene", "rotation_matrix", "translation_vector"]


def _parse_vectors(column: pd.Series, size: int, name: str) -> np.ndarray:
    """``"a;b;c"`` cells -> ``(n, size)`` floats. A ``nan`` anywhere, a lone ``nan`` or a blank
    cell leaves the row unposed (the spec writes ``nan`` for an unregistered image)."""
    out = np.full((len(column), size), np.nan)
    for i, cell in enumerate(column):
        if pd.isna(cell) or str(cell).strip().lower() in ("", "nan"):
            continue
        parts = str(cell).split(";")
        if len(parts) != size:
            raise Invalid(f"{name} needs {size} ';'-separated numbers, got {cell!r} (row {i + 1})")
        try:
            values = np.array([float(p) for p in parts])
        except ValueError:
            raise Invalid(f"{name} holds a value that is not a number: {cell!r}") from None
        if np.isfinite(values).all():
            out[i] = values
    return out


def camera_poses(submission: Path, answers: Path) -> float:
    """image/hard (Image Matching Challenge 2024): the spec's format,
    ``image_path,dataset,scene,rotation_matrix,translation_vector``, with the 3x3 rotation
    flattened row-major and ``;``-separated, the translation ``;``-separated, and ``nan`` for
    an image left unregistered (upstream's grader wants ``image_id,R00..R22,T0,T1,T2``
    instead). Score: mAA of the camera centres, see :mod:`bench_adapters.tam.camera`."""
    sub, truth = aligned(read_table(submission), read_table(answers), "image_path", POSE_COLUMNS)
    for column in ("dataset", "scene"):
        differ = sub[column].astype(str) != truth[column].astype(str)
        if differ.any():
            where = truth["image_path"][differ].iloc[0]
            raise Invalid(
                f"{column} of {where!r} differs from the test set's ({int(differ.sum())} rows)"
            )
    rotations = _parse_vectors(sub["rotation_matrix"], 9, "rotation_matrix").reshape(-1, 3, 3)
    translations = _parse_vectors(sub["translation_vector"], 3, "translation_vector")
    pred = camera.centres(rotations, translations)
    true_r = _parse_vectors(truth["rotation_matrix"], 9, "rotation_matrix").reshape(-1, 3, 3)
    gt = camera.centres(true_r, _parse_vectors(truth["translation_vector"], 3, "t"))
    per_dataset: dict[str, list[float]] = {}
    for (dataset, scene), rows in truth.groupby(["dataset", "scene"], sort=True).groups.items():
        index = np.asarray(rows)
        score = camera.scene_maa(pred[index], gt[index], f"{dataset}/{scene}")
        per_dataset.setdefault(str(dataset), []).append(score)
    return float(np.mean([np.mean(scores) for scores in per_dataset.values()]))


GRADERS = {
    "audio/hard": birdcall,
    "tabular/medium": mushrooms,
    "multimodal/hard": plant_traits,
    "text/hard": misconceptions,
    "image/hard": camera_poses,
}
