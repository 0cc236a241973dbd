"""The user-based sandbox (the fallback where bwrap is missing): the agent user reads data/,
writes the rest, and reaches nothing that file permissions keep from it.

test_namespace_sandbox.py holds the escape suite of the default, namespace, sandbox.
"""

import json
import os
import pwd
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tools import PythonKernel, Sandbox, Toolset, Workspace
from tools.bash import run_bash

pytestmark = pytest.mark.usefixtures("as_root")


@pytest.fixture(scope="module")
def sandbox(workspace: Workspace) -> Iterator[Sandbox]:
    """This module's kernel and tools run in the user-based sandbox."""
    with Sandbox.create(workspace, backend="user") as box:
        yield box


def test_sandbox_runs_agent_code_as_an_unprivileged_user(sandbox: Sandbox, agent_user: str) -> None:
    assert sandbox.isolated and sandbox.user == agent_user and sandbox.backend == "user"
    assert "isolation on" in sandbox.note
    assert pwd.getpwnam(agent_user).pw_uid == sandbox.uid != 0
    out = subprocess.run(sandbox.popen_args(["id", "-u"]), capture_output=True, text=True)
    assert out.stdout.strip() == str(sandbox.uid)


def test_root_only_answers_never_reach_an_observation(
    toolset: Toolset, private_answers: Path, root_only_file: Path, secret: str
) -> None:
    calls = []
    for path in (private_answers, root_only_file):
        calls += [  # the parent listing works for root_only_file, but shows no content
            ("python", {"code": f"print(open({str(path)!r}).read())"}),
            ("bash", {"command": f"cat {path}; ls -la {path.parent}; cp {path} working/"}),
            ("view", {"path": str(path)}),
            ("view", {"path": str(path.parent)}),
            ("validate_submission", {"path": str(path)}),
            ("answer", {"path": str(path)}),
            ("str_replace", {"path": str(path), "old_str": "id", "new_str": "x"}),
        ]
    for name, args in calls:
        obs = toolset.call(name, json.dumps(args))
        assert secret not in obs.text, (name, args)
        assert not obs.submitted
        if name != "python" and name != "bash" and args["path"] == str(path):
            assert obs.kind == "tool_error", (name, obs.text)
    assert (
        "Permission denied"
        in toolset.call("bash", json.dumps({"command": f"cat {root_only_file}"})).text
    )
    assert root_only_file.read_text().endswith(f"{secret}\n")  # unchanged


def test_agent_cannot_signal_the_harness_or_read_its_environment(toolset: Toolset) -> None:
    pid = os.getpid()
    obs = toolset.call("bash", json.dumps({"command": f"kill -9 {pid}; cat /proc/{pid}/environ"}))
    assert "Operation not permitted" in obs.text and "Permission denied" in obs.text
    obs = toolset.call("python", json.dumps({"code": f"import os; os.kill({pid}, 9)"}))
    assert "PermissionError" in obs.text
    assert os.getpid() == pid  # still here


def test_agent_reads_data_and_writes_only_its_own_directories(
    toolset: Toolset, workspace: Workspace, agent_user: str
) -> None:
    script = (
        "head -n 1 data/train.csv; "
        "touch data/new.csv || echo DATA-READONLY; "
        "rm -f data/train.csv 2>/dev/null; test -f data/train.csv && echo DATA-KEPT; "
        "mv data gone 2>/dev/null || echo DATA-NOT-MOVED; "
        "echo hi > working/w.txt && echo hi > submission/s.txt && echo hi > code/c.py && "
        "echo hi > top.txt && echo WROTE"
    )
    out = toolset.call("bash", json.dumps({"command": script})).text
    for expected in ("id,feature,target", "DATA-READONLY", "DATA-KEPT", "DATA-NOT-MOVED", "WROTE"):
        assert expected in out, out
    assert (workspace.working / "w.txt").stat().st_uid == pwd.getpwnam(agent_user).pw_uid


def test_api_keys_and_harness_variables_do_not_reach_agent_processes(
    shared_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-harness-secret-1")
    monkeypatch.setenv("HF_TOKEN", "hf-harness-secret-2")
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    ws = Workspace.create(shared_root / "env-check", None)
    box = Sandbox.create(ws)
    assert not any("secret" in v for v in box.env.values())
    env = run_bash(box, "env", ws.root, 10).output
    assert "harness-secret" not in env and "OMP_NUM_THREADS=3" in env
    with PythonKernel(box, ws.root) as kernel:
        out = kernel.execute("import os; print(sorted(os.environ))", 10).output
    assert "OPENAI_API_KEY" not in out and "HF_TOKEN" not in out
    assert "PYTEST_CURRENT_TEST" not in out  # nothing of the harness's environment


def test_unreachable_interpreter_is_refused_with_the_fix(shared_root: Path) -> None:
    hidden = shared_root / "root-only-venv"
    (hidden / "bin").mkdir(parents=True)
    hidden.chmod(0o700)
    (hidden / "bin" / "python").symlink_to(sys.executable)
    ws = Workspace.create(shared_root / "venv-check", None)
    with pytest.raises(RuntimeError) as err:
        Sandbox.create(ws, agent_python=str(hidden / "bin" / "python"))
    message = str(err.value)
    assert str(hidden / "bin" / "python") in message and "SCAFFOLDS_AGENT_PYTHON" in message


def test_unreachable_workspace_is_refused(shared_root: Path) -> None:
    closed = shared_root / "closed"
    closed.mkdir(mode=0o700)
    ws = Workspace.create(closed / "ws", None)
    with pytest.raises(RuntimeError, match="cannot reach the workspace"):
        Sandbox.create(ws, backend="user")


def test_without_root_isolation_is_off_and_says_so(shared_root: Path, sandbox: Sandbox) -> None:
    """The non-root path, run for real: a harness started as the agent user."""
    target = shared_root / "nonroot"
    target.mkdir()
    target.chmod(0o777)
    code = (
        "from pathlib import Path; from tools import Sandbox, Workspace; "
        f"box = Sandbox.create(Workspace.create(Path({str(target)!r}) / 'ws', None)); "
        "print(box.isolated, box.user, box.popen_args(['x'])); print(box.note); "
        "from tools.exposure import check_exposure; "  # nothing is refused without root
        "print(check_exposure(box, [Path('/etc/hostname')], []))"
    )
    out = subprocess.run(
        sandbox.popen_args([sys.executable, "-c", code]),
        env={**sandbox.env, "PYTHONPATH": str(Path(__file__).parents[2])},
        cwd="/",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    first, note, exposed = out.stdout.splitlines()
    assert first == "False None ['x']" and exposed == "[]"
    assert note.startswith("isolation off") and "not protected" in note


def test_a_resume_never_follows_links_the_agent_left_for_its_folders(
    tampered_resume: Callable[[str], None],
) -> None:
    tampered_resume("user")


def test_a_kernel_cannot_swap_its_connection_file_for_a_link(
    swapped_connection_file: Callable[[str], None],
) -> None:
    swapped_connection_file("user")
