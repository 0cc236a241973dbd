"""What each run of a grid asks for (CPUs, GPUs, memory, a node label), which of this machine's
GPUs the local backend gives it, and the per-node progress lines."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scaffolds.grid.config import GridConfig
from scaffolds.grid.local import LocalBackend
from scaffolds.grid.placement import GpuPool, PlacementError, resources_for, visible_gpus
from scaffolds.grid.plan import RunSpec
from scaffolds.grid.progress import NodeState, Progress
from scaffolds.grid.ray_backend import fits

GPU_TASK = "mlebench/aerial-cactus-identification"  # a lite competition outside cpu_only
CPU_TASK = "mlebench/spaceship-titanic"


def grid(tmp_path: Path, **kw: object) -> GridConfig:
    return GridConfig(**{"scaffolds": "basic", "models": "m", "tasks": "demo/x", "out": tmp_path,
                         **kw})  # fmt: skip


def test_each_task_brings_its_own_needs_and_grid_flags_replace_them(tmp_path: Path) -> None:
    config = grid(tmp_path)
    gpu, cpu, demo = (resources_for(t, config) for t in (GPU_TASK, CPU_TASK, "demo/x"))
    assert (gpu.cpus, gpu.gpus) == (1.0, 1.0)
    assert (cpu.gpus, demo.gpus) == (0.0, 0.0)
    wide = grid(tmp_path, gpus_per_run=0.5, cpus_per_run=4, backend="ray", memory_per_run=16,
                node_label="zone=a")  # fmt: skip
    for task in (GPU_TASK, CPU_TASK, "demo/x"):
        needs = resources_for(task, wide)
        assert (needs.cpus, needs.gpus, needs.memory_gb, needs.label) == (4, 0.5, 16, ("zone", "a"))
    assert resources_for(GPU_TASK, grid(tmp_path, gpus_per_run=0)).gpus == 0
    assert needs.describe() == "4 CPU, 0.5 GPU, 16 GiB, zone=a"


def test_bad_placement_flags_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="KEY=VALUE"):
        grid(tmp_path, backend="ray", node_label="zone")
    with pytest.raises(ValueError, match="need --backend ray"):
        grid(tmp_path, memory_per_run=8)
    with pytest.raises(ValueError, match="0 or more"):
        grid(tmp_path, gpus_per_run=-1)
    with pytest.raises(ValueError, match=r"Ray Client \(ray://\) cannot stream"):
        grid(tmp_path, backend="ray", ray_address="ray://head:10001")


def test_a_ray_node_fits_a_run_by_every_need(tmp_path: Path) -> None:
    node = {"Resources": {"CPU": 8.0, "GPU": 1.0, "memory": 64 * 2**30}, "Labels": {"zone": "a"}}
    fitting = resources_for(GPU_TASK, grid(tmp_path, backend="ray", memory_per_run=32,
                                           node_label="zone=a"))  # fmt: skip
    assert fits(fitting, node)
    for kw in ({"gpus_per_run": 2}, {"memory_per_run": 128}, {"node_label": "zone=b"}):
        assert not fits(resources_for(GPU_TASK, grid(tmp_path, backend="ray", **kw)), node), kw


def test_the_gpu_pool_gives_whole_devices_or_packs_shares() -> None:
    pool = GpuPool(["0", "1", "2"])
    two = pool.take(2)
    assert two is not None and two.devices == ["0", "1"]
    assert pool.take(2) is None  # one left
    half, other_half = pool.take(0.5), pool.take(0.5)
    assert half is not None and other_half is not None
    assert half.devices == other_half.devices == ["2"]  # shares pack onto one device
    assert pool.take(0.5) is None and pool.used() == 3
    pool.give(two)
    whole = pool.take(1)
    assert whole is not None and whole.devices == ["0"]


def test_visible_gpus_follow_cuda_visible_devices() -> None:
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "3, 5"}) == ["3", "5"]
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": ""}) == []


def test_the_local_backend_refuses_a_gpu_task_it_could_never_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = [RunSpec("basic", "m", GPU_TASK, 0)]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    with pytest.raises(PlacementError, match=r"needs 1 GPU.*has 0.*--gpus-per-run 0"):
        LocalBackend(grid(tmp_path), specs)
    LocalBackend(grid(tmp_path, gpus_per_run=0), specs)  # on CPUs, as asked
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    backend = LocalBackend(grid(tmp_path), specs)
    assert [n.gpus for n in backend.nodes()] == [2.0]


def test_progress_shows_each_node_and_says_when_one_dies() -> None:
    log = io.StringIO()
    progress = Progress(4, stream=log)
    alive = [NodeState("a", True, 2, 1, 2.0), NodeState("b", True, 1, 0, 1.0)]
    progress.refresh([], alive)
    progress.refresh([], [alive[0], NodeState("b", False, 0, 0, 1.0)])
    progress.refresh([], [*alive, NodeState("c", True, 0, 0, 0.0)])
    assert log.getvalue().splitlines() == [
        "grid: node b is dead",
        "grid: node b is back",
        "grid: node c joined",
    ]

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    live = Progress(4, stream=screen)
    live.refresh([], alive)
    live.close([])
    assert "node a: alive, 2 running, 1 done, 2 GPU" in screen.getvalue()
    assert "node b: alive, 1 running, 0 done, 1 GPU" in screen.getvalue()


def test_a_runs_sandbox_gets_the_gpu_its_grid_assigned_else_its_task_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scaffolds.runtime import sees_gpu

    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    assert sees_gpu("mlebench/aerial-cactus-identification")  # a GPU competition
    assert not sees_gpu("mlebench/spaceship-titanic") and not sees_gpu("demo/tabular-binary")
    assert sees_gpu("tam/image/hard")  # no per-task needs: the machine's GPUs, as run alone
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # the grid placed it on no GPU
    assert not sees_gpu("mlebench/aerial-cactus-identification")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")  # its own GPU, whatever the task
    assert sees_gpu("demo/tabular-binary")
