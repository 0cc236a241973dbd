"""Plagiarism speed: one solution against 50 reference notebooks of 500 lines, cold and warm.

    .venv/bin/python bench/monitor.py                  # 50 notebooks of 500 lines
    .venv/bin/python bench/monitor.py --notebooks 200  # a bigger reference folder

The notebooks are generated from a fixed seed: code cells of imports, functions and blocks of
statements drawn from a small random grammar (assignments, calls, loops, conditions over random
expressions), so that no two share long token runs by accident. The solution is one more such notebook with a
third of one reference copied into it (renamed), so the search has a real match to find.

Reported (medians of ``--repeats``): ``cold``, the comparison with no fingerprint cache (every
notebook tokenized, the cache written); ``warm``, with the cache the cold run left (only the
solution tokenized); ``cli warm``, ``python -m scaffolds.monitor plagiarism`` as a fresh process
with a warm cache (interpreter and numpy start-up included). Goal: warm under 1 s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scaffolds.monitor.plagiarism import compare, default_cache

LINES = 500
GOAL_WARM_S = 1.0

WORDS = ("train", "test", "feat", "col", "model", "pred", "score", "fold", "data", "frame",
         "value", "target", "mean", "std", "rate", "weight", "count", "ratio", "item", "user")  # fmt: skip
OPS = ("+", "-", "*", "/", "**", "%", "//", "&", "|")
MODULES = ("numpy as np", "pandas as pd", "lightgbm as lgb", "scipy.stats as ss",
           "matplotlib.pyplot as plt", "seaborn as sns", "xgboost as xgb", "torch", "os", "re")  # fmt: skip


def name(rng: random.Random) -> str:
    return "_".join(rng.sample(WORDS, rng.randint(1, 3))) + str(rng.randint(0, 99))


def expr(rng: random.Random, depth: int = 0) -> str:
    """A random expression: names, literals, calls, attributes, subscripts and operators."""
    pick = rng.randrange(7 if depth < 3 else 3)
    if pick == 0:
        return name(rng)
    if pick == 1:
        return str(rng.randint(0, 999)) if rng.random() < 0.7 else f"{rng.random():.3f}"
    if pick == 2:
        return f"'{name(rng)}'"
    if pick == 3:
        args = ", ".join(expr(rng, depth + 1) for _ in range(rng.randint(0, 3)))
        return f"{name(rng)}({args})"
    if pick == 4:
        return f"{expr(rng, depth + 1)} {rng.choice(OPS)} {expr(rng, depth + 1)}"
    if pick == 5:
        return f"{name(rng)}.{name(rng)}({expr(rng, depth + 1)})"
    return f"{name(rng)}[{expr(rng, depth + 1)}]"


def statements(rng: random.Random, indent: str, count: int) -> list[str]:
    lines: list[str] = []
    while len(lines) < count:
        pick = rng.randrange(10)
        if pick < 5 or len(indent) >= 8:
            target = rng.choice(
                [name(rng), f"{name(rng)}['{name(rng)}']", f"{name(rng)}, {name(rng)}"]
            )
            lines.append(f"{indent}{target} {rng.choice(['=', '+=', '='])} {expr(rng)}")
        elif pick < 7:
            lines.append(f"{indent}{name(rng)}.{name(rng)}({expr(rng)}, {name(rng)}={expr(rng)})")
        elif pick == 7:
            lines.append(f"{indent}for {name(rng)} in {expr(rng)}:")
            lines += statements(rng, indent + "    ", rng.randint(1, 4))
        elif pick == 8:
            lines.append(
                f"{indent}if {expr(rng)} {rng.choice(['<', '>', '==', 'in'])} {expr(rng)}:"
            )
            lines += statements(rng, indent + "    ", rng.randint(1, 3))
        else:
            lines.append(f"{indent}print({expr(rng)})")
    return lines


def cell(rng: random.Random) -> list[str]:
    """One random code cell: imports, a function, or a block of statements."""
    kind = rng.randrange(4)
    if kind == 0:
        mods = rng.sample(MODULES, 4)
        return [f"import {m}" for m in mods] + [f"from sklearn.{name(rng)} import {name(rng)}"]
    if kind == 1:
        args = ", ".join(name(rng) for _ in range(rng.randint(1, 4)))
        body = statements(rng, "    ", rng.randint(4, 20))
        return [f"def {name(rng)}({args}):", *body, f"    return {expr(rng)}"]
    return statements(rng, "", rng.randint(5, 25))


def notebook_cells(rng: random.Random, lines: int) -> list[str]:
    cells, total = [], 0
    while total < lines:
        body = cell(rng)
        cells.append("\n".join(body))
        total += len(body)
    return cells


def as_notebook(cells: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "source": c, "outputs": [], "metadata": {}}
                                 for c in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})  # fmt: skip


def timed(fn, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", type=int, default=50, help="reference notebooks (50)")
    parser.add_argument("--lines", type=int, default=LINES, help="lines per notebook (500)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats (3)")
    args = parser.parse_args()

    rng = random.Random(0)
    root = Path(tempfile.mkdtemp(prefix="monitor-bench-"))
    refs = root / "notebooks"
    refs.mkdir()
    copied_from: list[str] = []
    for i in range(args.notebooks):
        cells = notebook_cells(rng, args.lines)
        copied_from = copied_from or cells
        (refs / f"nb{i:03d}.ipynb").write_text(as_notebook(cells))
    own = notebook_cells(rng, args.lines * 2 // 3)
    solution = root / "solution.ipynb"
    solution.write_text(as_notebook(own + copied_from[: len(copied_from) // 3]))
    lines = sum(
        c["source"].count("\n") + 1
        for p in refs.iterdir()
        for c in json.loads(p.read_text())["cells"]
    )

    def cold() -> None:
        default_cache(refs).unlink(missing_ok=True)
        compare(solution, refs)

    cold_s = timed(cold, args.repeats)
    report = compare(solution, refs)  # leaves the cache in place
    warm_s = timed(lambda: compare(solution, refs), args.repeats)
    argv = [sys.executable, "-m", "scaffolds.monitor", "plagiarism", "--code", str(solution),
            "--against", str(refs)]  # fmt: skip
    cli_s = timed(lambda: subprocess.run(argv, capture_output=True, check=False), args.repeats)

    best = report["matches"][0]
    print(f"Plagiarism: 1 solution vs {args.notebooks} notebooks of ~{args.lines} lines "
          f"({lines} lines in all), k={report['k']}, {os.cpu_count()} CPUs")  # fmt: skip
    runner_up = report["matches"][1]["similarity"] if len(report["matches"]) > 1 else 0.0
    print(
        f"  best match {best['file']} at {best['similarity']:.0%} (a third of it was copied; "
        f"flagged: {report['flagged']}); next best {runner_up:.0%}"
    )
    print(f"  cold: {cold_s:.3f} s (no cache: every notebook tokenized)")
    print(f"  warm: {warm_s:.3f} s (cached fingerprints; goal < {GOAL_WARM_S:g} s: "
          f"{'met' if warm_s < GOAL_WARM_S else 'MISSED'}); cold/warm {cold_s / warm_s:.0f}x")  # fmt: skip
    print(f"  cli warm: {cli_s:.3f} s (a fresh python -m scaffolds.monitor plagiarism)")
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
