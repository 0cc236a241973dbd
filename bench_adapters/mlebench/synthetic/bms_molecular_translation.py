"""bms-molecular-translation: black-on-white skeletal formulas of small chain molecules, each
labelled with its InChI string.

Three families of straight chains of 1 to 14 carbons: alkanes (``InChI=1S/C5H12/c1-3-5-4-2/
h3-5H2,1-2H3``), 1-alkanols (an ``OH`` at one end) and 1-chloroalkanes (a ``Cl``). The image
draws the chain as a zigzag (one vertex a carbon) with the end group's letters, rotated, with
scanner speckle, as Kaggle's; counting the vertices and reading the letters gives the InChI.

Public: ``train_labels.csv`` (``image_id,InChI``), ``train/<a>/<b>/<c>/<image_id>.png`` and
``test/...`` (nested by the id's first three characters, as upstream), ``sample_submission.csv``
(``image_id,InChI`` with water, ``InChI=1S/H2O/h1H2``), ``extra_approved_InChIs.csv`` (an
``InChI`` list, here the three families up to 40 carbons). Private: ``test.csv``
(``image_id,InChI``). Ids are 12 hex digits; both tables are in the shuffled order of
upstream's split. Images are ``side`` pixels square (Kaggle's are a few hundred pixels, of
varied shapes); with ``side`` 0 no image is written, only the tables (as a grading benchmark
needs: 485 k files take minutes to draw).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image, ImageDraw

from .common import Size, hex_ids, split

SAMPLE_INCHI = "InChI=1S/H2O/h1H2"
FAMILIES = ("alkane", "alkanol", "chloroalkane")
MAX_CARBONS = 14


def _span(first: int, last: int) -> str:
    """``"3-5"`` for atoms 3 to 5, ``"3"`` when it is one atom."""
    return str(first) if first == last else f"{first}-{last}"


def inchi(family: str, carbons: int) -> str:
    """The standard InChI of the straight-chain molecule."""
    n = carbons
    if family == "alkane":
        if n == 1:
            return "InChI=1S/CH4/h1H4"
        # the two ends are atoms 1 and 2; numbering then alternates between the halves
        atoms = [*range(1, n + 1, 2), *sorted(range(2, n + 1, 2), reverse=True)]
        hydrogens = "1-2H3" if n == 2 else f"{_span(3, n)}H2,1-2H3"
        return f"InChI=1S/C{n}H{2 * n + 2}/c{'-'.join(map(str, atoms))}/h{hydrogens}"
    carbon = "C" if n == 1 else f"C{n}"
    formula = f"{carbon}H{2 * n + 2}O" if family == "alkanol" else f"{carbon}H{2 * n + 1}Cl"
    chain = "-".join(map(str, range(1, n + 2)))
    if family == "alkanol":
        hydrogens = f"{n + 1}H,1H3" if n == 1 else f"{n + 1}H,{_span(2, n)}H2,1H3"
    else:
        hydrogens = "1H3" if n == 1 else f"{_span(2, n)}H2,1H3"
    return f"InChI=1S/{formula}/c{chain}/h{hydrogens}"


def draw(rng: np.random.Generator, side: int, family: str, carbons: int) -> Image.Image:
    """The zigzag chain, its end group written at the last vertex, turned and speckled."""
    image = Image.new("L", (side, side), 255)
    pen = ImageDraw.Draw(image)
    step = 0.8 / (MAX_CARBONS + 1)
    points = [(0.1 + k * step, 0.5 + (0.04 if k % 2 else -0.04)) for k in range(carbons)]
    xy = [(x * side, y * side) for x, y in points]
    width = max(1, side // 64)
    if len(xy) > 1:
        pen.line(xy, fill=0, width=width)
    for x, y in xy:  # a carbon is a vertex: a dot marks it at small sides
        r = max(1, side // 80)
        pen.ellipse([x - r, y - r, x + r, y + r], fill=0)
    if family != "alkane":
        x, y = xy[-1]
        pen.text((x + step * side / 2, y - side * 0.03), "OH" if family == "alkanol" else "Cl", 0)
    angle = float(rng.choice([0, 90, 180, 270])) + rng.uniform(-8, 8)
    image = image.rotate(angle, fillcolor=255)
    pixels = np.asarray(image).copy()
    pixels[rng.random(pixels.shape) < 0.003] = 0  # scanner speckle
    return Image.fromarray(pixels)


def tables(
    rng: np.random.Generator, size: Size
) -> tuple[pd.DataFrame, pd.DataFrame, list[tuple[str, int]]]:
    """Train and test ``image_id,InChI`` tables (the split's shuffled order), and each row's
    (family, carbons), train rows first."""
    n = size.n_train + size.n_test
    family = rng.integers(0, len(FAMILIES), n)
    carbons = rng.integers(1, MAX_CARBONS + 1, n)
    molecules = [(FAMILIES[f], int(c)) for f, c in zip(family, carbons, strict=True)]
    names = {m: inchi(*m) for m in set(molecules)}
    frame = pd.DataFrame({"image_id": hex_ids(rng, n, 12), "InChI": [names[m] for m in molecules]})
    train_rows, test_rows = split(rng, n, size.n_test)
    order = [*train_rows, *test_rows]
    return frame.iloc[train_rows], frame.iloc[test_rows], [molecules[k] for k in order]


def image_path(folder: Path, image_id: str) -> Path:
    return folder / image_id[0] / image_id[1] / image_id[2] / f"{image_id}.png"


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    train, test, molecules = tables(rng, size)
    ids = [*train["image_id"], *test["image_id"]]
    folders = [public / "train"] * len(train) + [public / "test"] * len(test)
    for image_id, folder, (family, carbons) in zip(ids, folders, molecules, strict=True):
        if size.side:  # side 0: the tables alone (grading benchmarks need no images)
            path = image_path(folder, image_id)
            path.parent.mkdir(parents=True, exist_ok=True)
            draw(rng, size.side, family, carbons).save(path)
    train.to_csv(public / "train_labels.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    test.assign(InChI=SAMPLE_INCHI).to_csv(public / "sample_submission.csv", index=False)
    approved = [inchi(f, n) for f in FAMILIES for n in range(1, 41)]
    pd.DataFrame({"InChI": approved}).to_csv(public / "extra_approved_InChIs.csv", index=False)
