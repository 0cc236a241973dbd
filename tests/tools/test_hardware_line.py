from pathlib import Path

from tools import hardware_line
from tools.hardware import describe_gpus


def fake_nvidia_smi(tmp: Path, body: str) -> str:
    """A stand-in executable for machines without a GPU: prints as nvidia-smi would."""
    script = tmp / "nvidia-smi"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return str(script)


def test_counts_gpus_by_name(tmp_path: Path) -> None:
    smi = fake_nvidia_smi(tmp_path, "printf 'NVIDIA H200\\nNVIDIA H200\\n'")
    assert hardware_line(smi) == "2 NVIDIA H200"


def test_no_gpu_or_no_driver_means_a_cpu(tmp_path: Path) -> None:
    assert hardware_line(str(tmp_path / "absent")) == "a CPU"
    assert (
        hardware_line(fake_nvidia_smi(tmp_path, "echo 'NVIDIA-SMI has failed' >&2; exit 9"))
        == "a CPU"
    )


def test_mixed_models_in_order_of_appearance() -> None:
    assert (
        describe_gpus(["NVIDIA A100", "Tesla T4", "NVIDIA A100", ""]) == "2 NVIDIA A100, 1 Tesla T4"
    )
    assert describe_gpus([]) == "a CPU"
