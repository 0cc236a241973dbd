"""Upstream parity data: upstream MLE-bench's own verdict on a fixed set of submissions.

    python bench/upstream_parity.py --upstream-src ~/mle-bench --upstream-python ~/mlebench-env/bin/python
    python bench/upstream_parity.py --upstream-src DIR --upstream-python PY \\
        --competitions spaceship-titanic,ventilator-pressure-prediction [--out PATH]
    # several people writing the data one after another:
    flock /tmp/upstream_parity.lock python bench/upstream_parity.py ... --competitions ...

``--upstream-src`` is a checkout of openai/mle-bench (the folder holding ``mlebench/``);
``--upstream-python`` an interpreter with upstream's pinned grading environment (pandas 2.2.2,
numpy 1.26.4, scikit-learn 1.5.1, scipy 1.14.1, levenshtein 0.25.1, pyyaml, tqdm, py7zr, and
pycocotools, shapely, pyquaternion where a grader needs them). ``--competitions`` (comma- or
space-separated) defaults to every competition with both a grader and a generator here.

For each competition it writes the smoke fixture with the project's generator (seed
``mutations.FIXTURE_SEED``), the submissions of ``parity_submissions`` (gold, sample and about
40 seeded mutations), has upstream's code grade them in the other interpreter
(``bench/upstream_driver.py``, a subprocess: upstream's code is never imported here), and grades
them with the project too. It then merges upstream's rows (valid, score, error, each file's
SHA-256) into ``--out`` (default ``tests/bench_adapters/data/upstream_parity.jsonl``): rows of
the given competitions are replaced, all others kept, the file sorted; the merge is atomic and
serialised by a lock of its own, so runs may follow one another. It prints, per competition,
how many of the project's results agree, and each disagreement; where upstream's own score
depends on its machine (the order its unstable sort gives repeated ids: ``parity.
order_decides``), only validity is compared and the line says "order-dependent".

Exit status: 0 when the project agrees on every submission, 1 when it does not (the data is
written all the same) or upstream could not grade a competition, 2 for bad input.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "tests" / "bench_adapters" / "data" / "upstream_parity.jsonl"
NO_AVX512 = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"
"""numpy 1.26's sorts break ties differently where AVX-512 is on (google-quest's duplicated ids
score 0.95158 there, 0.97654 elsewhere); upstream's side runs without it, as
``graders/_sort.py`` assumes, so the data is the same whatever CPU writes it."""
DRIVER = Path(__file__).resolve().with_name("upstream_driver.py")
MERGE_LOCK = Path(tempfile.gettempdir()) / "upstream_parity.merge.lock"


def _competitions(text: list[str] | None) -> list[str]:
    from bench_adapters.mlebench import graded_ids
    from bench_adapters.mlebench.synthetic import synthetic_competitions

    available = sorted(set(graded_ids()) & set(synthetic_competitions()))
    if not text:
        return available
    wanted = [c for part in text for c in part.replace(",", " ").split()]
    missing = [c for c in wanted if c not in available]
    if missing:
        raise SystemExit(
            f"error: no grader or no generator here for {', '.join(missing)} (both are needed)"
        )
    return list(dict.fromkeys(wanted))


def _upstream_commit(src: Path) -> str:
    """``git rev-parse`` in the checkout, else a ``COMMIT`` file beside it, else "unknown"."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(src), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if proc.returncode == 0 and proc.stdout.strip():
            return proc.stdout.strip()
    except OSError:
        pass
    beside = src.resolve().parent / "COMMIT"
    if beside.is_file():
        return beside.read_text().strip()[:7]
    return "unknown"


def _upstream_results(
    cid: str, files: dict[str, Path], data: Path, args: argparse.Namespace, work: Path
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(upstream's dataset paths, results by submission name) from the driver subprocess."""
    job = {
        "upstream_src": str(args.upstream_src.resolve()),
        "data_dir": str(data),
        "competition": cid,
        "submissions": [{"name": n, "path": str(p)} for n, p in files.items()],
    }
    job_path, results_path = work / f"{cid}.job.json", work / f"{cid}.results.jsonl"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["NPY_DISABLE_CPU_FEATURES"] = NO_AVX512
    proc = subprocess.run(
        [str(args.upstream_python), str(DRIVER), str(job_path), str(results_path)],
        capture_output=True,
        text=True,
        timeout=args.timeout,
        cwd=work,
        env=env,
    )
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"upstream driver exited {proc.returncode}: {tail[0]}")
    lines = [json.loads(line) for line in results_path.read_text(encoding="utf-8").splitlines()]
    return lines[0]["config"], {line["name"]: line for line in lines[1:]}


def _config_mismatches(cid: str, config: dict[str, Any]) -> list[str]:
    """Where the project's grader names other answers, sample or gold files than upstream."""
    from bench_adapters.mlebench.graders import get_grader

    spec = get_grader(cid)
    assert spec is not None
    ours = {
        "answers": f"{cid}/prepared/private/{spec.answers}",
        "sample_submission": f"{cid}/prepared/{spec.sample_submission}",
        "gold_submission": (
            f"{cid}/prepared/private/{spec.gold_submission}" if spec.gold_submission else None
        ),
    }
    return [
        f"{key}: project {ours[key]}, upstream {config.get(key)}"
        for key in ours
        if config.get(key) != ours[key]
    ]


def _task(cid: str, data: Path) -> Any:
    from bench_adapters import resolve_task

    return resolve_task(f"mlebench/{cid}", data_dir=data)


def _project_results(cid: str, files: dict[str, Path], data: Path) -> dict[str, tuple[bool, Any]]:
    from bench_adapters import resolve_task

    task = resolve_task(f"mlebench/{cid}", data_dir=data)
    logging.disable(logging.CRITICAL)  # one warning per invalid file is noise here
    try:
        results = {}
        for name, path in files.items():
            report = task.grade(path)
            results[name] = (bool(report["valid_submission"]), report["score"])
        return results
    finally:
        logging.disable(logging.NOTSET)


def _one_competition(
    cid: str, args: argparse.Namespace, work: Path, commit: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """Upstream's rows for one competition, and the lines to print about it."""
    from bench_adapters.mlebench.synthetic import make_prepared
    from bench_adapters.mlebench.synthetic.mutations import FIXTURE_SEED, parity_submissions
    from bench_adapters.mlebench.synthetic.parity import agrees, encode_score, order_decides

    data = work / "data"
    make_prepared(cid, data, seed=FIXTURE_SEED, overwrite=True)
    folder = work / "submissions" / cid
    folder.mkdir(parents=True, exist_ok=True)
    submissions = parity_submissions(cid, data)
    files = {}
    for n, sub in enumerate(submissions):
        files[sub.name] = folder / f"{n:02d}-{sub.name}.csv"
        files[sub.name].write_bytes(sub.content)

    start = time.perf_counter()
    config, upstream = _upstream_results(cid, files, data, args, work)
    upstream_s = time.perf_counter() - start
    project = _project_results(cid, files, data)

    rows, notes = [], [f"  {m}" for m in _config_mismatches(cid, config)]
    for sub in submissions:
        got = upstream[sub.name]
        row = {
            "competition": cid,
            "submission": sub.name,
            "sha256": sub.sha256,
            "valid": got["valid"],
            "score": got["score"],
            "error": got["error"],
            "upstream": commit,
        }
        rows.append(row)
        valid, score = project[sub.name]
        if not agrees(valid, score, row):
            if valid == row["valid"] and order_decides(_task(cid, data), files[sub.name]):
                notes.append(f"  order-dependent {sub.name}: upstream's score is its machine's")
                continue
            notes.append(
                f"  DIFFERS {sub.name}: upstream valid={row['valid']} score={row['score']}"
                f" ({row['error'] or 'no error'}); project valid={valid}"
                f" score={encode_score(score)}"
            )
    same = len(rows) - sum(line.startswith("  DIFFERS") for line in notes)
    valid_count = sum(r["valid"] for r in rows)
    head = (
        f"{cid}: {len(rows)} submissions ({valid_count} valid upstream), project agrees on "
        f"{same}/{len(rows)}; upstream graded them in {upstream_s:.1f} s"
    )
    return rows, [head, *notes]


def merge(out: Path, rows: list[dict[str, Any]], competitions: list[str]) -> int:
    """Replace the rows of ``competitions`` in ``out`` with ``rows``; the row count after."""
    from bench_adapters.mlebench.synthetic.parity import dump_rows, read_rows
    from scaffolds.record import write_atomic

    out.parent.mkdir(parents=True, exist_ok=True)
    with open(MERGE_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kept = [r for r in read_rows(out) if r["competition"] not in set(competitions)]
        merged = kept + rows
        write_atomic(out, dump_rows(merged), 0o644)
    return len(merged)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--upstream-src", type=Path, required=True, help="mle-bench checkout")
    parser.add_argument(
        "--upstream-python", type=Path, required=True, help="interpreter of upstream's pins"
    )
    parser.add_argument(
        "--competitions", nargs="+", help="ids, comma- or space-separated (default: all)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the parity JSONL")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument(
        "--timeout", type=float, default=900, help="seconds upstream may take per competition"
    )
    args = parser.parse_args(argv)
    if not (args.upstream_src / "mlebench" / "competitions").is_dir():
        parser.exit(2, f"error: {args.upstream_src} holds no mlebench/competitions\n")
    if not os.access(args.upstream_python, os.X_OK):
        parser.exit(2, f"error: {args.upstream_python} is not an executable interpreter\n")
    try:
        competitions = _competitions(args.competitions)
    except SystemExit as e:
        parser.exit(2, f"{e}\n")
    commit = _upstream_commit(args.upstream_src)

    rows: list[dict[str, Any]] = []
    done: list[str] = []
    failed = differs = 0
    with tempfile.TemporaryDirectory(prefix="upstream-parity-") as scratch:
        work = args.work or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        for cid in competitions:
            try:
                got, lines = _one_competition(cid, args, work, commit)
            except Exception as e:  # one competition's failure leaves the others' data
                print(f"{cid}: FAILED: {type(e).__name__}: {e}", flush=True)
                failed += 1
                continue
            rows += got
            done.append(cid)
            differs += sum(line.startswith("  DIFFERS") for line in lines)
            print("\n".join(lines), flush=True)
    if done:
        total = merge(args.out, rows, done)
        print(
            f"wrote {len(rows)} rows for {len(done)} competitions to {args.out} ({total} rows in "
            f"all); the project disagrees on {differs}; upstream {commit}"
        )
    return 1 if failed or differs else 0


if __name__ == "__main__":
    sys.exit(main())
