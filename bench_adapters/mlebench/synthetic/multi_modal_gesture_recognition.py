"""multi-modal-gesture-recognition: recorded sessions of a user performing 8 to 20 of the 20
Italian gestures, each session a ``SampleNNNNN.zip`` of Kinect data, labelled with the
gestures' order.

In each session the user rests, then performs gestures one after another, resting between
them. During gesture ``g`` the right hand rises and circles at a place (five columns) and a
speed (four rates) of its own, and the user says its name: a tone of its own pitch in the
audio track. A model that segments the skeleton by hand height and reads the place, the speed
or the tone recovers the sequence.

Public: ``training1.tar.gz`` ... ``training3.tar.gz`` (the training sessions in thirds),
``test.tar.gz`` (upstream's ``training4``), ``validation1.tar.gz`` ... ``validation3.tar.gz``
(unlabelled sessions, three per test session), each holding ``SampleNNNNN.zip`` at its root;
``training.csv`` (``Id,Sequence``: the last four digits of the sample number, zero-padded,
and the gesture numbers space-separated), ``test.csv`` (``Id``), ``randomPredictions.csv``
(``Id,Sequence``: a random order of all 20 gestures). Private: ``test.csv`` (``Id,Sequence``).

A ``SampleNNNNN.zip`` holds ``SampleNNNNN_data.mat`` (a MATLAB struct ``Video``: ``NumFrames``,
``FrameRate`` 20, ``MaxDepth``, ``Frames`` with each frame's ``Skeleton`` of 20 joints:
``JointType`` (a char matrix here), ``WorldPosition``, ``PixelPosition``; and ``Labels``:
``Name``, ``Begin``, ``End`` per gesture) and ``SampleNNNNN_audio.wav`` (8 kHz here, Kaggle's
is 16 kHz). As
upstream (known issue #77), the test sessions are training sessions renamed, so their
``Labels`` are filled in; the validation sessions' are empty. Left out, as payloads no grader
or model here reads: the colour, depth and user-mask videos (``_color.mp4``...), and the
``devel01-40.7z``, ``valid_all_files_combined.7z`` and ``sample_code_mmrgc.zip`` archives.
"""

from __future__ import annotations

import io
import random
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import soundfile
from scipy.io import savemat

from .common import Size

GESTURES = ["vattene", "vieniqui", "perfetto", "furbo", "cheduepalle", "chevuoi", "daccordo",
            "seipazzo", "combinato", "freganiente", "ok", "cosatifarei", "basta", "prendere",
            "noncenepiu", "fame", "tantotempo", "buonissimo", "messidaccordo", "sonostufo"]  # fmt: skip
JOINTS = ["HipCenter", "Spine", "ShoulderCenter", "Head", "ShoulderLeft", "ElbowLeft",
          "WristLeft", "HandLeft", "ShoulderRight", "ElbowRight", "WristRight", "HandRight",
          "HipLeft", "KneeLeft", "AnkleLeft", "FootLeft", "HipRight", "KneeRight", "AnkleRight",
          "FootRight"]  # fmt: skip
FPS = 20
RELEASED = 1_369_008_000  # 2013-05-20, the data's release: the tarballs' member dates
AUDIO_RATE = 8_000
JOINT_NAMES = np.array(JOINTS)
"""The joint names as a char matrix, one row a joint (cheaper to write than a cell array)."""
HAND = JOINTS.index("HandRight")
WRIST = JOINTS.index("WristRight")
ELBOW = JOINTS.index("ElbowRight")


def session(
    rng: np.random.Generator, gestures: list[int]
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """World positions (frames, 20 joints, xyz) and each gesture's (first, last) frame, 1-based."""
    rest = np.array([[0.0, 0.0, 2.0]] * len(JOINTS)) + rng.normal(0, 0.05, (len(JOINTS), 3))
    rest[:, 1] += np.linspace(0.8, -0.9, len(JOINTS))  # head high, feet low
    frames, spans = [], []
    for g in [None, *gestures]:
        for _ in range(int(rng.integers(4, 9))):  # a rest
            frames.append(rest + rng.normal(0, 0.01, rest.shape))
        if g is None:
            continue
        length = int(rng.integers(10, 17))
        column, rate = (g - 1) % 5, 1 + (g - 1) // 5
        start = len(frames) + 1
        for t in range(length):
            pose = rest + rng.normal(0, 0.01, rest.shape)
            phase = 2 * np.pi * rate * t / length
            hand = [-0.4 + 0.2 * column + 0.08 * np.cos(phase), 0.5 + 0.08 * np.sin(phase), 1.7]
            pose[HAND] = hand
            pose[WRIST] = np.add(hand, [0.0, -0.06, 0.02])
            pose[ELBOW] = np.add(hand, [0.05, -0.3, 0.1])
            frames.append(pose)
        spans.append((start, len(frames)))
    return np.array(frames), spans


def audio(
    rng: np.random.Generator, n_frames: int, gestures: list[int], spans: list[tuple[int, int]]
) -> np.ndarray:
    """The room, and a tone of the gesture's own pitch while it is made."""
    samples = rng.normal(0, 0.01, n_frames * AUDIO_RATE // FPS)
    for g, (first, last) in zip(gestures, spans, strict=True):
        a, b = (first - 1) * AUDIO_RATE // FPS, last * AUDIO_RATE // FPS
        t = np.arange(b - a) / AUDIO_RATE
        samples[a:b] += 0.2 * np.sin(2 * np.pi * (150 + 40 * g) * t)
    return samples


def sample_zip(rng: np.random.Generator, name: str, gestures: list[int], labelled: bool) -> bytes:
    """The bytes of ``<name>.zip``: the MATLAB data and the audio of one session."""
    world, spans = session(rng, gestures)
    skeleton = np.zeros((1, len(world)), dtype=[("Skeleton", "O")])
    for k, joints in enumerate(world):
        pixels = np.column_stack([320 + 300 * joints[:, 0], 240 - 300 * joints[:, 1]])
        skeleton[0, k]["Skeleton"] = {
            "JointType": JOINT_NAMES,
            "WorldPosition": joints.astype(np.float32),
            "PixelPosition": pixels.round().astype(np.int32),
        }
    labels = np.zeros(
        (1, len(spans) if labelled else 0), dtype=[("Name", "O"), ("Begin", "O"), ("End", "O")]
    )
    for k, (g, (first, last)) in enumerate(zip(gestures, spans, strict=True)):
        if labelled:
            labels[0, k] = (GESTURES[g - 1], first, last)
    video = {"NumFrames": len(world), "FrameRate": FPS, "MaxDepth": 3500, "Frames": skeleton,
             "Labels": labels}  # fmt: skip
    mat, wav, out = io.BytesIO(), io.BytesIO(), io.BytesIO()
    savemat(mat, {"Video": video}, do_compression=True)
    soundfile.write(
        wav, audio(rng, len(world), gestures, spans), AUDIO_RATE, format="WAV", subtype="PCM_16"
    )
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{name}_data.mat", mat.getvalue())
        z.writestr(f"{name}_audio.wav", wav.getvalue())
    return out.getvalue()


def tarball(path: Path, members: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), RELEASED
            tar.addfile(info, io.BytesIO(data))


def check_size(size: Size) -> None:
    if size.n_train < 3:
        raise ValueError(
            f"n_train must be at least 3 (three training tarballs), got {size.n_train}"
        )


def write(public: Path, private: Path, size: Size, rng: np.random.Generator) -> None:
    n_valid = 3 * size.n_test
    numbers = np.arange(1, size.n_train + size.n_test + 1)
    valid_numbers = numbers[-1] + 10 + np.arange(1, n_valid + 1)  # validation numbered after
    rows = []
    archives: dict[str, dict[str, bytes]] = {}
    thirds = np.array_split(numbers[: size.n_train], 3)
    for number in [*numbers, *valid_numbers]:
        gestures = [int(g) for g in rng.permutation(20)[: int(rng.integers(8, 21))] + 1]
        name = f"Sample{number:05d}"
        if number in valid_numbers:
            tar = (
                f"validation{1 + int(np.searchsorted(valid_numbers, number)) * 3 // n_valid}.tar.gz"
            )
        elif number > size.n_train:
            tar = "test.tar.gz"
        else:
            tar = f"training{1 + next(k for k, part in enumerate(thirds) if number in part)}.tar.gz"
        archives.setdefault(tar, {})[f"{name}.zip"] = sample_zip(
            rng, name, gestures, labelled=number not in valid_numbers
        )
        if number not in valid_numbers:
            rows.append(
                {
                    "Id": f"{number:04d}",
                    "Sequence": " ".join(map(str, gestures)),
                    "test": number > size.n_train,
                }
            )
    for tar, members in archives.items():
        tarball(public / tar, members)
    frame = pd.DataFrame(rows)
    train, test = frame[~frame["test"]], frame[frame["test"]]
    train[["Id", "Sequence"]].to_csv(public / "training.csv", index=False)
    test[["Id", "Sequence"]].to_csv(private / "test.csv", index=False)
    test[["Id"]].to_csv(public / "test.csv", index=False)
    shuffler = random.Random(int(rng.integers(2**31)))
    guesses = [" ".join(map(str, shuffler.sample(range(1, 21), 20))) for _ in range(len(test))]
    test[["Id"]].assign(Sequence=guesses).to_csv(public / "randomPredictions.csv", index=False)
