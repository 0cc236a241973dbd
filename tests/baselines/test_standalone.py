"""A baseline script run alone (``python -m baselines.mlebench.<task>``): it needs none of the
harness, takes the options every solver takes, and ends a setup problem in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from baselines.registry import BASELINES, baseline_module
from bench_adapters.mlebench.synthetic import make_prepared

HARNESS = {"scaffolds", "bench_adapters", "litellm", "pydantic"}
REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(baseline_module(r).__name__ for r in BASELINES if r.startswith("mlebench/"))
SHARED = ["baselines.kit", "baselines.textnorm", "baselines.torchkit", "baselines.vision",
          "baselines.text", "baselines.audio",
          # the mask and box kits: U-Nets, boxes, DETR, CenterNet, radiographs, lidar, RLE
          "baselines.segment", "baselines.boxes", "baselines.detr", "baselines.centernet",
          "baselines.xray", "baselines.lidar", "rlecodec",
          # the image kits beyond Lite: retrieval by embedding, Herbarium, multi-label heads
          "baselines.retrieval", "baselines.herbarium", "baselines.multilabel",
          # scans: DICOM series as volumes
          "baselines.dicom",
          # text beyond Lite: span readers (questions, tweets)
          "baselines.spans",
          # the signal baselines: a small CNN over spectrograms (audio, EEG)
          "baselines.spectrocnn"]  # fmt: skip

PROBE = f"""
import json, runpy, sys
module, sys.argv = sys.argv[1], sys.argv[1:]
try:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    code = 0
except SystemExit as e:
    code = e.code
top = {{name.split(".")[0] for name in sys.modules}}
print(json.dumps({{"code": code, "loaded": sorted(top & set({sorted(HARNESS)!r}))}}))
"""
"""Runs a script as ``python -m`` would, then says which harness packages it loaded."""


def run_alone(module: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, module, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result | {"stderr": done.stderr}


def plain(
    module: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("alone")
    for cid in ("leaf-classification", "aerial-cactus-identification"):
        make_prepared(cid, root)
    return root


def public(data: Path, cid: str) -> str:
    return str(data / cid / "prepared" / "public")


def test_importing_every_script_loads_no_harness() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {SCRIPTS + SHARED!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert len(SCRIPTS) == 82 and not HARNESS & set(json.loads(done.stdout))


def test_a_run_alone_takes_device_and_pretrained_and_loads_no_harness(
    data: Path, tmp_path: Path
) -> None:
    """leaf-classification trains no network: it accepts both options, ignores them, says so."""
    module = "baselines.mlebench.leaf_classification"
    out = tmp_path / "leaf.csv"
    run = run_alone(module, "--public-dir", public(data, "leaf-classification"), "--out",
                    str(out), "--smoke", "--device", "cuda", "--pretrained", "none")  # fmt: skip
    assert run["code"] == 0 and run["loaded"] == [], run
    assert out.is_file()
    help_text = plain(module, "--help").stdout
    assert "ignored: this script trains no network" in help_text
    assert "ignored: this script loads no pretrained weights" in help_text


@pytest.mark.slow
@pytest.mark.skipif(torch.cuda.is_available(), reason="the case of a machine with no GPU")
def test_device_cuda_without_a_gpu_is_one_line_and_exit_2(data: Path, tmp_path: Path) -> None:
    script = "baselines.mlebench.aerial_cactus_identification"
    cid = "aerial-cactus-identification"
    alone = plain(script, "--public-dir", public(data, cid), "--out", str(tmp_path / "s.csv"),
                  "--smoke", "--device", "cuda")  # fmt: skip
    through = plain("baselines", "run", "--task", f"mlebench/{cid}", "--data-dir", str(data),
                    "--out", str(tmp_path / "run"), "--smoke", "--device", "cuda")  # fmt: skip
    for done in (alone, through):
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
        assert "--device cuda: no CUDA device is visible to torch" in lines[0]


@pytest.mark.slow
def test_a_hub_id_not_there_offline_is_one_line_and_exit_2(data: Path, tmp_path: Path) -> None:
    cid = "aerial-cactus-identification"
    done = plain("baselines.mlebench.aerial_cactus_identification", "--public-dir",
                 public(data, cid), "--out", str(tmp_path / "s.csv"), "--smoke", "--device",
                 "cpu", "--pretrained", "no-such-owner/no-such-model",
                 env={"HF_HUB_OFFLINE": "1"})  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot load pretrained weights "), lines
    assert "'no-such-owner/no-such-model'" in lines[0] and "--pretrained none" in lines[0]
    assert not (tmp_path / "s.csv").exists()
