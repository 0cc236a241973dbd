"""new-york-city-taxi-fare-prediction: train is ``public/labels.csv``; keys are opaque,
unique ``"YYYY-MM-DD HH:MM:SS.<7+ digits>"`` strings; fares follow distance, rush hour and year.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size, spans, write_csv, write_split_files

_TAXI_START = np.datetime64("2009-01-01T00:00:00")
_TAXI_SPAN_S = 6 * 365 * 24 * 3600
_TAXI_RTF = "{\\rtf1\\ansi Synthetic stand-in for the GCP coupon instructions.\\par}\n"


def _taxi_rows(rng: np.random.Generator, serials: np.ndarray) -> pd.DataFrame:
    n = len(serials)
    when = _TAXI_START + rng.integers(0, _TAXI_SPAN_S, n).astype("timedelta64[s]")
    stamp = pd.Series(np.datetime_as_string(when, unit="s")).str.replace("T", " ", regex=False)
    pickup_lon, pickup_lat = rng.uniform(-74.02, -73.93, n), rng.uniform(40.70, 40.80, n)
    dropoff_lon = pickup_lon + rng.normal(0, 0.02, n)
    dropoff_lat = pickup_lat + rng.normal(0, 0.02, n)
    km = 111.0 * np.hypot((dropoff_lon - pickup_lon) * 0.76, dropoff_lat - pickup_lat)
    hour = when.astype("datetime64[h]").astype(np.int64) % 24
    year = when.astype("datetime64[Y]").astype(np.int64) + 1970
    passengers = rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.69, 0.15, 0.04, 0.02, 0.07, 0.03])
    fare = 3.0 + 2.2 * km + 1.0 * ((hour >= 16) & (hour < 20)) + 0.8 * (year >= 2012)
    fare = np.round(np.maximum(fare + rng.normal(0, 1.2, n), 2.5), 2)
    return pd.DataFrame(
        {
            "key": stamp + "." + pd.Series(serials).astype(str).str.zfill(7),
            "fare_amount": fare,
            "pickup_datetime": stamp + " UTC",
            "pickup_longitude": pickup_lon.round(6),
            "pickup_latitude": pickup_lat.round(6),
            "dropoff_longitude": dropoff_lon.round(6),
            "dropoff_latitude": dropoff_lat.round(6),
            "passenger_count": passengers,
        }
    )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_train, n_test = size.n_train, size.n_test
    train = (_taxi_rows(rng, np.arange(s.start, s.stop) + 1) for s in spans(n_train))
    write_csv(public / "labels.csv", train)
    test = _taxi_rows(rng, np.arange(n_train, n_train + n_test) + 1)
    sample = pd.DataFrame({"key": test["key"], "fare_amount": 11.35})
    write_split_files(public, private, test, ["fare_amount"], sample)
    (public / "GCP-Coupons-Instructions.rtf").write_text(_TAXI_RTF)
