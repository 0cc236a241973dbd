"""A tool: one Python function plus the schema derived from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tools.result import Observation
from tools.schema import function_schema

ToolFunction = Callable[..., "str | Observation"]
"""A tool takes only the model's arguments and returns the text the model reads (or a full
Observation, e.g. to mark a submission). It raises ToolError for failures the model should
see."""


@dataclass(frozen=True)
class Tool:
    name: str
    function: ToolFunction
    schema: dict[str, Any]
    """The OpenAI ``tools`` entry the model sees."""


def tool_from_function(fn: ToolFunction) -> Tool:
    """Wrap ``fn`` as a Tool; its name, type hints and docstring make the schema."""
    schema = function_schema(fn)
    return Tool(name=schema["function"]["name"], function=fn, schema=schema)
