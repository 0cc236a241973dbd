"""AIDE's search policies on a simulated search problem: best metric found against steps.

    .venv/bin/python bench/search_policies.py                 # 50 seeds x 100 steps, ~1 min
    .venv/bin/python bench/search_policies.py --steps 500 --seeds 10 --csv curves.csv

THE MODEL HERE IS A STAND-IN, NOT A LANGUAGE MODEL. ``StandIn`` is a seeded random process
written for this benchmark. It answers each operator by drawing the hidden quality of the
solution it "writes" from the distributions in ``Rates`` below, and it writes bugs at the
rates given there. The numbers show whether each policy behaves as designed on a problem whose
rules are known: greedy climbs the branch of its best draft, MCTS spreads its steps over branches,
evolutionary recombines its population. They say nothing about how the policies compare with a
real model on a real task.

The problem. Every draft takes an approach with a hidden ceiling; the validation metric (higher
is better) is the solution's quality, which improvements move toward the ceiling of its approach
(sometimes away from it: a change can hurt). A debug keeps the intended solution and fixes the
bug with some chance. A crossover combines its parents' approaches: its ceiling is the best of
their ideas' ceilings plus a small lift per further idea (so combining helps, boundedly), and
it starts from the better parent. Reviews report the metric exactly.

The harness here is what differs between policies: the policy's decision, making the node, and
appending it to a real ``journal.jsonl`` (the review and the best-node view included). The rest
of a step (prompts, kernel, validator, records) is the same for every policy and is measured by
``bench/aide_overhead.py --policy NAME``. Times are per step, mean over all steps and over the
last tenth of the steps (the journal grows, so an O(n) policy costs more late in a run).
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aide_tree import POLICIES, AideConfig, Decision, Journal, Node


@dataclass(frozen=True)
class Rates:
    """The stand-in model's distributions."""

    draft_ceiling: tuple[float, float] = (0.4, 1.0)
    """Uniform: what a draft's approach can reach at best."""
    draft_start: tuple[float, float] = (0.5, 0.8)
    """Uniform: a draft's quality, as a fraction of its ceiling."""
    improve_gain: tuple[float, float] = (0.25, 0.35)
    """Normal (mean, sd): the share of the gap to the ceiling an improvement closes (< 0 hurts)."""
    crossover_gain: tuple[float, float] = (0.3, 0.3)
    """Normal (mean, sd): the same for a crossover, from the better parent."""
    idea_lift: float = 0.03
    """A solution's ceiling: the best of its ideas' ceilings plus this per further idea."""
    draft_bugs: float = 0.4
    improve_bugs: float = 0.25
    crossover_bugs: float = 0.35
    debug_fixes: float = 0.5
    """Chance that a debug fixes the bug (keeping the intended solution)."""


STANDIN = Rates()

ARMS: dict[str, dict[str, Any]] = {
    "greedy": {"policy": "greedy"},
    "mcts": {"policy": "mcts"},
    "mcts backup=mean": {"policy": "mcts", "backup": "mean"},
    "evolutionary": {"policy": "evolutionary"},
    "evolutionary fitness": {"policy": "evolutionary", "selection": "fitness"},
}
"""Each row of the table: AIDE's defaults for everything not named (``AideConfig``)."""
CHECKPOINTS = (10, 20, 50, 100, 200, 500)


@dataclass(frozen=True)
class Hidden:
    quality: float
    ceiling: float
    ideas: frozenset[int]
    """The drafts whose approaches this solution combines."""


class StandIn:
    """A seeded stand-in for the model and the run of its code: the hidden quality of each node
    and whether it is buggy. Not a language model."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.hidden: list[Hidden] = []
        self.idea_ceilings: dict[int, float] = {}

    def answer(self, decision: Decision) -> tuple[float | None, bool]:
        """The node's metric (None when buggy) and whether it is buggy."""
        rng, s = self.rng, STANDIN
        parent = None if decision.parent is None else self.hidden[decision.parent.id]
        if decision.operator == "draft" or parent is None:
            idea = len(self.hidden)
            ceiling = self.idea_ceilings[idea] = rng.uniform(*s.draft_ceiling)
            made = Hidden(ceiling * rng.uniform(*s.draft_start), ceiling, frozenset([idea]))
            buggy = rng.random() < s.draft_bugs
        elif decision.operator == "debug":
            made, buggy = parent, rng.random() >= s.debug_fixes
        elif decision.operator == "crossover" and decision.second_parent is not None:
            other = self.hidden[decision.second_parent.id]
            better = max(parent, other, key=lambda h: h.quality)
            made = self.step_toward(better.quality, parent.ideas | other.ideas, s.crossover_gain)
            buggy = rng.random() < s.crossover_bugs
        else:
            made = self.step_toward(parent.quality, parent.ideas, s.improve_gain)
            buggy = rng.random() < s.improve_bugs
        self.hidden.append(made)
        return (None if buggy else round(made.quality, 6)), buggy

    def step_toward(
        self, quality: float, ideas: frozenset[int], gain: tuple[float, float]
    ) -> Hidden:
        """A solution with these ideas, moved from ``quality`` toward their ceiling."""
        best = max(self.idea_ceilings[i] for i in ideas)
        ceiling = min(1.0, best + STANDIN.idea_lift * (len(ideas) - 1))
        moved = quality + (ceiling - quality) * self.rng.gauss(*gain)
        return Hidden(min(max(moved, 0.0), ceiling), ceiling, ideas)


@dataclass
class Trace:
    """One seeded search."""

    best: list[float]
    """Best metric after each step (0 before any node works)."""
    seconds: list[float]
    """The harness's time of each step."""
    operators: Counter[str]
    buggy: int


def search(settings: AideConfig, seed: int, steps: int, folder: Path) -> Trace:
    policy = POLICIES[settings.policy]
    journal = Journal.open(folder / "journal.jsonl", lower_is_better=False)
    rng, model = random.Random(seed), StandIn(random.Random(1_000_003 * (seed + 1)))
    trace = Trace([], [], Counter(), 0)
    for step in range(1, steps + 1):
        started = time.perf_counter()
        decision = policy(journal, settings, rng)
        spent = time.perf_counter() - started
        metric, buggy = model.answer(decision)  # the model and the code: not the harness
        started = time.perf_counter()
        first, second = decision.parent, decision.second_parent
        journal.append(
            Node(
                id=len(journal),
                parent_id=None if first is None else first.id,
                second_parent_id=None if second is None else second.id,
                step=step,
                operator=decision.operator,
                plan=f"stand-in attempt {step}",
                code="",
                review="stand-in review",
                metric=metric,
                is_buggy=buggy,
            )
        )
        best = journal.best()
        trace.seconds.append(spent + time.perf_counter() - started)
        trace.best.append(0.0 if best is None or best.metric is None else best.metric)
        trace.operators[decision.operator] += 1
        trace.buggy += buggy
    return trace


def mean_sem(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    sem = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean, sem


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50, help="seeds per policy (default 50)")
    parser.add_argument("--steps", type=int, default=100, help="steps per search (default 100)")
    parser.add_argument("--csv", type=Path, help="write mean and SEM of every step here")
    args = parser.parse_args()

    marks = [c for c in CHECKPOINTS if c <= args.steps] or [args.steps]
    print(
        f"AIDE search policies on a simulated problem, STAND-IN MODEL (not a language model): "
        f"{args.seeds} seeds x {args.steps} steps.\nBest validation metric so far (higher is "
        f"better; ceilings drawn from {STANDIN.draft_ceiling}), mean ± SEM over seeds."
    )
    head = "".join(f"{'step ' + str(c):>15}" for c in marks)
    print(f"{'policy':<21}{head} {'buggy':>6} {'debug':>6} {'cross':>6}  harness ms/step")
    rows = []
    with tempfile.TemporaryDirectory(prefix="search-policies-") as tmp:
        for arm, overrides in ARMS.items():
            settings = AideConfig(model="stand-in", task="simulated", **overrides)
            traces = []
            for seed in range(args.seeds):
                folder = Path(tmp) / f"{arm.replace(' ', '_')}-{seed}"
                folder.mkdir()
                traces.append(search(settings, seed, args.steps, folder))
            cells = "".join(
                "{:>15}".format(
                    "{:.3f} ± {:.3f}".format(*mean_sem([t.best[m - 1] for t in traces]))
                )
                for m in marks
            )
            nodes = args.steps * args.seeds
            ops = sum((t.operators for t in traces), Counter[str]())
            shares = [sum(t.buggy for t in traces), ops["debug"], ops["crossover"]]
            tail = max(1, args.steps // 10)
            every = statistics.fmean(s for t in traces for s in t.seconds) * 1000
            late = statistics.fmean(s for t in traces for s in t.seconds[-tail:]) * 1000
            print(
                f"{arm:<21}{cells}"
                + "".join(f"{100 * n / nodes:>6.0f}%" for n in shares)
                + f"  {every:.3f} (last 10%: {late:.3f})"
            )
            for step in range(args.steps):
                mean, sem = mean_sem([t.best[step] for t in traces])
                rows.append({"policy": arm, "step": step + 1, "best_mean": mean, "best_sem": sem})
    if args.csv:
        with args.csv.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
