"""The one prompt loader: sets searched in order, variants, one whitespace rule and its two
explicit exceptions, tool schemas, and the names of a set's templates."""

from __future__ import annotations

from importlib import resources
from string import Template

import pytest

import prompts


def test_a_set_list_falls_back_to_the_sets_after_it() -> None:
    own = prompts.render(("iterative", "basic"), "system")
    assert own == prompts.text("iterative", "system").rstrip("\n")
    assert own != prompts.render("basic", "system")
    inherited = prompts.render(("iterative", "basic"), "task", instructions="Do X.")
    assert inherited == prompts.render("basic", "task", instructions="Do X.") == "Do X."


def test_a_variant_is_preferred_where_it_exists_and_the_plain_template_elsewhere() -> None:
    assert prompts.text("mlebench", "instructions", variant="obfuscated") == prompts.text(
        "mlebench", "instructions_obfuscated"
    )
    assert prompts.text("mlebench", "notes", variant="obfuscated") == prompts.text(
        "mlebench", "notes"
    )


def test_one_whitespace_rule_and_the_two_kept_by_name() -> None:
    # basic/observation.md is "$output\n$reminder\n": a placeholder at each end
    values = {"output": "  out", "reminder": "left  \n\n"}
    assert prompts.render("basic", "observation", **values) == "  out\nleft  "
    assert prompts.render("basic", "observation", trim="whitespace", **values) == "out\nleft"
    assert prompts.render("basic", "observation", trim="none", **values) == "  out\nleft  \n\n\n"


def test_values_come_from_a_mapping_and_keywords_as_template_substitute_takes_them() -> None:
    values = {"output": "a", "reminder": "b"}
    assert prompts.render("basic", "observation", values, reminder="c") == "a\nc"


def test_a_value_named_like_an_argument_still_fills_its_placeholder() -> None:
    # tam/description.md has a $name placeholder
    text = prompts.text("tam", "description")
    fields = {key: "v" for key in _placeholders(text)}
    assert "# Kaggle-ish (" in prompts.render(
        "tam", "description", **{**fields, "name": "Kaggle-ish"}
    )


def test_a_missing_value_or_template_is_an_error_naming_it() -> None:
    with pytest.raises(KeyError, match="reminder"):
        prompts.render("basic", "observation", output="x")
    with pytest.raises(FileNotFoundError, match=r"nope\.md in prompts/\{iterative,basic\}"):
        prompts.render(("iterative", "basic"), "nope")


def test_a_template_in_a_folder_of_its_set() -> None:
    text = prompts.render("tam", "formats/text-easy", trim="whitespace", submission_path="s.csv")
    assert text.startswith("`s.csv`")


def test_a_tool_schema_is_a_fresh_dict_each_time() -> None:
    schema = prompts.tool_schema("aide", "submit_review")
    assert schema["function"]["name"] == "submit_review"
    schema.clear()
    assert prompts.tool_schema("aide", "submit_review")["function"]["name"] == "submit_review"


def test_names_are_in_file_name_order() -> None:
    folder = resources.files("prompts").joinpath("monitor")
    files = sorted(p.name for p in folder.iterdir() if p.name.startswith("question_"))
    assert prompts.names("monitor", "question_") == [f.removesuffix(".md") for f in files]
    assert len(files) >= 3


def test_judge_templates_end_in_text_so_their_newline_rule_is_the_loaders() -> None:
    """PaperBench's judge once cut the template's trailing newlines before filling it in; the
    loader cuts them after. The two agree while no judge template ends in a placeholder."""
    names = prompts.names("paperbench", "judge_")
    assert names
    for name in names:
        body = prompts.text("paperbench", name).rstrip("\n")
        filled = Template(body).substitute({key: "\n" for key in _placeholders(body)})
        assert filled.endswith(body[-1]), name


def _placeholders(text: str) -> set[str]:
    found = (m.group("named") or m.group("braced") for m in Template.pattern.finditer(text))
    return {name for name in found if name}
