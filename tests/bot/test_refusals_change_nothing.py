"""What the referee fuzz test looks for, as ordinary tests that fail in a second instead of
shrinking for minutes: each refusal is private, gives its specific reason and leaves every row
of every table as it was."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot import texts
from bot.referee import Referee
from bot.referee.replies import Actor, Reply
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, MOD, THERE, play, start
from tests.bot.test_faults import snapshot

ROBOT = Actor(404, "robot", is_bot=True)
STRANGER = texts.NOT_A_PLAYER.format(players="alice vs bob")

Case = Callable[[Referee, int], Awaitable[Reply]]
CASES: dict[str, tuple[Case, str]] = {
    "a bot moves": (lambda r, v: r.act(HERE, ROBOT, "place a1"), STRANGER),
    "a stranger moves": (lambda r, v: r.act(HERE, CAROL, "place a1"), STRANGER),
    "from another channel": (lambda r, v: r.act(THERE, BOB, "place a1"), texts.NO_GAME),
    "a stranger accepts the draw": (lambda r, v: r.answer_draw(HERE, CAROL, True), STRANGER),
    "a stranger allows a takeback": (lambda r, v: r.answer_takeback(HERE, CAROL, True), STRANGER),
    "a stale draw button": (
        lambda r, v: r.answer_draw(HERE, BOB, True, version=v - 1),
        texts.MOVED_ON,
    ),
    "a forged button": (
        lambda r, v: r.press(HERE, BOB, "nonsense"),
        "that button is not one of mine",
    ),
    "a member aborts as moderator": (
        lambda r, v: r.moderator_abort(HERE, BOB, "x"),
        "only moderators can do that",
    ),
    "an award without a reason": (
        lambda r, v: r.award(HERE, MOD, BOB, "   "),
        "give a reason: it is logged with the game",
    ),
    "a claim on your own turn": (
        lambda r, v: r.claim(HERE, BOB),
        "it is your turn: you cannot claim while you are to move",
    ),
    "an abort after moving": (
        lambda r, v: r.abort(HERE, ALICE),
        "too late to abort: you have already moved in this game (taking moves back does not"
        " change that). Resign or offer a draw instead",
    ),
    "a takeback with nothing to take back": (
        lambda r, v: r.request_takeback(HERE, BOB),
        "you have no move to take back",
    ),
    "a second draw offer": (
        lambda r, v: r.offer_draw(HERE, ALICE),
        "you have already offered a draw",
    ),
    "an accept with no challenge": (
        lambda r, v: r.accept(HERE, CAROL),
        "there is no challenge waiting here",
    ),
    "a rematch of a running game": (
        lambda r, v: r.rematch(HERE, ALICE),
        "a rematch comes after this game has ended: finish it first, or resign",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
async def test_a_refusal_is_private_specific_and_changes_nothing(
    referee: Referee, store: Store, name: str
) -> None:
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await referee.offer_draw(HERE, ALICE)).ok
    g = await store.game(1)
    before = await snapshot(store)
    case, reason = CASES[name]
    reply = await case(referee, g.version)
    assert not reply.ok and reply.ephemeral and not reply.finished
    assert reply.text == reason
    assert await snapshot(store) == before
