"""What one run needs (CPUs, GPUs, memory, a node label) and which of this machine's GPUs it gets.

A run's needs come from its task: 1 CPU, and 1 GPU when :func:`needs_gpu` says its task needs
one (MLE-bench competitions outside ``cpu_only``, PaperBench papers), else none. The grid's
``--cpus-per-run`` / ``--gpus-per-run`` replace these defaults for every run; ``--memory-per-run``
and ``--node-label`` add to them on Ray. Ray places runs by these needs; the local backend hands
out this machine's GPUs with a :class:`GpuPool`. Either way a run sees only its own GPUs: its
process gets ``CUDA_VISIBLE_DEVICES`` naming them, empty for a run that needs none.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from scaffolds.grid.config import GridConfig
from scaffolds.grid.plan import needs_gpu

DEFAULT_CPUS = 1.0


class PlacementError(Exception):
    """No machine or node of the grid could ever give some run what it needs."""


@dataclass(frozen=True)
class Resources:
    """One run's needs. ``label`` is a (key, value) a Ray node must carry."""

    cpus: float
    gpus: float
    memory_gb: float | None = None
    label: tuple[str, str] | None = None

    def describe(self) -> str:
        parts = [f"{self.cpus:g} CPU", f"{self.gpus:g} GPU"]
        if self.memory_gb:
            parts.append(f"{self.memory_gb:g} GiB")
        if self.label:
            parts.append("=".join(self.label))
        return ", ".join(parts)


def resources_for(task: str, config: GridConfig) -> Resources:
    """The needs of a run of ``task`` in this grid."""
    gpus = config.gpus_per_run if config.gpus_per_run is not None else float(needs_gpu(task))
    cpus = config.cpus_per_run if config.cpus_per_run is not None else DEFAULT_CPUS
    key, _, value = (config.node_label or "").partition("=")
    return Resources(cpus, gpus, config.memory_per_run, (key, value) if key else None)


def visible_gpus(environ: Mapping[str, str] = os.environ) -> list[str]:
    """This machine's GPUs, named as ``CUDA_VISIBLE_DEVICES`` names them: that variable's
    entries when it is set, else ``nvidia-smi``'s indices, else none."""
    if "CUDA_VISIBLE_DEVICES" in environ:
        return [d.strip() for d in environ["CUDA_VISIBLE_DEVICES"].split(",") if d.strip()]
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    try:
        out = subprocess.run(
            [smi, "--query-gpu=index", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.strip() for line in out.splitlines() if line.strip()]


@dataclass
class GpuLease:
    devices: list[str]
    share: float
    """Of each device: 1.0 for whole devices, less for a shared one."""


class GpuPool:
    """The local machine's GPUs: a run takes whole devices (``gpus >= 1``, rounded up) or a
    share of one (``gpus < 1``, on the fullest device it fits, so whole ones stay free)."""

    def __init__(self, devices: list[str]):
        self.free = dict.fromkeys(devices, 1.0)

    def __len__(self) -> int:
        return len(self.free)

    def used(self) -> float:
        return sum(1.0 - f for f in self.free.values())

    def take(self, gpus: float) -> GpuLease | None:
        """A lease on ``gpus``, or None while too few are free."""
        if gpus >= 1:
            whole = [d for d, f in self.free.items() if f >= 1.0][: math.ceil(gpus)]
            if len(whole) < math.ceil(gpus):
                return None
            lease = GpuLease(whole, 1.0)
        else:
            fits = [d for d, f in self.free.items() if f >= gpus - 1e-9]
            if not fits:
                return None
            lease = GpuLease([min(fits, key=lambda d: self.free[d])], gpus)
        for device in lease.devices:
            self.free[device] -= lease.share
        return lease

    def give(self, lease: GpuLease) -> None:
        for device in lease.devices:
            self.free[device] = min(1.0, self.free[device] + lease.share)
