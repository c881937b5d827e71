"""Abalone's shared repetition history: the same draws as the plain tuple it replaced, over
random play that repeats positions often (two marbles shuffling), branching from old states
included; and a move appends to the line instead of copying it (its cost does not grow)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.abalone import GAME, AbaloneState, moved_marbles
from engine.abalone.history import History
from tests.engine.test_abalone import position


def tuple_draw(history: tuple[bytes, ...], board: bytes) -> bool:
    """The rule as it was written over a tuple: the third occurrence, same side to move."""
    return history[-2::-2].count(board) >= 2


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), branch=st.integers(0, 6))
def test_shared_history_decides_exactly_as_the_tuple_did(seed: int, branch: int) -> None:
    rng = random.Random(seed)
    state = position("d1 e1", "a5", move_limit=0)
    plain: tuple[bytes, ...] = tuple(state.history)
    line: list[tuple[AbaloneState, tuple[bytes, ...]]] = []
    for _ in range(120):
        if GAME.result(state) is not None:
            break
        line.append((state, plain))
        if branch and rng.random() < 0.1:  # play on from an earlier state (a fork)
            state, plain = line[max(0, len(line) - 1 - rng.randrange(branch))]
        action = rng.choice(GAME.legal(state))
        after = GAME.apply(state, action)
        plain = (*plain, state.board) if len(after.history) else ()
        state = after
        assert state.history == plain
        drawn = GAME.result(state)
        assert (drawn is not None and drawn.winner is None) == tuple_draw(plain, state.board)
    for earlier, kept in line:  # no later move, on any branch, changed an earlier state
        assert earlier.history == kept


def test_a_repetition_is_found_after_a_fork_too() -> None:
    start = position("d1", "a5")
    moves = ["push d1 e", "push a5 w", "push d2 w", "push a4 e"]
    state = start
    for text in moves * 2:
        state = GAME.apply(state, GAME.parse(state, text))
    assert GAME.result(state) is not None  # the third occurrence
    other = GAME.apply(start, GAME.parse(start, "push d1 e"))  # a fork from the start
    assert len(other.history) == 1 and GAME.result(other) is None


def test_a_move_appends_to_the_shared_line_instead_of_copying_it() -> None:
    rng = random.Random(3)
    state = GAME.new("standard", move_limit=0)
    states = [state]
    for _ in range(300):  # random moves that push nothing off (a push-off starts afresh)
        quiet = [a for a in GAME.legal(state) if all(t for _, t in moved_marbles(state, a))]
        state = GAME.apply(state, rng.choice(quiet))  # applied once: the tip moves on
        states.append(state)
        if GAME.result(state) is not None:
            break
    lines = {id(s.history._line) for s in states[1:]}
    assert len(lines) == 1  # every state of the line shares one list: nothing was copied
    assert [len(s.history) for s in states] == list(range(len(states)))


def test_a_history_compares_as_its_boards_and_never_hashes_into_the_state() -> None:
    boards = (b"a" * 61, b"b" * 61)
    assert History(boards) == boards and History() == ()
    one = position("d1", "a5")
    two = AbaloneState(one.variant, one.board, one.to_move, one.ply, history=boards)
    assert one == two and hash(one) == hash(two)


def test_a_state_travels_by_pickle_with_its_history_and_still_counts_repetitions() -> None:
    state = GAME.new("standard")
    for _ in range(4):
        state = GAME.apply(state, GAME.legal(state)[0])
    back = pickle.loads(pickle.dumps(state))  # a practice search runs in a worker process
    assert back == state and tuple(back.history) == tuple(state.history)
    assert back.history.same_side_count(state.board) == state.history.same_side_count(state.board)
