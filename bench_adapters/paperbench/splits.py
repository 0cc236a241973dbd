"""PaperBench's paper splits, shipped as package data (``split_ids/<split>.txt``).

Upstream's six splits with upstream's ids, plus ``demo``: the bundled demo paper, which needs
no data folder.
"""

from __future__ import annotations

from importlib import resources

SPLITS = ("all", "dev", "lite", "human", "debug", "testing", "demo")
"""``all``: the 20 benchmark papers; ``dev``: 3 development papers; ``lite`` and ``human``:
the same 5; ``debug``: rice; ``testing``: lca-on-the-line; ``demo``: the bundled demo paper."""


def split_ids(split: str = "all") -> list[str]:
    """Paper ids of ``split`` in upstream's order."""
    if split not in SPLITS:
        raise ValueError(f"unknown paperbench split {split!r} (known: {', '.join(SPLITS)})")
    text = resources.files(__package__).joinpath("split_ids", f"{split}.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def known_ids() -> list[str]:
    """Every paper id of any split: ``all`` (20), then the dev papers, then the demo."""
    return list(dict.fromkeys(i for split in SPLITS for i in split_ids(split)))
