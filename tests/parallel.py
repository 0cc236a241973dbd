"""How the suite runs on every core (a plugin of tests/conftest.py).

``make test`` runs the suite in two phases: every test not marked ``serial`` under
pytest-xdist (``-n $(nproc)``), then the ``serial`` ones alone on the machine (a Ray cluster of
three nodes, tests whose verdict depends on how fast the machine is). This module gives each
process that runs tests what it must not share, and builds once what it may:

- an agent user of its own: closing a sandbox ends every process of its agent user
  (tools/reaper.py), so two tests at once under one user would end each other's kernels. Each
  pytest process that runs tests holds an ``agent-g<k>`` lease for its whole life, as a grid's
  runs do (scaffolds/grid/users.py), and exports it as ``$SCAFFOLDS_AGENT_USER``, the default
  user of every sandbox and run it starts. Concurrent pytest sessions on one machine get
  different users too.
- costly read-only fixtures built once for the whole run (``built_once``): by the first worker
  that needs one, behind a file lock, in a folder every worker (and, under ``make test``, both
  phases: ``$SCAFFOLDS_TEST_SHARE``) reads. A plain ``pytest`` run builds its own, as before.
- one local model server for all workers (``shared_local_model``), living as long as the run;
  it keeps each conversation's state, so interleaved requests do not re-read each other's
  prompts (tests/local_server.py).
- temporary folders, kernels and server ports need nothing more: each worker has its own
  ``tmp_path`` tree, ``tempfile.mkdtemp`` names never collide, kernels talk over ipc sockets in
  their own folder (namespace sandbox) or on ports the OS picks, and every server binds port 0.

It also fails a test whose call phase took more than ``SLOW_LIMIT_S`` unless its docstring says
why, on a line starting ``Slow:``. Setup is not counted: a session fixture's cost lands on
whichever test first asks for it, on whichever worker. A test that asks for a fixture in
``BUILD_TIMEOUTS_S`` gets that long instead of pytest-timeout's 600 s.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock

from scaffolds.grid.users import UserLease

REPO = Path(__file__).resolve().parents[1]
SHARE_ENV = "SCAFFOLDS_TEST_SHARE"
"""A folder ``make test`` makes for one run: fixtures built in its first phase serve both."""
SLOW_LIMIT_S = 60.0
SLOW_REASON = "Slow:"


def worker_id() -> str | None:
    """This pytest-xdist worker's name (``gw0``...), or None outside one."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def runs_tests(config: pytest.Config) -> bool:
    """False in the pytest-xdist controller, which hands tests to its workers."""
    return hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None)


# --- an agent user per process that runs tests ----------------------------------------------

_LEASE = pytest.StashKey[UserLease]()


def pytest_configure(config: pytest.Config) -> None:
    from scaffolds.grid.users import isolation_on, lease_free
    from tools.agent_env import AGENT_USER_ENV

    # A suite a script starts in the background (``bash .ci/run &``) inherits SIGINT and
    # SIGQUIT ignored, as POSIX has for asynchronous commands, and so would every process a
    # test starts: the tests of interrupts would fail for how the suite was launched.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGQUIT) is signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)

    if runs_tests(config) and isolation_on():  # whatever the caller's environment says
        lease = lease_free()  # held (an flock) until this process ends
        config.stash[_LEASE] = lease
        os.environ[AGENT_USER_ENV] = lease.name


def pytest_unconfigure(config: pytest.Config) -> None:
    from tools.agent_env import AGENT_USER_ENV

    lease = config.stash.get(_LEASE, None)
    if lease is not None:
        os.environ.pop(AGENT_USER_ENV, None)
        lease.release()


# --- time limits ------------------------------------------------------------------------------

BUILD_TIMEOUTS_S = {"lite_check": 1800}
"""Fixtures whose build alone may outlast pytest-timeout's 600 s on a busy machine (the whole
Lite split's smoke runs): a test that asks for one may take this long, since its setup builds
them or waits, on their locks, for the workers that do."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = getattr(item, "fixturenames", ())
        limits = [BUILD_TIMEOUTS_S[name] for name in names if name in BUILD_TIMEOUTS_S]
        if limits and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(max(limits)))


def slow_reason(item: pytest.Item) -> str | None:
    """The ``Slow:`` line of the test's docstring, if it has one."""
    doc = getattr(getattr(item, "obj", None), "__doc__", None) or ""
    lines = [line.strip() for line in doc.splitlines()]
    return next((line for line in lines if line.startswith(SLOW_REASON)), None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if (
        call.when == "call"
        and report.passed
        and call.duration > SLOW_LIMIT_S
        and slow_reason(item) is None
    ):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} passed but took {call.duration:.0f} s, over the suite's "
            f"{SLOW_LIMIT_S:.0f} s limit: make it faster, or give the reason on a line of its "
            f"docstring starting '{SLOW_REASON}' (tests/parallel.py)"
        )
    return report


# --- fixtures built once for the whole run ----------------------------------------------------


def share_root(factory: pytest.TempPathFactory) -> Path | None:
    """Where fixtures built once live: ``$SCAFFOLDS_TEST_SHARE``, else under pytest-xdist the
    run's temporary folder (every worker's own lies in it); None for a plain pytest run."""
    if os.environ.get(SHARE_ENV):
        return Path(os.environ[SHARE_ENV])
    if worker_id() is not None:
        return factory.getbasetemp().parent
    return None


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder ``name``, filled by ``build(folder)`` once for the run: the first process to
    get here builds it while the others wait on the lock. A build that failed or was killed is
    started over by the next one (only a finished one is marked built)."""
    root = share_root(factory)
    if root is None:
        folder = factory.mktemp(name)
        build(folder)
        return folder
    folder, done = root / name, root / f"{name}.built"
    with FileLock(root / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(mode=0o700)
            build(folder)
            done.touch()
    return folder


# --- one local model server for every worker --------------------------------------------------


@dataclass
class SharedServer:
    """The local model server of ``python -m tests.local_server``: what a worker needs of it,
    and a ``ServerWatch`` (scaffolds/model.py) naming why it cannot answer."""

    api_base: str
    model: str
    pid: int

    def failure(self) -> str | None:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return f"the shared local model server (pid {self.pid}) has ended"
        probe = self.api_base.removesuffix("/v1") + "/openapi.json"
        try:
            with urllib.request.urlopen(probe, timeout=10) as r:
                r.read()
        except (OSError, urllib.error.URLError) as exc:
            return f"the shared local model server gave no answer at {probe}: {exc}"
        return None


def shared_local_model(factory: pytest.TempPathFactory, n_ctx: int) -> SharedServer | None:
    """The run's one local model server, started by the first worker that asks for it; it
    serves until the pytest-xdist controller (this worker's parent) ends. None outside xdist:
    the caller starts its own server."""
    from scaffolds.local_llm import LocalModelUnavailable

    root = share_root(factory)
    if worker_id() is None or root is None:
        return None
    info = root / f"local-llm-{n_ctx}.json"
    with FileLock(root / f"local-llm-{n_ctx}.lock"):
        if info.exists():
            found = json.loads(info.read_text())
            server = SharedServer(**found) if "pid" in found else None
            if server is not None and server.failure() is None:
                return server
            info.unlink()
        log = (root / f"local-llm-{n_ctx}.log").open("ab")
        argv = [sys.executable, "-m", "tests.local_server", str(os.getppid()), str(n_ctx)]
        process = subprocess.Popen(
            [*argv, str(info)], cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 300
        while not info.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        if not info.exists():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            raise LocalModelUnavailable(f"no shared local model server; see {log.name}")
        found = json.loads(info.read_text())
        if "error" in found:
            info.unlink()
            raise LocalModelUnavailable(found["error"])
        return SharedServer(**found)
