"""Local model speed: the installed (portable) llama.cpp build against a native build, side by side.

    .venv/bin/python bench/local_llm.py               # builds the native wheel once (minutes)
    .venv/bin/python bench/local_llm.py --no-native   # the installed build only

``make`` installs llama-cpp-python compiled with ``-DGGML_NATIVE=OFF`` so that it runs on any
x86-64 CPU with AVX2. A native build (``-DGGML_NATIVE=ON``, this CPU's every instruction) is
built into a wheelhouse keyed by this CPU's flags, installed into a temporary folder, and put in
front of the venv's build with PYTHONPATH. Both servers run at once, and their requests
alternate, so both see the same machine load. Printed: completion tokens/s of each (median over
rounds) and their ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from scaffolds.local_build import NOT_PORTABLE, build_features, cpu_flags
from scaffolds.local_llm import ALIAS, LocalLLM

ROUNDS = 5  # timed completions per build
MAX_TOKENS = 128  # completion tokens asked for in each
N_CTX = 1024
VERSION = "0.3.36"  # llama-cpp-python, as the Makefile pins it
PROMPT = "Write a short story about a robot who learns to paint."


def native_wheel(wheelhouse: Path) -> Path:
    """A native wheel for this CPU, built once and kept under a key of its flags."""
    key = hashlib.sha256(" ".join(sorted(cpu_flags() or [])).encode()).hexdigest()[:12]
    folder = wheelhouse / f"llama-cpp-python-{VERSION}-native-{key}"
    found = sorted(folder.glob("llama_cpp_python-*.whl"))
    if found:
        return found[0]
    print(f"building a native llama-cpp-python {VERSION} into {folder} (minutes) ...", flush=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-cache-dir",
         "--no-binary", "llama-cpp-python", f"llama-cpp-python=={VERSION}", "-w", str(folder)],
        check=True, env={**os.environ, "CMAKE_ARGS": "-DGGML_NATIVE=ON"},
    )  # fmt: skip
    return sorted(folder.glob("llama_cpp_python-*.whl"))[0]


def tokens_per_s(llm: LocalLLM) -> float:
    body = json.dumps(
        {
            "model": ALIAS,
            "messages": [{"role": "user", "content": PROMPT}],
            "max_tokens": MAX_TOKENS,
            "temperature": 0.0,
        }
    ).encode()
    request = urllib.request.Request(
        f"{llm.api_base}/chat/completions", body, {"Content-Type": "application/json"}
    )
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=600) as r:
        reply = json.loads(r.read())
    return int(reply["usage"]["completion_tokens"]) / (time.monotonic() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-native", action="store_true", help="measure the installed build only")
    parser.add_argument(
        "--wheelhouse",
        type=Path,
        default=Path.home() / ".cache" / "mlagent-scaffolds" / "wheels",
        help="where the native wheel is kept between runs",
    )
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()

    builds: dict[str, dict[str, str]] = {"installed": {}}
    with tempfile.TemporaryDirectory(prefix="native-llama-") as target:
        if not args.no_native:
            wheel = native_wheel(args.wheelhouse)
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target,
                 str(wheel)],
                check=True,
            )  # fmt: skip
            builds["native"] = {"PYTHONPATH": target}
        for name, env in builds.items():
            features = build_features(env={**os.environ, **env})
            odd = [f for f in features if f in NOT_PORTABLE]
            print(f"{name:>9}: {' '.join(features)}" + (f"  (not portable: {odd})" if odd else ""))
        servers = {n: LocalLLM.start(n_ctx=N_CTX, threads=args.threads, env=e) for n, e in builds.items()}  # fmt: skip
        try:
            for llm in servers.values():
                tokens_per_s(llm)  # warm-up
            speeds: dict[str, list[float]] = {n: [] for n in servers}
            for _ in range(ROUNDS):
                for name, llm in servers.items():  # alternate, so both see the same load
                    speeds[name].append(tokens_per_s(llm))
        finally:
            for llm in servers.values():
                llm.stop()
    median = {n: statistics.median(v) for n, v in speeds.items()}
    for name, value in median.items():
        spread = f"{min(speeds[name]):.1f}-{max(speeds[name]):.1f}"
        print(f"{name:>9}: {value:.1f} completion tokens/s (median of {ROUNDS}, range {spread})")
    if "native" in median:
        print(f"native / installed: {median['native'] / median['installed']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
