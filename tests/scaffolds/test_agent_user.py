"""``SCAFFOLDS_AGENT_USER`` names the agent user of every run and sandbox that names none; the
test suite gives each of its processes one this way (tests/parallel.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from basic_agent import BasicConfig
from tools.agent_env import AGENT_USER_ENV, default_agent_user


def test_the_variable_sets_the_default_of_runs_and_sandboxes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(AGENT_USER_ENV, "agent-x9")
    assert default_agent_user() == "agent-x9"
    assert BasicConfig(model="m", task="demo/tabular-binary").agent_user == "agent-x9"
    given = BasicConfig(model="m", task="demo/tabular-binary", agent_user="someone")
    assert given.agent_user == "someone"
    monkeypatch.delenv(AGENT_USER_ENV)
    assert default_agent_user() == "agent"
    assert BasicConfig(model="m", task="demo/tabular-binary").agent_user == "agent"


def test_help_names_the_default_in_force() -> None:
    help_text = subprocess.run(
        [sys.executable, "-m", "scaffolds.basic", "--help"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200", AGENT_USER_ENV: "agent-x9"},
        timeout=120,
        check=True,
    ).stdout
    assert "$SCAFFOLDS_AGENT_USER sets the default) (default: agent-x9)" in help_text
