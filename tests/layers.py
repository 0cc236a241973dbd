"""The import-layers contract: one direction of calls, and benchmark knowledge behind the adapters.

    python -m tests.layers [ROOT]      # exit 1 listing every breach; `make check` runs it

Layers, from the bottom (a module imports only from its own layer or below):

1. core: the model client, record, budget, context window, judge mechanism, protocols, stats,
   retries, exit codes, the local model server, and the ``prompts`` package;
2. ``tools``;
3. the adapters: ``bench_adapters``;
4. run assembly: ``scaffolds.runtime`` and ``scaffolds.config`` (a task, a sandbox, a kernel,
   a record);
5. the agents: ``aide_tree``, ``basic_agent``, ``iterative_agent``;
6. grid, monitor, view and report (``scaffolds.grid``, ``scaffolds.monitor``,
   ``scaffolds.view``, ``scaffolds.report``), and the reference solvers (``baselines``);
7. entry points: ``python -m scaffolds.<aide|basic|iterative|ablate|demo>`` and their common
   body, ``scaffolds.entry``.

And: no module of ``scaffolds``, ``tools`` or the three agent packages imports a benchmark's own
package (``bench_adapters.<benchmark>``) or compares a string against a benchmark's name
(``task.startswith("paperbench/")``); they ask ``bench_adapters.registry`` instead. Docstrings and
help text may name benchmarks.

And: an ability declared by a protocol (``scaffolds/protocols.py``, ``bench_adapters/registry.py``)
is asked for with ``isinstance``, or used directly when the protocol requires it, never probed
with ``getattr(x, "<member>", ...)`` or ``hasattr``: a probe hides the contract from mypy (a
benchmark's own folder may probe its own objects, e.g. an optional field of a grader spec).

Every ``import`` counts, at module level or inside a function.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CORE = (
    "scaffolds.messages", "scaffolds.protocols", "scaffolds.budget", "scaffolds.context",
    "scaffolds.model", "scaffolds.record", "scaffolds.replay", "scaffolds.retry",
    "scaffolds.session", "scaffolds.judge", "scaffolds.stats", "scaffolds.exit_codes",
    "scaffolds.integrity",
    "scaffolds.local_build", "scaffolds.local_llm", "scaffolds.timefmt", "prompts",
)  # fmt: skip
LAYERS: list[tuple[str, ...]] = [
    CORE,
    ("tools",),
    ("bench_adapters",),
    ("scaffolds.runtime", "scaffolds.config"),
    ("aide_tree", "basic_agent", "iterative_agent"),
    ("scaffolds.grid", "scaffolds.monitor", "scaffolds.view", "scaffolds.report",
     "scaffolds.disclosure", "baselines"),
    ("scaffolds.aide", "scaffolds.basic", "scaffolds.iterative", "scaffolds.ablate",
     "scaffolds.demo", "scaffolds.entry", "scaffolds.__main__"),
]  # fmt: skip
PACKAGES = ("scaffolds", "tools", "bench_adapters", "aide_tree", "basic_agent", "iterative_agent",
            "baselines", "prompts")  # fmt: skip
BENCHMARK_FREE = ("scaffolds", "tools", "aide_tree", "basic_agent", "iterative_agent")
"""Packages that must know no benchmark by name."""
BENCHMARKS = ("mlebench", "paperbench", "tam", "demo")
PROTOCOL_HOMES = ("scaffolds/protocols.py", "bench_adapters/registry.py")
"""Where the protocols of the contracts are declared: their members may not be probed."""


@dataclass(frozen=True)
class Breach:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def layer_of(module: str) -> int | None:
    """The layer of ``module`` (the most specific prefix wins); None outside the product.
    The package ``scaffolds`` itself re-exports the core."""
    if module == "scaffolds":
        return 0
    best: tuple[int, int] | None = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """``(line, module)`` of every import in ``tree`` (relative imports resolved)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep] + ([base] if base else []))
            yield node.lineno, base
            for alias in node.names:  # `from pkg import sub` may import a submodule
                yield node.lineno, f"{base}.{alias.name}"


def benchmark_literals(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """String constants naming a benchmark in a comparison or a ``startswith`` call."""

    def names_benchmark(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text in BENCHMARKS or any(text.startswith(f"{b}/") for b in BENCHMARKS):
                return text
        return None

    for node in ast.walk(tree):
        candidates: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            candidates = [node.left, *node.comparators]
            for c in node.comparators:
                if isinstance(c, ast.Tuple | ast.List | ast.Set):
                    candidates += c.elts
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("startswith", "endswith", "removeprefix")
        ):
            candidates = list(node.args)
            for a in node.args:
                if isinstance(a, ast.Tuple):
                    candidates += a.elts
        for candidate in candidates:
            found = names_benchmark(candidate)
            if found is not None:
                yield getattr(candidate, "lineno", getattr(node, "lineno", 0)), found


def protocol_members(root: Path) -> dict[str, str]:
    """Member name -> the protocol declaring it, of every ``Protocol`` in the protocol homes."""
    members: dict[str, str] = {}
    for home in PROTOCOL_HOMES:
        tree = ast.parse((root / home).read_text(encoding="utf-8"), home)
        for cls in tree.body:
            bases = [b.id if isinstance(b, ast.Name) else "" for b in getattr(cls, "bases", [])]
            if not isinstance(cls, ast.ClassDef) or "Protocol" not in bases:
                continue
            for node in cls.body:
                if isinstance(node, ast.FunctionDef):
                    members.setdefault(node.name, cls.name)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    members.setdefault(node.target.id, cls.name)
    return members


def probes(tree: ast.AST, members: dict[str, str]) -> Iterator[tuple[int, str, str]]:
    """``(line, member, protocol)`` of each ``getattr``/``hasattr`` naming a protocol member."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in members
        ):
            name = str(node.args[1].value)
            yield node.lineno, name, members[name]


def check(root: Path) -> list[Breach]:
    """Every breach of the contract in the product under ``root``."""
    breaches = []
    members = protocol_members(root)
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = module_name(root, path)
            own = layer_of(module)
            rel = str(path.relative_to(root))
            if own is None:  # a new module must be placed in a layer (LAYERS) to be checked
                breaches.append(Breach(rel, 1, f"{module} is in no layer (tests/layers.py)"))
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            free = module.split(".")[0] in BENCHMARK_FREE
            seen: set[tuple[int, int]] = set()  # (line, layer): `from x import y` breaches once
            for line, target in imported(tree, module, path.name == "__init__.py"):
                theirs = layer_of(target)
                if theirs is not None and theirs > own and (line, theirs) not in seen:
                    seen.add((line, theirs))
                    breaches.append(Breach(rel, line, f"{module} (layer {own + 1}) imports "
                                           f"{target} (layer {theirs + 1}), a layer above"))  # fmt: skip
                if free and any(
                    target == f"bench_adapters.{b}" or target.startswith(f"bench_adapters.{b}.")
                    for b in BENCHMARKS
                ):
                    breaches.append(Breach(rel, line, f"imports the benchmark module {target}"))
            inside_a_benchmark = any(module.startswith(f"bench_adapters.{b}.") for b in BENCHMARKS)
            for line, name, protocol in [] if inside_a_benchmark else probes(tree, members):
                breaches.append(Breach(rel, line, f"probes {name!r} with getattr/hasattr: "
                                       f"declared by {protocol}, ask isinstance or use it"))  # fmt: skip
            if free:
                for line, text in benchmark_literals(tree):
                    breaches.append(Breach(rel, line, f"compares against the benchmark {text!r}"))
    return sorted(set(breaches), key=lambda b: (b.path, b.line, b.what))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else Path(__file__).resolve().parents[1])
    breaches = check(root)
    for breach in breaches:
        print(breach)
    if breaches:
        print(f"layers: {len(breaches)} breach(es) of the import-layers contract", file=sys.stderr)
        return 1
    print("layers: the import-layers contract holds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
