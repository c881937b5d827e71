"""A moderator's abort and award: the reason is kept in the game's log with who decided, the
reply still shows the final board, and a refusal names its reason and changes nothing."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

import render
from bot.clock import ManualClock
from bot.referee import Referee, boards
from bot.referee.boards import BoardView, draw_png
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
    assert last.details["reason"] == "players left"  # as shown: one line, as a void's


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


NAMED = {  # how each language names the moderator who decided, in the picture and its words
    "en": "decided by moderator mod: alice left",
    "hu": "mod moderátor döntése: alice left",
    "eo": "decidita de moderiganto mod: alice left",
    "is": "úrskurðað af stjórnandanum mod: alice left",
}


@pytest.mark.parametrize(
    ("verb", "told"),
    [
        ("award", ("end.awarded_by", {"name": "mod", "why": "alice left"})),
        ("abort", ("end.stopped_by", {"name": "mod", "why": "alice left"})),
        ("void", ("end.voided_by", {"name": "mod", "why": "alice left"})),
    ],
)
async def test_the_picture_of_a_game_a_moderator_ended_names_the_moderator(
    store: Store, clock: ManualClock, verb: str, told: tuple[str, dict[str, str]]
) -> None:
    """The board's status bar and its alt text said "decided by a moderator" where the result
    line named them: both name the moderator and the reason, from the log's ending event."""
    drawn: list[BoardView] = []

    def capture(view: BoardView) -> bytes:
        drawn.append(view)
        return draw_png(view)

    referee = Referee(store, clock, render=capture)
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    if verb == "award":
        ended = await referee.award(HERE, MOD, BOB, "alice left")
    elif verb == "abort":
        ended = await referee.moderator_abort(HERE, MOD, "alice left")
    else:
        ended = await referee.void(HERE, MOD, "alice left")
    view = drawn[-1]
    assert ended.ok and view.outcome is not None
    expected = render.board_png(
        "morris", view.state, view.last, players=view.players, outcome=view.outcome,
        told=told,
    )  # fmt: skip
    assert ended.image == expected  # the status bar says who ended it and why
    shown = await referee.board(HERE)  # the board looked at later, read from the log
    assert shown.image == expected
    if verb == "award":
        for lang, said in NAMED.items():
            assert said in boards.alt_text(replace(view, lang=lang)), lang
    assert "moderator mod: alice left" in (ended.board_text or "")
