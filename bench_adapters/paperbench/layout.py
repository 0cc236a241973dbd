"""Where a paper's files are, in upstream's data layout, and which of them the agent may see.

The data folder is ``$PAPERBENCH_DATA_DIR`` or the ``data_dir`` option (``--data-dir``)::

    <data_dir>/papers/<paper-id>/paper.md        the paper (required)
                                 paper.pdf       the paper as a PDF (optional here)
                                 addendum.md     clarifications and scope, for the agent
                                 blacklist.txt   URLs the agent must not use, or ``none``
                                 config.yaml     ``id`` and ``title``
                                 assets/         the paper's figures
                                 rubric.json     the rubric tree (required; harness side)
                                 judge.addendum.md, judge/   for the judge only (optional)

The agent gets a copy of the public part (:data:`PUBLIC`) as a ``paper/`` folder; the rubric,
the judge addendum and ``judge/`` never leave the harness side.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from bench_adapters.errors import TaskNotPrepared

DATA_ENV = "PAPERBENCH_DATA_DIR"
CACHE_ENV = "SCAFFOLDS_PAPERBENCH_CACHE"
DEFAULT_CACHE = "~/.cache/scaffolds/paperbench"

PUBLIC = ("paper.md", "paper.pdf", "addendum.md", "blacklist.txt", "assets")
"""What the agent's ``paper/`` folder holds (the ones that exist)."""
PRIVATE = ("rubric.json", "judge.addendum.md", "judge")
"""What stays on the harness side."""


def cache_root() -> Path:
    """``$SCAFFOLDS_PAPERBENCH_CACHE`` or ``~/.cache/scaffolds/paperbench``, made 0700: it holds
    the demo paper's rubric, so no other user may enter it."""
    root = Path(os.environ.get(CACHE_ENV) or DEFAULT_CACHE).expanduser()
    root.mkdir(parents=True, exist_ok=True)
    if root.stat().st_uid == os.geteuid():
        os.chmod(root, 0o700)
    return root


def read_blacklist(path: Path) -> list[str]:
    """Upstream's reading of ``blacklist.txt``: stripped lines, no blanks, no ``#`` comments;
    a file that says only ``none`` (or no file) is an empty list."""
    if not path.is_file():
        return []
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    entries = [line for line in lines if line and not line.startswith("#")]
    return [] if entries == ["none"] else entries


@dataclass(frozen=True)
class Paper:
    """One paper folder of the data layout."""

    id: str
    dir: Path

    @property
    def paper_md(self) -> Path:
        return self.dir / "paper.md"

    @property
    def rubric_path(self) -> Path:
        return self.dir / "rubric.json"

    @property
    def addendum(self) -> Path:
        return self.dir / "addendum.md"

    @property
    def judge_addendum(self) -> Path | None:
        path = self.dir / "judge.addendum.md"
        return path if path.is_file() else None

    @property
    def blacklist(self) -> list[str]:
        return read_blacklist(self.dir / "blacklist.txt")

    def title(self) -> str:
        """``config.yaml``'s title, else the paper's first heading, else its id."""
        config = self.dir / "config.yaml"
        if config.is_file():
            data = yaml.safe_load(config.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("title"):
                return str(data["title"]).strip()
        for line in self.paper_md.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                return line.lstrip("#").strip()
        return self.id

    def check(self, ref: str) -> None:
        """``TaskNotPrepared``, in one line naming the file, unless paper.md and rubric.json
        exist; the rubric is parsed, so a malformed one is reported here too."""
        from bench_adapters.paperbench.rubric import load_rubric

        if not self.paper_md.is_file():
            raise TaskNotPrepared(f"{ref}: missing {self.paper_md}")
        if not self.rubric_path.is_file():
            raise TaskNotPrepared(f"{ref}: missing {self.rubric_path}")
        load_rubric(self.rubric_path)

    def public_files(self) -> list[Path]:
        return [self.dir / name for name in PUBLIC if (self.dir / name).exists()]


def find_paper(ref: str, paper_id: str, data_dir: str | Path | None) -> Paper:
    """The paper folder of ``paper_id`` under the data folder; one-line ``TaskNotPrepared``
    when there is no data folder or no folder for this paper."""
    root = data_dir or os.environ.get(DATA_ENV)
    if not root:
        raise TaskNotPrepared(
            f"{ref}: no PaperBench data folder: set ${DATA_ENV} or pass --data-dir "
            "(a copy of upstream's project/paperbench/data, holding papers/<id>/)"
        )
    folder = Path(root).expanduser() / "papers" / paper_id
    if not folder.is_dir():
        raise TaskNotPrepared(f"{ref}: missing {folder}")
    return Paper(paper_id, folder)


def _signature(paths: list[Path]) -> str:
    """Names, sizes and modification times of ``paths`` (folders walked), hashed."""
    digest = hashlib.sha256()
    for path in paths:
        for item in [path, *sorted(path.rglob("*"))] if path.is_dir() else [path]:
            st = item.stat()
            name = item.relative_to(path.parent)
            digest.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def stage_public(paper: Paper, root: Path | None = None) -> Path:
    """A folder holding ``paper/`` with the paper's public files only: what the workspace's
    ``data/`` is copied from. Built once per version of those files (a changed file gets a new
    folder), by renaming a complete temporary copy into place, so racing runs are safe."""
    root = (root or cache_root()) / "public"
    files = paper.public_files()
    final = root / f"{paper.id}-{_signature(files)}"
    if (final / "paper").is_dir():
        return final
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{paper.id}-", dir=root))
    try:
        (tmp / "paper").mkdir()
        for path in files:
            if path.is_dir():
                shutil.copytree(path, tmp / "paper" / path.name)
            else:
                shutil.copy2(path, tmp / "paper" / path.name)
        try:
            os.rename(tmp, final)
        except OSError:
            if not (final / "paper").is_dir():  # not a lost race: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final
