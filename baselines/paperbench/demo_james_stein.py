"""paperbench/demo-james-stein: the demo paper's reference submission, a committed git repository.

    python -m baselines run --task paperbench/demo-james-stein
    python -m baselines.paperbench.demo_james_stein --public-dir <workspace>/data --out submission

Copies the reference repository (``demo_james_stein_repo/``: ``simulate.py``, ``reproduce.sh``,
``README.md``) into the submission folder and commits it, then runs the simulation once in a
scratch folder to state its headline number. It replicates both experiments but leaves out the
positive-part estimator and the Monte Carlo standard errors, so its human-graded tree
(``judge_eval/demo-james-stein/0``) has leaves of both grades. ``check_outputs`` is what
``python -m baselines check`` verifies in the folder that ``reproduce.sh`` filled.
"""

from __future__ import annotations

import csv
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from baselines.kit import Budget, metric_line, standalone

METRIC = "js_risk_d10_r0"
SEED = 0  # simulate.py's generator seed
TIME_BUDGET_S = 120.0  # the simulation needs about a second
THREADS = 1  # NumPy on 20,000 x 50 arrays: one thread
REPO = "demo_james_stein_repo"  # package folder holding the reference repository
FILES = ("simulate.py", "reproduce.sh", "README.md")
TOLERANCE = 0.15  # the judge addendum's tolerance on a risk
GIT = ["git", "-c", "user.name=baseline", "-c", "user.email=baseline@example.com"]


def write_repository(out: Path) -> None:
    """The reference files in ``out`` (created), committed as one commit."""
    out.mkdir(parents=True, exist_ok=True)
    source = resources.files(__package__).joinpath(REPO)
    for name in FILES:
        (out / name).write_bytes(source.joinpath(name).read_bytes())
    (out / "reproduce.sh").chmod(0o755)
    (out / ".gitignore").write_text("results/\n", encoding="utf-8")
    for args in (["init", "--quiet"], ["add", "-A"], ["commit", "--quiet", "-m", "Reference"]):
        subprocess.run([*GIT, "-C", str(out), *args], check=True, capture_output=True)


def read_risks(results: Path) -> dict[tuple[int, float, str], float]:
    with open(results / "risks.csv", newline="") as f:
        return {
            (int(row["d"]), float(row["r"]), row["estimator"]): float(row["risk"])
            for row in csv.DictReader(f)
        }


def check_outputs(folder: Path) -> list[tuple[str, bool, str]]:
    """``(expectation, holds, evidence)`` for the paper's claims, read from the files that
    ``reproduce.sh`` wrote in ``folder``."""
    try:
        risk = read_risks(folder / "results")
    except (OSError, KeyError, ValueError) as exc:
        return [("results/risks.csv readable", False, f"{type(exc).__name__}: {exc}")]
    js = {r: risk[(10, r, "james_stein")] for r in (0.0, 1.0, 2.0, 4.0, 8.0)}
    mle = {r: risk[(10, r, "mle")] for r in js}
    at_zero = {d: risk[(d, 0.0, "james_stein")] for d in (3, 10, 50)}
    rising = [js[r] for r in sorted(js)]
    return [
        ("JS risk ~2 at theta=0, d=10", abs(js[0.0] - 2) <= TOLERANCE, f"{js[0.0]:.3f}"),
        ("JS below the MLE at every r", all(js[r] < mle[r] for r in js), f"{js} vs {mle}"),
        ("JS risk rises with r", rising == sorted(rising), f"{rising}"),
        (
            "JS risk ~2 at theta=0 for d=3,10,50",
            all(abs(v - 2) <= TOLERANCE for v in at_zero.values()),
            f"{at_zero}",
        ),
        ("table1.md and table2.md written", all((folder / "results" / t).is_file()
         for t in ("table1.md", "table2.md")), "results/"),
    ]  # fmt: skip


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    paper = public_dir / "paper" / "paper.md"
    budget.log(f"paper: {paper} ({'found' if paper.is_file() else 'missing'})")
    write_repository(Path(out_path))
    budget.log(f"committed {', '.join(FILES)} in {out_path}")
    with tempfile.TemporaryDirectory(prefix="james-stein-") as scratch:
        subprocess.run(
            [sys.executable, str(Path(out_path) / "simulate.py"), "--out", scratch],
            check=True,
            capture_output=True,
            timeout=max(1.0, budget.left()),
        )
        value = read_risks(Path(scratch))[(10, 0.0, "james_stein")]
    metric_line(METRIC, value, "James-Stein risk at theta=0, d=10, 20,000 draws; theory: 2")
    return value


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
