"""The bash tool: a fresh shell per call, as the agent, killed as a group on timeout."""

import getpass
import json
import subprocess
import time

from tools import Sandbox, Toolset, Workspace
from tools.bash import run_bash


def test_output_is_merged_in_order_with_the_exit_code(
    sandbox: Sandbox, workspace: Workspace
) -> None:
    result = run_bash(sandbox, "echo a; echo b >&2; echo c; exit 3", workspace.root, 10)
    assert result.output == "a\nb\nc\n" and result.exit_code == 3 and not result.timed_out


def test_tool_text_shows_a_failing_exit_code_and_runs_in_the_root(
    toolset: Toolset, workspace: Workspace, sandbox: Sandbox
) -> None:
    obs = toolset.call("bash", json.dumps({"command": "pwd; id -un; false"}))
    assert obs.kind == "ok"
    assert obs.text == f"{workspace.root}\n{sandbox.user or getpass.getuser()}\n[exit code 1]"
    assert toolset.call("bash", '{"command": "true"}').text == "(no output)"


def test_timeout_kills_the_whole_process_group(sandbox: Sandbox, workspace: Workspace) -> None:
    marker = "scaffolds_marker_5521"
    command = f"(exec -a {marker} sleep 60) & echo started; sleep 60"
    started = time.monotonic()
    result = run_bash(sandbox, command, workspace.root, 1.0)
    assert time.monotonic() - started < 30  # uncut: 60 s (bench/tool_latency.py: how promptly)
    assert result.timed_out and result.exit_code is None
    assert result.output.startswith("started\n") and "Timed out after 1 s" in result.output
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    assert left.stdout == ""


def test_a_background_process_holding_the_pipe_does_not_block(
    sandbox: Sandbox, workspace: Workspace
) -> None:
    started = time.monotonic()
    result = run_bash(sandbox, "sleep 30 & echo $! > working/bg.pid; echo done", workspace.root, 20)
    assert result.output == "done\n" and result.exit_code == 0 and not result.timed_out
    assert time.monotonic() - started < 15  # waiting for the pipe: 20 s, then a timeout
    pid = (workspace.working / "bg.pid").read_text().strip()  # a PID inside the sandbox
    kill = sandbox.popen_args(["kill", "-KILL", pid])
    subprocess.run(kill, env=sandbox.env, cwd=workspace.root, check=True)


def test_huge_output_is_capped_with_an_exact_count(sandbox: Sandbox, workspace: Workspace) -> None:
    result = run_bash(sandbox, "head -c 5000000 /dev/zero | tr '\\0' a", workspace.root, 60)
    assert len(result.output) < 16_100
    assert "[... 4984000 characters elided ...]" in result.output


def test_binary_output_and_colours(sandbox: Sandbox, workspace: Workspace) -> None:
    result = run_bash(
        sandbox, "printf '\\xff\\xfe\\x00ok \\033[32mgreen\\033[0m'", workspace.root, 10
    )
    assert result.output == "\ufffd\ufffd\x00ok green"


def test_stdin_is_empty(sandbox: Sandbox, workspace: Workspace) -> None:
    started = time.monotonic()
    result = run_bash(sandbox, "read line; echo got:$?", workspace.root, 10)
    assert result.output == "got:1\n" and time.monotonic() - started < 8  # not the 10 s timeout
