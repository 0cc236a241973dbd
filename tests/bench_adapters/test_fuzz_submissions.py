"""Over 1,000 malformed submissions: no exception escapes, none is valid, none gets a score.

Every mutation here is invalid under upstream's own rules for every task it is applied to
(duplicate ids are skipped for the two competitions upstream grades positionally).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench_adapters import resolve_task
from bench_adapters.demo import DEMO_IDS
from bench_adapters.mlebench import split_ids

POSITIONAL = {"new-york-city-taxi-fare-prediction", "nomad2018-predict-transparent-conductors"}
"""Upstream scores these by position, so duplicated ids are still valid there."""


def _mutations(
    task_id: str, base: pd.DataFrame, rng: np.random.Generator
) -> Iterator[tuple[str, bytes]]:
    """(name, file bytes) of invalid submissions derived from a valid one (the sample)."""
    id_col = base.columns[0]
    targets = [c for c in base.columns if c != id_col]
    text = base.to_csv(index=False).encode()
    yield "empty", b""
    yield "blank lines", b"\n\n\n"
    yield "header only", ",".join(base.columns).encode() + b"\n"
    yield "json", b'{"id": 1, "target": 0.5}\n'
    yield "prose", b"this is not a submission, just words\nand more words\n"
    yield "utf16", text.decode().encode("utf-16")
    yield "transposed", base.T.to_csv().encode()
    yield "semicolons", base.to_csv(index=False, sep=";").encode()
    for i in range(25):
        yield f"binary {i}", rng.bytes(int(rng.integers(1, 5000)))
    for col in targets:
        yield f"missing {col}", base.drop(columns=col).to_csv(index=False).encode()
        yield f"NaN {col}", base.assign(**{col: np.nan}).to_csv(index=False).encode()
    for i in range(10):
        renamed = base.rename(columns={c: f"col_{i}_{j}" for j, c in enumerate(base.columns)})
        yield f"renamed {i}", renamed.to_csv(index=False).encode()
    for k in range(1, 21):
        drop = rng.choice(len(base), size=min(k, len(base) - 1), replace=False)
        yield f"drop {k} rows", base.drop(index=base.index[drop]).to_csv(index=False).encode()
        extra = base.sample(n=k, random_state=int(rng.integers(1 << 30)), replace=True)
        yield f"{k} extra rows", pd.concat([base, extra]).to_csv(index=False).encode()
    for i in range(10):
        cut = int(len(text) * rng.uniform(0.05, 0.85))
        yield f"truncated {i}", text[:cut]
    if task_id not in POSITIONAL:
        column = base.columns.get_loc(id_col)
        for i in range(10):
            dup = base.copy()
            a, b = rng.choice(len(base), size=2, replace=False)
            dup.iloc[a, column] = dup.iloc[b, column]
            yield f"duplicate id {i}", dup.to_csv(index=False).encode()


TASKS = [f"demo/{t}" for t in DEMO_IDS] + [f"mlebench/{c}" for c in split_ids("cpu_only")]


@pytest.fixture(scope="module")
def resolved(demo_dir: Path, mlebench_data: Path) -> dict[str, object]:
    return {ref: resolve_task(ref, demo_dir=demo_dir, data_dir=mlebench_data) for ref in TASKS}


def _check(task, path: Path, name: str, failures: list[str]) -> None:  # type: ignore[no-untyped-def]
    try:
        ok, message = task.validate(path)
        report = task.grade(path)
    except Exception as e:  # the point of the test: nothing may escape
        failures.append(f"{task.id} {name}: raised {type(e).__name__}: {e}")
        return
    if ok or not message.startswith("Submission invalid!"):
        failures.append(f"{task.id} {name}: validate said {ok} {message!r}")
    if report["valid_submission"] or report["score"] is not None:
        failures.append(f"{task.id} {name}: graded {report['score']}")
    if report["normalized_reward"] not in (0.0, None) or report["any_medal"]:
        failures.append(f"{task.id} {name}: rewarded {report['normalized_reward']}")


def test_over_a_thousand_malformed_submissions(resolved: dict, tmp_path: Path) -> None:  # type: ignore[type-arg]
    failures: list[str] = []
    count = 0
    for seed, task in enumerate(resolved.values()):
        base = pd.read_csv(task.sample_submission_path)
        rng = np.random.default_rng(seed)
        for n, (name, content) in enumerate(_mutations(task.competition_id, base, rng)):
            path = tmp_path / f"{seed}-{n}.csv"
            path.write_bytes(content)
            _check(task, path, name, failures)
            count += 1
        # Files that are not CSV files at all.
        wrong_suffix = tmp_path / f"{seed}.txt"
        wrong_suffix.write_bytes(base.to_csv(index=False).encode())
        a_dir = tmp_path / f"{seed}-dir.csv"
        a_dir.mkdir()
        not_csv = [
            ("txt suffix", wrong_suffix),
            ("directory", a_dir),
            ("missing", tmp_path / "no.csv"),
        ]
        for name, path in not_csv:
            _check(task, path, name, failures)
            count += 1
    assert count >= 1000, count
    print(f"{count} malformed submissions checked")
    assert not failures, "\n".join(failures[:30])


def test_a_1gb_file_is_refused_unread(resolved: dict, tmp_path: Path) -> None:  # type: ignore[type-arg]
    huge = tmp_path / "huge.csv"
    with open(huge, "wb") as f:
        f.write(b"id,target\n")
        f.truncate(1024**3)  # sparse: 1 GiB on paper, nothing on disk
    assert os.path.getsize(huge) == 1024**3
    for task in resolved.values():
        ok, message = task.validate(huge)
        assert not ok and "bytes" in message
        assert task.grade(huge)["score"] is None
