"""Dispatch: the tool contract, malformed calls, errors, timeouts."""

import json
import time
from collections.abc import Callable
from pathlib import Path

from tools import PythonKernel, Sandbox, Tool, ToolError, Toolset, Workspace, tool_from_function

CONTRACT = {
    "python": (["code"], []),
    "bash": (["command"], []),
    "view": (["path"], ["view_range"]),
    "create": (["path", "file_text"], []),
    "str_replace": (["path", "old_str", "new_str"], []),
    "insert": (["path", "insert_line", "insert_text"], []),
    "validate_submission": ([], ["path"]),
    "answer": ([], ["path"]),
}
"""Tool names and arguments: recorded and hand-written replay files depend on them."""


def test_names_and_arguments_match_the_contract(toolset: Toolset) -> None:
    assert toolset.names() == list(CONTRACT)
    for schema in toolset.schemas():
        fn = schema["function"]
        required, optional = CONTRACT[fn["name"]]
        params = fn["parameters"]
        assert params["required"] == required
        assert list(params["properties"]) == required + optional
        assert fn["description"] and all(p["description"] for p in params["properties"].values())
    view = next(s for s in toolset.schemas() if s["function"]["name"] == "view")
    assert view["function"]["parameters"]["properties"]["view_range"]["type"] == "array"
    insert = next(s for s in toolset.schemas() if s["function"]["name"] == "insert")
    assert insert["function"]["parameters"]["properties"]["insert_line"]["type"] == "integer"
    json.dumps(toolset.schemas())  # plain JSON


def test_malformed_calls_say_exactly_what_was_wrong(toolset: Toolset) -> None:
    cases = [
        ("python", '{"code": "1"', "not valid JSON: Expecting"),
        ("pyhton", '{"code": "1"}', "Unknown tool 'pyhton'. Available tools: python, bash, view"),
        ("python", "{}", "Missing required argument 'code'"),
        (
            "python",
            '{"code": "1", "timeout": 5}',
            "Unexpected argument 'timeout' for 'python'. Its arguments are: code.",
        ),
        (
            "insert",
            '{"path": "a", "insert_line": "3", "insert_text": "x"}',
            "'insert_line' of 'insert' must be an integer, got a string",
        ),
        ("view", '{"path": "a", "view_range": [1, "2"]}', "must be an array of integers or null"),
        ("bash", '["ls"]', "must be a JSON object, not an array"),
    ]
    for name, arguments, message in cases:
        obs = toolset.call(name, arguments)
        assert obs.kind == "format_error", (name, arguments)
        assert message in obs.text, obs.text


def test_tool_errors_and_harness_bugs_become_observations() -> None:
    def fails(x: int) -> str:
        """Always fails for the model.

        Args:
            x: Anything.
        """
        raise ToolError(f"nothing to do with {x}")

    def buggy(x: int) -> str:
        """Has a bug.

        Args:
            x: Anything.
        """
        return {}["missing"]  # type: ignore[no-any-return]

    tools = Toolset([tool_from_function(fails), tool_from_function(buggy)])
    obs = tools.call("fails", '{"x": 3}')
    assert (obs.kind, obs.text) == ("tool_error", "nothing to do with 3")
    obs = tools.call("buggy", '{"x": 3}')
    assert obs.kind == "harness_error" and "KeyError: 'missing'" in obs.text
    assert obs.traceback is not None and 'return {}["missing"]' in obs.traceback
    assert obs.duration_s >= 0


def test_duplicate_names_are_refused() -> None:
    def t() -> str:
        """A tool."""
        return ""

    tool = tool_from_function(t)
    try:
        Toolset([tool, Tool("t", t, tool.schema)])
    except ValueError as e:
        assert "share a name" in str(e)
    else:
        raise AssertionError("expected ValueError")


def test_timeout_is_the_smaller_of_the_tool_limit_and_the_time_left(
    workspace: Workspace,
    sandbox: Sandbox,
    kernel: PythonKernel,
    validator: Callable[[Path], tuple[bool, str]],
) -> None:
    def build(limit: float, left: float) -> Toolset:
        return Toolset.standard(
            workspace,
            sandbox,
            kernel,
            validator,
            "submission/submission.csv",
            time_left=lambda: left,
            tool_timeout_s=limit,
        )

    # Uncut, each call takes 60 s; how promptly a cut one returns is bench/tool_latency.py's.
    for tools in (build(1.5, 3600), build(3600, 1.5)):
        started = time.monotonic()
        obs = tools.call("bash", '{"command": "sleep 60"}')
        assert "Timed out after 1.5 s" in obs.text and time.monotonic() - started < 30
        obs = tools.call("python", '{"code": "import time; time.sleep(60)"}')
        assert "Timed out after 1.5 s" in obs.text and obs.duration_s < 30


def test_observation_durations_are_measured(toolset: Toolset) -> None:
    obs = toolset.call("bash", '{"command": "sleep 0.3"}')
    assert obs.kind == "ok" and 0.3 <= obs.duration_s < 10  # a bound a busy machine keeps
