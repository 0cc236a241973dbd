"""nfl-player-contact-detection: American-football plays tracked at 10 Hz. Every step of a
play has a label row for every pair of players and for every player with the ground ("G");
``contact`` is 1 while two players touch (blocking partners close in, stay locked a few steps,
then part) or while a player is down on the ground after a fall. The tracking data carries
the signal: players in contact are within about a yard, and a fall shows as an acceleration
spike.

Public: ``train_labels.csv`` (``contact_id,game_play,datetime,step,nfl_player_id_1,
nfl_player_id_2,contact``; ``contact_id`` = ``<game_play>_<step>_<id1>_<id2>``, the lower id
first, ``G`` for the ground), ``{train,test}_player_tracking.csv`` (positions, speed,
direction, orientation, acceleration per player and step, from 5 steps before the snap),
``{train,test}_baseline_helmets.csv`` (helmet boxes per video frame, Endzone and Sideline),
``{train,test}_video_metadata.csv``, ``sample_submission.csv`` (``contact_id,contact`` = 0).
Private: ``test.csv`` (the label rows of the test plays). As upstream, train and test hold
different plays. Not written: the play videos (``train/``, ``test/``, three ``.mp4`` a play),
which need a video encoder this package does not depend on; the tracking and helmet tables
carry what they show. Fixtures under 10,000 test rows have 6 players a play (Kaggle: 22), and
the last play of each split may stop in the middle of a step, so that row counts are exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Size

STEP_S = 0.1
PRE_SNAP = 5
"""Tracking steps before the snap (step 0)."""
POSITIONS = {
    "home": ["C", "G", "T", "TE", "WR", "QB", "RB"],
    "away": ["DE", "DT", "OLB", "ILB", "CB", "SS", "FS"],
}
VIEWS = ["All29", "Endzone", "Sideline"]
CONTACT_YARDS = 1.0
FRAMES_PER_STEP = 6
"""59.94 frames a second."""


@dataclass
class Play:
    """One play's tables."""

    labels: pd.DataFrame
    tracking: pd.DataFrame
    helmets: pd.DataFrame
    videos: pd.DataFrame


def motion(rng: np.random.Generator, players: int, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions (time, player, xy) from ``-PRE_SNAP`` to ``steps - 1`` and falls (time, player)."""
    times = PRE_SNAP + steps
    half = players // 2
    line = rng.uniform(30, 90)
    start = np.column_stack(
        [
            np.concatenate(
                [line - rng.uniform(1, 6, half), line + rng.uniform(1, 6, players - half)]
            ),
            rng.uniform(8, 45, players),
        ]
    )
    partner = np.concatenate(
        [half + rng.permutation(players - half)[:half], rng.permutation(half)[: players - half]]
    )
    meet_at = PRE_SNAP + rng.integers(0, max(1, steps), players)
    hold = rng.integers(2, 8, players)
    meet = (start + start[partner]) / 2 + rng.normal(0, 0.2, (players, 2))
    t = np.arange(times)[:, None]
    progress = np.clip((t - PRE_SNAP + 1) / np.maximum(meet_at - PRE_SNAP + 1, 1), 0, 1)[:, :, None]
    after = np.clip(t - meet_at - hold, 0, None)[:, :, None]
    away = rng.normal(0, 1, (players, 2))
    away /= np.linalg.norm(away, axis=1, keepdims=True)
    xy = (
        start
        + (meet - start) * progress
        + after * 0.4 * away
        + rng.normal(0, 0.05, (times, players, 2))
    )
    falls = np.zeros((times, players), bool)
    for p in np.flatnonzero(rng.random(players) < 0.3):
        at = PRE_SNAP + rng.integers(0, max(1, steps))
        falls[at : at + rng.integers(2, 6), p] = True
    return xy, falls


def kinematics(
    xy: np.ndarray, falls: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    step = np.diff(xy, axis=0, prepend=xy[:1])
    distance = np.linalg.norm(step, axis=2)
    speed = distance / STEP_S
    direction = np.degrees(np.arctan2(step[..., 0], step[..., 1])) % 360
    accel = np.abs(np.diff(speed, axis=0, prepend=speed[:1])) / STEP_S
    started = falls & ~np.roll(falls, 1, axis=0)
    accel = accel + started * rng.uniform(4, 8, falls.shape)
    sa = np.where(started, -accel, np.diff(speed, axis=0, prepend=speed[:1]) / STEP_S)
    orientation = (direction + rng.normal(0, 20, direction.shape)) % 360
    return {
        "speed": speed,
        "distance": distance,
        "direction": direction,
        "orientation": orientation,
        "acceleration": accel,
        "sa": sa,
    }


def stamp(base: pd.Timestamp, step: np.ndarray) -> np.ndarray:
    times = base + pd.to_timedelta(np.asarray(step) * 100, unit="ms")
    return np.asarray(times.strftime("%Y-%m-%dT%H:%M:%S.%f").str[:-3] + "Z")


def play(rng: np.random.Generator, game_play: str, players: int, steps: int) -> Play:
    game_key, play_id = (int(part) for part in game_play.split("_"))
    ids = np.sort(rng.choice(np.arange(25000, 56000), players, replace=False))
    team = np.where(np.arange(players) < players // 2, "home", "away")  # as ``motion`` lines up
    jersey = rng.choice(np.arange(1, 100), players, replace=False)
    xy, falls = motion(rng, players, steps)
    snap = pd.Timestamp("2020-09-10T17:00:00") + pd.to_timedelta(
        int(rng.integers(0, 10**7)), unit="s"
    )

    # Labels: for each step, every pair (lower id first), then every player with the ground.
    first, second = np.triu_indices(players, 1)
    here = xy[PRE_SNAP:]
    close = np.linalg.norm(here[:, first] - here[:, second], axis=2) < CONTACT_YARDS
    contact = np.concatenate([close, falls[PRE_SNAP:]], axis=1).astype(np.int64)
    flips = rng.random(contact.shape) < 0.005  # labels "may not be exact"
    contact = contact ^ flips
    id1 = np.concatenate([ids[first], ids])
    id2 = np.concatenate([ids[second].astype(str), np.full(players, "G")])
    step = np.repeat(np.arange(steps), len(id1))
    id1_all, id2_all = np.tile(id1, steps), np.tile(id2, steps)
    labels = pd.DataFrame(
        {
            "contact_id": [
                f"{game_play}_{s}_{a}_{b}" for s, a, b in zip(step, id1_all, id2_all, strict=True)
            ],
            "game_play": game_play,
            "datetime": stamp(snap, step),
            "step": step,
            "nfl_player_id_1": id1_all,
            "nfl_player_id_2": id2_all,
            "contact": contact.ravel(),
        }
    )

    motion_steps = np.arange(-PRE_SNAP, steps)
    moves = kinematics(xy, falls, rng)
    roles = [str(rng.choice(POSITIONS[t])) for t in team]
    tracking = pd.DataFrame(
        {
            "game_play": game_play,
            "game_key": game_key,
            "play_id": play_id,
            "nfl_player_id": np.tile(ids, len(motion_steps)),
            "datetime": np.repeat(stamp(snap, motion_steps), players),
            "step": np.repeat(motion_steps, players),
            "team": np.tile(team, len(motion_steps)),
            "position": np.tile(roles, len(motion_steps)),
            "jersey_number": np.tile(jersey, len(motion_steps)),
            "x_position": xy[..., 0].ravel().round(2),
            "y_position": xy[..., 1].ravel().round(2),
            **{name: values.ravel().round(2) for name, values in moves.items()},
        }
    )

    helmets = []
    for view in ("Endzone", "Sideline"):
        seen = rng.random((steps, players)) < 0.8
        t, p = np.nonzero(seen)
        along = xy[PRE_SNAP + t, p, 1 if view == "Endzone" else 0]
        helmets.append(
            pd.DataFrame(
                {
                    "game_play": game_play,
                    "game_key": game_key,
                    "play_id": play_id,
                    "view": view,
                    "video": f"{game_play}_{view}.mp4",
                    "frame": 300 + t * FRAMES_PER_STEP,
                    "nfl_player_id": ids[p],
                    "player_label": [
                        ("H" if team[k] == "home" else "V") + str(jersey[k]) for k in p
                    ],
                    "left": (along * 10 + rng.normal(0, 5, len(t))).round().astype(int),
                    "width": rng.integers(14, 26, len(t)),
                    "top": (300 + xy[PRE_SNAP + t, p, 0] * 2).round().astype(int),
                    "height": rng.integers(14, 26, len(t)),
                }
            )
        )
    videos = pd.DataFrame(
        {
            "game_play": game_play,
            "game_key": game_key,
            "play_id": play_id,
            "view": VIEWS,
            "start_time": stamp(snap, np.full(3, -50)),
            "end_time": stamp(snap, np.full(3, steps + 50)),
            "snap_time": stamp(snap, np.zeros(3, int)),
        }
    )
    return Play(labels, tracking, pd.concat(helmets, ignore_index=True), videos)


def steps_range(players: int) -> tuple[int, int]:
    return (60, 100) if players > 6 else (8, 16)


def plays(rng: np.random.Generator, rows: int, players: int, names: list[str]) -> Iterator[Play]:
    """Plays, named in order, until ``rows`` label rows; the last one cut to the exact count."""
    per_step = players * (players - 1) // 2 + players
    low, high = steps_range(players)
    left, names_left = rows, iter(names)
    while left > 0:
        steps = min(int(rng.integers(low, high + 1)), -(-left // per_step))
        one = play(rng, next(names_left), players, steps)
        one.labels = one.labels.iloc[:left]
        left -= len(one.labels)
        yield one


def play_names(rng: np.random.Generator, size: Size, players: int) -> dict[str, list[str]]:
    """Enough ``<game_key>_<play_id>`` names for each split, drawn at random from one pool
    (as upstream splits Kaggle's plays), each split's in sorted order."""
    per_step = players * (players - 1) // 2 + players
    low = steps_range(players)[0]
    need = {
        split: rows // (per_step * low) + 2
        for split, rows in (("train", size.n_train), ("test", size.n_test))
    }
    total = need["train"] + need["test"]
    games = rng.choice(np.arange(57500, 58600), total)
    numbers = rng.choice(np.arange(1, 10 * total + 4000), total, replace=False)
    pool = [f"{g}_{p:06d}" for g, p in zip(games, numbers, strict=True)]
    return {"train": sorted(pool[: need["train"]]), "test": sorted(pool[need["train"] :])}


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    players = 22 if size.n_test >= 10_000 else 6
    names = play_names(rng, size, players)
    files = {
        "train": (public / "train_labels.csv", size.n_train),
        "test": (private / "test.csv", size.n_test),
    }
    for split, (label_path, rows) in files.items():
        for k, one in enumerate(plays(rng, rows, players, names[split])):
            mode, header = ("w", True) if k == 0 else ("a", False)
            one.labels.to_csv(label_path, index=False, mode=mode, header=header)
            if split == "test":
                sample = one.labels[["contact_id"]].assign(contact=0)
                sample.to_csv(
                    public / "sample_submission.csv", index=False, mode=mode, header=header
                )
            for name, table in (
                ("player_tracking", one.tracking),
                ("baseline_helmets", one.helmets),
                ("video_metadata", one.videos),
            ):
                table.to_csv(public / f"{split}_{name}.csv", index=False, mode=mode, header=header)
