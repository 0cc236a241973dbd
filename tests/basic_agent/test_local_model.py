"""The real local model (llama.cpp + SmolLM2-135M over HTTP) drives BasicAgent for 10 steps.

Sent with tools but no ``tool_choice``, the server answers in plain text, so this exercises the
continue path, the record and the window with a real tokenizer, not the model's skill.
"""

from __future__ import annotations

import pytest

from scaffolds.local_llm import ALIAS

pytestmark = pytest.mark.local_model

WINDOW = 2048
REPLY_TOKENS = 24


def test_local_model_runs_ten_steps_and_the_run_ends_cleanly(
    local_model, run_agent, events
) -> None:
    """Slow: ten calls of a real 135M model on the CPU, each reading a prompt of up to 2k tokens
    (the server is shared with the other workers' local-model tests)."""
    model = local_model(max_tokens=REPLY_TOKENS)
    run, status, grade = run_agent(
        model, steps=10, time_limit="1h", context_window=WINDOW, max_output_tokens=REPLY_TOKENS
    )
    assert status == "step_limit", run.record.summary.get("error")
    assert len(events(run, "model_call")) == 10 and run.record.summary["steps"] == 10
    assert not events(run, "error")
    assert run.record.summary["usage"]["prompt_tokens"] > 0
    assert run.record.summary["provider_models"] == [ALIAS]  # the name its responses carry
    assert grade["valid_submission"] is False  # nothing was written; graded all the same
