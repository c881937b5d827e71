"""A moderator's abort and award: the reason is kept in the game's log with who decided, the
reply still shows the final board, and a refusal names its reason and changes nothing."""

from __future__ import annotations

import logging

import pytest

from bot.referee import Referee
from bot.referee.replies import Actor
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, MOD, play, start
from tests.bot.test_faults import snapshot


async def test_a_moderator_abort_logs_the_reason_and_who(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    ended = await referee.moderator_abort(HERE, MOD, "  players left  ")
    assert ended.ok and ended.finished
    assert "aborted by moderator mod: players left" in ended.text
    assert ended.board_text is not None  # the final position is shown
    g = await store.game(1)
    assert (g.status, g.winner, g.termination) == ("aborted", None, "aborted")
    last = (await store.events(1))[-1]
    assert last.kind == "abort" and last.user_id == MOD.id and last.seat is None
    assert last.details["reason"] == "  players left  "


async def test_a_moderator_award_logs_the_reason_and_who(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    ended = await referee.award(HERE, MOD, BOB, "alice left the server")
    assert ended.ok and ended.finished and ended.board_text is not None
    assert "decided by moderator mod: alice left the server" in ended.text
    g = await store.game(1)
    assert (g.status, g.winner, g.termination) == ("finished", 1, "awarded")
    last = (await store.events(1))[-1]
    assert last.kind == "award" and last.user_id == MOD.id
    assert last.details["reason"] == "alice left the server"


async def test_an_award_to_someone_not_playing_is_refused(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    before = await snapshot(store)
    refused = await referee.award(HERE, MOD, CAROL, "carol asked nicely")
    assert not refused.ok and refused.ephemeral
    assert refused.text == "carol is not playing in this game" and refused.game_id == 1
    assert await snapshot(store) == before


@pytest.mark.parametrize("verb", ["abort", "award"])
async def test_a_moderator_who_plays_is_refused_and_the_attempt_logged(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture, verb: str
) -> None:
    playing_mod = Actor(ALICE.id, ALICE.name, is_moderator=True)
    await start(referee, "morris", first=playing_mod)
    before = await snapshot(store)
    caplog.set_level(logging.WARNING)
    if verb == "abort":
        reply = await referee.moderator_abort(HERE, playing_mod, "I am losing")
    else:
        reply = await referee.award(HERE, playing_mod, playing_mod, "I am losing")
    assert not reply.ok and reply.ephemeral
    assert reply.text == "you play in this game: another moderator must decide it"
    assert f"refused: {verb} of game 1, which they play in" in caplog.text
    assert await snapshot(store) == before
