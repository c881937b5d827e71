"""The protocol methods the referee asks instead of special-casing a game: ``pending_removal``,
``landings``, ``apply(..., checked=True)``, ``effect`` and ``turns``, on all three games (hypothesis
walks random games and compares each answer with what ``legal`` and ``apply`` do)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.abalone import marbles_off
from engine.morris import Place, Remove

CASES = [
    ("atmalof", "standard", {}),
    ("atmalof", "junior", {"tiebreak": "both"}),
    ("morris", "standard", {}),
    ("morris", "six", {}),
    ("morris", "twelve", {}),
    ("abalone", "standard", {}),
    ("abalone", "belgian-daisy", {}),
]
SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _walk(data: st.DataObject, name: str, variant: str, options: dict, plies: int) -> Any:
    """Random legal actions with random rolls; yields (game, before, action, roll, after)."""
    game = engine.get_game(name)
    state = game.new(variant, **options)
    for _ in range(plies):
        legal = game.legal(state)
        if not legal:
            return
        action = data.draw(st.sampled_from(legal))
        faces = game.die_faces(state, action)
        roll = None if faces is None else data.draw(st.integers(1, faces))
        after = game.apply(state, action, roll)
        yield game, state, action, roll, after
        state = after


@SETTINGS
@given(data=st.data(), case=st.sampled_from(CASES))
def test_pending_removal_agrees_with_the_legal_list(data: st.DataObject, case: tuple) -> None:
    for game, _, _, _, after in _walk(data, *case, plies=120):
        legal = game.legal(after)
        only_removals = bool(legal) and all(
            game.notation(after, a).startswith("remove ") for a in legal
        )
        assert game.pending_removal(after) == only_removals


@SETTINGS
@given(data=st.data(), case=st.sampled_from(CASES))
def test_landings_agree_with_apply_for_every_roll(data: st.DataObject, case: tuple) -> None:
    for game, before, action, _, _ in _walk(data, *case, plies=60):
        faces = game.die_faces(before, action)
        landings = game.landings(before, action)
        if faces is None:
            assert landings == ()
            continue
        assert [x.roll for x in landings] == list(range(1, faces + 1))
        for x in landings:
            after = game.apply(before, action, x.roll)
            assert x.free == (before.at(x.square) is None)
            assert after.at(x.square) == (before.to_move if x.free else before.at(x.square))
            assert x.free == (after.hands != before.hands)
            assert game.effect(before, action, x.roll, after).lost_turn == (not x.free)


@SETTINGS
@given(data=st.data(), case=st.sampled_from(CASES))
def test_checked_apply_equals_apply(data: st.DataObject, case: tuple) -> None:
    for game, before, action, roll, after in _walk(data, *case, plies=80):
        trusted = game.apply(before, action, roll, checked=True)
        assert trusted == after
        assert game.to_text(trusted) == game.to_text(after)
        assert game.result(trusted) == game.result(after)


@SETTINGS
@given(data=st.data(), case=st.sampled_from(CASES))
def test_effect_says_what_apply_did(data: st.DataObject, case: tuple) -> None:
    name = case[0]
    for game, before, action, roll, after in _walk(data, *case, plies=120):
        effect = game.effect(before, action, roll, after)
        assert effect.side == before.to_move
        assert effect.notation == game.notation(before, action)
        assert effect.roll == roll
        assert effect.outcome == game.result(after)
        if name == "morris":
            assert effect.mill == game.pending_removal(after)
            layout = before.rules.layout
            taken = [p for p in range(layout.size) if before.men[1 - before.to_move] >> p & 1]
            left = [p for p in range(layout.size) if after.men[1 - before.to_move] >> p & 1]
            gone = sorted(set(taken) - set(left))
            assert [layout.points[p] for p in gone] == ([effect.removed] if effect.removed else [])
        if name == "abalone":
            them = 1 - before.to_move
            assert effect.pushed_off == marbles_off(after, them) - marbles_off(before, them)
            assert 0 <= effect.pushed_off <= effect.pushed <= 2
        if name == "atmalof":
            assert (effect.landing is not None) == (roll is not None)


@SETTINGS
@given(data=st.data(), case=st.sampled_from(CASES))
def test_every_action_is_a_turn_but_the_removal_a_mill_owes(
    data: st.DataObject, case: tuple
) -> None:
    """``turns`` is what players number: one more per action, except a Morris removal, which
    belongs to the mill's turn (a removal is owed exactly when ``pending_removal`` says so)."""
    for game, before, _, _, after in _walk(data, *case, plies=120):
        owed = game.pending_removal(before)
        assert game.turns(after) == game.turns(before) + (0 if owed else 1)
        if case[0] != "morris":
            assert game.turns(after) == after.ply  # Atmalof's and Abalone's count is the ply


def test_a_combined_move_and_removal_says_what_it_removed() -> None:
    game = engine.get_game("morris")
    state = game.new("standard")
    for text in ("place a7", "place a1", "place d7", "place g1"):
        state = game.apply(state, game.parse(state, text))
    action = game.parse(state, "place g7 x a1")
    after = game.apply(state, action)
    effect = game.effect(state, action, None, after)
    assert (effect.removed, effect.mill, effect.side) == ("a1", False, 0)
    split = game.apply(state, Place(action.point))
    assert game.pending_removal(split)
    assert game.effect(state, Place(action.point), None, split).mill
    removal = Remove(action.remove)
    assert game.effect(split, removal, None, game.apply(split, removal)).removed == "a1"


def test_a_mill_and_its_removal_are_one_turn_split_or_joined() -> None:
    """Two plies either way (the engine's count), one turn (the players' count); the mill's
    move counts already while its removal is owed."""
    game = engine.get_game("morris")
    state = game.new("standard")
    for text in ("place a7", "place a1", "place d7", "place g1"):
        state = game.apply(state, game.parse(state, text))
    assert game.turns(state) == state.ply == 4
    joined = game.apply(state, game.parse(state, "place g7 x a1"))
    owed = game.apply(state, game.parse(state, "place g7"))
    split = game.apply(owed, game.parse(owed, "remove a1"))
    assert joined == split and joined.ply == 6
    assert game.turns(owed) == game.turns(joined) == game.turns(split) == 5
    after = game.apply(split, game.parse(split, "place b6"))
    assert game.turns(after) == 6


def test_a_futile_drop_has_no_free_landing() -> None:
    game = engine.get_game("atmalof")
    state = game.from_text(
        "standard board=RBRBRBR/......./......./......./......./......./....... "
        "hands=18,19 turn=red ply=7"
    )
    drop = game.parse(state, "drop row 1")
    assert not any(x.free for x in game.landings(state, drop))
    assert [x.free for x in game.landings(state, game.parse(state, "drop col 1"))] == [
        False,
        *[True] * 5,
    ]
