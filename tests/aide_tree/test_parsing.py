"""Reading operator answers and reviews, including what small models get wrong."""

from __future__ import annotations

import math

import pytest

from aide_tree import parse_metric, parse_reply, parse_review
from aide_tree.cassette import review_call, review_json
from scaffolds.messages import ModelResponse


def test_reply_splits_plan_and_the_script() -> None:
    text = "Use a forest.\n\n```python\nimport x\nprint(x)\n```\nThat is all."
    assert parse_reply(text) == ("Use a forest.", "import x\nprint(x)\n")


def test_reply_takes_the_longest_python_block_and_an_unclosed_one() -> None:
    text = "Plan.\n```bash\nls\n```\n```python\na = 1\n```\n```py\na = 1\nb = 2\n```"
    assert parse_reply(text) == ("Plan.", "a = 1\nb = 2\n")
    assert parse_reply("Plan.\n```python\nprint(1)\nprint(2") == ("Plan.", "print(1)\nprint(2\n")


def test_reply_without_code_has_empty_code() -> None:
    assert parse_reply("I would train a model.") == ("I would train a model.", "")
    assert parse_reply(None) == ("", "")
    assert parse_reply("```bash\nls\n```")[1] == ""


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        (0.5, 0.5),
        (3, 3.0),
        ("0.75", 0.75),
        (True, None),
        (None, None),
        (math.nan, None),
        (math.inf, None),
        ("nan", None),
        ("high", None),
        (10**400, None),
        ([1], None),
    ],
)
def test_metric_values(raw: object, value: float | None) -> None:
    assert parse_metric(raw) == value


def test_review_from_a_function_call_or_json_text() -> None:
    call = ModelResponse.from_record(review_call(False, "Good run.", 7))
    assert (
        (r := parse_review(call)).is_bug is False and r.metric == 7.0 and r.summary == "Good run."
    )
    text = ModelResponse.from_record(review_json(True, "KeyError", None))
    assert (r := parse_review(text)).is_bug is True and r.metric is None and r.problem is None
    prose = ModelResponse(
        content='Sure! ```json\n{"is_bug": "false", "summary": "ok", "metric": "0.8"}\n```'
    )
    assert (r := parse_review(prose)).is_bug is False and r.metric == 0.8


def test_unreadable_reviews_count_as_bugs() -> None:
    r = parse_review(ModelResponse(content="The model looks fine to me."))
    assert r.is_bug and r.problem == "no JSON object in the answer"
    nan = parse_review(ModelResponse.from_record(review_call(False, "s", None)))
    assert nan.metric is None and not nan.is_bug  # a missing metric makes the node buggy later
    odd = parse_review(ModelResponse(content='{"is_bug": "maybe", "metric": 1}'))
    assert odd.is_bug and odd.problem == "is_bug is not true or false"
