"""smartphone-decimeter-2022: phones riding in cars on drives around the San Francisco Bay,
one drive a date, logging GNSS each second; the task is each epoch's true position.

Each phone's ``device_gnss.csv`` carries, per epoch and satellite, the phone's own
weighted-least-squares fix (``WlsPosition*EcefMeters``): the truth plus metres of error
that wanders slowly, which smoothing and averaging between a drive's phones improve: the
signal. ``ground_truth.csv`` holds the truth (train only); as on Kaggle, each phone's
``supplemental/span_log.nmea`` holds the reference receiver's fixes, in test drives too
(upstream's known issue: it leaks the answer).

Public: ``train/<drive>/<phone>/{device_gnss.csv,device_imu.csv,ground_truth.csv,
supplemental/{gnss_log.txt,span_log.nmea}}``, ``test/<drive>/<phone>/...`` without
``ground_truth.csv``, ``metadata/`` (Kaggle's lookup tables) and ``sample_submission.csv``
(the answers with every position at one point in Indiana, as upstream writes it). Private:
``test.csv`` (``tripId,UnixTimeMillis,LatitudeDegrees,LongitudeDegrees``, ``tripId =
<drive>-<phone>``, trips in drive then phone order). Drives are named
``YYYY-MM-DD-US-<area>-<n>``; as upstream, a tenth of the dates (rounded up) are the test
set. Traces last 1,000 to 2,000 s (60 to 120 s in fixtures under 20 drives; Kaggle's run
about 25 to 50 minutes), and each epoch logs 4 satellites (Kaggle's phones about 20-40).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size

PHONES = ["GooglePixel4", "GooglePixel4XL", "GooglePixel5", "SamsungGalaxyS20Ultra", "XiaomiMi8"]
AREAS = {"MTV": (37.40, -122.08), "SJC": (37.35, -121.90), "LAX": (34.05, -118.40)}
SAMPLE_POSITION = (37.904611315634504, -86.48107806249548)
A, E2 = 6_378_137.0, 6.69437999013e-3  # WGS84
SATELLITES = 4


def ecef(lat: np.ndarray, lng: np.ndarray, height: np.ndarray) -> np.ndarray:
    """(n, 3) earth-centred coordinates of WGS84 latitude, longitude (degrees) and height."""
    phi, lam = np.deg2rad(lat), np.deg2rad(lng)
    n = A / np.sqrt(1 - E2 * np.sin(phi) ** 2)
    return np.stack(
        [
            (n + height) * np.cos(phi) * np.cos(lam),
            (n + height) * np.cos(phi) * np.sin(lam),
            (n * (1 - E2) + height) * np.sin(phi),
        ],
        axis=1,
    )


def route(rng: np.random.Generator, area: str, seconds: int) -> pd.DataFrame:
    """A drive's true track at 1 Hz: a smooth wandering path at 5 to 25 m/s."""
    lat0, lng0 = AREAS[area]
    heading = rng.uniform(0, 2 * np.pi) + np.cumsum(rng.normal(0, 0.03, seconds))
    speed = np.clip(15 + np.cumsum(rng.normal(0, 0.3, seconds)), 5, 25)
    north, east = np.cumsum(speed * np.cos(heading)), np.cumsum(speed * np.sin(heading))
    start = int(rng.integers(1_589_000_000, 1_650_000_000)) * 1000
    return pd.DataFrame(
        {
            "UnixTimeMillis": start + 1000 * np.arange(seconds),
            "LatitudeDegrees": lat0 + north / 111_320,
            "LongitudeDegrees": lng0 + east / (111_320 * np.cos(np.deg2rad(lat0))),
            "AltitudeMeters": 10 + np.cumsum(rng.normal(0, 0.05, seconds)),
            "SpeedMps": speed,
        }
    )


def ground_truth(track: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "MessageType": "Fix",
            "Provider": "GT",
            "LatitudeDegrees": track["LatitudeDegrees"].round(9),
            "LongitudeDegrees": track["LongitudeDegrees"].round(9),
            "AltitudeMeters": track["AltitudeMeters"].round(3),
            "SpeedMps": track["SpeedMps"].round(3),
            "AccuracyMeters": 0.1,
            "BearingDegrees": 0.0,
            "UnixTimeMillis": track["UnixTimeMillis"],
        }
    )


def gnss(rng: np.random.Generator, track: pd.DataFrame) -> pd.DataFrame:
    """Per epoch and satellite: signal figures and the phone's own fix (truth + drift)."""
    n = len(track)
    drift = np.cumsum(rng.normal(0, 0.4, (n, 3)), axis=0) * 0.2 + rng.normal(0, 3, (n, 3))
    fix = (
        ecef(
            track["LatitudeDegrees"].to_numpy(),
            track["LongitudeDegrees"].to_numpy(),
            track["AltitudeMeters"].to_numpy(),
        )
        + drift
    )
    epochs = np.repeat(np.arange(n), SATELLITES)
    utc = track["UnixTimeMillis"].to_numpy()[epochs] + 18_000  # GPS leads UTC by 18 s
    return pd.DataFrame(
        {
            "MessageType": "Raw",
            "utcTimeMillis": utc,
            "Svid": np.tile(rng.choice(np.arange(1, 33), SATELLITES, replace=False), n),
            "ConstellationType": 1,
            "SignalType": "GPS_L1",
            "Cn0DbHz": rng.uniform(20, 45, len(epochs)).round(2),
            "RawPseudorangeMeters": rng.uniform(2.0e7, 2.6e7, len(epochs)).round(3),
            "WlsPositionXEcefMeters": fix[epochs, 0].round(3),
            "WlsPositionYEcefMeters": fix[epochs, 1].round(3),
            "WlsPositionZEcefMeters": fix[epochs, 2].round(3),
        }
    )


def imu(rng: np.random.Generator, track: pd.DataFrame) -> pd.DataFrame:
    n = len(track)
    frame = pd.DataFrame({"MessageType": "UncalAccel", "utcTimeMillis": track["UnixTimeMillis"]})
    for axis in "XYZ":
        frame[f"Measurement{axis}"] = rng.normal(9.81 if axis == "Z" else 0, 0.3, n).round(5)
    return frame


def nmea(track: pd.DataFrame) -> str:
    """``$GPGGA`` sentences of the reference fixes (degrees and minutes, as NMEA writes)."""

    def dm(value: float, width: int) -> str:
        degrees = int(abs(value))
        return f"{degrees:0{width}d}{(abs(value) - degrees) * 60:09.6f}"

    lines = []
    for t, lat, lng in track[["UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]].itertuples(
        index=False
    ):
        clock = pd.Timestamp(int(t), unit="ms").strftime("%H%M%S.00")
        lat_hemi, lng_hemi = ("N" if lat >= 0 else "S"), ("E" if lng >= 0 else "W")
        body = f"GPGGA,{clock},{dm(lat, 2)},{lat_hemi},{dm(lng, 3)},{lng_hemi},4,20,0.6,10.0,M,,M,,"
        checksum = 0
        for char in body:
            checksum ^= ord(char)
        lines.append(f"${body}*{checksum:02X}")
    return "\n".join(lines) + "\n"


def write_phone(rng: np.random.Generator, folder: Path, track: pd.DataFrame, truth: bool) -> None:
    (folder / "supplemental").mkdir(parents=True)
    gnss(rng, track).to_csv(folder / "device_gnss.csv", index=False)
    imu(rng, track).to_csv(folder / "device_imu.csv", index=False)
    if truth:
        ground_truth(track).to_csv(folder / "ground_truth.csv", index=False)
    (folder / "supplemental" / "span_log.nmea").write_text(nmea(track), encoding="utf-8")
    (folder / "supplemental" / "gnss_log.txt").write_text(
        "# Version: v3.0.0.1 Platform: 11\n# Raw,utcTimeMillis,TimeNanos,Svid,Cn0DbHz\n",
        encoding="utf-8",
    )


def write_metadata(folder: Path) -> None:
    folder.mkdir()
    pd.DataFrame(
        {"ConstellationType": [0, 1, 2, 3, 4, 5, 6], "ConstellationName": [
            "UNKNOWN", "GPS", "SBAS", "GLONASS", "QZSS", "BEIDOU", "GALILEO"]}
    ).to_csv(folder / "constellation_type_mapping.csv", index=False)  # fmt: skip
    states = {"0": "STATE_UNKNOWN", "1": "STATE_CODE_LOCK", "2": "STATE_BIT_SYNC"}
    (folder / "raw_state_bit_map.json").write_text(json.dumps(states, indent=1), encoding="utf-8")
    delta = {"0": "ADR_STATE_UNKNOWN", "1": "ADR_STATE_VALID", "2": "ADR_STATE_RESET"}
    (folder / "accumulated_delta_range_state_bit_map.json").write_text(
        json.dumps(delta, indent=1), encoding="utf-8"
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n = size.n_train + size.n_test
    small = n < 20
    days = np.sort(
        rng.choice(
            np.arange(np.datetime64("2020-05-01"), np.datetime64("2022-04-30")), n, replace=False
        )
    )
    drives = [f"{day}-US-{rng.choice(list(AREAS))}-{int(rng.integers(1, 4))}" for day in days]
    test_days = set(rng.permutation(n)[: size.n_test].tolist())  # train_test_split of dates
    write_metadata(public / "metadata")
    answers = []
    for k, drive in enumerate(drives):
        split = "test" if k in test_days else "train"
        seconds = int(rng.integers(60, 121) if small else rng.integers(1_000, 2_001))
        track = route(rng, drive.split("-")[4], seconds)
        for phone in sorted(rng.choice(PHONES, int(rng.integers(1, 4)), replace=False)):
            write_phone(rng, public / split / drive / phone, track, truth=split == "train")
            if split == "test":
                answers.append(
                    ground_truth(track)[
                        ["UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
                    ].assign(tripId=f"{drive}-{phone}")
                )
    test = pd.concat(answers, ignore_index=True)[
        ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
    ]
    test.to_csv(private / "test.csv", index=False)
    lat, lng = SAMPLE_POSITION
    test.assign(LatitudeDegrees=lat, LongitudeDegrees=lng).to_csv(
        public / "sample_submission.csv", index=False
    )
