"""The one exception a tool raises to show the model a message."""

from __future__ import annotations


class ToolError(Exception):
    """A failure the model should read and react to (missing file, no match, invalid path).

    The toolset turns it into an observation of kind ``tool_error`` carrying exactly this
    message. Any other exception escaping a tool is a harness bug.
    """
