"""MLE-bench: upstream's competitions, prepared data layout, splits and grading rules."""

from bench_adapters.mlebench.adapter import MLEBench, graded_ids
from bench_adapters.mlebench.data import resolve_checkout, resolve_data_dir
from bench_adapters.mlebench.splits import SPLITS, known_ids, split_ids

__all__ = [
    "SPLITS",
    "MLEBench",
    "graded_ids",
    "known_ids",
    "resolve_checkout",
    "resolve_data_dir",
    "split_ids",
]
