"""3d-object-detection-for-autonomous-vehicles: Lyft's lidar samples in the nuScenes-style
tables, with 3D boxes of nine classes around a driving car.

A scene (one log, whose token is the scene's, as upstream's split by ``scene_token`` expects)
is a stretch of road the ego car drives along at constant speed, sampled at 5 Hz; the objects
of the scene (instances) stand in lanes beside the road, one behind another, or drive in the
lanes next to the ego car, so consecutive samples share them and no two boxes overlap. A class has its own size (a car about 1.9 x 4.8 x 1.7 m, a bus 3 x 12 x 3.4, a pedestrian
0.8 x 0.8 x 1.8) and Kaggle's share (cars are 84% of the boxes). The signal is the lidar sweep:
points on each box's surface within 60 m and on the ground, in the sensor's frame (``.bin``,
float32 x, y, z, intensity, ring), which ``ego_pose.json`` and ``calibrated_sensor.json`` map
back to the world frame the boxes are in. Camera images are a plain stand-in (one front camera,
noise over a horizon) and carry no signal; Kaggle's samples have seven cameras and up to three
lidars, and about 60,000 points a sweep (these have ``side`` points at full size).

Public: ``train.csv`` (``Id`` = sample token, ``PredictionString`` = ``x y z width length
height yaw class`` per box), ``sample_submission.csv`` (the test ids, blank predictions),
``train_data/`` and ``test_data/`` (``attribute``, ``calibrated_sensor``, ``category``,
``ego_pose``, ``log``, ``map``, ``sample``, ``sample_data``, ``scene``, ``sensor``,
``visibility`` ``.json``; ``instance.json`` and ``sample_annotation.json`` for train only),
``train_images/``, ``test_images/`` (``host-aNNN_cam0_<timestamp>.jpeg``), ``train_lidar/``,
``test_lidar/`` (``host-aNNN_lidar1_<timestamp>.bin``), ``train_maps/`` and ``test_maps/``
(``map_raster_palo_alto.png``). Private: ``test.csv``, the test rows of ``train.csv`` with a
confidence of 1.0 before each box. The split is by log (scene), 80/20, as upstream's.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image

from .common import Size

CLASSES = {  # name: (share of boxes, width, length, height)
    "car": (0.838, 1.93, 4.76, 1.72),
    "other_vehicle": (0.052, 2.79, 8.20, 3.23),
    "pedestrian": (0.039, 0.77, 0.81, 1.78),
    "bicycle": (0.033, 0.63, 1.76, 1.44),
    "truck": (0.022, 2.84, 10.24, 3.44),
    "bus": (0.0137, 2.95, 12.34, 3.44),
    "motorcycle": (0.0013, 0.96, 2.35, 1.59),
    "animal": (0.0003, 0.36, 0.73, 0.51),
    "emergency_vehicle": (0.0007, 2.45, 6.52, 2.39),
}
ATTRIBUTES = [
    "object_action_parked", "object_action_driving_straight_forward", "object_action_stopped",
    "object_action_walking", "object_action_standing", "object_action_lane_change_left",
    "object_action_lane_change_right", "object_action_left_turn", "object_action_right_turn",
    "object_action_reversing", "object_action_loss_of_control", "object_action_abnormal_or_traffic_violation",
    "object_action_running", "object_action_sitting", "object_action_lying_down",
    "object_action_gliding_on_wheels", "object_action_other_motion", "object_action_u_turn",
]  # fmt: skip
VISIBILITY = ["v0-40", "v40-60", "v60-80", "v80-100"]
SENSORS = [("CAM_FRONT", "camera"), ("LIDAR_TOP", "lidar")]
SCENE_SAMPLES = 126
"""Kaggle's scenes are 25 s at 5 Hz; a small fixture's are shorter (``scene_length``)."""
RANGE_M = 60.0
LANES = np.array([-12.0, -8.0, -4.0, 4.0, 8.0, 12.0])
LIDAR_HEIGHT_M = 1.84


def scene_length(size: Size) -> int:
    return SCENE_SAMPLES if size.n_train + size.n_test >= 10 * SCENE_SAMPLES else 6


def tokens(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` 64-character hex tokens (Lyft's are SHA-256 digests)."""
    text = rng.bytes(32 * n).hex()
    return [text[64 * k : 64 * (k + 1)] for k in range(n)]


def yaw_quaternion(yaw: float) -> list[float]:
    """The unit quaternion (w, x, y, z) of a turn by ``yaw`` about z."""
    return [math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)]


def box_points(rng: np.random.Generator, box: np.ndarray, n: int) -> np.ndarray:
    """``n`` points on the sides and top of an upright box (x, y, z, width, length, height,
    yaw) in the world frame."""
    x, y, z, width, length, height, yaw = box
    u = rng.uniform(-0.5, 0.5, (n, 3))
    face = rng.integers(0, 3, n)
    u[face == 0, 0] = np.sign(u[face == 0, 0]) * 0.5  # the long sides
    u[face == 1, 1] = np.sign(u[face == 1, 1]) * 0.5  # front and back
    u[face == 2, 2] = 0.5  # the top
    along, across, up = u[:, 1] * length, u[:, 0] * width, u[:, 2] * height
    c, s = math.cos(yaw), math.sin(yaw)
    return np.stack([x + along * c - across * s, y + along * s + across * c, z + up], axis=1)


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    names = list(CLASSES)
    shares = np.array([CLASSES[n][0] for n in names])
    n_samples = size.n_train + size.n_test
    length = scene_length(size)
    points_per_sweep = max(64, size.side)
    # the scenes: whole ones of ``length`` samples, each split's last one shorter if need be
    parts = []
    for split_name, n in (("train", size.n_train), ("test", size.n_test)):
        for first in range(0, n, length):
            parts.append((split_name, min(length, n - first)))
    parts = [parts[k] for k in rng.permutation(len(parts))]
    log_tokens = tokens(rng, len(parts))
    sample_tokens = tokens(rng, n_samples)

    tables: dict[str, dict[str, list[Any]]] = {"train": {}, "test": {}}
    for split_name in tables:
        for table in ("log", "scene", "sample", "sample_data", "ego_pose", "calibrated_sensor",
                      "instance", "sample_annotation"):  # fmt: skip
            tables[split_name][table] = []
    category_tokens, attribute_tokens = tokens(rng, len(names)), tokens(rng, len(ATTRIBUTES))
    visibility_tokens = [str(k + 1) for k in range(len(VISIBILITY))]
    sensor_tokens = tokens(rng, len(SENSORS))
    csv_rows: list[tuple[str, str, str]] = []  # (split, Id, PredictionString)
    for folder in ("train_images", "test_images", "train_lidar", "test_lidar"):
        (public / folder).mkdir()

    next_sample = 0
    timestamp = 1_557_858_039_302_414
    for scene, (split_name, n) in enumerate(parts):
        t = tables[split_name]
        host = f"host-a{int(rng.integers(1, 120)):03d}"
        log = log_tokens[scene]
        t["log"].append({"token": log, "vehicle": host[5:], "date_captured": "2019-05-14",
                         "location": "Palo Alto", "logfile": f"{host}_{log[:8]}"})  # fmt: skip
        calibrations = tokens(rng, len(SENSORS))
        t["calibrated_sensor"] += [
            {"token": calibrations[0], "sensor_token": sensor_tokens[0],
             "translation": [1.5, 0.0, 1.6], "rotation": [0.5, -0.5, 0.5, -0.5],
             "camera_intrinsic": [[80.0, 0.0, 32.0], [0.0, 80.0, 24.0], [0.0, 0.0, 1.0]]},
            {"token": calibrations[1], "sensor_token": sensor_tokens[1],
             "translation": [0.0, 0.0, LIDAR_HEIGHT_M], "rotation": [1.0, 0.0, 0.0, 0.0],
             "camera_intrinsic": []},
        ]  # fmt: skip
        # the road and the scene's objects
        start = np.array([rng.uniform(500, 3000), rng.uniform(600, 2700), rng.uniform(-25, -15)])
        heading = rng.uniform(-math.pi, math.pi)
        direction = np.array([math.cos(heading), math.sin(heading), 0.0])
        speed = rng.uniform(0.5, 2.5)  # metres between samples
        count = int(rng.integers(3, 9) if size.side < 256 else rng.integers(20, 60))
        kinds = rng.choice(len(names), count, p=shares / shares.sum())
        dims = np.array([CLASSES[names[k]][1:] for k in kinds]) * rng.uniform(0.9, 1.1, (count, 3))
        # lanes 4 m apart, each object a gap behind the one before: no two boxes overlap;
        # those in the two lanes beside the ego car drive along with it
        normal = np.array([-direction[1], direction[0], 0.0])
        lane = rng.choice(LANES, count)
        along, side = np.zeros(count), lane + rng.uniform(-0.3, 0.3, count)
        for offset in LANES:
            mine = np.flatnonzero(lane == offset)
            ends = -20 + np.cumsum(dims[mine, 1] + rng.uniform(1, 25, len(mine)))
            along[mine] = ends - dims[mine, 1] / 2
        moving = np.abs(lane) == 4.0
        yaw0 = (
            heading + np.where(rng.random(count) < 0.8, 0.0, math.pi) + rng.normal(0, 0.05, count)
        )
        instances = tokens(rng, count)
        annotations_of: list[list[str]] = [[] for _ in range(count)]
        scene_samples = sample_tokens[next_sample : next_sample + n]
        next_sample += n
        for k, sample in enumerate(scene_samples):
            timestamp += 200_000
            ego = start + direction * speed * k
            centres = (
                start
                + direction[None, :] * (along + np.where(moving, speed * 0.5 * k, 0.0))[:, None]
                + normal[None, :] * side[:, None]
            )
            centres[:, 2] = start[2] + dims[:, 2] / 2  # standing on the road
            near = np.flatnonzero(np.hypot(*(centres[:, :2] - ego[:2]).T) < RANGE_M)
            if not len(near):  # every sample has a box
                near = np.array([int(np.argmin(np.hypot(*(centres[:, :2] - ego[:2]).T)))])
            boxes = np.column_stack([centres[near], dims[near], yaw0[near]])
            t["sample"].append({"token": sample, "timestamp": timestamp, "scene_token": log,
                                "prev": scene_samples[k - 1] if k else "",
                                "next": scene_samples[k + 1] if k + 1 < n else ""})  # fmt: skip
            # the sensors: a camera frame and a lidar sweep, each with its ego pose
            data_tokens, pose_tokens = tokens(rng, 2), tokens(rng, 2)
            files = [
                f"images/{host}_cam0_{timestamp}006.jpeg",
                f"lidar/{host}_lidar1_{timestamp}006.bin",
            ]
            for j, fileformat in enumerate(("jpeg", "bin")):
                t["ego_pose"].append({"token": pose_tokens[j], "timestamp": timestamp,
                                      "translation": [float(v) for v in ego],
                                      "rotation": yaw_quaternion(heading)})  # fmt: skip
                t["sample_data"].append(
                    {"token": data_tokens[j], "sample_token": sample, "ego_pose_token": pose_tokens[j],
                     "calibrated_sensor_token": calibrations[j], "timestamp": timestamp,
                     "fileformat": fileformat, "is_key_frame": True,
                     "height": 48 if j == 0 else None, "width": 64 if j == 0 else None,
                     "filename": files[j], "prev": "", "next": ""}
                )  # fmt: skip
            camera = np.clip(rng.normal(110, 20, (48, 64, 3)), 0, 255).astype(np.uint8)
            camera[:20] = np.clip(camera[:20] + 80, 0, 255)  # sky above the horizon
            buffer = io.BytesIO()
            Image.fromarray(camera).save(buffer, format="JPEG", quality=85)
            (public / f"{split_name}_images" / Path(files[0]).name).write_bytes(buffer.getvalue())
            per_box = max(8, points_per_sweep // (2 * len(near)))
            world = [box_points(rng, box, per_box) for box in boxes]
            ground = ego + np.column_stack(
                [rng.uniform(-RANGE_M, RANGE_M, (points_per_sweep // 2, 2)),
                 np.zeros(points_per_sweep // 2)]
            )  # fmt: skip
            cloud = np.concatenate([*world, ground]) - ego - [0.0, 0.0, LIDAR_HEIGHT_M]
            c, s = math.cos(-heading), math.sin(-heading)  # world -> ego (and lidar) frame
            sensor = np.column_stack(
                [cloud[:, 0] * c - cloud[:, 1] * s, cloud[:, 0] * s + cloud[:, 1] * c, cloud[:, 2],
                 rng.uniform(0, 100, len(cloud)), rng.integers(0, 32, len(cloud))]
            ).astype("<f4")  # fmt: skip
            (public / f"{split_name}_lidar" / Path(files[1]).name).write_bytes(sensor.tobytes())
            # the boxes: Kaggle's train.csv and the annotation tables
            texts = []
            annotation_tokens = tokens(rng, len(near))
            for a, (i, box) in enumerate(zip(near, boxes, strict=True)):
                x, y, z, w, long, h, yaw = (float(v) for v in box)
                w, long, h = round(w, 3), round(long, 3), round(h, 3)
                texts.append(f"{x!r} {y!r} {z!r} {w} {long} {h} {yaw!r} {names[kinds[i]]}")
                annotations_of[i].append(annotation_tokens[a])
                t["sample_annotation"].append(
                    {"token": annotation_tokens[a], "sample_token": sample,
                     "instance_token": instances[i],
                     "attribute_tokens": [attribute_tokens[0 if not moving[i] else 1]],
                     "visibility_token": visibility_tokens[int(rng.integers(4))],
                     "translation": [x, y, z], "size": [w, long, h],
                     "rotation": yaw_quaternion(yaw), "prev": "", "next": "",
                     "num_lidar_pts": per_box, "num_radar_pts": 0}
                )  # fmt: skip
            csv_rows.append((split_name, sample, " ".join(texts)))
        t["scene"].append({"token": log, "log_token": log, "nbr_samples": n, "name": f"{host}-{log[:8]}",
                           "description": "", "first_sample_token": scene_samples[0],
                           "last_sample_token": scene_samples[-1]})  # fmt: skip
        for j in range(count):
            if annotations_of[j]:
                t["instance"].append({"token": instances[j], "category_token": category_tokens[kinds[j]],
                                      "nbr_annotations": len(annotations_of[j]),
                                      "first_annotation_token": annotations_of[j][0],
                                      "last_annotation_token": annotations_of[j][-1]})  # fmt: skip

    shared = {
        "category": [{"token": category_tokens[k], "name": n, "description": n.replace("_", " ")}
                     for k, n in enumerate(names)],
        "attribute": [{"token": attribute_tokens[k], "name": n, "description": ""}
                      for k, n in enumerate(ATTRIBUTES)],
        "visibility": [{"token": visibility_tokens[k], "level": v, "description": f"visibility {v}"}
                       for k, v in enumerate(VISIBILITY)],
        "sensor": [{"token": sensor_tokens[k], "channel": c, "modality": m}
                   for k, (c, m) in enumerate(SENSORS)],
    }  # fmt: skip
    map_token = tokens(rng, 1)[0]
    raster = Image.fromarray(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8))
    for split_name, t in tables.items():
        data = public / f"{split_name}_data"
        data.mkdir()
        t["map"] = [{"log_tokens": [log["token"] for log in t["log"]], "category": "semantic_prior",
                     "filename": "maps/map_raster_palo_alto.png", "token": map_token}]  # fmt: skip
        keep = dict(t, **shared)
        if split_name == "test":  # the test split has no annotations
            del keep["instance"], keep["sample_annotation"]
        for name, rows in sorted(keep.items()):
            (data / f"{name}.json").write_text(json.dumps(rows))
        (public / f"{split_name}_maps").mkdir()
        raster.save(public / f"{split_name}_maps" / "map_raster_palo_alto.png")

    frame = pd.DataFrame(csv_rows, columns=["split", "Id", "PredictionString"])
    frame = frame.iloc[rng.permutation(len(frame))]  # Kaggle's train.csv order
    train, test = frame[frame["split"] == "train"], frame[frame["split"] == "test"]
    train[["Id", "PredictionString"]].to_csv(public / "train.csv", index=False)
    confident = test["PredictionString"].map(
        lambda text: " ".join(
            f"1.0 {' '.join(group)}" for group in np.array(text.split(" ")).reshape(-1, 8).tolist()
        )
    )
    test.assign(PredictionString=confident)[["Id", "PredictionString"]].to_csv(
        private / "test.csv", index=False
    )
    test[["Id"]].assign(PredictionString="").to_csv(public / "sample_submission.csv", index=False)
