"""smartphone-decimeter-2022: the phones' own fixes, outliers dropped, smoothed over time with
a Gaussian kernel and pooled over the phones riding in the same car; the kernel's width and
whether to pool are chosen on the training drives' ground truth.

    python -m baselines run --task mlebench/smartphone-decimeter-2022
    python -m baselines.mlebench.smartphone_decimeter_2022 --public-dir DATA/smartphone-decimeter-2022/prepared/public --out submission.csv

Why: each phone logs its weighted-least-squares fix every second (``WlsPosition*EcefMeters``
in device_gnss.csv), metres off the truth with noise that is partly independent from epoch to
epoch and from phone to phone, while a car moves smoothly: averaging fixes close in time, and
the fixes of the drive's other phones, removes much of that noise. The one setting (the
kernel's width in seconds, and pooling or not) is tuned on the training drives, where
ground_truth.csv gives the truth. Never reads ``supplemental/span_log.nmea`` (the reference
receiver's fixes, which leak the answer: upstream's known issue #93) nor any other supplemental
file. Positions are written at the times of sample_submission.csv, each trip's rows in its
order; a phone's log is stamped in UTC or in GPS time (18 s ahead), whichever covers the
trip's times. Writes ``tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees``.
Validation: the training drives (no parameter but the two settings is fitted). Metric: the
mean over trips of the mean of the 50th and 95th percentile errors, metres (lower is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "p50_p95_m"
SEED = 0  # unused: nothing here is random (kept for the shared interface)
WIDTHS_S = (0.0, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0)  # Gaussian kernel widths tried (0: the own fix)
KERNEL_REACH = 3.0  # fixes within this many widths of a time count towards it
OUTLIER_M = 30.0  # a fix this far from its phone's smoothed track is dropped ...
OUTLIER_WIDTH_S = 3.0  # ... the track smoothed with this kernel width
LEAP_S = 18.0  # GPS time runs this far ahead of UTC
SMOKE_TRAIN_DRIVES = 3  # --smoke: tune on at most this many training drives
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file (it needs a few minutes at most)
THREADS = 1  # numpy on one trip at a time
A, E2 = 6_378_137.0, 6.69437999014e-3  # WGS84 semi-major axis (m) and eccentricity squared
EARTH_RADIUS_M = 6_371_000  # the metric's sphere


def lat_lng(xyz: np.ndarray) -> np.ndarray:
    """(n, 2) WGS84 latitude and longitude in degrees of (n, 3) earth-centred metres
    (Bowring's formula: millimetre-exact at the ground)."""
    x, y, z = xyz.T
    b = A * np.sqrt(1 - E2)
    ep2 = (A**2 - b**2) / b**2
    p = np.hypot(x, y)
    theta = np.arctan2(z * A, p * b)
    lat = np.arctan2(z + ep2 * b * np.sin(theta) ** 3, p - E2 * A * np.cos(theta) ** 3)
    return np.degrees(np.column_stack([lat, np.arctan2(y, x)]))


def haversine_m(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances in metres between (n, 2) latitude-longitude arrays in degrees."""
    (lat1, lng1), (lat2, lng2) = np.radians(a).T, np.radians(b).T
    h = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(h))


def trip_error(predicted: np.ndarray, truth: np.ndarray) -> float:
    d = haversine_m(predicted, truth)
    return float((np.quantile(d, 0.5) + np.quantile(d, 0.95)) / 2)


def read_fixes(phone: Path) -> tuple[np.ndarray, np.ndarray]:
    """A phone's epochs (seconds) and fixes (n, 2 degrees), blanks and outliers dropped: fixes
    farther than ``OUTLIER_M`` from the track smoothed over ``OUTLIER_WIDTH_S``."""
    columns = ["utcTimeMillis", *(f"WlsPosition{c}EcefMeters" for c in "XYZ")]
    gnss = pd.read_csv(phone / "device_gnss.csv", usecols=columns)
    epochs = gnss.dropna().drop_duplicates("utcTimeMillis").sort_values("utcTimeMillis")
    times = epochs["utcTimeMillis"].to_numpy() / 1000.0
    fixes = lat_lng(epochs[columns[1:]].to_numpy(np.float64))
    good = haversine_m(fixes, smooth(times, fixes, times, OUTLIER_WIDTH_S)) < OUTLIER_M
    return times[good], fixes[good]


def smooth(times: np.ndarray, fixes: np.ndarray, at: np.ndarray, width: float) -> np.ndarray:
    """Positions at ``at`` (seconds): a straight line through the fixes within reach, fitted
    with Gaussian weights in time (unbiased at a trip's ends and on steady turns, where a
    weighted mean lags), or with ``width`` 0 (or under 3 fixes in reach) the nearest fix."""
    out = np.empty((len(at), 2))
    order = np.argsort(times)
    times, fixes = times[order], fixes[order]
    reach = KERNEL_REACH * width
    low, high = np.searchsorted(times, at - reach), np.searchsorted(times, at + reach, "right")
    nearest = np.clip(np.searchsorted(times, at), 1, len(times) - 1)
    nearest -= (at - times[nearest - 1]) < (times[nearest] - at)
    for i, t in enumerate(at):
        if width == 0 or high[i] - low[i] < 3:
            out[i] = fixes[nearest[i]]
            continue
        dt, near = times[low[i] : high[i]] - t, fixes[low[i] : high[i]]
        w = np.exp(-0.5 * (dt / width) ** 2)
        w /= w.sum()
        mean_dt, mean_fix = w @ dt, w @ near
        spread = w @ (dt - mean_dt) ** 2
        slope = (w * (dt - mean_dt)) @ (near - mean_fix) / spread if spread > 1e-9 else 0.0
        out[i] = mean_fix - slope * mean_dt
    return out


def clock_shift(at: np.ndarray, times: np.ndarray) -> float:
    """Seconds the phone's clock runs ahead of UTC: 0, or 18 when its log is stamped in GPS
    time (more of the trip's times ``at`` then fall inside the log's ``times``)."""

    def inside(shift: float) -> int:
        return int(((at + shift >= times.min()) & (at + shift <= times.max())).sum())

    return LEAP_S if inside(LEAP_S) > inside(0.0) else 0.0


def positions(
    drive: dict[str, tuple[np.ndarray, np.ndarray]],
    phone: str,
    at: np.ndarray,
    setting: tuple[float, bool],
) -> np.ndarray:
    """One phone's positions at ``at`` (UTC seconds): its own fixes smoothed, or the drive's
    phones' fixes pooled (each phone's clock brought to UTC)."""
    width, pooled = setting
    if not pooled:
        times, fixes = drive[phone]
        return smooth(times, fixes, at + clock_shift(at, times), width)
    times = np.concatenate([t - clock_shift(at, t) for t, _ in drive.values()])
    fixes = np.concatenate([f for _, f in drive.values()])
    return smooth(times, fixes, at, width)


def read_drive(folder: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``<phone>`` -> (epochs, fixes), for every phone folder of one drive."""
    return {phone.name: read_fixes(phone) for phone in sorted(folder.iterdir()) if phone.is_dir()}


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    train_folders = sorted(p for p in (public_dir / "train").iterdir() if p.is_dir())
    if smoke:
        train_folders = train_folders[:SMOKE_TRAIN_DRIVES]
    train = {d.name: read_drive(d) for d in train_folders}
    truths = {
        (drive, phone): pd.read_csv(public_dir / "train" / drive / phone / "ground_truth.csv")
        for drive, phones in train.items()
        for phone in phones
    }
    budget.log(f"train: {len(train)} drives, {len(truths)} phone trips")

    settings = [(w, pooled) for w in WIDTHS_S for pooled in (False, True)]
    errors = {}
    for setting in settings:
        trips = []
        for (drive, phone), truth in truths.items():
            at = truth["UnixTimeMillis"].to_numpy() / 1000.0
            guess = positions(train[drive], phone, at, setting)
            trips.append(
                trip_error(guess, truth[["LatitudeDegrees", "LongitudeDegrees"]].to_numpy())
            )
        errors[setting] = float(np.mean(trips))
        budget.log(f"width {setting[0]:g}s, {'pooled' if setting[1] else 'own'} phone: "
                   f"{errors[setting]:.3f} m")  # fmt: skip
    best = min(settings, key=lambda s: errors[s])
    metric_line(METRIC, errors[best], f"{len(truths)} training trips, width {best[0]:g}s, "
                f"{'pooled phones' if best[1] else 'own phone'}")  # fmt: skip

    sample = pd.read_csv(public_dir / "sample_submission.csv")
    test = {d.name: read_drive(d) for d in sorted((public_dir / "test").iterdir()) if d.is_dir()}
    rows = []
    for trip, part in sample.groupby("tripId", sort=False):
        drive, phone = str(trip).rsplit("-", 1)
        at = part["UnixTimeMillis"].to_numpy() / 1000.0
        guess = positions(test[drive], phone, at, best)
        rows.append(part.assign(LatitudeDegrees=guess[:, 0], LongitudeDegrees=guess[:, 1]))
    budget.log(f"test: {len(rows)} trips positioned")
    write_submission(pd.concat(rows).loc[sample.index], out_path, budget)
    return errors[best]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
