"""Durations as text: a clock, words for instructions, seconds for notes and pages."""

from __future__ import annotations

from scaffolds.timefmt import format_duration, format_hms, format_seconds


def test_a_clock_never_goes_negative() -> None:
    assert format_hms(3725.9) == "1:02:05"
    assert format_hms(90000) == "25:00:00"
    assert format_hms(-5) == "0:00:00"


def test_words_leave_out_zero_parts_and_say_one_without_an_s() -> None:
    assert format_duration(5400) == "1 hour 30 minutes"
    assert format_duration(3661) == "1 hour 1 minute 1 second"
    assert format_duration(7200.4) == "2 hours"
    assert format_duration(0.2) == format_duration(-3) == "0 seconds"


def test_seconds_for_the_model_round_to_a_tenth_and_for_pages_to_fixed_places() -> None:
    assert format_seconds(30) == "30 s"
    assert format_seconds(30.0) == "30 s"
    assert format_seconds(1.25) == "1.2 s"
    assert format_seconds(1.25, 2) == "1.25 s"
    assert format_seconds(3, 2) == "3.00 s"
    assert format_seconds(None, 2) == format_seconds("12", 2) == "? s"
