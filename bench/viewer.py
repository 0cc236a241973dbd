"""The run page of the 500-step AIDE overhead run: its size, how it grows, and its load time.

    .venv/bin/python bench/viewer.py              # 500 steps, about a minute
    .venv/bin/python bench/viewer.py --steps 200

The run is ``bench/aide_overhead.py``'s (a replay model, a trivial script per step, every tenth
one buggy); it writes ``view.html`` as it ends. Reported:

- ``render``: seconds to build the page from the record (``scaffolds.view.write_run_page``),
  median of 3;
- ``size``: the page against the record it is made from (trajectory.jsonl + journal.jsonl), and
  its bytes per node at a fifth, half and all of the run (linear growth: the same number);
- ``load``: wall time of headless Chromium opening the page and dumping its DOM, against the same
  for an empty page (side by side, medians of 3), the page's own script time to its first
  rendered chunk, and how many elements that DOM holds (lazy rendering: not one per event).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from aide_overhead import cassette

from aide_tree import Aide, AideConfig
from scaffolds.model import make_model
from scaffolds.runtime import execute, open_run
from scaffolds.view import write_run_page

REPEATS = 3


def prefix(run_dir: Path, nodes: int, out: Path) -> Path:
    """A copy of the record as it stood when node ``nodes - 1`` was added."""
    out.mkdir()
    shutil.copy(run_dir / "run.json", out / "run.json")
    journal = (run_dir / "journal.jsonl").read_text().splitlines(keepends=True)
    (out / "journal.jsonl").write_text("".join(journal[: nodes + 1]))
    kept, seen = [], 0
    for line in (run_dir / "trajectory.jsonl").open():
        kept.append(line)
        seen += json.loads(line)["kind"] == "node"
        if seen == nodes:
            break
    (out / "trajectory.jsonl").write_text("".join(kept))
    return out


def record_bytes(run_dir: Path) -> int:
    return sum((run_dir / f).stat().st_size for f in ("trajectory.jsonl", "journal.jsonl"))


def browse(chromium: str, page: Path, profile: Path) -> tuple[float, str]:
    argv = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", f"--user-data-dir={profile}", "--dump-dom",
            page.as_uri()]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=True)
    return time.perf_counter() - started, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500, help="steps to run (default 500)")
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="viewer-bench-"))
    os.chmod(root, 0o755)
    replay = cassette(root / "cassette.jsonl", args.steps)
    settings = {"model": f"replay:{replay}", "task": "demo/tabular-binary", "out": root / "run"}
    config = AideConfig.model_validate({**settings, "steps": args.steps, "time_limit": 24 * 3600})
    run = open_run(config, "aide", model=make_model(config.model_settings()))
    status, _ = execute(run, lambda r: Aide(r).search())
    run_dir = root / "run"
    page = run_dir / "view.html"
    assert page.is_file(), "the run did not write view.html"

    renders = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        write_run_page(run_dir)
        renders.append(time.perf_counter() - started)
    size, record = page.stat().st_size, record_bytes(run_dir)
    events = sum(1 for _ in (run_dir / "trajectory.jsonl").open())
    print(f"Run page of the AIDE overhead run: {args.steps} steps ({status}), {events} events")
    print(f"  render: {statistics.median(renders):.2f} s (median of {REPEATS})")
    print(
        f"  size: {size / 1e6:.2f} MB page from a {record / 1e6:.2f} MB record "
        f"({size / record:.2f}x)"
    )
    empty = prefix(run_dir, 0, root / "nodes-0")
    base = write_run_page(empty).stat().st_size
    growth = []
    for nodes in sorted({max(1, args.steps // 5), max(1, args.steps // 2), args.steps}):
        cut = prefix(run_dir, nodes, root / f"nodes-{nodes}")
        growth.append(f"{(write_run_page(cut).stat().st_size - base) / nodes:,.0f} B at {nodes}")
    print(f"  bytes per node beyond the {base / 1e3:.0f} kB empty page: " + ", ".join(growth))

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("  load: skipped, chromium is not installed (apt-get install -y chromium)")
    else:
        blank = root / "blank.html"
        blank.write_text("<!DOCTYPE html><html><body></body></html>")
        loads, blanks, dom = [], [], ""
        for i in range(REPEATS):  # side by side, so a busy machine slows both alike
            blanks.append(browse(chromium, blank, root / f"profile-b{i}")[0])
            wall, dom = browse(chromium, page, root / f"profile-p{i}")
            loads.append(wall)
        script = re.search(r'data-render-ms="(\d+)"', dom)
        rendered = re.search(r'data-rendered="(\d+)"', dom)
        elements = len(re.findall(r"<[a-zA-Z]", dom.split('<script type="application/json"')[0]))
        print(
            f"  load: {statistics.median(loads):.2f} s to a dumped DOM vs "
            f"{statistics.median(blanks):.2f} s for an empty page (medians of {REPEATS}); "
            f"script {script.group(1) if script else '?'} ms; "
            f"{rendered.group(1) if rendered else '?'} of {events} events rendered, "
            f"{elements} elements"
        )
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
