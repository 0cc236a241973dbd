"""The demo tasks' cache folder, filled on first use, safely when processes race.

Root: ``demo_dir`` option / ``SCAFFOLDS_DEMO_DIR`` / ``~/.cache/scaffolds/demo``, then one
sub-folder per generator version, so a changed generator never reuses stale files. A task is
generated into a temporary folder beside its final place and renamed there in one step: a
folder at the final path is therefore always complete, and the loser of a race discards its copy.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

GENERATOR_VERSION = 1
DEFAULT_ROOT = "~/.cache/scaffolds/demo"


def demo_root(option: str | Path | None = None) -> Path:
    base = option or os.environ.get("SCAFFOLDS_DEMO_DIR") or DEFAULT_ROOT
    return Path(base).expanduser() / f"v{GENERATOR_VERSION}"


def ensure_generated(task_id: str, root: Path) -> Path:
    """The folder of demo task ``task_id`` under ``root``, generating it if missing."""
    final = root / task_id
    if (final / "prepared").is_dir():
        return final
    from bench_adapters.demo.generate import generate  # scikit-learn: imported only to build

    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{task_id}-", dir=root))
    try:
        generate(task_id, tmp)
        try:
            os.rename(tmp, final)
        except OSError:
            if not (final / "prepared").is_dir():  # not a lost race: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final
