"""The one-line hardware description that goes into the task instructions."""

from __future__ import annotations

import subprocess
from collections import Counter


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
    try:
        proc = subprocess.run(
            [nvidia_smi, "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "a CPU"
    if proc.returncode != 0:
        return "a CPU"
    return describe_gpus(proc.stdout.splitlines())
