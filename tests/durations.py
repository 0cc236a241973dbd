"""The end of ``make test``: the 15 slowest tests of both phases, and the wall time.

    python -m tests.durations parallel=SECONDS:parallel.xml serial=SECONDS:serial.xml

Each argument is a phase: its name, its wall seconds and the JUnit XML its pytest wrote
(``--junitxml``). A test's time there is its setup, call and teardown together, so a session
fixture's cost (shared data built once, behind a lock) lands on the first test that asked for
it. The 60 s rule (tests/parallel.py) counts the call alone.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

SLOWEST = 15


@dataclass
class Phase:
    name: str
    wall_s: float
    tests: list[tuple[float, str]]
    """(seconds, test id) of every test it ran."""
    counts: dict[str, int]


def minutes(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s} s" if m else f"{s} s"


def read_phase(argument: str) -> Phase:
    """``name=SECONDS:path.xml``; a missing file is a phase that ran no test."""
    name, _, rest = argument.partition("=")
    seconds, _, path = rest.partition(":")
    tests: list[tuple[float, str]] = []
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if Path(path).is_file():
        root = ET.parse(path).getroot()
        for suite in root.iter("testsuite"):
            for key in counts:
                counts[key] += int(suite.get(key, 0))
        for case in root.iter("testcase"):
            module = case.get("classname", "").replace(".", "/")
            tests.append((float(case.get("time", 0)), f"{module}.py::{case.get('name')}"))
    return Phase(name, float(seconds), tests, counts)


def main(argv: list[str]) -> int:
    phases = [read_phase(a) for a in argv]
    everything = sorted((t for p in phases for t in p.tests), reverse=True)
    print(f"\n{SLOWEST} slowest tests (setup + call + teardown, both phases):")
    for seconds, test in everything[:SLOWEST]:
        print(f"  {seconds:7.1f} s  {test}")
    total = sum(p.counts["tests"] for p in phases)
    wall = sum(p.wall_s for p in phases)
    parts = ", ".join(
        f"{p.name} {minutes(p.wall_s)} ({p.counts['tests']:,} tests, "
        f"{p.counts['failures'] + p.counts['errors']} failed, {p.counts['skipped']} skipped)"
        for p in phases
    )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"make test: {total:,} tests in {minutes(wall)} wall: {parts}; load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
