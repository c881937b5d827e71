"""History, record, replay and verify of a game named by its number (Discord's ``game:``
option, the console's ``verify #12``): an earlier game of the channel after a rematch; never
another channel's or another server's, which read as a number no game has, nor a number no
store id can be."""

from __future__ import annotations

import json

import pytest

from bot.referee import Referee
from bot.referee.context import MAX_GAME_ID
from bot.referee.replies import Reply, Where
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, THERE, checks_out, play, start

ELSEWHERE = Where(guild_id=2, channel_id=20)  # another server
TABLE = Where(guild_id=None, channel_id=1)  # the console's table
OTHER_TABLE = Where(guild_id=None, channel_id=2)


async def finished_then_rematch(referee: Referee, where: Where = HERE) -> tuple[int, int]:
    """A game of ``where`` with one move, resigned, then its rematch running: both ids."""
    first = await start(referee, "morris", where)
    moved = await play(referee, where, ALICE, (await referee.legal_for(where, ALICE))[0])
    assert moved.ok, moved.text
    assert (await referee.resign(where, BOB)).finished
    assert (await referee.rematch(where, BOB)).ok
    again = await referee.rematch(where, ALICE)
    assert again.ok and again.game_id != first.game_id, again.text
    assert first.game_id is not None and again.game_id is not None
    return first.game_id, again.game_id


async def test_an_earlier_game_is_verified_after_its_rematch(referee: Referee) -> None:
    """A moderator's dispute about the first game, raised after the rematch started: /verify
    alone answers about the rematch, ``game_id`` about the first game, with its own verdict,
    history and record."""
    first, second = await finished_then_rematch(referee)
    latest = await referee.verify(HERE)
    assert latest.ok and latest.game_id == second
    earlier = await referee.verify(HERE, game_id=first)
    assert earlier.ok and earlier.game_id == first and checks_out(earlier), earlier.text
    assert "White wins (Black resigned)" in earlier.text, earlier.text
    history = await referee.history(HERE, game_id=first)
    assert history.ok and history.text.startswith(f"Game {first}: alice (White) vs bob (Black)")
    assert "\n1. White: place " in history.text, history.text
    record = await referee.record(HERE, game_id=first)
    assert record.file_name == f"game-{first}.json" and record.file is not None
    exported = json.loads(record.file)
    assert exported["game_id"] == str(first) and exported["ended"], exported  # it is over
    assert (await referee.record(HERE)).file_name == f"game-{second}.json"


async def test_another_channels_game_of_the_server_reads_as_a_game_that_does_not_exist(
    referee: Referee,
) -> None:
    """The referee cannot see who may read a channel: a game of a private channel, named from
    any other, would show its players and moves. A number names a game of this channel only
    (or of the channel a thread belongs to, or of a thread of this channel)."""
    first, _ = await finished_then_rematch(referee)
    for reply in await refusals(referee, THERE, first):
        private_no(reply, first)
        assert reply.text.startswith(f"no game {first} was played in this channel"), reply.text
    assert (await referee.verify(THERE)).reason == "no_game"  # nothing played there itself
    thread = Where(guild_id=HERE.guild_id, channel_id=99, parent_id=HERE.channel_id)
    there = await referee.verify(thread, game_id=first)  # a thread of its channel: a dispute's
    assert there.ok and there.game_id == first and checks_out(there), there.text


async def refusals(referee: Referee, where: Where, game_id: int) -> list[Reply]:
    return [
        await referee.verify(where, game_id=game_id),
        await referee.history(where, 1, game_id=game_id),
        await referee.record(where, game_id=game_id),
        await referee.replay(where, game_id=game_id),
    ]


def private_no(reply: Reply, game_id: int, code: str = "no_game_number") -> None:
    """A private refusal naming the number, about no game, with no file."""
    assert reply.refused and reply.ephemeral and reply.reason == code, reply.text
    assert reply.params == {"id": game_id} and reply.file is None
    assert reply.game_id is None and reply.version is None and reply.chain is None


async def test_another_servers_game_reads_as_a_game_that_does_not_exist(
    referee: Referee, store: Store
) -> None:
    theirs = await start(referee, "morris", ELSEWHERE, CAROL, BOB)
    assert theirs.game_id is not None
    missing = theirs.game_id + 1000
    assert await store.game(missing) is None
    for their_reply, none_reply in zip(
        await refusals(referee, HERE, theirs.game_id),
        await refusals(referee, HERE, missing),
        strict=True,
    ):
        private_no(their_reply, theirs.game_id)
        private_no(none_reply, missing)
        assert their_reply.text == none_reply.text.replace(str(missing), str(theirs.game_id))
        assert their_reply.text.startswith(f"no game {theirs.game_id} was played in this channel")
    # their own server reaches it
    assert (await referee.verify(ELSEWHERE, game_id=theirs.game_id)).game_id == theirs.game_id


async def test_game_here_checks_the_server_for_every_caller(referee: Referee) -> None:
    """``Context.game_here`` returned any server's game by its id: every command naming a
    game now gets one of this server or nothing (the console's table: only its own)."""
    ctx = referee.ctx
    theirs = await start(referee, "morris", ELSEWHERE, CAROL, BOB)
    ours = await start(referee, "morris", HERE)
    at_table = await start(referee, "morris", TABLE)
    assert theirs.game_id and ours.game_id and at_table.game_id
    assert await ctx.game_here(HERE, theirs.game_id) is None
    assert (await ctx.game_here(ELSEWHERE, theirs.game_id)).id == theirs.game_id
    assert await ctx.game_here(THERE, ours.game_id) is None  # another channel's
    assert await ctx.game_here(HERE, at_table.game_id) is None  # a table's game: no server's
    assert await ctx.game_here(TABLE, ours.game_id) is None
    assert (await ctx.game_here(TABLE, at_table.game_id)).id == at_table.game_id
    assert await ctx.game_here(OTHER_TABLE, at_table.game_id) is None


@pytest.mark.parametrize("number", [0, -5, MAX_GAME_ID + 1, 2**80])
async def test_a_number_no_game_can_have_is_refused_and_changes_nothing(
    referee: Referee, store: Store, number: int
) -> None:
    """Negative, zero or past a store id (SQLite would raise OverflowError on 2**80): the same
    private refusal as a missing game, and the game here is untouched."""
    first, second = await finished_then_rematch(referee)
    before = [await store.game(first), await store.game(second)]
    for reply in await refusals(referee, HERE, number):
        private_no(reply, number)
    assert [await store.game(first), await store.game(second)] == before


async def test_the_console_names_a_game_by_its_number(referee: Referee) -> None:
    """``verify #1``, ``verify 1``, ``verify game 1``, ``history #1 2``: the table's games."""
    people = {"alice": ALICE, "bob": BOB}
    first, second = await finished_then_rematch(referee, TABLE)
    for line in (f"verify #{first}", f"verify {first}", f"verify game {first}"):
        reply = await referee.handle(TABLE, CAROL, line, people=people)
        assert reply.ok and reply.game_id == first and checks_out(reply), (line, reply.text)
    assert (await referee.handle(TABLE, CAROL, "verify", people=people)).game_id == second
    history = await referee.handle(TABLE, CAROL, f"history #{first} 1", people=people)
    assert history.text.startswith(f"Game {first}: "), history.text
    record = await referee.handle(TABLE, CAROL, f"record #{first}", people=people)
    assert record.file_name == f"game-{first}.json"
    missing = await referee.handle(TABLE, CAROL, "verify 999", people=people)
    private_no(missing, 999, "no_game_number_here")
    assert missing.text.startswith("there is no game 999 at this table"), missing.text
    elsewhere = await referee.handle(OTHER_TABLE, CAROL, f"verify #{first}", people=people)
    private_no(elsewhere, first, "no_game_number_here")


@pytest.mark.parametrize(
    "line", ["verify x", "verify #-1", "record game", "replay 1 2", "verify #99999999999999999999"]
)
async def test_the_console_refuses_what_is_not_a_games_number(referee: Referee, line: str) -> None:
    await start(referee, "morris", TABLE)
    reply = await referee.handle(TABLE, CAROL, line, people={})
    assert reply.refused and reply.ephemeral and reply.reason == "console_game_usage", reply.text
    head = line.split()[0]
    assert reply.text.startswith(f"`{head}` takes a game's number, e.g. `{head} #12`"), reply.text


async def test_the_consoles_history_takes_a_page_after_the_game(referee: Referee) -> None:
    await start(referee, "morris", TABLE)
    for line in ("history #x", "history #1 x", "history 1 2"):
        reply = await referee.handle(TABLE, CAROL, line, people={})
        assert reply.refused and reply.reason in ("console_game_usage", "console_history_usage")
    assert (await referee.handle(TABLE, CAROL, "history 1", people={})).ok  # still a page
