"""Which tasks have a baseline, and where its script lives.

The script of task ``<benchmark>/<id>`` is the module ``baselines.<benchmark>.<id with - as _>``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

BASELINES: tuple[str, ...] = (
    "mlebench/new-york-city-taxi-fare-prediction",
    "mlebench/tabular-playground-series-dec-2021",
    "mlebench/tabular-playground-series-may-2022",
    "mlebench/ventilator-pressure-prediction",
    "mlebench/playground-series-s3e18",
    "mlebench/spaceship-titanic",
    "mlebench/nomad2018-predict-transparent-conductors",
    "demo/tabular-binary",
    "demo/tabular-regression",
    "demo/digits-image",
)
"""Task references with a baseline script: the 7 CPU-only MLE-bench competitions and every
demo task."""


def task_ref(ref: str) -> str:
    """``<benchmark>/<id>``; a bare id means an MLE-bench competition."""
    return ref if "/" in ref else f"mlebench/{ref}"


def has_baseline(ref: str) -> bool:
    return task_ref(ref) in BASELINES


def module_name(ref: str) -> str:
    benchmark, _, task_id = task_ref(ref).partition("/")
    return f"baselines.{benchmark}.{task_id.replace('-', '_')}"


def baseline_module(ref: str) -> ModuleType:
    """The baseline script of ``ref`` (``main`` and ``METRIC``); ``KeyError`` when it has none."""
    if not has_baseline(ref):
        raise KeyError(f"{ref} has no baseline (baselines exist for: {', '.join(BASELINES)})")
    return importlib.import_module(module_name(ref))
