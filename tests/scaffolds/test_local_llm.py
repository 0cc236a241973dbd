"""The real local model (llama.cpp server + SmolLM2-135M) reached through litellm over HTTP."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scaffolds.local_llm import LocalLLM
from scaffolds.model import LiteLLMModel, ModelConfig

pytestmark = pytest.mark.local_model

PYTHON_TOOL = {
    "type": "function",
    "function": {
        "name": "python",
        "description": "Run Python code.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "description": "The code."}},
            "required": ["code"],
        },
    },
}


@pytest.fixture(scope="module")
def llm() -> Iterator[LocalLLM]:
    with LocalLLM.start(n_ctx=2048) as server:
        yield server


def model(llm: LocalLLM, max_tokens: int) -> LiteLLMModel:
    config = ModelConfig(
        model=llm.model,
        api_base=llm.api_base,
        context_window=llm.n_ctx,
        max_output_tokens=max_tokens,
        temperature=0.0,
        request_timeout_s=120,
        max_attempts=2,
    )
    return LiteLLMModel(config)


def test_plain_completion_reports_usage_and_speed(llm: LocalLLM) -> None:
    m = model(llm, max_tokens=96)
    m.complete([{"role": "user", "content": "Hi"}])  # warm-up
    started = time.monotonic()
    response = m.complete([{"role": "user", "content": "Write three sentences about cats."}])
    seconds = time.monotonic() - started
    assert isinstance(response.content, str) and response.content.strip()
    assert response.usage.prompt_tokens > 0 and 0 < response.usage.completion_tokens <= 96
    assert response.usage.cost_usd is None
    print(f"\nlocal model: {response.usage.completion_tokens / seconds:.1f} completion tokens/s")


def test_forced_tool_call_has_json_arguments(llm: LocalLLM) -> None:
    m = model(llm, max_tokens=64)
    response = m.complete(
        [{"role": "user", "content": "Use python to print 2+2."}],
        tools=[PYTHON_TOOL],
        tool_choice={"type": "function", "function": {"name": "python"}},
    )
    assert response.tool_calls and response.tool_calls[0].name == "python"
    # a 135M model writes odd code and its JSON may be cut at max_tokens; the call itself must arrive
    assert response.tool_calls[0].arguments.lstrip().startswith("{")


def test_server_stops_cleanly() -> None:
    server = LocalLLM.start(n_ctx=512)
    pid = server.process.pid
    server.stop()
    assert server.process.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_server_dies_with_a_killed_harness_which_never_loaded_llama_cpp() -> None:
    import subprocess
    import sys

    code = (
        "import os, sys\nfrom scaffolds.local_llm import LocalLLM\n"
        "llm = LocalLLM.start(n_ctx=512)\n"
        "print(llm.process.pid, 'llama_cpp' in sys.modules, flush=True)\nos._exit(9)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180)
    pid_text, loaded = out.stdout.split()
    assert loaded == "False", "the harness imported llama_cpp; a build its CPU cannot run kills it"
    pid = int(pid_text)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        stat = Path(f"/proc/{pid}/stat")
        if not stat.exists() or " Z " in stat.read_text():  # gone, or a zombie awaiting its reaper
            break
        time.sleep(0.5)
    else:
        os.kill(pid, 9)
        raise AssertionError("the llama.cpp server outlived its harness")


def kill_after_first_model_call(llm: LocalLLM, run_dir: Path, sig: int) -> threading.Thread:
    def watch() -> None:
        trajectory = run_dir / "trajectory.jsonl"
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if trajectory.exists() and '"kind": "model_call"' in trajectory.read_text():
                os.kill(llm.process.pid, sig)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_server_killed_mid_run_is_named_and_ends_the_run_as_model_error(
    run_scaffold, runs_root: Path
) -> None:
    from basic_agent import BasicAgent, BasicConfig

    run_dir = runs_root / "killed-server"
    with LocalLLM.start(n_ctx=2048) as llm:
        config = ModelConfig(model=llm.model, api_base=llm.api_base, context_window=2048,
                             max_output_tokens=24, temperature=0.0, max_attempts=6)  # fmt: skip
        killer = kill_after_first_model_call(llm, run_dir, signal.SIGILL)
        started = time.monotonic()
        run, status, _ = run_scaffold(BasicAgent, BasicConfig, "basic",
                                      LiteLLMModel(config, watch=llm), out=run_dir, steps=20,
                                      context_window=2048, max_output_tokens=24)  # fmt: skip
        killer.join()
    error = run.record.summary["error"]
    assert status == "model_error", error
    assert error.startswith("local model server died (SIGILL, illegal instruction; last log:")
    assert error.endswith("see README: local model") and "\n" not in error
    # a dead server is not retried: no backoff series of six attempts
    assert time.monotonic() - started < 120


def test_a_hung_server_is_named_and_a_healthy_one_is_not(llm: LocalLLM) -> None:
    assert llm.failure() is None
    other = LocalLLM.start(n_ctx=512)
    try:
        os.kill(other.process.pid, signal.SIGSTOP)
        reason = other.failure()
        assert reason is not None and "stopped answering" in reason
        assert f"pid {other.process.pid} is alive" in reason
        os.kill(other.process.pid, signal.SIGCONT)
    finally:
        other.stop()
    assert other.death() is not None and "SIGTERM" in (other.death() or "")


def test_check_command_answers_and_the_build_is_portable() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "scaffolds.local_llm", "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("local model OK: ") and "completion tokens/s" in out.stdout
