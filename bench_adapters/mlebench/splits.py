"""MLE-bench's competition splits, shipped as package data (``split_ids/<split>.txt``)."""

from __future__ import annotations

from importlib import resources

SPLITS = ("all", "lite", "medium", "high", "dev", "cpu_only", "or_initial")
"""``lite`` is upstream's ``low`` split; ``cpu_only`` the 7 competitions that need no GPU;
``or_initial`` the 77 the seed environment runs: the 75 of ``all`` plus the dev split's
spaceship-titanic and playground-series-s3e18 (its 7 CPU-only competitions are ``cpu_only``,
the other 70 need a GPU)."""
ALIASES = {"low": "lite"}


def known_ids() -> list[str]:
    """Every competition id of any split: ``all`` (75) then the dev-only ones."""
    return list(dict.fromkeys(i for split in SPLITS for i in split_ids(split)))


def split_ids(split: str = "all") -> list[str]:
    """Competition ids of ``split`` in upstream's order."""
    split = ALIASES.get(split, split)
    if split not in SPLITS:
        raise ValueError(f"unknown mlebench split {split!r} (known: {', '.join(SPLITS)})")
    text = resources.files(__package__).joinpath("split_ids", f"{split}.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]
