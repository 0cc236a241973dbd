"""icecube-neutrinos-in-deep-ice: neutrino events seen by 5,160 light sensors (86 strings of
60 on a hexagonal grid), whose direction (``azimuth`` in [0, 2 pi), ``zenith`` in [0, pi]) is
to be found from the pulses. Light reaches each sensor at ``t0 + (r . u) / c`` (plus 3 ns of
jitter), ``u`` the unit vector the direction names and ``r`` the sensor's position: a plane
fitted to a few pulses' times points the way (the signal). Auxiliary pulses are noise.

Public: ``train_meta.parquet`` (``batch_id, event_id, first_pulse_index, last_pulse_index,
azimuth, zenith``), ``test_meta.parquet`` (the same without the angles),
``train/batch_<id>.parquet`` and ``test/batch_<id>.parquet`` (pulses indexed by
``event_id``: ``sensor_id`` int16, ``time`` int64 ns, ``charge`` float64, ``auxiliary`` bool,
time-ordered within an event; an event's pulses are rows ``first_pulse_index`` to
``last_pulse_index`` of its batch file), ``sensor_geometry.csv`` (``sensor_id, x, y, z`` in
metres) and ``sample_submission.csv`` (``event_id``, ``azimuth`` = ``zenith`` = 1). Private:
``test.csv`` (``event_id, azimuth, zenith``). As upstream: whole batches (200,000 events each
at full size, fewer in small fixtures) go to train or test, a tenth of them to test, and
events keep their original, increasing ids.

Caps at full size: the test tables have their real 13.2 M events (66 batches), the training
set 2 M (10 batches; the real 594 hold 118.8 M), and every event has 4 to 8 signal pulses and
up to 2 auxiliary ones (real events have tens to thousands).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .common import Size

EVENTS_PER_BATCH = 200_000
SPEED = 0.2998  # metres per nanosecond
STRINGS, PER_STRING = 86, 60
ZENITH_DECIMALS = 10


def geometry() -> pd.DataFrame:
    """86 strings on a 125 m hexagonal grid, 60 sensors each from 500 m down to -500 m."""
    k = np.arange(-6, 7)
    q, r = np.meshgrid(k, k)
    x = 125.0 * (q + r / 2).ravel()
    y = 125.0 * (r * math.sqrt(3) / 2).ravel()
    nearest = np.argsort(np.hypot(x, y), kind="stable")[:STRINGS]
    depth = np.linspace(500.0, -500.0, PER_STRING)
    return pd.DataFrame(
        {
            "sensor_id": np.arange(STRINGS * PER_STRING),
            "x": np.repeat(x[nearest], PER_STRING).round(2),
            "y": np.repeat(y[nearest], PER_STRING).round(2),
            "z": np.tile(depth, STRINGS).round(2),
        }
    )


def _batch(
    rng: np.random.Generator, sensors: np.ndarray, event_ids: np.ndarray
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(meta with angles, pulses) of one batch's events."""
    n = len(event_ids)
    azimuth = rng.uniform(0, 2 * np.pi, n)
    # Rounded, so that the answers are the same bytes on every CPU: numpy's arccos differs in
    # the last bit where AVX-512 is on (the parity data stores each file's SHA-256).
    zenith = np.arccos(rng.uniform(-1, 1, n)).round(ZENITH_DECIMALS)
    u = np.stack(
        [np.sin(zenith) * np.cos(azimuth), np.sin(zenith) * np.sin(azimuth), np.cos(zenith)], 1
    )
    signal = rng.integers(4, 9, n)
    noise = rng.integers(0, 3, n)
    counts = signal + noise
    event = np.repeat(np.arange(n), counts)
    within = np.arange(len(event)) - np.repeat(np.cumsum(counts) - counts, counts)
    auxiliary = within >= np.repeat(signal, counts)
    sensor = rng.integers(0, len(sensors), len(event))
    start = rng.integers(5_000, 15_000, n)
    arrival = start[event] + 3_000 + (sensors[sensor] * u[event]).sum(axis=1) / SPEED
    time = np.where(auxiliary, start[event] + rng.uniform(0, 8_000, len(event)), arrival)
    time = np.rint(time + rng.normal(0, 3, len(event))).astype(np.int64)
    order = np.lexsort((time, event))
    pulses = pd.DataFrame(
        {
            "sensor_id": sensor[order].astype(np.int16),
            "time": time[order],
            "charge": rng.lognormal(0, 0.6, len(event)).round(3),
            "auxiliary": auxiliary[order],
        },
        index=pd.Index(event_ids[event[order]], name="event_id"),
    )
    last = np.cumsum(counts) - 1
    meta = pd.DataFrame(
        {
            "event_id": event_ids,
            "first_pulse_index": last - counts + 1,
            "last_pulse_index": last,
            "azimuth": azimuth,
            "zenith": zenith,
        }
    )
    return meta, pulses


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    per_batch = min(EVENTS_PER_BATCH, max(1, math.ceil(size.n_test / 2)))
    n_test_batches = math.ceil(size.n_test / per_batch)
    n_batches = n_test_batches + math.ceil(size.n_train / per_batch)
    test_batches = set((rng.permutation(n_batches)[:n_test_batches] + 1).tolist())
    sensor_table = geometry()
    sensor_table.to_csv(public / "sensor_geometry.csv", index=False)
    sensors = sensor_table[["x", "y", "z"]].to_numpy()
    metas: dict[str, list[pd.DataFrame]] = {"train": [], "test": []}
    left = {"train": size.n_train, "test": size.n_test}
    next_id = 24
    for batch_id in range(1, n_batches + 1):
        split = "test" if batch_id in test_batches else "train"
        n = min(per_batch, left[split])
        left[split] -= n
        event_ids = next_id + np.cumsum(rng.integers(1, 5, n))
        next_id = int(event_ids[-1])
        meta, pulses = _batch(rng, sensors, event_ids)
        meta.insert(0, "batch_id", batch_id)
        metas[split].append(meta)
        (public / split).mkdir(exist_ok=True)
        pq.write_table(pa.Table.from_pandas(pulses), public / split / f"batch_{batch_id}.parquet")
    train, test = pd.concat(metas["train"]), pd.concat(metas["test"])
    pq.write_table(pa.Table.from_pandas(train, preserve_index=False), public / "train_meta.parquet")
    pq.write_table(
        pa.Table.from_pandas(test.drop(columns=["azimuth", "zenith"]), preserve_index=False),
        public / "test_meta.parquet",
    )
    answers = test[["event_id", "azimuth", "zenith"]]
    answers.to_csv(private / "test.csv", index=False)
    answers.assign(azimuth=1, zenith=1).to_csv(public / "sample_submission.csv", index=False)
