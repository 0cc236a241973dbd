"""Checking a model's tool-call arguments against the tool function's signature.

Every failure is an ``ArgumentError`` whose message says exactly what was wrong, in the
JSON terms the model sees in the schema.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, Union

from tools.schema import tool_parameters

_JSON_NAMES: dict[type, str] = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    list: "an array",
    dict: "an object",
    type(None): "null",
}


class ArgumentError(Exception):
    """The call's arguments do not fit the tool: shown to the model as a format error."""


def _json_kind(value: Any) -> str:
    return _JSON_NAMES.get(type(value), type(value).__name__)


def _expected(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        return " or ".join(_expected(a) for a in typing.get_args(annotation))
    if origin is Literal:
        return "one of " + ", ".join(json.dumps(v) for v in typing.get_args(annotation))
    if origin is list:
        (item,) = typing.get_args(annotation) or (Any,)
        return "an array" + ("" if item is Any else f" of {_expected(item).split(' ', 1)[1]}s")
    return _JSON_NAMES.get(origin or annotation, str(annotation))


def _fits(annotation: Any, value: Any) -> bool:
    if annotation is Any:
        return True
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        return any(_fits(a, value) for a in typing.get_args(annotation))
    if origin is Literal:
        return value in typing.get_args(annotation) and not isinstance(value, bool)
    if annotation is type(None) or annotation is None:
        return value is None
    if annotation is bool:
        return isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is str:
        return isinstance(value, str)
    if annotation is list or origin is list:
        args = typing.get_args(annotation)
        return isinstance(value, list) and all(_fits(args[0], v) for v in value if args)
    if annotation is dict or origin is dict:
        args = typing.get_args(annotation)
        return isinstance(value, dict) and all(_fits(args[1], v) for v in value.values() if args)
    return isinstance(value, annotation)


def parse_arguments(raw: str | dict[str, Any] | None, tool: str) -> dict[str, Any]:
    """The JSON object in ``raw`` (an empty string or None counts as ``{}``; an already
    parsed dict is taken as it is)."""
    if isinstance(raw, dict):
        return raw
    if raw is None or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as e:
        raise ArgumentError(
            f"The arguments of '{tool}' are not valid JSON: {e.msg} "
            f'(line {e.lineno}, column {e.colno}). Send one JSON object, e.g. {{"name": value}}.'
        ) from None
    if not isinstance(value, dict):
        raise ArgumentError(
            f"The arguments of '{tool}' must be a JSON object, not {_json_kind(value)}."
        )
    return value


def check_arguments(fn: Callable[..., Any], args: dict[str, Any]) -> dict[str, Any]:
    """Return ``args`` if they fit ``fn``'s parameters; raise ArgumentError naming the problem."""
    params = tool_parameters(fn)
    name = fn.__name__
    unexpected = [a for a in args if a not in params]
    if unexpected:
        listing = ", ".join(params) or "none"
        raise ArgumentError(
            f"Unexpected argument {_names(unexpected)} for '{name}'. Its arguments are: {listing}."
        )
    missing = [p for p, (_, required) in params.items() if required and p not in args]
    if missing:
        raise ArgumentError(f"Missing required argument {_names(missing)} for '{name}'.")
    for arg, value in args.items():
        annotation = params[arg][0]
        if not _fits(annotation, value):
            shown = json.dumps(value)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise ArgumentError(
                f"Argument '{arg}' of '{name}' must be {_expected(annotation)}, "
                f"got {_json_kind(value)}: {shown}."
            )
        if not _encodable(value):
            raise ArgumentError(
                f"Argument '{arg}' of '{name}' holds a lone UTF-16 surrogate, which is not a "
                "character (e.g. \\ud800 in JSON); send valid Unicode text."
            )
    return args


def _encodable(value: Any) -> bool:
    """Whether every string in ``value`` is valid Unicode (no lone surrogate)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(_encodable(v) for v in value)
    if isinstance(value, dict):
        return all(_encodable(k) and _encodable(v) for k, v in value.items())
    return True


def _names(items: list[str]) -> str:
    return ", ".join(f"'{i}'" for i in items) if len(items) > 1 else f"'{items[0]}'"
