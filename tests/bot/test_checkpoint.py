"""Checkpoints (issue 17): a state restored from its checkpoint behaves exactly as the replayed
one (legal moves, result, and the repetition draws ahead), a restart reads only the moves after
the checkpoint, a checkpoint whose move is no longer the live row is ignored, and verify still
replays the whole log, so a tampered row before a checkpoint is caught."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from bot import checkpoint
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.records import check_stored
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, THERE, start

PLAYERS = {ALICE.id: ALICE, BOB.id: BOB}
OPTIONS = {
    "atmalof": {},
    "morris": {"move_limit": 0},  # repetition decides long games: its history matters
    "abalone": {"move_limit": 0},
}


def playout(game: str, rng: random.Random, plies: int, sparse: bool) -> list[Any]:
    """(state, action, roll) of a random game; ``sparse`` picks among the first few moves
    only, so positions repeat and the repetition draws come into play."""
    rules = engine.get_game(game)
    state = rules.new("standard", **OPTIONS[game])
    line = []
    for _ in range(plies):
        moves = rules.legal(state)
        if not moves:
            break
        action = rng.choice(moves[:3] if sparse else moves)
        faces = rules.die_faces(state, action)
        roll = None if faces is None else rng.randint(1, faces)
        line.append((state, action, roll))
        state = rules.apply(state, action, roll)
    line.append((state, None, None))
    return line


@settings(max_examples=15, deadline=None)
@given(
    game=st.sampled_from(sorted(OPTIONS)),
    seed=st.integers(0, 2**32),
    sparse=st.booleans(),
)
def test_a_restored_state_plays_on_exactly_as_the_replayed_one(
    game: str, seed: int, sparse: bool
) -> None:
    rules = engine.get_game(game)
    line = playout(game, random.Random(seed), 160, sparse)
    for i in range(0, len(line), 7):
        text = checkpoint.encode(game, line[i][0])
        if text is None:
            continue
        state = checkpoint.decode(game, text)
        for replayed, action, roll in line[i:]:
            assert state == replayed
            assert rules.to_text(state) == rules.to_text(replayed)
            assert tuple(getattr(state, "history", ())) == tuple(getattr(replayed, "history", ()))
            assert rules.legal(state) == rules.legal(replayed)
            assert rules.result(state) == rules.result(replayed)
            if action is not None:
                state = rules.apply(state, action, roll)


def test_every_game_keeps_a_checkpoint_of_its_positions() -> None:
    for game in OPTIONS:
        for state, _, _ in playout(game, random.Random(1), 60, sparse=True):
            assert checkpoint.encode(game, state) is not None, game


async def moves_played(referee: Referee, n: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    reply = await referee.board(HERE)
    for _ in range(n):
        mover = PLAYERS[reply.to_move]
        reply = await referee.act(HERE, mover, rng.choice(await referee.legal_for(HERE, mover)))
        assert reply.ok and not reply.finished, reply.text


class Counting:
    """The real store's game_view() (a load's one snapshot), counting the move rows it reads."""

    def __init__(self, store: Store) -> None:
        self.read = 0
        self._view = store.game_view
        store.game_view = self  # type: ignore[method-assign]

    async def __call__(self, *args: Any, **kw: Any) -> Any:
        view = await self._view(*args, **kw)
        self.read += 0 if view is None else len(view.actions)
        return view


@pytest.mark.parametrize(("game", "plies"), [("abalone", 37), ("morris", 21)])
async def test_a_restart_reads_only_the_moves_after_the_checkpoint(
    store: Store, clock: ManualClock, game: str, plies: int
) -> None:
    referee = Referee(store, clock, render=False)
    await start(referee, game)
    await moves_played(referee, plies)
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.checkpoint_seq == plies - plies % checkpoint.EVERY
    warm = referee.ctx.states.get(g.id)[1]  # type: ignore[index]
    fresh = Referee(store, clock, render=False)  # a restart
    counting = Counting(store)
    assert (await fresh.board(HERE)).ok
    assert counting.read == plies % checkpoint.EVERY  # not the whole log
    cold = fresh.ctx.states.get(g.id)[1]  # type: ignore[index]
    assert cold == warm and tuple(getattr(cold, "history", ())) == tuple(warm.history)


@pytest.mark.sqlite_only
async def test_a_checkpoint_whose_move_is_not_the_live_row_is_ignored(
    store: Store, db_path: str, clock: ManualClock
) -> None:
    referee = Referee(store, clock, render=False)
    await start(referee, "abalone")
    await moves_played(referee, 17)
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("UPDATE games SET checkpoint_head = 'not the row'")
    db.close()
    counting = Counting(store)
    fresh = Referee(store, clock, render=False)
    assert (await fresh.board(HERE)).ok
    assert counting.read == 17  # replayed from the start
    assert fresh.ctx.states.get(1)[1] == referee.ctx.states.get(1)[1]  # type: ignore[index]


@pytest.mark.sqlite_only
async def test_verify_still_catches_a_tampered_row_before_the_checkpoint(
    store: Store, db_path: str, clock: ManualClock
) -> None:
    referee = Referee(store, clock, render=False)
    await start(referee, "abalone")
    await moves_played(referee, 18)
    assert (await referee.resign(HERE, BOB)).ok
    g = await store.game(1)
    assert g is not None and g.checkpoint_seq == 16
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("DROP TRIGGER actions_are_never_updated")
    (first,) = db.execute("SELECT action FROM actions WHERE seq = 2").fetchone()
    db.execute("UPDATE actions SET action = ? WHERE seq = 1", (first,))
    db.close()
    verdict = await check_stored(store, g)
    assert not verdict.ok


async def test_a_removal_sent_alone_draws_the_turn_without_reading_the_log(
    store: Store, clock: ManualClock
) -> None:
    views: list[Any] = []

    def renderer(view: Any) -> bytes:
        views.append(view)
        return b"png"

    referee = Referee(store, clock, render=renderer)
    await start(referee, "morris")
    for mover, text in [(ALICE, "place d7"), (BOB, "place d1"), (ALICE, "place a7")]:
        assert (await referee.act(HERE, mover, text)).ok
    assert (await referee.act(HERE, BOB, "place a1")).ok
    assert (await referee.act(HERE, ALICE, "place g7")).ok  # a mill: a removal is owed
    counting = Counting(store)
    assert (await referee.act(HERE, ALICE, "remove d1")).ok
    assert counting.read == 0  # the turn's start was kept in memory, not replayed
    made, removal = views[-1].last
    rules = engine.get_game("morris")
    assert rules.notation(made.before, made.action) == "place g7"
    assert rules.notation(removal.before, removal.action) == "remove d1"

    await start(referee, "morris", THERE)  # a restart between the mill and the removal
    for mover, text in [(ALICE, "place d7"), (BOB, "place d1"), (ALICE, "place a7")]:
        assert (await referee.act(THERE, mover, text)).ok
    assert (await referee.act(THERE, BOB, "place a1")).ok
    assert (await referee.act(THERE, ALICE, "place g7")).ok
    fresh = Referee(store, clock, render=renderer)
    assert (await fresh.act(THERE, ALICE, "remove d1")).ok
    made, removal = views[-1].last  # the same whole turn, from the log this time
    assert rules.notation(made.before, made.action) == "place g7"
    assert rules.notation(removal.before, removal.action) == "remove d1"


@pytest.mark.sqlite_only
async def test_a_position_before_the_last_move_comes_from_the_checkpoint_only_while_it_is_live(
    store: Store, db_path: str, clock: ManualClock
) -> None:
    """``Context.restored`` (the turn's start that a Morris removal sent alone draws after a
    restart) reads the checkpoint's own move with the moves after it, in one read, and
    trusts the checkpoint only while that move is the live row with its hash."""
    referee = Referee(store, clock, render=False)
    await start(referee, "abalone")
    await moves_played(referee, checkpoint.EVERY + 3)
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.checkpoint_seq == checkpoint.EVERY
    replayed = referee.ctx.replay_rows(g, await store.actions(g.id, g.seq - 2))
    fresh = Referee(store, clock, render=False)
    restored = await fresh.ctx.restored(g, g.seq - 2)
    assert restored == replayed and restored.history == replayed.history
    assert await fresh.ctx.restored(g, checkpoint.EVERY) == referee.ctx.replay_rows(
        g, await store.actions(g.id, checkpoint.EVERY)
    )  # no move after the checkpoint's own
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("UPDATE games SET checkpoint_head = 'not the row'")
    db.close()
    moved = await store.active_game(HERE.channel_id)
    assert moved is not None and await fresh.ctx.restored(moved, moved.seq - 2) is None
