"""How ``make test`` runs (tests/parallel.py, tests/durations.py), checked on small suites of
its own in a fresh pytest: the 60 s rule fails a slow test that does not say why, the summary
lists the slowest tests first, data built once is built once across workers, and each worker
runs its agent code as its own user."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from scaffolds.grid.users import isolation_on

REPO = Path(__file__).resolve().parents[1]

SLOW_SUITE = '''
import time

def test_slow_without_a_reason():
    time.sleep(0.6)

def test_slow_with_a_reason():
    """Waits on purpose.

    Slow: it sleeps.
    """
    time.sleep(0.6)

def test_quick():
    pass
'''

SHARED_SUITE = """
import os, time
from pathlib import Path
import pytest
from tests.parallel import built_once

def build(folder):
    with open(os.environ["BUILDS"], "a") as log:
        log.write("built\\n")
    time.sleep(0.5)  # the other worker arrives while this one builds
    (folder / "data.txt").write_text("shared")

@pytest.mark.parametrize("i", range(4))
def test_reads_the_shared_data(tmp_path_factory, i):
    folder = built_once(tmp_path_factory, "data", build)
    assert (folder / "data.txt").read_text() == "shared"
    user = os.environ.get("SCAFFOLDS_AGENT_USER", "-")
    with open(os.environ["SEEN"], "a") as log:
        log.write(f"{os.environ['PYTEST_XDIST_WORKER']} {user}\\n")
    time.sleep(0.3)
"""


def run_suite(root: Path, suite: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``suite`` as the only test file of a fresh pytest run in ``root``, with the suite's
    plugin (tests/parallel.py) and none of the outer run's variables."""
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "test_inner.py").write_text(suite)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SCAFFOLDS_"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.parallel",
         "--rootdir", str(root), *args, str(root / "test_inner.py")],
        cwd=root, capture_output=True, text=True, timeout=300, check=False,
        env={**clean, "PYTHONPATH": str(REPO), **env},
    )  # fmt: skip


def test_a_slow_test_fails_unless_its_docstring_says_why_and_the_summary_lists_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "conftest.py").write_text(
        "import tests.parallel\ntests.parallel.SLOW_LIMIT_S = 0.3\n"
    )
    xml = tmp_path / "report.xml"
    done = run_suite(tmp_path, SLOW_SUITE, f"--junitxml={xml}")
    assert done.returncode == 1, done.stdout + done.stderr
    cases = {c.get("name"): c for c in ET.parse(xml).getroot().iter("testcase")}
    assert set(cases) == {"test_slow_without_a_reason", "test_slow_with_a_reason", "test_quick"}
    failed = {name for name, case in cases.items() if case.find("failure") is not None}
    assert failed == {"test_slow_without_a_reason"}
    assert "over the suite's 0 s limit" in done.stdout and "starting 'Slow:'" in done.stdout

    summary = subprocess.run(
        [sys.executable, "-m", "tests.durations", f"parallel phase=75:{xml}",
         f"serial phase=5:{tmp_path / 'none.xml'}"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    listed = [line.split()[-1] for line in summary.splitlines() if line.startswith("  ")]
    assert len(listed) == 3 and listed[-1].endswith("::test_quick")
    assert {t.split("::")[1] for t in listed[:2]} == {
        "test_slow_without_a_reason",
        "test_slow_with_a_reason",
    }
    assert (
        "make test: 3 tests in 1 min 20 s wall: parallel phase 1 min 15 s (3 tests, 1 failed"
        in summary
    )


def test_workers_build_shared_data_once_and_each_has_its_own_agent_user(tmp_path: Path) -> None:
    builds, seen = tmp_path / "builds.log", tmp_path / "seen.log"
    done = run_suite(tmp_path, SHARED_SUITE, "-n", "2", BUILDS=str(builds), SEEN=str(seen))
    assert done.returncode == 0, done.stdout + done.stderr
    assert builds.read_text() == "built\n"
    users = dict(line.split() for line in seen.read_text().splitlines())
    assert sorted(users) == ["gw0", "gw1"]
    if isolation_on():  # as root, each worker leases an agent-g<k> of its own
        assert len(set(users.values())) == 2
        assert all(user.startswith("agent-g") for user in users.values())
