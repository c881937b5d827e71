"""Fuzzing the engines' untrusted-text entry points: parse, from_text and new(**options).

The property for a command: ``parse`` returns an action the position allows (in ``legal()``, or
``is_legal`` for a Morris move carrying its removal), or refuses with ``ParseError`` or
``IllegalAction`` whose message is short, non-empty and free of Python internals. Nothing else
may escape. Inputs: random unicode, huge lengths, near-miss tokens of each grammar, and legal
commands with a few random edits, on several positions per game (start, mid-game, a pending
Morris removal, finished games).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction, OptionError, ParseError
from engine.playout import playout

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
INTERNALS = ("Traceback", "object at 0x", "Push(", "Drop(", "Move(", "Place(", "Remove(", "State(")


ATMALOF = engine.get_game("atmalof")
MORRIS = engine.get_game("morris")
ABALONE = engine.get_game("abalone")
_ROWS7 = "/".join(["......."] * 6)

POSITIONS: dict[str, dict[str, Any]] = {
    "atmalof": {
        "start": ATMALOF.new(),
        "mid-game": playout(ATMALOF, ATMALOF.new(), random.Random(1), 24),
        "custom": playout(
            ATMALOF, ATMALOF.new("custom", rows=5, cols=9, beyond_cols=2), random.Random(2), 15
        ),
        "both-empty-hand": ATMALOF.from_text(
            f"custom pieces=5 tiebreak=both board=R.R.R.R/.R...../{'/'.join(['.......'] * 5)} "
            "hands=0,5 turn=red ply=9"
        ),
        "over": ATMALOF.from_text(
            f"standard board=RRRRR../BB.BB../{'/'.join(['.......'] * 5)} "
            "hands=17,18 turn=blue ply=9"
        ),
    },
    "morris": {
        "start": MORRIS.new(),
        "placing": playout(MORRIS, MORRIS.new(), random.Random(3), 7),
        "moving": MORRIS.from_text(
            "standard board=W..W.B..B.WB.W.B..W.B..B hand=0,0 turn=w ply=40 quiet=3"
        ),
        "pending": MORRIS.from_text(
            "standard board=WWW..B..B..B...B.W...... hand=3,4 turn=w ply=9 quiet=0 pending"
        ),
        "flying": MORRIS.from_text(
            "standard board=W.....W..B.BW..B..B..B.. hand=0,0 turn=w ply=60 quiet=0"
        ),
        "over": MORRIS.from_text(
            "standard board=WWW..B..........B....... hand=0,0 turn=b ply=60 quiet=0"
        ),
    },
    "abalone": {
        "start": ABALONE.new(),
        "mid-game": playout(ABALONE, ABALONE.new("belgian-daisy"), random.Random(4), 30),
        "over": ABALONE.from_text("standard bbbbb/bbbbbb/2bbb2/8/9/8/7/1www2/1wwww b 80"),
    },
}
CASES = [(game, name) for game, states in POSITIONS.items() for name in states]

NEAR_MISSES = {
    "atmalof": "drop dorp row rows col column c r move mve to 0 1 4 7 8 99 -1 3,4 4,5 0,0 8,8 3, "
    ",4 r3c4 r3c r0c0 (3,4) (3,4 n ne north-east northeast up sw 3,4,5 1e3 0x1",
    "morris": "place move fly remove take jump plce x a7 d7 g1 d6 b6 h1 a0 a8 d4 b y z A X aa 7a "
    "d - , ply",
    "abalone": "push psh a1 a3 b2 c3 c5 d4 e5 i9 j1 a0 a6 i4 e10 ne e se sw w nw n s north-east "
    "northeast east a1b2 c3c5d4 / h7h6 g7g6",
}
ODD_TOKENS = ["²", "٣", "４", "ａ1", "\u200b", "\x00", "🎲", "İ", "ß", "Ⅻ", "①", "%s", "{0}", "\\n"]


def refused_cleanly(error: Exception) -> None:
    """A refusal a player can read: short, non-empty, no Python internals."""
    message = str(error)
    assert message.strip(), type(error)
    assert len(message) < 200, message
    for marker in INTERNALS:
        assert marker not in message, message


def check_parse(game: Any, state: Any, text: str) -> None:
    try:
        action = game.parse(state, text)
    except (ParseError, IllegalAction) as error:
        refused_cleanly(error)
        return
    if getattr(action, "remove", None) is not None:  # Morris: a move carrying its removal
        assert game.is_legal(state, action), text
    else:
        assert action in game.legal(state), text
        assert game.parse(state, game.notation(state, action)) == action


def grammar_text(game: str) -> st.SearchStrategy[str]:
    tokens = st.sampled_from(NEAR_MISSES[game].split() + ODD_TOKENS)
    separators = st.sampled_from([" ", "  ", ",", "-", "\t", ""])
    return st.lists(st.tuples(tokens, separators), min_size=1, max_size=6).map(
        lambda parts: "".join(token + sep for token, sep in parts)
    )


@st.composite
def mutated(draw: st.DrawFn, base: str) -> str:
    """``base`` with one to three random edits (delete, insert, replace, swap, repeat, case)."""
    text = base
    alphabet = st.sampled_from("abcdefghinsewxr0123456789,-() /x²")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "repeat", "upper"]))
        if kind == "delete" and text:
            text = text[: max(0, i - 1)] + text[i:]
        elif kind == "insert":
            text = text[:i] + draw(alphabet | st.characters()) + text[i:]
        elif kind == "replace" and i < len(text):
            text = text[:i] + draw(alphabet) + text[i + 1 :]
        elif kind == "swap" and 0 < i < len(text):
            text = text[: i - 1] + text[i] + text[i - 1] + text[i + 1 :]
        elif kind == "repeat":
            text = text + " " + text[: draw(st.integers(0, 40))]
        else:
            text = text.upper()
    return text


def command_texts(game: str, state: Any) -> st.SearchStrategy[str]:
    legal = [game_of(game).notation(state, a) for a in game_of(game).legal(state)[:60]]
    bases = legal or NEAR_MISSES[game].split()
    return st.one_of(
        st.text(max_size=80),
        st.text(min_size=190, max_size=260),
        grammar_text(game),
        st.sampled_from(bases).flatmap(mutated),
        st.sampled_from(bases),
        st.tuples(st.sampled_from(bases), st.integers(150, 5000)).map(lambda t: t[0] * t[1]),
    )


def game_of(name: str) -> Any:
    return {"atmalof": ATMALOF, "morris": MORRIS, "abalone": ABALONE}[name]


@pytest.mark.parametrize(("game", "position"), CASES)
def test_parse_returns_a_legal_action_or_a_clear_refusal(game: str, position: str) -> None:
    state = POSITIONS[game][position]

    @FUZZ
    @given(text=command_texts(game, state))
    def run(text: str) -> None:
        check_parse(game_of(game), state, text)

    run()


@pytest.mark.parametrize(("game", "position"), CASES)
def test_every_legal_command_and_its_variants_parse_back(game: str, position: str) -> None:
    """Not random: every legal action's notation, upper-cased and padded, is that action."""
    g = game_of(game)
    state = POSITIONS[game][position]
    for action in g.legal(state):
        text = g.notation(state, action)
        for variant in (text, text.upper(), f"  {text}  ", text.replace(" ", "   ")):
            assert g.parse(state, variant) == action


def test_parse_refuses_non_text_with_a_parse_error() -> None:
    for game in (ATMALOF, MORRIS, ABALONE):
        for thing in (None, 42, b"drop row 4", ["push", "a1"]):
            with pytest.raises(ParseError):
                game.parse(game.new(), thing)


# ---- position strings ------------------------------------------------------------------------


def position_texts(game: str) -> st.SearchStrategy[str]:
    g = game_of(game)
    bases = [g.to_text(s) for s in POSITIONS[game].values()]
    return st.one_of(
        st.text(max_size=120),
        st.sampled_from(bases).flatmap(mutated),
        st.sampled_from(bases).map(lambda t: t + " " + "x=1 " * 600),
    )


@pytest.mark.parametrize("game", list(POSITIONS))
@FUZZ
@given(data=st.data())
def test_from_text_gives_a_usable_state_or_a_parse_error(game: str, data: st.DataObject) -> None:
    g = game_of(game)
    text = data.draw(position_texts(game))
    try:
        state = g.from_text(text)
    except ParseError as error:
        assert str(error).strip()
        return
    # Whatever is accepted must be a position the rest of the engine can work with.
    assert g.from_text(g.to_text(state)) == state
    actions = g.legal(state)
    if g.result(state) is not None:
        assert actions == []
    elif game != "abalone":  # (an Abalone side with no move at all is not a rule we have)
        assert actions
    for action in actions[:20]:
        faces = g.die_faces(state, action)
        g.apply(state, action, roll=1 if faces else None)


# ---- options ---------------------------------------------------------------------------------

OPTION_NAMES = {
    "atmalof": ["rows", "cols", "beyond_rows", "beyond_cols", "pieces", "line", "tiebreak"],
    "morris": ["flying", "no_remill", "repetition", "move_limit"],
    "abalone": ["repetition", "move_limit"],
}
OPTION_VALUES = st.one_of(
    st.integers(-3, 40),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.sampled_from(["on", "off", "yes", "both", "either", "7", " 9 ", "²", "٣", "1" * 5000, ""]),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=2),
)


@pytest.mark.parametrize("game", list(POSITIONS))
@FUZZ
@given(data=st.data())
def test_new_gives_a_state_or_an_option_error(game: str, data: st.DataObject) -> None:
    g = game_of(game)
    variant = data.draw(st.sampled_from([*g.variants, "STANDARD", "chess", "", "custom "]))
    names = st.sampled_from([*OPTION_NAMES[game], "colour", "rows ", "__class__"])
    options = data.draw(st.dictionaries(names, OPTION_VALUES, max_size=4))
    try:
        state = g.new(variant, **options)
    except OptionError as error:
        assert str(error).strip()
        return
    assert g.new(state.variant, **g.options(state)) == state
    assert g.legal(state) and g.result(state) is None


# ---- regressions the fuzzing found ---------------------------------------------------------------

_EMPTY_ATMALOF = "/".join(["......."] * 7)


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("atmalof", "drop row ²"),
        ("atmalof", "drop r²"),
        ("atmalof", "move ²,3 3,3"),
        ("atmalof", "move r①c2 e"),
        ("morris", "place d²"),
        ("abalone", "push a² e"),
    ],
)
def test_digits_that_int_refuses_are_a_parse_error(game: str, text: str) -> None:
    """str.isdigit() accepts '²' and '①', which int() refuses: that was a ValueError."""
    g = game_of(game)
    with pytest.raises(ParseError):
        g.parse(g.new(), text)


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("atmalof", f"standard board={_EMPTY_ATMALOF} hands=2²,22 turn=red ply=0"),
        ("atmalof", f"standard board={_EMPTY_ATMALOF} hands=22,22 turn=red ply=²"),
        ("atmalof", f"custom rows=⁷ board={_EMPTY_ATMALOF} hands=22,22 turn=red ply=0"),
        ("morris", "standard board=........................ hand=9,9 turn=w ply=²"),
        ("morris", "standard board=........................ hand=9,9 turn=w ply=0 move_limit=²"),
        ("abalone", "standard ²/6/7/8/9/8/7/6/5 b 0"),
        ("abalone", "standard 5/6/7/8/9/8/7/6/5 b ²"),
        ("abalone", "standard 5/6/7/8/9/8/7/6/5 b 0 move_limit=²"),
    ],
)
def test_position_strings_with_such_digits_are_a_parse_error(game: str, text: str) -> None:
    with pytest.raises(ParseError):
        game_of(game).from_text(text)


@pytest.mark.parametrize(
    ("game", "variant", "options"),
    [
        ("atmalof", "custom", {"rows": "²"}),
        ("atmalof", "custom", {"pieces": "①"}),
        ("morris", "standard", {"move_limit": "²"}),
        ("morris", "standard", {"move_limit": "1" * 5000}),  # int() refuses > 4300 digits
    ],
)
def test_option_values_with_such_digits_are_an_option_error(
    game: str, variant: str, options: dict[str, Any]
) -> None:
    with pytest.raises(OptionError):
        game_of(game).new(variant, **options)


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("atmalof", "x" * 190 + " y"),
        ("atmalof", "drop row " + "1" * 150),
        ("atmalof", "move 3,4 " + "q" * 150),
        ("atmalof", "0" * 15 + "\x1b\x1b\U0001342f" * 20),
        ("abalone", "push a1 " + "x" * 150),
        ("morris", "place " + "\x07" * 150),
    ],
)
def test_refusals_quote_long_or_unprintable_input_briefly(game: str, text: str) -> None:
    with pytest.raises((ParseError, IllegalAction)) as caught:
        game_of(game).parse(game_of(game).new(), text)
    refused_cleanly(caught.value)
    assert "\x1b" not in str(caught.value) and "\x07" not in str(caught.value)
