"""The two ways resolving a task reference can fail, each with a one-line message."""

from __future__ import annotations


class UnknownTask(Exception):
    """The reference names no task this suite knows (bad benchmark, id or folder)."""


class TaskNotPrepared(Exception):
    """The task is known but its prepared data (private answers) is missing."""


class LeaderboardError(Exception):
    """A leaderboard file exists but cannot be used (no score column, no rows, LFS pointer)."""
