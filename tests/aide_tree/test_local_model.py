"""The real local model (llama.cpp + SmolLM2-135M) drives a few AIDE steps end to end.

Its replies are poor (a 135M model rarely writes working code, and its function calls may be
broken JSON); what matters is that the harness takes whatever comes, records it, and ends the
run with a graded record instead of crashing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aide_tree import Aide, AideConfig
from scaffolds.local_llm import LocalLLM
from scaffolds.model import LiteLLMModel
from scaffolds.runtime import execute, open_run

pytestmark = [pytest.mark.local_model, pytest.mark.slow]
STEPS = 3


def test_local_model_runs_several_steps_without_crashing_the_harness(run_dir: Path) -> None:
    """Slow: three AIDE steps (two drafts and their reviews) of a real 135M model on the CPU,
    each reading a prompt of up to 768 tokens, plus a server of its own to start."""
    with LocalLLM.start(n_ctx=2048) as llm:
        config = AideConfig.model_validate(
            {
                "model": llm.model,
                "api_base": llm.api_base,
                "context_window": 768,  # prompts cut to fit: a CPU spends its time reading them
                "max_output_tokens": 96,
                "temperature": 0.0,
                "request_timeout_s": 200,
                "max_attempts": 2,
                "task": "demo/tabular-binary",
                "out": run_dir,
                "steps": STEPS,
                "num_drafts": 2,
                "time_limit": 420,  # a busy machine may end it early: still no crash
                "exec_timeout": 30,
                "preview_chars": 500,
            }
        )
        run = open_run(config, "aide", model=LiteLLMModel(config.model_settings(), watch=llm))
        status, grade = execute(run, lambda r: Aide(r).search())

    error = json.loads((run_dir / "run.json").read_text()).get("error")
    assert status in ("step_limit", "time_limit"), error
    lines = (run_dir / "journal.jsonl").read_text().splitlines()[1:]
    nodes = [json.loads(line) for line in lines]
    assert len(nodes) == STEPS or (status == "time_limit" and len(nodes) >= 2)
    assert all(n["usage"]["prompt_tokens"] > 0 and n["model_calls"] >= 1 for n in nodes)
    assert {n["operator"] for n in nodes} <= {"draft", "improve", "debug"}
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["usage"]["completion_tokens"] > 0 and "grade" in summary
    assert (run_dir / "tree.html").is_file() and "valid_submission" in grade
