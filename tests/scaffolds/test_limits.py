"""Limits that hold: a run never outlives its time or wall-clock limit, nor spends past its cost
cap, whatever its model does. Real HTTP: the bundled local model, and a scripted loopback server
standing in for a hosted API (stalls, 503s, prices)."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from basic_agent import BasicAgent, BasicConfig
from scaffolds.budget import Budget, LimitReached, default_wall_limit
from scaffolds.grid import walls
from scaffolds.grid.runstate import crash_reason
from scaffolds.judge import Judge, Question
from scaffolds.messages import ModelResponse, Usage
from scaffolds.model import LiteLLMModel
from scaffolds.record import RunRecord
from scaffolds.replay import ScriptedModel
from scaffolds.session import MODEL_GRACE_S, ModelSession
from tests.scaffolds.fake_openai import Reply, fake_openai

FAKE = "openai/fake-model"


def test_the_wall_clock_counts_what_the_agent_clock_does_not() -> None:
    now = [0.0]
    budget = Budget(100.0, wall_limit_s=150.0, clock=lambda: now[0])
    now[0] = 60.0
    budget.exclude(50.0)  # retry waits: not the agent's time
    assert budget.elapsed() == 10.0 and budget.wall_elapsed() == 60.0
    assert budget.time_left() == 90.0
    now[0] = 140.0
    assert budget.time_left() == 10.0  # the wall clock is now the nearer wall
    now[0] = 150.0
    with pytest.raises(LimitReached) as ended:
        budget.check()
    assert ended.value.status == "wall_limit"
    assert default_wall_limit(3600) == 4500 and default_wall_limit(60) == 660


@pytest.mark.local_model
def test_a_long_reply_of_the_local_model_is_cut_at_the_time_limit(
    local_model: Callable[..., Any], tmp_path: Path
) -> None:
    """Asked for a 3,000-word story, the 135M model writes until its window is full (about
    2,000 tokens, 40 s on 2 cores; asked to count, it stops after a few lines): without a cut
    that takes far longer than the 5 s left."""
    model = local_model(max_tokens=None, max_attempts=1)
    assert isinstance(model, LiteLLMModel)
    model.warm_up()  # as a run does before its clock starts (litellm's import is slow)
    record = RunRecord(tmp_path / "run")
    budget = Budget(5.0)
    session = ModelSession(model, record, budget, window=2048)
    prompt = [
        {"role": "user", "content": "Write a very long story about a cat, at least 3000 words."}
    ]
    started = time.monotonic()
    with pytest.raises(LimitReached) as ended:
        session.call(prompt)
    took = time.monotonic() - started
    assert ended.value.status == "time_limit"
    assert took <= 5.0 + MODEL_GRACE_S + 5.0, took
    [cut] = [e for e in record.events() if e["kind"] == "model_call_cut"]
    assert cut["limit"] == "time_limit" and "ran out" in cut["reason"]


def fake_run(
    run_scaffold: Callable[..., Any], url: str, **options: Any
) -> tuple[Any, str, dict[str, Any]]:
    model = options.pop("model", FAKE)
    settings: dict[str, Any] = {
        "api_base": url,
        "request_timeout_s": 2.0,
        "retry_base_delay_s": 0.5,
        "retry_max_delay_s": 1.0,
        "max_attempts": 50,
        "steps": 50,
        **options,
    }
    return run_scaffold(BasicAgent, BasicConfig, "basic", model, **settings)


def test_a_stalling_then_failing_server_ends_the_run_at_its_wall_limit(
    run_scaffold: Callable[..., Any], events: Callable[..., list[dict[str, Any]]]
) -> None:
    """The server never answers the first request, then answers 503 forever: retry waits are
    not the agent's time, so only the wall clock can end the run, and it does."""
    script = [Reply(delay_s=30.0)] + [Reply(status=503)] * 200
    with fake_openai(script) as srv:
        started = time.monotonic()
        run, status, _ = fake_run(run_scaffold, srv.url, time_limit="10m", wall_limit="6s")
        took = time.monotonic() - started
    summary = run.record.summary
    assert status == "wall_limit", summary.get("error")
    assert summary["wall_time_s"] <= 6.0 + 3.0 and took < 60
    assert summary["agent_time_s"] < summary["wall_time_s"]  # the waits were not charged
    assert summary["limits"]["wall_limit_s"] == 6.0 and len(srv.requests) >= 2
    [cut] = events(run, "model_call_cut")
    assert cut["limit"] == "wall_limit"
    page = (run.dir / "view.html").read_text()
    assert "cut by the wall limit" in page


def test_a_tool_call_the_time_limit_stops_is_recorded_and_shown_as_cut(
    run_scaffold: Callable[..., Any], events: Callable[..., list[dict[str, Any]]]
) -> None:
    """A command that would run for a minute is given the 4 s left, stopped, and recorded as
    cut by the time limit (the run then ends ``time_limit``), while the agent's end marks
    where the harness's part of the run began."""
    sleep = {"id": "c1", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": "sleep 60"})}}  # fmt: skip
    with fake_openai([Reply(content=None, tool_calls=[sleep])] * 5) as srv:
        run, status, _ = fake_run(run_scaffold, srv.url, time_limit="4s")
    assert status == "time_limit", run.record.summary.get("error")
    assert run.record.summary["wall_time_s"] <= 4.0 + 5.0
    [observation] = events(run, "observation")
    assert observation["cut"] == "time_limit" and observation["duration_s"] < 10
    assert "cut by the time limit" in (run.dir / "view.html").read_text()
    ended = datetime.fromisoformat(run.record.summary["agent_ended_at"]).timestamp()
    [closed] = events(run, "sandbox_closed")
    assert observation["t"] <= ended <= closed["t"]


def test_spend_never_passes_the_cost_limit(
    run_scaffold: Callable[..., Any], events: Callable[..., list[dict[str, Any]]]
) -> None:
    """A model litellm lists prices for (gpt-4o-mini), served by the scripted server: each reply
    costs about $0.0013; a request whose reply could reach the output cap (16,384 tokens,
    about $0.0099) is not sent once less than that is left of the $0.015 cap."""
    usage = {"prompt_tokens": 2000, "completion_tokens": 1500, "total_tokens": 3500}
    with fake_openai([Reply(content="Thinking.", usage=usage)] * 50) as srv:
        run, status, _ = fake_run(
            run_scaffold, srv.url, model="openai/gpt-4o-mini", cost_limit=0.015
        )
    summary = run.record.summary
    assert status == "cost_limit", summary.get("error")
    spent = summary["usage"]["cost_usd"]
    assert 0 < spent <= 0.015 and len(srv.requests) >= 2
    [refused] = events(run, "model_call_refused")
    assert refused["bound_usd"] > refused["left_usd"]
    assert spent + refused["bound_usd"] > 0.015
    assert "not sent by the cost limit" in (run.dir / "view.html").read_text()


def test_a_reply_is_capped_at_the_models_own_output_limit_by_default(
    run_scaffold: Callable[..., Any],
) -> None:
    """No --max-output-tokens: the request carries the limit litellm lists for the model."""
    import litellm

    listed = litellm.get_model_info("openai/gpt-4o-mini")["max_output_tokens"]
    with fake_openai([Reply(content="Thinking.")]) as srv:
        fake_run(run_scaffold, srv.url, model="openai/gpt-4o-mini", steps=1)
    assert listed and srv.requests[0]["max_tokens"] == listed


def test_a_reply_cut_at_the_output_cap_is_recorded_as_cut_not_an_error(
    run_scaffold: Callable[..., Any], events: Callable[..., list[dict[str, Any]]]
) -> None:
    with fake_openai([Reply(content="1\n2\n3", finish_reason="length")] * 2) as srv:
        run, status, _ = fake_run(run_scaffold, srv.url, steps=2, max_output_tokens=5)
    assert status == "step_limit", run.record.summary.get("error")
    calls = events(run, "model_call")
    assert [c.get("cut") for c in calls] == ["max_output_tokens"] * 2
    assert srv.requests[0]["max_tokens"] == 5 and not events(run, "error")
    assert "reply cut by max output tokens" in (run.dir / "view.html").read_text()


class PricedScripted(ScriptedModel):
    """A scripted judge with a listed price: every request could cost up to $0.40."""

    def cost_bound(self, prompt_tokens: int) -> float | None:
        return 0.40


def test_the_judge_never_spends_past_its_cap_even_in_parallel() -> None:
    def policy(messages: Any, tools: Any) -> ModelResponse:
        time.sleep(0.05)
        arguments = json.dumps({"explanation": "ok", "score": 1})
        from scaffolds.messages import ToolCall

        return ModelResponse(
            None, [ToolCall("c", "submit_verdict", arguments)], Usage(10, 5, 0, 0.30)
        )

    from pydantic import BaseModel

    class Score(BaseModel):
        explanation: str
        score: int

    judge = Judge(PricedScripted(policy), workers=4, max_cost_usd=1.0)
    questions = [Question(str(i), [{"role": "user", "content": f"q{i}"}]) for i in range(8)]
    answers = judge.ask_all(questions, Score)
    assert judge.spent_usd <= 1.0 + 1e-9 and judge.calls == 2
    refused = [a for a in answers if not a.valid]
    assert len(refused) == 6 and all("could cost up to" in (a.error or "") or
                                     "was reached" in (a.error or "") for a in refused)  # fmt: skip


def test_the_grid_ends_a_run_past_its_wall_limit_and_counts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backstop for a scaffold that does not end itself (here: one that only sleeps)."""
    monkeypatch.setattr(walls, "GRACE_S", 0.5)
    monkeypatch.setattr(walls.WallWatch, "EVERY_S", 0.0)
    run_dir = tmp_path / "run"
    record = RunRecord(run_dir)
    record.start(limits={"wall_limit_s": 0.5}, config={})
    process = subprocess.Popen(["sleep", "60"], start_new_session=True)
    watch = walls.WallWatch(run_dir, time.monotonic())
    assert not watch.check(process.pid, None)  # not yet past 0.5 + 0.5 s
    time.sleep(1.2)
    assert watch.check(process.pid, None)
    process.wait(timeout=10)
    watch.settle()
    summary = json.loads((run_dir / "run.json").read_text())
    assert summary["status"] == "wall_limit" and summary["ended_by"] == "grid"
    assert "past its wall-clock limit" in summary["error"]
    assert crash_reason(run_dir, process.returncode) is None  # counted as ended, not crashed


def test_the_grid_counts_neither_set_up_nor_grading_against_the_wall_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wall limit is the agent's part: a run still setting up (no run.json yet: a large
    data set being copied) or being graded (``agent_ended_at``: a PaperBench reproduction can
    take hours) is not ended, however long that takes."""
    monkeypatch.setattr(walls, "GRACE_S", 0.5)
    monkeypatch.setattr(walls.WallWatch, "EVERY_S", 0.0)
    run_dir = tmp_path / "run"
    process = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        watch = walls.WallWatch(run_dir, time.monotonic())
        time.sleep(1.2)  # the set-up alone outlasts the wall limit and its grace
        assert not watch.check(process.pid, None)
        record = RunRecord(run_dir)
        record.start(limits={"wall_limit_s": 0.5}, config={}, agent_ended_at=None)
        assert not watch.check(process.pid, None)  # the run's wall clock starts here
        time.sleep(1.2)
        record.update(agent_ended_at="2026-01-01T00:00:00.000+00:00")  # now it is graded
        assert not watch.check(process.pid, None) and process.poll() is None
        record.update(agent_ended_at=None)  # a resumed run's agent works again
        assert watch.check(process.pid, None)
        process.wait(timeout=10)
    finally:
        process.kill()
        process.wait()
