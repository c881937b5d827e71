"""Properties every game and variant shares, checked on random games (hypothesis).

Random legal actions with rolls from a random dice seed: the engine never crashes, turns pass
as the game's rules say, every legal action's notation parses back to it, positions survive
their text form, and the game's record replays to the same positions and verifies.
"""

from __future__ import annotations

import importlib.util
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.record import Record, Recorder, replay, verify

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("atmalof", "standard", {}),
    ("atmalof", "junior", {}),
    ("atmalof", "atmalos", {}),
    ("atmalof", "custom", {}),
    ("atmalof", "custom", {"rows": 8, "cols": 6, "pieces": 12, "line": 4, "tiebreak": "both"}),
    ("morris", "standard", {}),
    ("morris", "standard", {"flying": False, "move_limit": 10}),
    ("morris", "six", {}),
    ("morris", "twelve", {}),
    ("abalone", "standard", {}),
    ("abalone", "belgian-daisy", {}),
    ("abalone", "german-daisy", {}),
]
SETTINGS = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,  # the same games on every run: no flaky suite
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _case_id(case: tuple[str, str, dict[str, Any]]) -> str:
    game, variant, options = case
    return "-".join([game, variant, *(f"{k}={v}" for k, v in options.items())])


def _need(game: str) -> None:
    if importlib.util.find_spec(f"engine.{game}") is None:
        pytest.skip(f"engine/{game}.py is not written yet")


seeds = st.binary(min_size=16, max_size=32).map(bytes.hex)


def _random_game(data: st.DataObject, game: str, variant: str, options: dict, plies: int):
    """A recorder after up to ``plies`` random legal actions (stopping when the game ends)."""
    rec = Recorder(game, variant, options, game_id="prop", seed=data.draw(seeds, label="seed"))
    g = rec.game
    for _ in range(plies):
        actions = g.legal(rec.state)
        if not actions:
            break
        rec.play(data.draw(st.sampled_from(actions), label="action"))
    return rec


def _pending_removal(g: Any, state: Any) -> bool:
    actions = g.legal(state)
    return bool(actions) and all(g.notation(state, a).startswith("remove ") for a in actions)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@SETTINGS
@given(data=st.data())
def test_random_games_keep_the_shared_invariants(data: st.DataObject, case: tuple) -> None:
    game, variant, options = case
    _need(game)
    rec = _random_game(data, game, variant, options, plies=data.draw(st.integers(1, 120)))
    g = rec.game
    states = rec.states
    for before, after in itertools.pairwise(states):
        assert after.ply == before.ply + 1
        assert after.variant == before.variant
        if g.result(after) is None and after.to_move == before.to_move:
            # only Morris keeps the turn, and only to take the man a new mill earned
            assert game == "morris" and _pending_removal(g, after)
        elif g.result(after) is None:
            assert after.to_move == 1 - before.to_move
            assert not (game == "morris" and _pending_removal(g, after))
    for state in states:
        legal = g.legal(state)
        outcome = g.result(state)
        assert (outcome is None) == bool(legal), "legal() is empty exactly when the game is over"
        for action in legal:
            text = g.notation(state, action)
            assert g.parse(state, text) == action, text
            assert g.parse(state, text.upper()) == action, text
            assert g.is_legal(state, action)
            faces = g.die_faces(state, action)
            assert faces is None or 2 <= faces <= 256
        text = g.to_text(state)
        back = g.from_text(text)
        assert g.to_text(back) == text
        assert (back.to_move, back.ply, back.variant) == (state.to_move, state.ply, state.variant)
        if outcome is None:
            assert g.legal(back) == legal


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@SETTINGS
@given(data=st.data())
def test_the_record_of_a_random_game_replays_and_verifies(data: st.DataObject, case: tuple) -> None:
    game, variant, options = case
    _need(game)
    rec = _random_game(data, game, variant, options, plies=400)
    record = rec.finish()
    assert record.result == rec.game.result(rec.state)
    again = Record.from_json(record.to_json())
    assert again == record
    assert replay(again) == rec.states
    verdict = verify(again)
    assert verdict.ok, verdict.reason
    assert verdict.head == record.head
    hidden = verify(rec.record(reveal=False))
    assert hidden.ok and not hidden.rolls_checked


def test_every_variant_of_every_game_is_covered() -> None:
    covered = {(game, variant) for game, variant, _ in CASES}
    for name in engine.GAME_NAMES:
        if importlib.util.find_spec(f"engine.{name}") is None:
            continue
        for variant in engine.get_game(name).variants:
            assert (name, variant) in covered, f"{name} {variant} has no property test"
