"""The installed llama.cpp is portable, and a build this CPU cannot run is refused by name.

The machine that runs this may or may not have AVX-512; the portable build must hold no
AVX-512 or AMX instruction either way, which the disassembly shows."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scaffolds.local_build import (
    NOT_PORTABLE,
    build_features,
    cpu_flags,
    describe_exit,
    missing_features,
    parse_system_info,
)
from tests.machine import require

INFO = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 0 | OPENMP = 1 |"


def test_system_info_parses_to_the_features_compiled_in() -> None:
    assert parse_system_info(INFO) == ["SSE3", "SSSE3", "AVX", "AVX2", "AVX512", "OPENMP"]


def test_features_the_cpu_lacks_are_named(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse pni ssse3 avx avx2 fma f16c bmi2\n")
    flags = cpu_flags(cpuinfo)
    assert flags is not None and "avx2" in flags
    assert missing_features(parse_system_info(INFO), flags) == ["AVX512"]
    assert missing_features(["AVX512"], None) == []  # unknown CPU: nothing claimed
    assert cpu_flags(tmp_path / "absent") is None


@pytest.mark.parametrize(
    ("code", "text"),
    [(-4, "SIGILL, illegal instruction"), (132, "SIGILL, illegal instruction"),
     (-9, "SIGKILL, killed"), (1, "exit code 1")],
)  # fmt: skip
def test_exit_codes_are_described(code: int, text: str) -> None:
    assert describe_exit(code) == text


@pytest.mark.local_model
def test_the_installed_build_is_portable_and_fits_this_cpu() -> None:
    features = build_features()
    assert "AVX2" in features  # the portable baseline: x86-64 with AVX2, FMA, F16C
    assert not [f for f in features if f in NOT_PORTABLE], features
    assert missing_features(features, cpu_flags()) == []


@pytest.mark.local_model
def test_the_cpu_backend_holds_no_avx512_or_amx_instruction() -> None:
    code = "import llama_cpp, pathlib; print(pathlib.Path(llama_cpp.__file__).parent / 'lib')"
    lib = Path(subprocess.check_output([sys.executable, "-c", code], text=True).strip())
    backends = sorted(lib.glob("libggml-cpu*.so"))
    assert backends, f"no CPU backend in {lib}"
    assert shutil.which("objdump"), "objdump (binutils, which building llama.cpp needs) is missing"
    for so in backends:
        listing = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn", str(so)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert listing.count("\n") > 10_000  # really disassembled
        # AVX-512 is the only user of zmm and k mask registers; AMX of tile instructions
        assert "%zmm" not in listing, f"{so.name} uses AVX-512"
        assert "tileloadd" not in listing and "tdpb" not in listing, f"{so.name} uses AMX"


PROBE = """
import llama_cpp
from scaffolds.local_llm import gguf_path
llm = llama_cpp.Llama(model_path=str(gguf_path()), n_ctx=128, n_threads=2, verbose=False)
out = llm.create_completion("The capital of France is", max_tokens=4, temperature=0.0)
print("completion:", out["choices"][0]["text"].strip())
"""


@pytest.mark.local_model
@pytest.mark.slow
def test_the_installed_build_answers_on_an_emulated_cpu_without_avx512() -> None:
    """QEMU's Haswell model has AVX2, FMA and F16C but no AVX-512 or AMX: the CPU the issue's
    native build died on (SIGILL) is the other way round. A native build on an AVX-512 host
    dies here with signal 4; the portable one must answer.

    Slow: the interpreter, llama.cpp and the model's load all run under QEMU's emulation (20 to
    70 s, by the machine and its load)."""
    qemu = shutil.which("qemu-x86_64")
    require(qemu is not None, "qemu-x86_64 (Debian's qemu-user) is not installed")
    out = subprocess.run(
        [str(qemu), "-cpu", "Haswell", sys.executable, "-c", PROBE],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.startswith("completion: ") and len(out.stdout.strip()) > len("completion:")
