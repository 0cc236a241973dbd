"""The namespace sandbox's escape suite: with a data folder and another run's folder readable by
every user, no attempt of the agent's reaches them, because they are not in its view at all.

Also: one sandbox per run (shared /tmp and processes, all ended on close), network off, the
GPU bind list, the agent's own pip installs, and the fallback when bwrap is unavailable.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.machine import require
from tools import PythonKernel, Sandbox, Toolset, Workspace
from tools.agent_env import interpreter_prefixes
from tools.bash import run_bash
from tools.enter import nsenter_has_wdns
from tools.namespace import bwrap_path, namespace_problem
from tools.view import (
    ETC_ENTRIES,
    LIB_LINKS,
    bwrap_args,
    gpu_device_nodes,
    system_mounts,
    view_mounts,
)

pytestmark = pytest.mark.usefixtures("as_root")
MARK = "harness-only-value-31337"


@pytest.fixture(scope="module", autouse=True)
def needs_bwrap() -> None:
    problem = namespace_problem(bwrap_path())
    require(problem is None, f"the namespace sandbox is unavailable: {problem}")


@pytest.fixture(scope="module")
def exposed(agent_dir: Callable[[str], Path], secret: str) -> dict[str, Path]:
    """A data folder and another run's folder that every user may read (0755/0644)."""
    root = agent_dir("scaffolds-exposed-")
    prepared = root / "data" / "comp" / "prepared"
    (prepared / "public").mkdir(parents=True)
    (prepared / "private").mkdir()
    (prepared / "public" / "train.csv").write_text("id,target\n1,0\n")
    answers = prepared / "private" / "answers.csv"
    answers.write_text(f"id,target\n3,{secret}\n")
    other = root / "runs" / "other"
    (other / "workspace" / "submission").mkdir(parents=True)
    (other / "run.json").write_text(json.dumps({"note": secret}))
    (other / "workspace" / "submission" / "submission.csv").write_text(f"id,target\n3,{secret}\n")
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return {"answers": answers, "public": prepared / "public", "other": other, "root": root}


@pytest.fixture(scope="module")
def workspace(exposed: dict[str, Path]) -> Iterator[Workspace]:
    os.environ["SCAFFOLDS_TEST_MARK"] = MARK  # harness environment the agent must not see
    os.environ["FAKE_SERVICE_API_KEY"] = MARK
    yield Workspace.create(exposed["root"] / "runs" / "mine" / "workspace", exposed["public"])
    del os.environ["SCAFFOLDS_TEST_MARK"], os.environ["FAKE_SERVICE_API_KEY"]


def call(toolset: Toolset, name: str, **args: object) -> str:
    return toolset.call(name, json.dumps(args)).text


def test_the_default_sandbox_as_root_is_the_namespace_one(
    sandbox: Sandbox, agent_user: str
) -> None:
    assert sandbox.backend == "namespace" and sandbox.isolated and sandbox.user == agent_user
    assert sandbox.describe() == {"backend": "namespace", "network": "on", "user": agent_user}
    assert "namespace sandbox (network on)" in sandbox.note
    assert run_bash(sandbox, "id -un", sandbox.workspace.root, 10).output == f"{agent_user}\n"


def test_world_readable_answers_and_other_runs_are_absent(
    toolset: Toolset, sandbox: Sandbox, exposed: dict[str, Path], secret: str
) -> None:
    answers, other = exposed["answers"], exposed["other"]
    # control: outside the namespace, the agent user could read them
    with Sandbox.create(Workspace(sandbox.workspace.root), backend="user") as plain:
        assert secret in run_bash(plain, f"cat {answers}", Path("/"), 10).output
    targets = [answers, answers.parent, other / "run.json", other / "workspace/submission"]
    for path in targets:
        out = call(toolset, "bash", command=f"cat {path}; ls {path}; ls {path.parent}")
        assert secret not in out and "No such file or directory" in out, out
        out = call(toolset, "python", code=f"print(open({str(path)!r}).read())")
        assert secret not in out and "FileNotFoundError" in out, out
        for tool in ("view", "validate_submission", "answer"):
            obs = toolset.call(tool, json.dumps({"path": str(path)}))
            assert obs.kind == "tool_error" and secret not in obs.text and not obs.submitted


def test_a_walk_over_the_root_finds_only_allowed_paths(
    kernel: PythonKernel, sandbox: Sandbox, workspace: Workspace, agent_user: str
) -> None:
    kernel_folder = sandbox.kernel_dir()
    shutil.rmtree(kernel_folder)
    allowed = [
        str(workspace.root),
        str(kernel_folder.parent),
        "/usr",
        "/etc",
        f"/home/{agent_user}",
    ]
    allowed += [str(p) for p in interpreter_prefixes(sandbox.agent_python)]
    code = f"""
import json, os
allowed, skip, seen = {allowed!r}, {{"/proc", "/sys", "/dev"}}, []
inside = lambda p: any(p == a or p.startswith(a + "/") for a in allowed)
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(root, d) not in skip]
    seen += [os.path.join(root, n) for n in dirs + files if not inside(os.path.join(root, n))]
    dirs[:] = [d for d in dirs if not inside(os.path.join(root, d))]
print(json.dumps([seen, sorted(os.listdir("/etc")), sorted(os.listdir("/home"))]))
"""
    result = kernel.execute(code, 120)
    seen, etc, home = json.loads(result.output)
    links = {f"/{name}" for name in LIB_LINKS}
    strays = [p for p in seen if p not in links and not any(a.startswith(p + "/") for a in allowed)]
    assert strays == []
    assert "/root" not in seen and all(not p.startswith("/work/main/tools") for p in seen)
    extra = {"passwd", "group", "mtab"}
    assert [n for n in etc if n not in ETC_ENTRIES and n not in extra and "python3" not in n] == []
    assert "shadow" not in etc and home == [agent_user]


def test_proc_holds_only_the_sandbox_without_the_harness_environment(toolset: Toolset) -> None:
    code = (
        "import os, json\nout = []\n"
        "for pid in filter(str.isdigit, os.listdir('/proc')):\n"
        "    for name in ('environ', 'cmdline'):\n"
        "        try: out.append(open(f'/proc/{pid}/{name}', 'rb').read().decode('utf-8', 'replace'))\n"
        "        except OSError: pass\n"
        "print(json.dumps(out))"
    )
    seen = json.loads(call(toolset, "python", code=code))
    assert seen and not any(MARK in text or "pytest" in text for text in seen)
    ps = call(toolset, "bash", command="ps -eo pid,user,args")
    assert "pytest" not in ps and "nsenter" not in ps


def test_symlinks_out_of_the_workspace_lead_nowhere(
    toolset: Toolset, exposed: dict[str, Path], secret: str
) -> None:
    answers = exposed["answers"]
    out = call(
        toolset,
        "bash",
        command=f"ln -s {answers} working/a.csv; ln -s / working/top; "
        f"ln -sf {answers} submission/submission.csv; "
        f"cat working/a.csv; ls working/top{answers.parent}; ls working/top/",
    )
    assert secret not in out and out.count("No such file or directory") == 2
    assert "etc" in out.split() and "root" not in out.split()  # the link shows the sandbox's /
    for path in ("working/a.csv", "submission/submission.csv", None):
        obs = toolset.call("answer", json.dumps({"path": path} if path else {}))
        assert obs.kind == "tool_error" and not obs.submitted and secret not in obs.text


def test_one_sandbox_per_run_shares_tmp_and_processes_until_closed(workspace: Workspace) -> None:
    marker = "scaffolds_marker_8812"
    stale = Path(tempfile.gettempdir()) / "scaffolds-sandboxes" / "left-by-a-killed-harness"
    stale.mkdir(parents=True, exist_ok=True)
    (stale / "owner").write_text("4194303 1")  # a process that is not running
    starting = stale.with_name("being-created-by-another-harness")
    starting.mkdir(exist_ok=True)
    (starting / "owner").write_text("")  # caught between creating the file and writing it
    box = Sandbox.create(workspace)
    assert not stale.exists()  # swept when the next sandbox starts
    assert starting.is_dir()  # left to the harness creating it
    shutil.rmtree(starting)
    try:
        started = run_bash(
            box,
            f"echo note > /tmp/shared.txt; (exec -a {marker} sleep 300) & echo ok",
            Path("/"),
            10,
        )
        assert started.output == "ok\n"
        later = run_bash(box, f"pgrep -f {marker} >/dev/null && echo alive", Path("/"), 10)
        assert later.output == "alive\n"
        with PythonKernel(box, workspace.root) as kernel:
            assert kernel.execute("print(open('/tmp/shared.txt').read())", 10).output == "note\n\n"
    finally:
        box.close()
    time.sleep(0.3)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout
    assert left == ""
    with pytest.raises(RuntimeError, match="has ended"):
        box.popen_args(["true"])


@pytest.fixture(scope="module")
def host_server() -> Iterator[int]:
    """A TCP server on the harness's side, on every address."""
    server = socket.create_server(("0.0.0.0", 0))  # a connection completes in the backlog
    yield server.getsockname()[1]
    server.close()


def test_network_off_blocks_connections_while_the_kernel_answers(
    workspace: Workspace, kernel: PythonKernel, host_server: int
) -> None:
    connect = (
        "import socket\n"
        "for host in ('127.0.0.1', '192.0.2.1'):\n"
        f"    try: socket.create_connection((host, {host_server}), timeout=3).close(); print(host, 'connected')\n"
        "    except OSError as e: print(host, type(e).__name__)"
    )
    assert "127.0.0.1 connected" in kernel.execute(connect, 30).output  # network on: it can
    with Sandbox.create(workspace, network="off") as box, PythonKernel(box, workspace.root) as k:
        assert box.describe()["network"] == "off" and box.kernel_transport == "ipc"
        out = k.execute(connect, 30).output
        assert "127.0.0.1 ConnectionRefusedError" in out and "192.0.2.1 connected" not in out
        assert k.execute("1 + 1", 10).output == "2\n"


def test_gpu_device_nodes_are_bound_only_when_asked_for(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "sda", "nvme0n1", "null", "kfd"):  # fmt: skip
        (dev / name).touch()
    (dev / "nvidia-caps").mkdir()
    (dev / "dri").mkdir()
    gpu = ["dri", "kfd", "nvidia-caps", "nvidia-uvm", "nvidia-uvm-tools", "nvidia0", "nvidia1", "nvidiactl"]  # fmt: skip
    assert [p.name for p in gpu_device_nodes(dev)] == gpu
    options = dict(
        workspace_root=tmp_path / "ws",
        data=tmp_path / "ws" / "data",
        prefixes=[],
        control=tmp_path / "ctl",
        home="/home/agent",
        dev=dev,
    )
    bound = [m.dest for m in view_mounts(gpu=True, **options) if m.kind == "dev"]  # type: ignore[arg-type]
    assert bound == [str(dev / name) for name in gpu]
    args = bwrap_args(view_mounts(gpu=True, **options))  # type: ignore[arg-type]
    assert args.count("--dev-bind") == len(gpu) and "--dev" in args
    assert [m for m in view_mounts(gpu=False, **options) if m.kind == "dev"] == []  # type: ignore[arg-type]
    assert gpu_device_nodes(tmp_path / "missing") == []
    # a run gets the GPUs only when its task needs one (scaffolds.runtime passes gpu=)
    assert inspect.signature(Sandbox.create).parameters["gpu"].default is False


def test_a_prefix_that_would_bring_in_the_workspace_surroundings_is_left_out(
    tmp_path: Path,
) -> None:
    venv = tmp_path / "venv"
    venv.mkdir()
    ws = tmp_path / "runs" / "mine" / "workspace"
    mounts = view_mounts(
        workspace_root=ws,
        data=ws / "data",
        prefixes=["/", str(tmp_path / "runs"), str(venv), "relative/lib", "/usr/lib"],
        control=tmp_path / "ctl",
        home="/home/agent",
        gpu=False,
    )
    bound = [m.dest for m in mounts if m.kind in ("ro", "rw")]
    assert str(venv) in bound and "/" not in bound and str(tmp_path / "runs") not in bound
    assert "/usr/lib" not in bound and "relative/lib" not in bound  # /usr is bound whole


def _wheel(folder: Path, name: str = "sbxdemo") -> Path:
    """A tiny pure-Python wheel, built by hand (no network, no build backend)."""
    import base64
    import hashlib

    files = {
        f"{name}/__init__.py": b"VALUE = 42\n",
        f"{name}-0.1.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n".encode(),
        f"{name}-0.1.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    digest = lambda d: base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode()  # noqa: E731
    record = "".join(f"{p},sha256={digest(d)},{len(d)}\n" for p, d in files.items())
    path = folder / f"{name}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for p, d in files.items():
            whl.writestr(p, d)
        whl.writestr(f"{name}-0.1.dist-info/RECORD", record + f"{name}-0.1.dist-info/RECORD,,\n")
    path.chmod(0o644)
    return path


def test_pip_install_goes_into_the_workspace_and_the_venv_stays_read_only(
    sandbox: Sandbox, kernel: PythonKernel, workspace: Workspace
) -> None:
    wheel = _wheel(workspace.working)
    venv = Path(sys.prefix)
    out = run_bash(
        sandbox,
        f"pip install --no-index {wheel} 2>&1 | tail -1; touch {venv}/x",
        workspace.root,
        120,
    ).output
    assert "Successfully installed sbxdemo-0.1" in out and "Read-only file system" in out
    assert kernel.execute("import sbxdemo; print(sbxdemo.VALUE)", 30).output == "42\n"
    assert list((workspace.root / ".pydeps").rglob("sbxdemo/__init__.py"))
    assert not (venv / "x").exists()


def test_without_bwrap_the_user_sandbox_is_the_fallback_and_says_so(
    workspace: Workspace,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    refused = tmp_path / "bwrap"
    refused.write_text(
        "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n"
    )
    refused.chmod(0o755)
    for fake, why in ((str(tmp_path / "missing-bwrap"), "cannot run"), (str(refused), "Operation not permitted")):  # fmt: skip
        monkeypatch.setenv("SCAFFOLDS_BWRAP", fake)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="tools.sandbox"):
            boxes = [Sandbox.create(workspace), Sandbox.create(workspace)]
        assert [b.backend for b in boxes] == ["user", "user"]
        assert "namespace sandbox unavailable" in boxes[0].note and why in boxes[0].note
        warnings = [r for r in caplog.records if "namespace sandbox unavailable" in r.getMessage()]
        assert len(warnings) == 1 and "apt-get install bubblewrap" in warnings[0].getMessage()
        for options in ({"backend": "namespace"}, {"network": "off"}):
            with pytest.raises(RuntimeError, match="apt-get install bubblewrap"):
                Sandbox.create(workspace, **options)  # type: ignore[arg-type]


def test_a_resume_never_follows_links_the_agent_left_for_its_folders(
    tampered_resume: Callable[[str], None],
) -> None:
    """The folders are given to the agent on the host, before the view exists."""
    tampered_resume("namespace")


def test_a_one_shot_call_enters_its_working_directory_inside_the_view(
    sandbox: Sandbox, workspace: Workspace, agent_dir: Callable[[str], Path]
) -> None:
    """bash and the file tools name their working directory: nsenter enters it inside the
    view (no ``sh``, no ``env``), so a folder that exists only on the host is refused."""
    argv = sandbox.popen_args(["pwd"], cwd=workspace.working)
    if nsenter_has_wdns(argv[0]):
        assert argv[0].endswith("nsenter") and f"--wdns={workspace.working}" in argv
    out = run_bash(sandbox, "pwd; grep SigIgn /proc/self/status", workspace.working, 10)
    assert out.output.splitlines()[0] == str(workspace.working)
    assert int(out.output.split()[-1], 16) & 0b10 == 0  # SIGINT (2) is not ignored
    host_only = agent_dir("scaffolds-host-only-")
    (host_only / "host-file").touch()
    out = run_bash(sandbox, "ls; pwd", host_only, 10)
    assert out.exit_code != 0 and "host-file" not in out.output


def test_the_view_leaves_out_pip_conf(tmp_path: Path) -> None:
    """It can hold a private index's credentials; ``hosts`` beside it is bound."""
    (tmp_path / "etc").mkdir()
    for name in ("pip.conf", "hosts"):
        (tmp_path / "etc" / name).write_text("[global]\nindex-url = https://user:pw@mirror/\n")
    bound = [m.dest for m in system_mounts(tmp_path)]
    assert "/etc/hosts" in bound and "/etc/pip.conf" not in bound


def test_a_kernel_cannot_swap_its_connection_file_for_a_link(
    swapped_connection_file: Callable[[str], None],
) -> None:
    """The kernel's folder is root's; only its ipc/ sockets folder is the agent's."""
    swapped_connection_file("namespace")
