"""The JSON schema a model sees for a tool, derived from the Python function itself.

Type hints give the types (``Literal[...]`` becomes an enum, ``X | None = None`` an optional
argument); a Google-style docstring gives the description and, under ``Args:``, one line (or
more, indented) per parameter.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, Union

_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Returns?|Raises|Yields|Examples?|Notes?|Warnings?):\s*$"
)
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_LIST_ITEM = re.compile(r"^([-*]|\d+[.)])\s")
_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {parameter: description})."""
    lines = inspect.cleandoc(doc or "").splitlines()
    description: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    indent: int | None = None
    for line in lines:
        match = _SECTION.match(line)
        if match:
            section, current, indent = match.group(1), None, None
            continue
        if section is None:
            description.append(line)
            continue
        if section not in ("Args", "Arguments", "Parameters") or not line.strip():
            continue
        this_indent = len(line) - len(line.lstrip())
        arg = _ARG_LINE.match(line.strip())
        if arg and (indent is None or this_indent <= indent):
            indent, current = this_indent, arg.group(1).lstrip("*")
            params[current] = arg.group(2).strip()
        elif current is not None:
            params[current] = (params[current] + " " + line.strip()).strip()
    return _unwrap(description), params


def _unwrap(lines: list[str]) -> str:
    """Join hard-wrapped lines into paragraphs (blank lines and list items stay breaks)."""
    out: list[str] = []
    for line in lines:
        text = line.strip()
        starts_item = bool(_LIST_ITEM.match(text))
        if out and out[-1] and text and not starts_item:
            out[-1] += " " + text
        else:
            out.append(text)
    return "\n".join(out).strip()


def _is_optional(annotation: Any) -> tuple[bool, Any]:
    """(True, X) for ``X | None``; (False, annotation) otherwise."""
    if typing.get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) < len(typing.get_args(annotation)):
            inner = args[0] if len(args) == 1 else Union[tuple(args)]  # noqa: UP007
            return True, inner
    return False, annotation


def type_schema(annotation: Any) -> dict[str, Any]:
    """JSON schema for one Python type (str, int, float, bool, list[X], dict[str, X], Literal)."""
    _, annotation = _is_optional(annotation)
    origin = typing.get_origin(annotation)
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if origin is Literal:
        values = list(typing.get_args(annotation))
        kinds = {_SCALARS[type(v)] for v in values}
        return {"type": kinds.pop(), "enum": values} if len(kinds) == 1 else {"enum": values}
    if annotation is list or origin is list:
        args = typing.get_args(annotation)
        return {"type": "array", "items": type_schema(args[0])} if args else {"type": "array"}
    if annotation is dict or origin is dict:
        args = typing.get_args(annotation)
        if len(args) == 2:
            return {"type": "object", "additionalProperties": type_schema(args[1])}
        return {"type": "object"}
    if origin in (Union, types.UnionType):
        return {"anyOf": [type_schema(a) for a in typing.get_args(annotation)]}
    raise TypeError(f"no JSON schema for the type {annotation!r}")


def tool_parameters(fn: Callable[..., Any]) -> dict[str, tuple[Any, bool]]:
    """{name: (annotation, required)} for a tool function's parameters, in order."""
    hints = typing.get_type_hints(fn)
    out: dict[str, tuple[Any, bool]] = {}
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"{fn.__name__}: *args and **kwargs cannot be described to a model")
        if name not in hints:
            raise TypeError(f"{fn.__name__}: parameter '{name}' has no type hint")
        out[name] = (hints[name], param.default is inspect.Parameter.empty)
    return out


def function_schema(fn: Callable[..., Any]) -> dict[str, Any]:
    """The OpenAI ``tools`` entry for ``fn``: name, description and parameters.

    Raises TypeError for a parameter without a type hint or with an unsupported type, and
    ValueError for a parameter that the docstring's ``Args:`` section does not describe.
    """
    description, docs = parse_docstring(fn.__doc__)
    if not description:
        raise ValueError(f"{fn.__name__}: a tool needs a docstring describing what it does")
    signature = inspect.signature(fn)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, (annotation, is_required) in tool_parameters(fn).items():
        if name not in docs:
            raise ValueError(f"{fn.__name__}: parameter '{name}' is not described under Args:")
        prop = {**type_schema(annotation), "description": docs[name]}
        default = signature.parameters[name].default
        if not is_required and default is not None:
            prop["default"] = default
        properties[name] = prop
        if is_required:
            required.append(name)
    return {
        "type": "function",
        "function": {
            "name": fn.__name__,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            },
        },
    }
