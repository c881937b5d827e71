"""ClockSpec.parse and format_seconds as units: what a player types becomes exactly this clock,
and what they read is never negative. Before these, "15+5" read as 15+0, "10" as 10+1 or an
increment over the maximum all went unnoticed (issue 14's surviving mutants)."""

from __future__ import annotations

import pytest

from bot.clock import (
    MAX_CORR_HOURS,
    MAX_INCREMENT,
    MAX_MINUTES,
    ClockSpec,
    ClockSpecError,
    format_seconds,
)


@pytest.mark.parametrize(
    ("text", "kind", "initial", "increment", "per_move"),
    [
        ("15+5", "fischer", 900.0, 5.0, 0.0),
        (" 15 + 5 ", "fischer", 900.0, 5.0, 0.0),
        ("10+0", "fischer", 600.0, 0.0, 0.0),
        ("10", "fischer", 600.0, 0.0, 0.0),
        ("1", "fischer", 60.0, 0.0, 0.0),
        (f"{MAX_MINUTES}+{MAX_INCREMENT}", "fischer", MAX_MINUTES * 60.0, 600.0, 0.0),
        ("24h", "correspondence", 0.0, 0.0, 24 * 3600.0),
        ("corr 3", "correspondence", 0.0, 0.0, 3 * 3600.0),
        ("correspondence 2", "correspondence", 0.0, 0.0, 2 * 3600.0),
        ("1 hour", "correspondence", 0.0, 0.0, 3600.0),
        (f"{MAX_CORR_HOURS} hours", "correspondence", 0.0, 0.0, MAX_CORR_HOURS * 3600.0),
        ("none", "none", 0.0, 0.0, 0.0),
        ("OFF", "none", 0.0, 0.0, 0.0),
        ("no", "none", 0.0, 0.0, 0.0),
        ("   ", "none", 0.0, 0.0, 0.0),
        ("unlimited", "none", 0.0, 0.0, 0.0),
        ("", "none", 0.0, 0.0, 0.0),
        (None, "none", 0.0, 0.0, 0.0),
    ],
)
def test_parse_reads_each_number_where_it_belongs(
    text: str | None, kind: str, initial: float, increment: float, per_move: float
) -> None:
    spec = ClockSpec.parse(text)
    assert (spec.kind, spec.initial, spec.increment, spec.per_move) == (
        kind,
        initial,
        increment,
        per_move,
    )
    assert ClockSpec.parse(spec.text) == spec  # the stored spelling reads back the same
    assert spec.enabled is (kind != "none")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0+5", f"a time bank is 1 to {MAX_MINUTES} minutes, not 0"),
        (f"{MAX_MINUTES + 1}", f"a time bank is 1 to {MAX_MINUTES} minutes, not {MAX_MINUTES + 1}"),
        (f"10+{MAX_INCREMENT + 1}", f"an increment is at most {MAX_INCREMENT} seconds"),
        ("0h", f"correspondence is 1 to {MAX_CORR_HOURS} hours per move"),
        (f"corr {MAX_CORR_HOURS + 1}", f"correspondence is 1 to {MAX_CORR_HOURS} hours"),
        ("10+", "cannot read the clock '10\\+'"),
        ("+5", "cannot read the clock"),
        ("15+5+5", "cannot read the clock"),
        ("12345", f"a time bank is 1 to {MAX_MINUTES} minutes, not 12345"),  # read, too long
        ("10+1000", f"an increment is at most {MAX_INCREMENT} seconds"),
        ("1000h", f"correspondence is 1 to {MAX_CORR_HOURS} hours per move"),
        ("1234567890+5", "cannot read the clock"),  # more digits than any clock needs
        ("5 minutes", "cannot read the clock"),
        ("fast", "cannot read the clock 'fast': use none, 10\\+0 or 15\\+5"),
        ("-5", "cannot read the clock"),
        ("hello", "cannot read the clock"),  # has an "h", but no hours
        ("h", "cannot read the clock"),
    ],
)
def test_parse_refuses_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(ClockSpecError, match=message):
        ClockSpec.parse(text)


def test_an_unreadable_clock_says_what_would_do() -> None:
    with pytest.raises(ClockSpecError) as raised:
        ClockSpec.parse("fast")
    assert str(raised.value) == (
        "cannot read the clock 'fast': use none, 10+0 or 15+5 (minutes + seconds), "
        "or 24h (hours per move)"
    )


def test_text_is_the_canonical_spelling() -> None:
    assert ClockSpec.parse(" 15 + 5 ").text == "15+5"
    assert ClockSpec.parse("10").text == "10+0"
    assert ClockSpec.parse("corr 24").text == "24h"
    assert ClockSpec.parse(None).text == "none"


def test_banks_deadlines_and_the_increment() -> None:
    fischer = ClockSpec.parse("5+3")
    assert fischer.start_banks() == (300.0, 300.0)
    assert fischer.deadline(1000.0, 120.0) == 1120.0
    assert fischer.after_turn(120.0, 1000.0, 1010.0) == 113.0  # 10 s used, 3 s back
    corr = ClockSpec.parse("2h")
    assert corr.start_banks() == (0.0, 0.0)
    assert corr.deadline(1000.0, 0.0) == 1000.0 + 7200.0
    assert corr.after_turn(50.0, 1000.0, 5000.0) == 50.0
    none = ClockSpec.parse("none")
    assert none.deadline(1000.0, 0.0) is None and none.start_banks() == (0.0, 0.0)
    assert none.after_turn(7.0, 0.0, 99.0) == 7.0


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "0:00"),
        (0.9, "0:00"),
        (-1, "0:00"),
        (-3600.5, "0:00"),
        (5, "0:05"),
        (59, "0:59"),
        (60, "1:00"),
        (245, "4:05"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (3723, "1:02:03"),
        (86400, "24:00:00"),
        (2 * 86400 - 1, "47:59:59"),
        (2 * 86400, "2d 0h"),
        (2 * 86400 + 3 * 3600 + 59, "2d 3h"),
        (14 * 86400 + 23 * 3600, "14d 23h"),
    ],
)
def test_format_seconds_edges(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown
