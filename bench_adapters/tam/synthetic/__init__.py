"""Synthetic prepared data for the 18 TAM Lite tasks, in each task's exact file formats.

``make_prepared(task_id, data_dir)`` writes ``<data_dir>/<modality>/<difficulty>/prepared/``
with ``public/`` (the files an agent reads, named and shaped as the competition's: CSV, JSON,
JSON lines, TXT, WAV, PNG, ZIP) and ``private/`` (the answers in the shape the task's grader
reads; mode 0700, so that only its owner, the harness, reads them), plus ``synthetic.json``,
which marks the folder as synthetic. Values are invented but carry signal for the tabular and
text tasks (a model beats the sample submission); media files are tiny.
``write_gold(task_id, prepared, path)`` writes the answers in submission form.

Differences from the real data, all of scale or codec: fewer rows, files and pixels; audio is
WAV where a competition shipped MP3 (audio/hard); multimodal/easy's ZIPs hold a skeleton CSV
instead of videos and MATLAB files.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench_adapters.tam.specs import TASK_IDS

MARKER = "synthetic.json"
Writer = Callable[[Path, Path, np.random.Generator], None]
GoldWriter = Callable[[Path, Path], None]


def _registry() -> tuple[dict[str, Writer], dict[str, GoldWriter]]:
    from bench_adapters.tam.synthetic import graph, media, sessions, tables, texts

    writers: dict[str, Writer] = {}
    golds: dict[str, GoldWriter] = {}
    for module in (tables, texts, media, graph, sessions):
        writers.update(module.WRITERS)
        golds.update(module.GOLDS)
    return writers, golds


def is_synthetic(prepared: Path) -> bool:
    return (prepared / MARKER).is_file()


def make_prepared(task_id: str, data_dir: Path, seed: int = 0, *, overwrite: bool = False) -> Path:
    """Write the task's synthetic data; return its ``prepared`` folder.

    A non-empty prepared folder is replaced only with ``overwrite=True`` (real data is never
    clobbered by accident).
    """
    if task_id not in TASK_IDS:
        raise ValueError(f"unknown TAM task {task_id!r}")
    writers, _ = _registry()
    prepared = Path(data_dir).expanduser() / task_id / "prepared"
    if prepared.exists() and any(prepared.iterdir()):
        if not overwrite:
            raise FileExistsError(
                f"{prepared} is not empty; --overwrite (overwrite=True) replaces it"
            )
        shutil.rmtree(prepared)
    public, private = prepared / "public", prepared / "private"
    public.mkdir(parents=True)
    private.mkdir(parents=True)
    private.chmod(0o700)  # whatever the umask: the agent user never reads the answers
    writers[task_id](public, private, np.random.default_rng(seed))
    (prepared / MARKER).write_text(json.dumps({"task": f"tam/{task_id}", "seed": seed}) + "\n")
    return prepared


def write_gold(task_id: str, prepared: Path, path: Path) -> Path:
    """The private answers written as a perfect submission at ``path``."""
    _, golds = _registry()
    path.parent.mkdir(parents=True, exist_ok=True)
    golds[task_id](prepared / "private", path)
    return path
