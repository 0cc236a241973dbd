"""The real local model (llama.cpp + SmolLM2-135M over HTTP) drives BasicAgent for 10 steps.

Sent with tools but no ``tool_choice``, the server answers in plain text, so this exercises the
continue path, the record and the window with a real tokenizer, not the model's skill.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scaffolds.local_llm import LocalLLM
from scaffolds.model import LiteLLMModel, ModelConfig

pytestmark = pytest.mark.local_model

WINDOW = 2048
REPLY_TOKENS = 24


@pytest.fixture(scope="module")
def llm() -> Iterator[LocalLLM]:
    with LocalLLM.start(n_ctx=WINDOW) as server:
        yield server


def test_local_model_runs_ten_steps_and_the_run_ends_cleanly(llm, run_agent, events) -> None:
    model = LiteLLMModel(
        ModelConfig(
            model=llm.model,
            api_base=llm.api_base,
            context_window=WINDOW,
            max_output_tokens=REPLY_TOKENS,
            temperature=0,
            request_timeout_s=300,
            max_attempts=2,
        )
    )
    run, status, grade = run_agent(
        model, steps=10, time_limit="1h", context_window=WINDOW, max_output_tokens=REPLY_TOKENS
    )
    assert status == "step_limit", run.record.summary.get("error")
    assert len(events(run, "model_call")) == 10 and run.record.summary["steps"] == 10
    assert not events(run, "error")
    assert run.record.summary["usage"]["prompt_tokens"] > 0
    assert grade["valid_submission"] is False  # nothing was written; graded all the same
