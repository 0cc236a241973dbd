"""validate_submission and answer: read as the agent, checked by a real validator."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tools import PythonKernel, Sandbox, Toolset, Workspace


def call(toolset: Toolset, name: str, **args: object):  # type: ignore[no-untyped-def]
    return toolset.call(name, json.dumps(args))


def write(toolset: Toolset, rel: str, text: str) -> None:
    assert call(toolset, "create", path=rel, file_text=text).kind == "ok"


def test_missing_submission_is_a_tool_error(toolset: Toolset, workspace: Workspace) -> None:
    (workspace.submission / "submission.csv").unlink(missing_ok=True)
    for name in ("validate_submission", "answer"):
        obs = toolset.call(name, "{}")
        assert obs.kind == "tool_error" and "There is no file" in obs.text and not obs.submitted


def test_validate_reports_valid_or_the_reason_never_a_score(toolset: Toolset) -> None:
    write(toolset, "submission/submission.csv", "id;target\n1;0\n")
    obs = toolset.call("validate_submission", "")
    assert obs.kind == "ok" and "is NOT a valid submission: the header must be" in obs.text
    write(toolset, "submission/submission.csv", "id,target\n1,0\n2,1\n")
    obs = toolset.call("validate_submission", "{}")
    assert obs.kind == "ok" and obs.text.endswith("is a valid submission: 2 rows")
    assert not obs.submitted


def test_validator_sees_a_private_copy_not_the_agents_path(
    workspace: Workspace,
    sandbox: Sandbox,
    kernel: PythonKernel,
    validator: Callable[[Path], tuple[bool, str]],
) -> None:
    seen: list[Path] = []

    def recording_validator(path: Path) -> tuple[bool, str]:
        seen.append(path)
        return validator(path)

    tools = Toolset.standard(
        workspace, sandbox, kernel, recording_validator, "submission/submission.csv", lambda: 60.0
    )
    write(tools, "working/candidate.csv", "id,target\n1,0\n")
    call(tools, "validate_submission", path="working/candidate.csv")
    assert seen and seen[0].name == "candidate.csv"
    assert workspace.root not in seen[0].parents and not seen[0].exists()  # removed afterwards


def test_answer_rejects_an_invalid_file_and_accepts_a_valid_one(toolset: Toolset) -> None:
    write(toolset, "submission/submission.csv", "id,target\n")
    obs = toolset.call("answer", "{}")
    assert obs.kind == "tool_error" and "no rows" in obs.text and not obs.submitted
    write(toolset, "submission/submission.csv", "id,target\n1,0\n")
    obs = toolset.call("answer", "{}")
    assert obs.kind == "ok" and obs.submitted and obs.text.startswith("Submission accepted")


def test_answer_from_another_path_puts_the_validated_file_in_place(
    toolset: Toolset, workspace: Workspace
) -> None:
    write(toolset, "working/final.csv", "id,target\n7,1\n")
    obs = call(toolset, "answer", path="working/final.csv")
    assert obs.submitted and "copied to" in obs.text
    assert (workspace.submission / "submission.csv").read_text() == "id,target\n7,1\n"


def test_answer_on_a_directory_is_refused(toolset: Toolset) -> None:
    obs = call(toolset, "answer", path="submission")
    assert obs.kind == "tool_error" and "is a directory" in obs.text


@pytest.mark.parametrize("include_answer", [True, False])
def test_answer_only_when_asked(
    workspace: Workspace,
    sandbox: Sandbox,
    kernel: PythonKernel,
    validator: Callable[[Path], tuple[bool, str]],
    include_answer: bool,
) -> None:
    tools = Toolset.standard(
        workspace,
        sandbox,
        kernel,
        validator,
        "submission/submission.csv",
        lambda: 60.0,
        include_answer=include_answer,
    )
    assert ("answer" in tools.names()) is include_answer
