"""The referee asks whether a removal is owed as data, never by reading move notation."""

from __future__ import annotations

import engine
from bot.referee.context import removal_pending


def test_a_mill_leaves_a_removal_pending_and_the_removal_clears_it() -> None:
    rules = engine.get_game("morris")
    state = rules.new("standard")
    for text in ("place a1", "place b2", "place a4", "place b4"):
        state = rules.apply(state, rules.parse(state, text))
        assert not removal_pending(rules, state), text
    state = rules.apply(state, rules.parse(state, "place a7"))  # a1 a4 a7: a mill
    assert removal_pending(rules, state)
    assert all(rules.notation(state, a).startswith("remove ") for a in rules.legal(state))
    state = rules.apply(state, rules.parse(state, "remove b2"))
    assert not removal_pending(rules, state)


def test_games_without_removals_never_owe_one() -> None:
    for name in ("atmalof", "abalone"):
        rules = engine.get_game(name)
        assert not removal_pending(rules, rules.new("standard"))


def test_an_engine_that_answers_the_question_itself_is_asked() -> None:
    class Asked:
        def pending_removal(self, state: object) -> bool:
            return state == "owed"

    assert removal_pending(Asked(), "owed") and not removal_pending(Asked(), "free")
