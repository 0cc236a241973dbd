"""Task references -> Task objects, for every benchmark adapter.

A reference is ``<benchmark>/<id>`` (``mlebench/spaceship-titanic``, ``demo/tabular-binary``) or
a path to a task folder (one holding ``prepared/public`` and ``prepared/private``, named after
the task id). Adapters are imported only when used; a new benchmark adds one line to
:data:`ADAPTERS`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from bench_adapters.errors import UnknownTask
from bench_adapters.options import NAMES
from scaffolds.protocols import MonitorRule, PlannedRun, ReportSection, Task

ADAPTERS: dict[str, str] = {
    "mlebench": "bench_adapters.mlebench.adapter:MLEBench",
    "demo": "bench_adapters.demo.adapter:Demo",
    "tam": "bench_adapters.tam.adapter:Tam",
    "paperbench": "bench_adapters.paperbench.adapter:PaperBench",
}
"""Benchmark name -> ``module:Class`` of its adapter."""

OPTIONS = NAMES
"""Every option any adapter takes; each adapter ignores the ones meant for other benchmarks."""


class Benchmark(Protocol):
    """What the registry needs from one benchmark's adapter, and what the rest of the suite
    may ask about a benchmark: nothing outside ``bench_adapters/<benchmark>/`` names one."""

    name: str
    submits_folders: bool
    """A submission is a folder (PaperBench's repository), not a file."""

    def splits(self) -> list[str]: ...

    def needs_gpu(self, task_id: str) -> bool | None:
        """Whether the task needs a GPU; None when the benchmark does not say (a run then gets
        the machine's GPUs)."""
        ...

    def list_ids(self, split: str | None = None, graded_only: bool = False) -> list[str]: ...

    def resolve(self, task_id: str, **options: Any) -> Task: ...

    def from_folder(self, folder: Path, **options: Any) -> Task | None:
        """The task in ``folder``, or ``None`` when its id is not one of this benchmark's."""
        ...


@runtime_checkable
class HasReportSections(Protocol):
    """A benchmark that adds its own sections to a grid's report (TAM-Bench's tables,
    PaperBench's replication score, MLE-bench's known issues)."""

    def report_sections(
        self, rows: list[dict[str, Any]], plan: list[PlannedRun]
    ) -> list[ReportSection]:
        """Sections for the grid's ``rows`` (one per run, as results.jsonl holds them) and its
        ``plan`` (every planned run; a planned run with no row counts as failed); empty when
        the grid ran none of the benchmark's tasks."""
        ...


@runtime_checkable
class HasMonitorRules(Protocol):
    """A benchmark with rules of its own for the run monitors (PaperBench's blacklist)."""

    def monitor_rules(self) -> list[MonitorRule]: ...


@runtime_checkable
class HasKnownIssues(Protocol):
    """A benchmark that records known problems of its tasks (leaks, broken data...)."""

    def known_issues(self, task_id: str) -> list[str]:
        """One line per known problem of ``task_id``; empty when there is none."""
        ...


def benchmarks() -> list[str]:
    return list(ADAPTERS)


def benchmark_of(ref: str) -> Benchmark | None:
    """The benchmark of the reference ``<benchmark>/<id>``; None for a folder path or an
    unknown benchmark."""
    head, sep, rest = ref.partition("/")
    return get_benchmark(head) if sep and rest and head in ADAPTERS else None


def needs_gpu(ref: str) -> bool | None:
    """Whether the task ``ref`` needs a GPU, as its benchmark says; None when it does not say."""
    benchmark = benchmark_of(ref)
    return None if benchmark is None else benchmark.needs_gpu(ref.partition("/")[2])


def submits_folder(ref: str) -> bool:
    """Whether a submission to ``ref``'s benchmark is a folder (without resolving the task)."""
    benchmark = benchmark_of(ref)
    return bool(benchmark is not None and benchmark.submits_folders)


def get_benchmark(name: str) -> Benchmark:
    if name not in ADAPTERS:
        raise UnknownTask(f"unknown benchmark {name!r} (known: {', '.join(ADAPTERS)})")
    module, cls = ADAPTERS[name].split(":")
    adapter: Benchmark = getattr(importlib.import_module(module), cls)()
    return adapter


def task_folder(path: Path) -> Path | None:
    """The task folder at ``path`` (it, or its parent when ``path`` is the ``prepared`` dir)."""
    path = path.expanduser()
    if (path / "prepared").is_dir():
        return path
    if path.name == "prepared" and path.is_dir():
        return path.parent
    return None


def resolve_task(ref: str, **options: Any) -> Task:
    """Resolve ``ref`` to a Task; options go to the benchmark's adapter (``None`` values dropped).

    Raises ``UnknownTask`` for an unknown reference and ``TaskNotPrepared`` for a known task
    whose data is missing.
    """
    unknown = sorted(set(options) - OPTIONS)
    if unknown:
        raise TypeError(f"unknown task option(s) {unknown}; known: {sorted(OPTIONS)}")
    options = {k: v for k, v in options.items() if v is not None}
    head, sep, rest = ref.partition("/")
    if sep and head in ADAPTERS:
        if not rest:
            raise UnknownTask(f"unknown task {ref!r}: give an id after {head}/")
        return get_benchmark(head).resolve(rest, **options)
    folder = task_folder(Path(ref))
    if folder is None:
        raise UnknownTask(
            f"unknown task {ref!r}: use <benchmark>/<id> ({', '.join(ADAPTERS)}) or a task folder"
        )
    for name in ADAPTERS:
        task = get_benchmark(name).from_folder(folder, **options)
        if task is not None:
            return task
    raise UnknownTask(f"task folder {folder} is not named after any known task id")


def list_tasks(
    benchmark: str | None = None, split: str | None = None, *, graded_only: bool = False
) -> list[str]:
    """Task references, ``<benchmark>/<id>``, of one benchmark or all, optionally one split.

    ``graded_only`` keeps the tasks this package can grade (every split id is listed otherwise).
    """
    names = [benchmark] if benchmark else benchmarks()
    adapters = [get_benchmark(n) for n in names]
    if split is not None:
        adapters = [a for a in adapters if split in a.splits()]
        if not adapters:
            known = sorted({s for n in names for s in get_benchmark(n).splits()})
            raise ValueError(f"unknown split {split!r} (known: {', '.join(known)})")
    return [f"{a.name}/{i}" for a in adapters for i in a.list_ids(split, graded_only=graded_only)]


def list_known_issues(
    benchmark: str | None = None, split: str | None = None, *, graded_only: bool = False
) -> list[tuple[str, str]]:
    """``(task reference, problem)`` for each known problem of the tasks ``list_tasks`` gives."""
    out = []
    for ref in list_tasks(benchmark, split, graded_only=graded_only):
        name, _, task_id = ref.partition("/")
        adapter = get_benchmark(name)
        if isinstance(adapter, HasKnownIssues):
            out += [(ref, line) for line in adapter.known_issues(task_id)]
    return out
