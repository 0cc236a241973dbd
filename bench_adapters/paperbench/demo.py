"""The bundled demo paper, installed as an upstream-layout data folder in the private cache.

``paperbench/demo-james-stein`` is a short paper written for this suite (a Monte Carlo study of
the James–Stein estimator, seconds on a CPU) with a 22-leaf rubric over all three task
categories, an addendum, a judge addendum and a human-graded tree of the reference submission
(``python -m baselines run --task paperbench/demo-james-stein`` writes that submission).

Its files ship inside the package (``demo_paper/``) and are copied, on first use, into
``<cache>/demo/v<N>/``::

    papers/demo-james-stein/{paper.md, addendum.md, blacklist.txt, config.yaml, rubric.json,
                             judge.addendum.md}
    judge_eval/demo-james-stein/0/grading/expected_result.json

The cache is 0700 (see ``layout.cache_root``): tasks read the rubric and the graded tree from
there, never from the package, and the agent's user cannot enter it. The package's own copies
are made readable by their owner only when the cache is installed, and so is the git folder of
a checkout holding the package, whose objects hold the same files (the namespace sandbox does
not show the package at all; the user-based one would); the task lists them among its private
paths, so a run refuses to start while the agent could read them. A new ``DEMO_VERSION``
installs a fresh copy, so a changed rubric never meets a stale one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from importlib import resources
from pathlib import Path

import yaml

from bench_adapters.paperbench.layout import cache_root

DEMO_ID = "demo-james-stein"
DEMO_TITLE = (
    "Shrinkage Beats the Sample Mean: A Small Simulation Study of the James-Stein Estimator"
)
DEMO_VERSION = 1
PAPER_FILES = ("paper.md", "addendum.md", "blacklist.txt", "rubric.json", "judge.addendum.md")
GRADED_TREE = "expected_result.json"
PRIVATE_FILES = ("rubric.json", "judge.addendum.md", GRADED_TREE)


def package_private_files() -> list[Path]:
    """The package's copies of the demo's private files, and the git folder of the checkout
    the package lives in, if any: its objects hold the same files."""
    package = Path(str(resources.files(__package__).joinpath("demo_paper")))
    paths = [package / name for name in PRIVATE_FILES]
    git_dir = checkout_git_dir(package)
    return paths + ([git_dir] if git_dir is not None else [])


def checkout_git_dir(path: Path) -> Path | None:
    """The git folder (a worktree's common one) of the checkout holding ``path``, if any."""
    for folder in path.parents:
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/<name>"
            text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                return None
            git_dir = (folder / text.removeprefix("gitdir:").strip()).resolve()
            common = git_dir / "commondir"
            if common.is_file():
                git_dir = (git_dir / common.read_text(encoding="utf-8").strip()).resolve()
            return git_dir
    return None


def protect_package_copies() -> None:
    """Make the package's copies (and its checkout's git folder) reachable by their owner only,
    where this process may."""
    for path in package_private_files():
        try:
            mode = path.stat().st_mode
            if mode & 0o077:
                os.chmod(path, mode & 0o700)
        except OSError:
            pass  # a read-only install: the run's exposure check names the file and the fix


def demo_data_dir(root: Path | None = None) -> Path:
    """The demo's data folder (``papers/`` and ``judge_eval/``), installed if missing."""
    final = (root or cache_root()) / "demo" / f"v{DEMO_VERSION}"
    protect_package_copies()
    if (final / "papers" / DEMO_ID / "rubric.json").is_file():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(final.parent, 0o700)
    tmp = Path(tempfile.mkdtemp(prefix=".install-", dir=final.parent))
    try:
        _write(tmp)
        try:
            os.rename(tmp, final)
        except OSError:
            if not (final / "papers" / DEMO_ID / "rubric.json").is_file():
                raise  # not a lost race with another process: a real failure
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final


def _write(root: Path) -> None:
    package = resources.files(__package__).joinpath("demo_paper")
    paper = root / "papers" / DEMO_ID
    (paper / "assets").mkdir(parents=True)
    for name in PAPER_FILES:
        (paper / name).write_bytes(package.joinpath(name).read_bytes())
    config = {"id": DEMO_ID, "title": DEMO_TITLE}
    (paper / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    grading = root / "judge_eval" / DEMO_ID / "0" / "grading"
    grading.mkdir(parents=True)
    (grading / GRADED_TREE).write_bytes(package.joinpath(GRADED_TREE).read_bytes())
