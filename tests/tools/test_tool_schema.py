from typing import Literal

import pytest

from tools import function_schema, tool_from_function
from tools.arguments import ArgumentError, check_arguments, parse_arguments


def search(
    query: str,
    mode: Literal["fast", "exact"] = "fast",
    limit: int = 10,
    weights: list[float] | None = None,
    verbose: bool = False,
) -> str:
    """Search the corpus.

    Longer explanation,
    wrapped, on a second paragraph:
    - with a list item

    Args:
        query: What to look for.
        mode: How to match: fast is fuzzy,
            exact is literal.
        limit (int): At most this many hits.
        weights: Optional per-field weights.
        verbose: Show scores.

    Returns:
        The hits, one per line.
    """
    return query


def test_schema_from_hints_and_docstring() -> None:
    schema = function_schema(search)
    assert schema["type"] == "function"
    fn = schema["function"]
    assert fn["name"] == "search"
    assert fn["description"] == (
        "Search the corpus.\n\nLonger explanation, wrapped, on a second paragraph:\n"
        "- with a list item"
    )
    params = fn["parameters"]
    assert params["required"] == ["query"]
    assert params["additionalProperties"] is False
    props = params["properties"]
    assert props["query"] == {"type": "string", "description": "What to look for."}
    assert props["mode"] == {
        "type": "string",
        "enum": ["fast", "exact"],
        "description": "How to match: fast is fuzzy, exact is literal.",
        "default": "fast",
    }
    assert props["limit"]["type"] == "integer" and props["limit"]["default"] == 10
    assert props["weights"] == {
        "type": "array",
        "items": {"type": "number"},
        "description": "Optional per-field weights.",
    }
    assert props["verbose"]["type"] == "boolean"


def test_undocumented_or_untyped_parameters_are_refused() -> None:
    def undocumented(x: int) -> str:
        """Does things."""
        return ""

    def untyped(x) -> str:  # type: ignore[no-untyped-def]
        """Does things.

        Args:
            x: A thing.
        """
        return ""

    with pytest.raises(ValueError, match="'x' is not described"):
        function_schema(undocumented)
    with pytest.raises(TypeError, match="no type hint"):
        function_schema(untyped)


def test_tool_from_function_uses_the_function_name() -> None:
    tool = tool_from_function(search)
    assert tool.name == "search" and tool.function is search
    assert tool.schema == function_schema(search)


def test_arguments_are_checked_against_the_hints() -> None:
    assert check_arguments(search, {"query": "q", "weights": None}) == {
        "query": "q",
        "weights": None,
    }
    assert check_arguments(search, {"query": "q", "weights": [1, 2.5]})["weights"] == [1, 2.5]
    cases = {
        "Missing required argument 'query'": {},
        "Unexpected argument 'colour'": {"query": "q", "colour": 1},
        "'limit' of 'search' must be an integer, got a string": {"query": "q", "limit": "3"},
        "'verbose' of 'search' must be a boolean, got an integer": {"query": "q", "verbose": 1},
        "'limit' of 'search' must be an integer, got a boolean": {"query": "q", "limit": True},
        'must be one of "fast", "exact"': {"query": "q", "mode": "slow"},
        "must be an array of numbers or null": {"query": "q", "weights": ["a"]},
    }
    for message, args in cases.items():
        with pytest.raises(ArgumentError, match=message):
            check_arguments(search, args)


def test_raw_arguments_must_be_one_json_object() -> None:
    assert parse_arguments("", "t") == {}
    assert parse_arguments('{"a": 1}', "t") == {"a": 1}
    with pytest.raises(ArgumentError, match=r"not valid JSON: Expecting .* \(line 1, column"):
        parse_arguments('{"a": 1,', "t")
    with pytest.raises(ArgumentError, match="must be a JSON object, not an array"):
        parse_arguments("[1]", "t")
