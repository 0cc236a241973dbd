"""Importing the package (and litellm through it) opens no network connection."""

from __future__ import annotations

import subprocess
import sys

PROBE = r"""
import socket
attempts = []
def refuse(*args, **kwargs):
    attempts.append(args)
    raise OSError("network disabled in this test")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
import scaffolds
from scaffolds.model import _litellm
_litellm()  # the heavy import, as the first model call does it
import bench_adapters, tools
print("ATTEMPTS", len(attempts))
"""


def test_import_makes_no_network_call() -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=180, env=env
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "ATTEMPTS 0" in result.stdout


def test_import_does_not_load_litellm() -> None:
    code = "import sys, scaffolds; print('litellm' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "False"
