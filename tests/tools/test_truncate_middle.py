import random

import pytest

from tools import truncate_middle
from tools.ansi import strip_ansi
from tools.truncate import StreamCap


def test_short_text_is_unchanged() -> None:
    assert truncate_middle("abc", 3) == "abc"
    assert truncate_middle("", 0) == ""


def test_long_text_keeps_head_and_tail_and_counts_exactly() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(1000))
    out = truncate_middle(text, 100)
    assert out.startswith(text[:50])
    assert out.endswith(text[-50:])
    assert "[... 900 characters elided ...]" in out


def test_odd_cap_and_zero_cap() -> None:
    out = truncate_middle("0123456789", 3)
    assert out == "0\n[... 7 characters elided ...]\n89"
    assert truncate_middle("0123456789", 0) == "\n[... 10 characters elided ...]\n"
    with pytest.raises(ValueError):
        truncate_middle("x", -1)


@pytest.mark.parametrize("cap", [0, 1, 7, 100, 16000])
def test_streaming_equals_truncate_middle_for_any_chunking(cap: int) -> None:
    rng = random.Random(cap)
    for _ in range(20):
        text = "".join(rng.choice("ab\n") for _ in range(rng.randint(0, 3 * cap + 5)))
        stream, i = StreamCap(cap), 0
        while i < len(text):
            step = rng.randint(1, max(1, cap))
            stream.write(text[i : i + step])
            i += step
        assert stream.text() == truncate_middle(text, cap)
        assert stream.total == len(text)


def test_skipped_characters_count_toward_the_marker() -> None:
    stream = StreamCap(10)
    stream.write("HHHHH")
    stream.skip(1000)
    stream.write("TTTTT")
    assert stream.text() == "HHHHH\n[... 1000 characters elided ...]\nTTTTT"


def test_strip_ansi_removes_colours_and_titles_only() -> None:
    assert strip_ansi("\x1b[1;31mred\x1b[0m plain \x1b]0;title\x07end") == "red plain end"
    assert strip_ansi("no escapes [0m") == "no escapes [0m"
