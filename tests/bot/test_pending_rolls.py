"""A roll left waiting (the process died, or its save failed) is completed by whatever comes
next: /board, the next command, or the sweeper. The reply then reads once: the roll's sentence,
then one board (one turn or result line, one log line)."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.console.format import reply_text
from bot.referee import Referee
from bot.referee.context import STALE_ROLL_AFTER
from tests.bot.conftest import ALICE, BOB, HERE, start, swept


def count(text: str, needle: str) -> int:
    return sum(needle in line for line in text.splitlines())


async def left_waiting(referee: Referee) -> None:
    """A game whose first drop was announced but never rolled."""
    await start(referee)
    announced = await referee.act(HERE, ALICE, "drop row 4")
    assert announced.pending_roll


async def test_board_completing_a_waiting_roll_shows_one_board(referee: Referee) -> None:
    await left_waiting(referee)
    shown = await referee.board(HERE)
    lines = shown.text.splitlines()
    assert shown.ok and lines[0].startswith("alice (Red) announces row 4 and rolls")
    assert count(shown.text, "to move.") == 1 and count(reply_text(shown), "Log #") == 1
    assert lines[1] == "bob (Blue) to move." and shown.mentions == [BOB.id]


async def test_the_next_command_puts_only_the_roll_sentence_first(referee: Referee) -> None:
    await left_waiting(referee)
    reply = await referee.act(HERE, BOB, "drop row 3")
    first, second = reply.text.splitlines()
    assert first.startswith("alice (Red) announces row 4 and rolls")
    assert second == "bob (Blue) announces row 3. Rolling the die..."
    assert reply.pending_roll


async def test_resigning_over_a_waiting_roll_reads_once(referee: Referee) -> None:
    await left_waiting(referee)
    reply = await referee.resign(HERE, BOB)
    assert reply.ok and reply.text.startswith("alice (Red) announces row 4 and rolls")
    assert count(reply.text, "to move") == 0 and count(reply.text, "Game over") == 1
    assert count(reply_text(reply), "Log #") == 1


async def test_the_sweeper_completing_a_waiting_roll_reads_once(
    referee: Referee, clock: ManualClock
) -> None:
    await left_waiting(referee)
    clock.advance(STALE_ROLL_AFTER + 1)
    (notice,) = await swept(referee)
    text = notice.reply.text
    assert text.startswith("alice (Red) announces row 4 and rolls")
    assert count(text, "to move.") == 1 and count(reply_text(notice.reply), "Log #") == 1


async def test_an_announcement_is_a_sequence_rolled_only_once_it_has_been_shown(
    referee: Referee,
) -> None:
    """Front ends show ``referee.sequence(...)`` in order and know no roll protocol: the die is
    rolled only when the announcement has been taken (shown) and the next reply is asked for."""
    await start(referee)
    announced = await referee.act(HERE, ALICE, "drop row 4")
    steps = referee.sequence(HERE, announced)
    first = await anext(steps)
    assert first is announced and "announces row 4" in first.text
    assert (await referee.store.actions(1)) == []  # shown, not rolled yet
    rolled = await anext(steps)
    assert rolled.ok and "rolls" in rolled.text and rolled.game_id == announced.game_id
    (drop,) = await referee.store.actions(1)
    assert drop.action == "drop row 4" and drop.roll is not None
    assert [r async for r in steps] == []
    moved = await referee.act(HERE, BOB, "drop col 2")
    (first_again, *_) = [r async for r in referee.sequence(HERE, moved)]
    assert first_again is moved


async def test_a_reply_that_is_no_announcement_is_a_sequence_of_one(referee: Referee) -> None:
    await start(referee, "morris")
    moved = await referee.act(HERE, ALICE, "place d7")
    assert [r async for r in referee.sequence(HERE, moved)] == [moved]
