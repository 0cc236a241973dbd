"""The machine a run works on: the one-line description that goes into the task instructions
(``hardware_line``) and the facts its record keeps (``machine_facts``)."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from typing import Any


def describe_gpus(names: list[str]) -> str:
    """``["NVIDIA H200", "NVIDIA H200"]`` -> ``"2 NVIDIA H200"``; mixed models are listed in
    order of first appearance; no names -> ``"a CPU"``."""
    counts = Counter(n.strip() for n in names if n.strip())
    if not counts:
        return "a CPU"
    return ", ".join(f"{count} {name}" for name, count in counts.items())


def hardware_line(nvidia_smi: str = "nvidia-smi", timeout_s: float = 20.0) -> str:
    """Counted GPU names from ``nvidia-smi`` (e.g. ``"1 NVIDIA H200"``), or ``"a CPU"`` when
    there is no GPU or no working driver."""
    return describe_gpus(gpu_names(nvidia_smi, timeout_s))


def gpu_names(nvidia_smi: str = "nvidia-smi", timeout_s: float = 20.0) -> list[str]:
    """The name of each GPU ``nvidia-smi`` lists (those ``CUDA_VISIBLE_DEVICES`` names, when
    it names some); none when there is no GPU or no driver."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").strip()
    only = [f"--id={visible}"] if visible else []
    try:
        proc = subprocess.run(
            [nvidia_smi, "--query-gpu=name", "--format=csv,noheader", *only],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if proc.returncode != 0:
        return []
    return [name.strip() for name in proc.stdout.splitlines() if name.strip()]


def machine_facts(gpus: list[str]) -> dict[str, Any]:
    """What the record keeps of the machine: the GPUs the run sees (``gpus``: their names),
    the CPU cores this process may run on and the machine's memory."""
    memory_gib = None
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    memory_gib = round(int(line.split()[1]) / 2**20, 1)
    except (OSError, ValueError, IndexError):
        pass
    return {
        "gpus": describe_gpus(gpus) if gpus else "none",
        "gpu_count": len(gpus),
        "cpu_cores": len(os.sched_getaffinity(0)),
        "memory_gib": memory_gib,
    }
