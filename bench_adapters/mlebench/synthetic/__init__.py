"""Synthetic prepared data for MLE-bench competitions, in upstream's exact prepared layout.

``make_prepared`` writes ``<data_dir>/<id>/prepared/public/...`` and ``.../private/<answers>``
as upstream's ``prepare.py`` writes them: the same file names, folders and formats (CSV, JSON,
zip, ``.jpg``/``.png``/``.tif`` images, ``.wav``/``.aif`` audio), column order, dtypes on
read-back, id formats, renumbering, row order and sample-submission constants. The values are
invented but carry a learnable signal (a target that is a function of the features, a shape
or colour tied to an image's label, words tied to a text's, a tone tied to a clip's), so a
model fitted on ``train`` beats the sample submission. One module per competition writes it
(``registry``); sizes are small by default, the real ones with ``full_size=True``.

Example::

    prepared = make_prepared("spaceship-titanic", Path("/tmp/data"), seed=1)
    gold = answers_as_submission("spaceship-titanic", Path("/tmp/data"))

The command ``python -m bench_adapters.mlebench.synthetic`` writes data and stand-in
leaderboards for many competitions at once (``--help``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size
from .registry import SIZES, generator, synthetic_competitions

__all__ = [
    "DEFAULT_SIZES",
    "FULL_SIZES",
    "SIZES",
    "Size",
    "answers_as_submission",
    "make_prepared",
    "synthetic_competitions",
]

FULL_SIZES: dict[str, tuple[int, int]] = {
    cid: (s.full.n_train, s.full.n_test) for cid, s in SIZES.items()
}
"""(train, test) units after upstream's split (see ``registry.SIZES`` for the unit)."""
DEFAULT_SIZES: dict[str, tuple[int, int]] = {
    cid: (s.smoke.n_train, s.smoke.n_test) for cid, s in SIZES.items()
}
"""The small default sizes."""


def make_prepared(
    competition_id: str,
    data_dir: Path,
    n_train: int | None = None,
    n_test: int | None = None,
    seed: int = 0,
    *,
    full_size: bool = False,
    side: int | None = None,
    overwrite: bool = False,
) -> Path:
    """Write a synthetic prepared dataset and return ``<data_dir>/<id>/prepared``.

    Sizes default to the small ones (the real ones with ``full_size``); an explicit
    ``n_train``/``n_test``/``side`` (image side in pixels) wins over both. An existing,
    non-empty prepared folder is replaced only with ``overwrite=True``, so a real dataset is
    never clobbered by accident.
    """
    module = generator(competition_id)
    default = SIZES[competition_id].full if full_size else SIZES[competition_id].smoke
    size = Size(
        default.n_train if n_train is None else n_train,
        default.n_test if n_test is None else n_test,
        default.side if side is None else side,
    )
    if size.n_train < 2 or size.n_test < 2:
        raise ValueError(
            f"n_train and n_test must be at least 2, got {size.n_train} and {size.n_test}"
        )
    if hasattr(module, "check_size"):
        module.check_size(size)

    prepared = Path(data_dir) / competition_id / "prepared"
    if prepared.exists() and any(prepared.iterdir()):
        if not overwrite:
            raise FileExistsError(f"{prepared} is not empty; pass overwrite=True to replace it")
        shutil.rmtree(prepared)
    public, private = prepared / "public", prepared / "private"
    public.mkdir(parents=True)
    private.mkdir(parents=True)
    module.write(public, private, size, np.random.default_rng(seed))
    private.chmod(0o700)  # whatever the umask: the agent user never reads the answers
    return prepared


def answers_as_submission(competition_id: str, data_dir: Path) -> pd.DataFrame:
    """The private answers in submission form (the gold submission): the declared gold file
    where there is one, else the sample submission's columns taken from the answers, in the
    answers' row order, or the whole answers where they lack those columns (upstream's
    default gold is the answers file)."""
    from ..graders import get_grader

    spec = get_grader(competition_id)
    if spec is None:
        raise ValueError(f"No grader for {competition_id!r}")
    prepared = Path(data_dir) / competition_id / "prepared"
    if spec.gold_submission:
        return read_exact(prepared / "private" / spec.gold_submission)
    columns = pd.read_csv(prepared / spec.sample_submission, nrows=0).columns
    answers = read_exact(prepared / "private" / spec.answers)
    if not set(columns) <= set(answers.columns):  # upstream's gold: the answers file as it is
        return answers
    return answers[list(columns)]


def read_exact(path: Path) -> pd.DataFrame:
    """Read a CSV so that every float round-trips (pandas 3 does so by default)."""
    if int(pd.__version__.split(".")[0]) >= 3:
        return pd.read_csv(path)
    return pd.read_csv(path, float_precision="round_trip")
