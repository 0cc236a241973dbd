"""``python -m bench_adapters.mlebench.synthetic``: write synthetic prepared data and stand-in
leaderboards, so the suite can be tried (and checked) without Kaggle data."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from bench_adapters.cli import OneLineParser

EXAMPLES = """examples:
  python -m bench_adapters.mlebench.synthetic --data-dir /tmp/mle-data --mlebench-dir /tmp/mle-bench
  python -m bench_adapters.mlebench.synthetic --data-dir D --competitions spaceship-titanic,leaf-classification
  python -m bench_adapters.mlebench.synthetic --data-dir D --competitions aerial-cactus-identification --scale full
  python -m baselines check --split lite --data-dir /tmp/mle-data --mlebench-dir /tmp/mle-bench --smoke

exit codes: 0 written, 2 bad input (unknown competition; data, or a leaderboard, config or
            description, already there without --overwrite)"""


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m bench_adapters.mlebench.synthetic",
        description="Write synthetic MLE-bench data in upstream's prepared layout "
        "(<data-dir>/<id>/prepared/{public,private}) and, with --mlebench-dir, stand-in "
        "leaderboards whose medals mean 'as good as the answers'.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data-dir", type=Path, required=True, help="where prepared data goes")
    parser.add_argument(
        "--mlebench-dir", type=Path, help="write stand-in leaderboards under this checkout"
    )
    parser.add_argument(
        "--competitions", help="comma-separated ids (default: every one with a generator)"
    )
    parser.add_argument(
        "--scale",
        choices=("smoke", "full"),
        default="smoke",
        help="smoke: small (seconds); full: the real competitions' sizes (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="default: %(default)s")
    parser.add_argument(
        "--median-share",
        type=float,
        default=0.25,
        help="where the boards' median sits between the sample (0) and the answers (1)",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace existing data and, under --mlebench-dir, leaderboard.csv, config.yaml "
        "and description.md",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    from . import make_prepared, synthetic_competitions
    from .leaderboards import refuse_existing, write_checkout

    args = build_parser().parse_args(argv)
    known = synthetic_competitions()
    ids = (
        [c.strip() for c in args.competitions.split(",") if c.strip()]
        if args.competitions
        else known
    )
    unknown = [c for c in ids if c not in known]
    if unknown or not ids:
        what = ", ".join(unknown) if unknown else "none named"
        print(f"error: no generator for: {what} (known: {', '.join(known)})", file=sys.stderr)
        return 2
    if not 0 < args.median_share < 1:
        print("error: --median-share must be between 0 and 1", file=sys.stderr)
        return 2
    if args.mlebench_dir and not args.overwrite:  # checked first: a refusal writes nothing
        try:
            refuse_existing(args.mlebench_dir, ids)
        except FileExistsError as e:
            print(f"error: {e}; pass --overwrite to replace it", file=sys.stderr)
            return 2
    for cid in ids:
        start = time.monotonic()
        try:
            prepared = make_prepared(
                cid,
                args.data_dir,
                seed=args.seed,
                full_size=args.scale == "full",
                overwrite=args.overwrite,
            )
        except FileExistsError as e:
            print(f"error: {e} (or pass --overwrite)", file=sys.stderr)
            return 2
        print(f"{cid}: {prepared} ({time.monotonic() - start:.1f}s)", flush=True)
    if args.mlebench_dir:
        # Grading the answers and the sample here has no leaderboard yet, by design.
        logging.getLogger("bench_adapters").setLevel(logging.ERROR)
        write_checkout(
            args.mlebench_dir, args.data_dir, ids, args.median_share, overwrite=args.overwrite
        )
        print(f"leaderboards: {args.mlebench_dir / 'mlebench' / 'competitions'}")
    return 0
