"""Which CPU instructions the installed llama.cpp build uses, and whether this CPU has them.

A llama.cpp built with its default native flags uses every instruction of the machine that
built it (AVX-512, AMX, ...). Copied to, or cached for, another machine, its server starts,
lists its model and dies with SIGILL on the first completion. ``make`` therefore builds a
portable wheel (``-DGGML_NATIVE=OFF``: x86-64 with SSE4.2, AVX, AVX2, FMA, F16C and BMI2, no
AVX-512 or AMX), and ``LocalLLM.start`` checks the build against the CPU before it starts a
server, so a mismatch is one clear line instead of a dead server.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

CPUINFO_FLAG = {
    "SSE3": "pni",
    "SSSE3": "ssse3",
    "AVX": "avx",
    "AVX2": "avx2",
    "AVX_VNNI": "avx_vnni",
    "F16C": "f16c",
    "FMA": "fma",
    "BMI2": "bmi2",
    "AVX512": "avx512f",
    "AVX512_VBMI": "avx512vbmi",
    "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16",
    "AMX_INT8": "amx_int8",
    "AMX_BF16": "amx_bf16",
}
"""llama.cpp's name of an x86 feature -> its flag in /proc/cpuinfo."""

NOT_PORTABLE = ("AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16", "AMX_INT8", "AMX_BF16")
"""Features a portable build leaves out: many x86-64 machines lack them, or their OS or VM
does not enable them."""

REBUILD_HINT = (
    "rebuild the portable wheel: make clean-local-model install (see README: local model)"
)

_PROBE = "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())"


def build_features(
    python: str = sys.executable, env: dict[str, str] | None = None, timeout_s: float = 60.0
) -> list[str]:
    """The CPU features the installed llama.cpp was compiled with (e.g. ``["AVX", "AVX2"]``).

    Asked in a child process: loading a build this CPU cannot run must not kill the caller.
    Raises RuntimeError with the reason when the probe fails.
    """
    proc = subprocess.run(
        [python, "-c", _PROBE],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
        env=env,
    )
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        raise RuntimeError(f"cannot load llama.cpp ({describe_exit(proc.returncode)}): {tail}")
    return parse_system_info(proc.stdout)


def parse_system_info(text: str) -> list[str]:
    """``"CPU : SSE3 = 1 | AVX = 1 | AVX512 = 0 |"`` -> ``["SSE3", "AVX"]``."""
    return [m.group(1) for m in re.finditer(r"([A-Z][A-Z0-9_]*) = 1\b", text)]


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str] | None:
    """This CPU's flags, or None where /proc/cpuinfo has none (not Linux on x86)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return None
    match = re.search(r"^flags\s*:\s*(.*)$", text, re.MULTILINE)
    return set(match.group(1).split()) if match else None


def missing_features(features: list[str], flags: set[str] | None) -> list[str]:
    """Build features this CPU lacks (none when the CPU's flags are unknown)."""
    if flags is None:
        return []
    return [f for f in features if f in CPUINFO_FLAG and CPUINFO_FLAG[f] not in flags]


def describe_exit(returncode: int) -> str:
    """``-4`` (or a shell's ``132``) -> ``"SIGILL, illegal instruction"``; else ``"exit code N"``."""
    import signal

    number = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else 0
    if number:
        try:
            name = signal.Signals(number).name
        except ValueError:
            return f"exit code {returncode}"
        return f"{name}, {(signal.strsignal(number) or name).lower()}"
    return f"exit code {returncode}"
