"""Benchmark: grading at real size, one row per large competition (time and peak memory).

    python bench/grading.py                                         # every row, 3 repeats
    python bench/grading.py --competitions ventilator-pressure-prediction --scale 0.1
    python bench/grading.py --upstream-src ~/mle-bench --upstream-python ~/mlebench-env/bin/python

Each row writes synthetic prepared data with the competition's full answer size (upstream's
split; the training side small, since grading never reads it) and a realistic submission (the
answers, perturbed) into a temporary folder, then:

- times ``python -m bench_adapters grade`` end to end in a fresh process (imports, reading the
  answers and the submission, grading, report) and records that process's peak RSS (``VmHWM``,
  so Linux only), also as a multiple of the answers' in-memory size;
- records the peak RSS of a fresh process that only imports the CLI and the grader and reads a
  one-row CSV (about 200 MiB of Python, pandas and scikit-learn), and what grading adds above
  it as a multiple of the answers' in-memory size (``growth_over_answers``, goal: under 3x;
  both the answers and the submission are held, so 2x is the floor). Where the answers are a
  few MiB the imports are most of the peak, and ``peak_rss_over_answers`` says little about
  the copies grading makes;
- times the in-process stages: reading the submission, reading the answers, the grade function;
- with ``--upstream-src`` and ``--upstream-python``, grades the same file with upstream's own
  code in that interpreter (``bench/upstream_driver.py``, a subprocess), with its wall time,
  peak RSS and score.

Goal for ventilator-pressure-prediction: end-to-end grading in 2 s or less on a laptop-class
CPU. To add a row: an entry in ``ROWS`` (full answer size and how to perturb the gold).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

DRIVER = Path(__file__).resolve().with_name("upstream_driver.py")
Perturb = Callable[[pd.DataFrame, np.random.Generator], pd.DataFrame]


def noisy(column: str) -> Perturb:
    """The gold with unit Gaussian noise on ``column``."""

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        return gold.assign(**{column: gold[column] + rng.normal(0, 1, len(gold))})

    return perturb


def tags_half_right(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """``Id, Tags``: each question's first true tag, then a popular guess (as a model's)."""
    first = gold["Tags"].str.split().str[0]
    guess = np.where(rng.random(len(gold)) < 0.5, "javascript", "c#")
    return pd.DataFrame({"Id": gold["Id"], "Tags": first + " " + guess})


def angles_off(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """``event_id, azimuth, zenith``: both angles off by about 0.2 radians (a fair model's)."""
    noise = rng.normal(0, 0.2, (2, len(gold)))
    return gold.assign(azimuth=gold["azimuth"] + noise[0], zenith=gold["zenith"] + noise[1])


def relabelled(column: str, share: float) -> Perturb:
    """The gold with ``share`` of ``column`` replaced by labels drawn from other rows (a
    classifier's mistakes, in the answers' own label mix)."""

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        wrong = rng.random(len(gold)) < share
        values = gold[column].to_numpy().copy()
        values[wrong] = rng.choice(values, int(wrong.sum()))
        return gold.assign(**{column: values})

    return perturb


def words_dropped(share: float) -> Perturb:
    """The gold sentences with one inner word dropped from ``share`` of them (a model that
    puts back the others' words)."""

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        sentences = gold["sentence"].tolist()
        for k in np.flatnonzero(rng.random(len(sentences)) < share):
            words = sentences[k].split()
            gap = int(rng.integers(1, len(words) - 1))
            sentences[k] = " ".join(words[:gap] + words[gap + 1 :])
        return gold.assign(sentence=sentences)

    return perturb


def runs_shifted(column: str) -> Perturb:
    """The gold's run-length encoded masks with every run started one pixel later (an almost
    right segmentation; blank and ``-`` cells stay empty)."""

    def shift(cell: object) -> object:
        if not isinstance(cell, str) or cell.strip() in ("", "-"):
            return cell
        return " ".join(str(int(v) + 1 - k % 2) for k, v in enumerate(cell.split()))

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        return gold.assign(**{column: [shift(cell) for cell in gold[column]]})

    return perturb


def objects_moved(
    column: str, width: int, coordinates: tuple[int, ...], spread: float, confidence: int | None
) -> Perturb:
    """The gold's objects (``width`` tokens each) with the ``coordinates`` tokens moved by
    Gaussian noise of ``spread`` (a detector's error) and, where there is one, a random
    ``confidence``; blank cells stay blank."""

    def move(cell: object, rng: np.random.Generator) -> object:
        if not isinstance(cell, str) or not cell.strip():
            return cell
        tokens = cell.split(" ")
        for start in range(0, len(tokens), width):
            for k in coordinates:
                tokens[start + k] = repr(round(float(tokens[start + k]) + rng.normal(0, spread), 3))
            if confidence is not None:
                tokens[start + confidence] = repr(round(float(rng.random()), 3))
        return " ".join(tokens)

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        return gold.assign(**{column: [move(cell, rng) for cell in gold[column]]})

    return perturb


def spans_missed(share: float) -> Perturb:
    """``example_id, PredictionString``: ``share`` of the answers blanked, as many moved by a
    token (a reader's misses and near misses)."""

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        cells = gold["PredictionString"].fillna("").astype(str).tolist()
        for k, draw in enumerate(rng.random(len(cells))):
            if draw < share:
                cells[k] = ""
            elif draw < 2 * share and ":" in cells[k]:
                start, end = (int(v) for v in cells[k].split(":"))
                cells[k] = f"{start + 1}:{end + 1}"
        return gold.assign(PredictionString=cells)

    return perturb


def shares_noisy(columns: list[str], spread: float) -> Perturb:
    """Probability rows moved by noise, clipped at 0 and rescaled to sum to one."""

    def perturb(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
        shares = np.clip(
            gold[columns].to_numpy() + rng.normal(0, spread, (len(gold), len(columns))), 0, None
        )
        shares[shares.sum(axis=1) == 0, 0] = 1.0
        return gold.assign(
            **dict(zip(columns, (shares / shares.sum(axis=1, keepdims=True)).T, strict=True))
        )

    return perturb


HMS_TARGETS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]


def organs_imperfect(gold: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """uw-madison's ``id, class, predicted`` as a fair model's: one organ missed in each
    case-day, the others a pixel off, a small false blob on 2% of the empty rows. (Missed
    organs and false blobs are the far points that let scipy's Hausdorff loop, which upstream
    uses, stop early: on a prediction only a pixel off it is quadratic, hours a case-day.)"""
    day = gold["id"].str.split("_slice_").str[0]
    missed = {d: rng.choice(sorted(gold["class"].unique())) for d in day.unique()}
    shifted = runs_shifted("predicted")(gold, rng)["predicted"].to_numpy(object)
    blob = gold["predicted"].isna().to_numpy() & (rng.random(len(gold)) < 0.02)
    cells = np.where(gold["class"] == day.map(missed), np.nan, shifted)
    return gold.assign(predicted=np.where(blob, "1 5", cells))


@dataclass(frozen=True)
class Row:
    n_test: int
    """Answer-side units at full size, as upstream's split gives (the generator's unit)."""
    submission: Perturb
    """Turns the gold submission into a realistic one."""
    multiple: int = 1
    """``n_test`` must be a multiple of this (ventilator: 80 steps a breath)."""
    n_train: int = 800
    side: int | None = None
    """Image side for the generator (None: its default; 0: the tables alone, no images)."""
    goal_s: float | None = None
    upstream_max_gib: float | None = None
    """Address space allowed to upstream's process, so that a grade needing more memory than
    the machine has fails with a ``MemoryError`` ("out of memory") instead of swapping or
    waking the OOM killer."""


ROWS: dict[str, Row] = {
    # 7,545 breaths x 80 steps.
    "ventilator-pressure-prediction": Row(603_600, noisy("pressure"), multiple=80, goal_s=2.0),
    # 10% of 6,034,195 questions, with their long Title and Body in the answers.
    "facebook-recruiting-iii-keyword-extraction": Row(603_420, tags_half_right),
    # 66 of 660 batches of 200,000 events (the pulses are written too: minutes).
    "icecube-neutrinos-in-deep-ice": Row(13_200_000, angles_off),
    # 10% of 7,069,896 products (test.bson holds every one: tens of seconds to write).
    "cdiscount-image-classification-challenge": Row(706_990, relabelled("category_id", 0.4)),
    # The label rows of 24 of 240 plays (253 a step: 231 pairs of 22 players, 22 with "G").
    "nfl-player-contact-detection": Row(472_162, relabelled("contact", 0.05)),
    # About 1% of 30,301,028 sentences of ~130 characters; half of them restored.
    "billion-word-imputation": Row(303_010, words_dropped(0.5)),
    # 20% of 2,424,186 molecules; the tables alone (485 k images would take minutes to draw).
    "bms-molecular-translation": Row(484_838, relabelled("InChI", 0.3), side=0),
    # Masks (batch E): 1,856 records of Kaggle's 256 x 256 (the bands capped at 32 pixels).
    "google-research-identify-contrails-reduce-global-warming": Row(
        1_856, runs_shifted("encoded_pixels"), n_train=2, side=256
    ),
    # 3 slides of 0.5 to 2.5 gigapixels: upstream decodes all six masks at once (GBs each).
    "hubmap-kidney-segmentation": Row(
        3, runs_shifted("predicted"), multiple=3, n_train=2, side=50_000, upstream_max_gib=6
    ),
    # 1,000 images of 101 x 101.
    "tgs-salt-identification-challenge": Row(1_000, runs_shifted("rle_mask"), n_train=2),
    # 14 cases (about 45 case-days, 19 k rows: 9 test cases and later days of training ones).
    "uw-madison-gi-tract-image-segmentation": Row(
        14, organs_imperfect, multiple=2, n_train=2, side=266
    ),
    # One fragment of 5,249 x 7,606 pixels (65 volume slices; the training fragments 2 each).
    "vesuvius-challenge-ink-detection": Row(
        65, runs_shifted("Predicted"), multiple=65, n_train=2, side=7_606
    ),
    # Boxes and structured answers (batch F): the test pages (about 180 characters each).
    "kuzushiji-recognition": Row(389, objects_moved("labels", 3, (1, 2), 2.0, None), side=256),
    # 606 studies and their ~640 radiographs (tiny stand-ins: grading reads the CSVs only).
    "siim-covid19-detection": Row(
        606, objects_moved("PredictionString", 6, (2, 3, 4, 5), 1.0, 1), n_train=2, side=32
    ),
    # 1,500 radiographs; about 70% "no finding".
    "vinbigdata-chest-xray-abnormalities-detection": Row(
        1_500, objects_moved("PredictionString", 6, (2, 3, 4, 5), 1.0, 1), n_train=2, side=32
    ),
    # 36 scenes of 126 lidar samples, about 30 boxes each; boxes off by 0.3 m.
    "3d-object-detection-for-autonomous-vehicles": Row(
        4_536, objects_moved("PredictionString", 9, (1, 2, 3), 0.3, 0), n_train=2, side=256
    ),
    # 10% of 307,373 records: test.jsonl is 1.7 GB (upstream loads it whole).
    "tensorflow2-question-answering": Row(
        30_738, spans_missed(0.2), n_train=2, side=5_500, upstream_max_gib=12
    ),
    # The label rows of 10% of 11,138 spectrograms (about 6 per EEG); recordings tiny.
    "hms-harmful-brain-activity-classification": Row(
        10_680, shares_noisy(HMS_TARGETS, 0.1), n_train=2, side=100
    ),
}


def _prepare(cid: str, row: Row, n_test: int, work: Path) -> tuple[Path, Path]:
    from bench_adapters.mlebench.synthetic import answers_as_submission, make_prepared

    data = work / "data"
    make_prepared(
        cid, data, n_train=row.n_train, n_test=n_test, seed=0, side=row.side, overwrite=True
    )
    gold = answers_as_submission(cid, data)
    path = work / f"{cid}-submission.csv"
    row.submission(gold, np.random.default_rng(0)).to_csv(path, index=False)
    return data, path


PEAK_WRAPPER = """
import atexit, runpy, sys
peak_path, kind, target = sys.argv[1:4]
def report():
    status = open("/proc/self/status").read()
    open(peak_path, "w").write(status.split("VmHWM:")[1].split()[0])
atexit.register(report)
sys.argv = [target, *sys.argv[4:]]
if kind == "module":
    runpy.run_module(target, run_name="__main__", alter_sys=True)
else:
    runpy.run_path(target, run_name="__main__")
"""
"""Runs a module or script and writes its peak RSS (``VmHWM``, KiB) to a file at exit. The
kernel's ``ru_maxrss`` of a child counts the memory of the process it was forked from (this
benchmark, which holds the generated data), so it would overstate a fresh process's peak."""


def _run(
    python: str, kind: str, target: str, args: list[str], work: Path, **popen: Any
) -> tuple[float, float, bytes]:
    """Wall seconds, peak RSS (MiB) and stdout of ``python -m target`` (``kind`` "module") or
    ``python target`` (``kind`` "path") in a fresh process; raises if it fails."""
    peak = work / "peak-kib.txt"
    cmd = [python, "-c", PEAK_WRAPPER, str(peak), kind, target, *args]
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, **popen)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{target} {' '.join(args)} exited {proc.returncode}")
    return wall, int(peak.read_text()) / 1024, proc.stdout


def _cli_run(
    cid: str, data: Path, submission: Path, work: Path
) -> tuple[float, float, dict[str, Any]]:
    """``python -m bench_adapters grade``: wall seconds, peak RSS (MiB) and the report."""
    args = ["grade", "--task", f"mlebench/{cid}", "--submission", str(submission)]
    wall, rss, out = _run(
        sys.executable, "module", "bench_adapters", [*args, "--data-dir", str(data)], work
    )
    return wall, rss, json.loads(out)


def _address_space_cap(gib: float | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` capping the child's address space at ``gib`` GiB (None: no cap)."""
    if gib is None:
        return None
    import resource

    limit = int(gib * 2**30)
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _upstream_run(
    cid: str,
    data: Path,
    submission: Path,
    src: Path,
    python: Path,
    work: Path,
    max_gib: float | None = None,
    timeout: float | None = None,
) -> tuple[float, float, Any]:
    """Upstream's grading of ``submission`` in its interpreter: wall, peak RSS, score (the
    text "out of memory" where its grade could not allocate within ``max_gib``); raises
    ``subprocess.TimeoutExpired`` past ``timeout`` seconds."""
    job = {
        "upstream_src": str(src.resolve()),
        "data_dir": str(data),
        "competition": cid,
        "submissions": [{"name": "bench", "path": str(submission)}],
    }
    job_path, results = work / "job.json", work / "results.jsonl"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    args = [str(job_path), str(results)]
    cap = _address_space_cap(max_gib)
    wall, rss, _ = _run(
        str(python),
        "path",
        str(DRIVER),
        args,
        work,
        env=env,
        cwd=work,
        preexec_fn=cap,
        timeout=timeout,
    )
    line = json.loads(results.read_text(encoding="utf-8").splitlines()[1])
    error = line.get("error") or ""
    if line["score"] is None and ("Unable to allocate" in error or "MemoryError" in error):
        return wall, rss, "out of memory"
    return wall, rss, line["score"]


def _imports_run(cid: str, work: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of a fresh process that only imports the CLI and the
    competition's grader and reads a one-row CSV (the parser's first use takes about 5 MiB):
    the floor under every grade, whatever the answers' size."""
    from bench_adapters.mlebench.graders import module_name

    module = f"bench_adapters.mlebench.graders.{module_name(cid)}"  # may start with a digit
    script = work / "imports.py"
    (work / "one-row.csv").write_text("id,value\n1,0.5\n")
    script.write_text(
        "import importlib, bench_adapters.cli\n"
        "from bench_adapters.csvio import read_csv\n"
        f"importlib.import_module({module!r})\n"
        f"read_csv({str(work / 'one-row.csv')!r})\n"
    )
    wall, rss, _ = _run(sys.executable, "path", str(script), [], work)
    return wall, rss


def bench_row(cid: str, row: Row, scale: float, repeat: int, args: argparse.Namespace) -> dict:
    from bench_adapters import CompetitionTask, resolve_task
    from bench_adapters.csvio import read_csv
    from bench_adapters.task import answers_loader

    n_test = max(row.multiple, round(row.n_test * scale / row.multiple) * row.multiple)
    with tempfile.TemporaryDirectory() as tmp:
        data, submission = _prepare(cid, row, n_test, Path(tmp))
        task = resolve_task(f"mlebench/{cid}", data_dir=data)
        assert isinstance(task, CompetitionTask)
        load_answers = answers_loader(task.grader_spec)  # tensorflow2-qa's keeps what it grades
        answers_mib = load_answers(task.answers_path).memory_usage(deep=True).sum() / 2**20
        imports = [_imports_run(cid, Path(tmp)) for _ in range(repeat)]
        imported_mib = max(r[1] for r in imports)
        cli_s, rss = [], []
        for _ in range(repeat):
            wall, peak, report = _cli_run(cid, data, submission, Path(tmp))
            cli_s.append(wall)
            rss.append(peak)
        stages: dict[str, list[float]] = {"read_submission": [], "read_answers": [], "grade_fn": []}
        for _ in range(repeat):
            t0 = time.perf_counter()
            sub = read_csv(submission)
            t1 = time.perf_counter()
            answers = load_answers(task.answers_path)
            t2 = time.perf_counter()
            task.grader_spec.grade(sub, answers)
            t3 = time.perf_counter()
            for key, value in zip(stages, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                stages[key].append(value)
            del sub, answers
        result: dict[str, Any] = {
            "competition": cid,
            "rows": n_test,
            "submission_mb": round(submission.stat().st_size / 1e6, 1),
            "answers_mb": round(task.answers_path.stat().st_size / 1e6, 1),
            "answers_in_memory_mib": round(answers_mib, 1),
            "cli_grade_s_median": round(statistics.median(cli_s), 3),
            "cli_peak_rss_mib_max": round(max(rss), 1),
            "peak_rss_over_answers": round(max(rss) / answers_mib, 2),
            "imports_peak_rss_mib": round(imported_mib, 1),
            "growth_over_answers": round((max(rss) - imported_mib) / answers_mib, 2),
            "python_start_and_imports_s_median": round(statistics.median(r[0] for r in imports), 3),
            **{f"{k}_s_median": round(statistics.median(v), 3) for k, v in stages.items()},
            "score": report["score"],
            "goal_s": row.goal_s,
        }
        if args.upstream_src and args.upstream_python:
            try:
                runs = [
                    _upstream_run(
                        cid,
                        data,
                        submission,
                        args.upstream_src,
                        args.upstream_python,
                        Path(tmp),
                        row.upstream_max_gib,
                        args.upstream_timeout,
                    )
                    for _ in range(repeat)
                ]
            except subprocess.TimeoutExpired:
                result["upstream_grade_s_median"] = f"over {args.upstream_timeout:g} s"
            else:
                median = round(statistics.median(r[0] for r in runs), 3)
                result["upstream_grade_s_median"] = median
                result["upstream_peak_rss_mib_max"] = round(max(r[1] for r in runs), 1)
                result["upstream_score"] = runs[0][2]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--competitions", nargs="+", help=f"rows to run (default: all): {', '.join(ROWS)}"
    )
    parser.add_argument("--scale", type=float, default=1.0, help="share of the full answer size")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each measure")
    parser.add_argument("--upstream-src", type=Path, help="an openai/mle-bench checkout")
    parser.add_argument("--upstream-python", type=Path, help="interpreter of upstream's pins")
    parser.add_argument(
        "--upstream-timeout", type=float, default=1800, help="seconds one upstream grade may take"
    )
    args = parser.parse_args(argv)
    wanted = [c for part in args.competitions or ROWS for c in part.replace(",", " ").split()]
    unknown = [c for c in wanted if c not in ROWS]
    if unknown:
        parser.exit(2, f"error: no benchmark row for {', '.join(unknown)}\n")
    if not 0 < args.scale <= 1 or args.repeat < 1:
        parser.exit(2, "error: --scale must be in (0, 1] and --repeat at least 1\n")
    if bool(args.upstream_src) != bool(args.upstream_python):
        parser.exit(2, "error: give both --upstream-src and --upstream-python, or neither\n")
    for cid in wanted:
        print(json.dumps(bench_row(cid, ROWS[cid], args.scale, args.repeat, args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
