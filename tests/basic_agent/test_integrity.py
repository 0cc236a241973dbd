"""The integrity block of an honest BasicAgent run: the agent's validations counted, its answer
named as how the submission was chosen, grading after the sandbox closed; and the machine and
the provider's model names kept beside it."""

from __future__ import annotations

import os

from scaffolds.integrity import verify
from scaffolds.replay import ReplayModel


def test_the_record_counts_the_agents_validations_and_names_its_answer(
    run_agent, call, write_cassette
) -> None:
    copy = "cp data/sample_submission.csv submission/submission.csv"
    replies = [
        {"tool_calls": [call("validate_submission")]},  # no file yet: the answers are not read
        {"tool_calls": [call("bash", command=copy)]},
        {"tool_calls": [call("validate_submission")]},
        {"tool_calls": [call("answer")], "model": "provider-model-2026-01"},
    ]
    model = ReplayModel(write_cassette("integrity-basic", replies))
    run, status, grade = run_agent(model)
    assert status == "submitted" and grade["valid_submission"]
    record = run.record.summary
    integrity = record["integrity"]
    assert integrity["validations"] == {"agent": 2, "harness": 0}  # a check and the answer's
    assert integrity["chosen_by"] == "answer" and integrity["violations"] == []
    assert integrity["sandbox_closed_at"] <= integrity["grading_started_at"]
    assert integrity["answers_exposed"] == 0
    assert integrity["agent_network"] == record["sandbox"]["network"]
    assert verify(record) is None
    assert record["provider_models"] == ["provider-model-2026-01"]
    machine = record["machine"]
    assert machine["cpu_cores"] == len(os.sched_getaffinity(0)) and machine["memory_gib"] > 0
    assert machine["gpu_count"] == 0 or machine["gpus"] != "none"


def test_a_run_that_ends_without_an_answer_says_its_last_file_was_graded(
    run_agent, call, write_cassette
) -> None:
    copy = "cp data/sample_submission.csv submission/submission.csv"
    model = ReplayModel(
        write_cassette("integrity-steps", [{"tool_calls": [call("bash", command=copy)]}])
    )
    run, status, grade = run_agent(model, steps=1)
    assert status == "step_limit" and grade["valid_submission"]
    assert run.record.summary["integrity"]["chosen_by"] == "last_file"
