"""What a test needs of the machine: skipped where it is missing, a failure in CI.

``.ci/run`` sets ``SCAFFOLDS_CI=1`` after installing everything (root, bubblewrap, chromium), so
a test that would skip there for want of one of them fails instead: nothing is silently skipped
in CI.
"""

from __future__ import annotations

import os

import pytest


def require(ok: bool, reason: str) -> None:
    """Skip the test unless ``ok``; in CI, fail it with ``reason``."""
    if ok:
        return
    if os.environ.get("SCAFFOLDS_CI"):
        pytest.fail(f"CI must run this test, but {reason}", pytrace=False)
    pytest.skip(reason)
