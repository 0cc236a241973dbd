"""multi-modal-gesture-recognition's baseline: a smoke run on the sessions' audio through the
real grader, its margin over the sample submission (a random order of the 20 gestures), and the
known leak left alone: with ``Video.Labels`` deleted from the test sessions' ``.mat`` files it
writes the same submission."""

from __future__ import annotations

import filecmp
import io
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from scipy.io import loadmat, savemat

from baselines.kit import call_main, takes
from baselines.mlebench import multi_modal_gesture_recognition as script
from tests.baselines.competition_smoke import margin_over_sample, smoke_check
from tests.baselines.helpers import assert_smoke_check_holds

CID = "multi-modal-gesture-recognition"
MARGIN = 0.4
"""The smoke baseline's least lead over the sample submission (edit rate 1.11) on the fixture
(seed 11); it scored 0.36."""


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, mlebench_data: Path, mlebench_checkout: Path
) -> dict[str, Any]:
    return smoke_check(CID, mlebench_data, mlebench_checkout, tmp_path_factory.mktemp(CID))


def test_smoke_run_is_valid_and_beats_the_sample(
    checked: dict[str, Any], mlebench_data: Path
) -> None:
    public = mlebench_data / CID / "prepared" / "public"
    folder = assert_smoke_check_holds(checked, CID)
    assert margin_over_sample(checked, CID) >= MARGIN
    sub = pd.read_csv(folder / "submission.csv", dtype=str)
    assert list(sub["Id"]) == list(pd.read_csv(public / "test.csv", dtype=str)["Id"])
    for text in sub["Sequence"]:
        assert text.split() and all(1 <= int(g) <= 20 for g in text.split())


def without_labels(archive: Path) -> int:
    """Rewrite a tarball of session zips with ``Video.Labels`` removed from every ``.mat``;
    how many labelled gestures were removed."""
    removed, members = 0, {}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            handle = tar.extractfile(member)
            assert handle is not None
            out = io.BytesIO()
            with (
                zipfile.ZipFile(io.BytesIO(handle.read())) as old,
                zipfile.ZipFile(out, "w") as new,
            ):
                for name in old.namelist():
                    data = old.read(name)
                    if name.endswith("_data.mat"):
                        video = loadmat(io.BytesIO(data), simplify_cells=True)["Video"]
                        removed += len(video.pop("Labels"))
                        buffer = io.BytesIO()
                        savemat(buffer, {"Video": video})
                        data = buffer.getvalue()
                    new.writestr(name, data)
            members[member.name] = out.getvalue()
    with tarfile.open(archive, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return removed


def test_the_leaked_test_labels_are_never_read(
    checked: dict[str, Any], mlebench_data: Path, tmp_path: Path
) -> None:
    public = tmp_path / "public"
    source = mlebench_data / CID / "prepared" / "public"
    public.mkdir()
    for path in source.iterdir():
        (public / path.name).symlink_to(path)
    (public / "test.tar.gz").unlink()
    (public / "test.tar.gz").write_bytes((source / "test.tar.gz").read_bytes())
    assert without_labels(public / "test.tar.gz") > 0  # upstream's test sessions are labelled
    out = tmp_path / "submission.csv"
    call_main(script, public, out, smoke=True, threads=1, device="cpu")
    baseline = Path(checked["out"]) / f"mlebench-{CID}" / "baseline" / "submission.csv"
    assert filecmp.cmp(out, baseline, shallow=False)


def test_trains_a_network_from_scratch() -> None:
    assert "device" in takes(script) and "pretrained" not in takes(script)
