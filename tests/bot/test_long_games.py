"""A legal game past 5,000 log rows (issue 13.8): Atmalof with its draw rules off has no end of
moves, yet its record must export, verify and replay, and a dispute must work; only /import
bounds a record's size."""

from __future__ import annotations

import pytest

from bot.discord_ui.cogs.info import replay_gif
from bot.referee import Referee
from bot.store import Store
from engine.record import MAX_ACTIONS, Record, verify
from tests.bot.conftest import ALICE, BOB, HERE, play, start

PLAYERS = {ALICE.id: ALICE, BOB.id: BOB}
ROWS = MAX_ACTIONS + 10


async def long_game(referee: Referee) -> None:
    """Both players shuffle a piece to and fro for more than 5,000 actions."""
    await start(referee, "atmalof", options={"repetition": False, "move_limit": 0})
    reply = await referee.board(HERE)
    for _ in range(ROWS):
        mover = PLAYERS[reply.to_move]
        legal = await referee.legal_for(HERE, mover)
        text = next((t for t in legal if t.startswith("move")), legal[0])
        reply = await play(referee, HERE, mover, text)
        assert reply.ok and not reply.finished, reply.text


@pytest.mark.slow
async def test_a_game_past_5000_rows_exports_verifies_replays_and_takes_a_dispute(
    referee: Referee, store: Store
) -> None:
    await long_game(referee)
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.links > MAX_ACTIONS

    record_reply = await referee.record(HERE)
    assert record_reply.ok and record_reply.file, record_reply.text
    record = Record.from_json(record_reply.file)
    assert len(record.log) == g.links and verify(record, head=g.last_hash).ok

    checked = await referee.verify(HERE)
    assert checked.ok and "Problem" not in checked.text, checked.text

    gif = replay_gif(record_reply.file, "dark", 8 * 1024 * 1024)
    assert gif.startswith(b"GIF8")

    disputed = await referee.dispute(HERE, ALICE, "lag")
    assert disputed.ok and disputed.file, disputed.text
    assert len(Record.from_json(disputed.file).log) == g.links + 1
