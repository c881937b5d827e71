"""One board a turn in a practice game on Discord (bot/discord_ui/turns.py): each move against
the bot posted two board pictures, the player's and then the bot's (a reviewer's finding).
Now the player's move is said at once without its board, and the bot's answer shows the board
after both moves; when the answer is late or fails, the player's message gets its board after
all. Counted on the recorded HTTP calls of the real bot, with the real worker process.

A player's review found three more: a move's board added to its message after the game had
ended (she resigned during the search), every answer of the bot pinging the player who had
just typed, and two boards a turn on a loaded host, where the search ran past the 3 s wait."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.referee.replies import Actor, Where
from tests.bot.test_thinker import KillsItsWorker
from tests.discord.conftest import ALICE, running
from tests.discord.harness import CHANNEL_ID, GUILD_ID, Call, Exchange, Harness
from tests.discord.play import PNG
from tests.discord.test_practice import NODES, posted_in

MOVES = {"morris": "place d7", "abalone": "push a2 b2 nw", "atmalof": "drop row 4 confirm"}


@pytest.fixture
async def practice_bot(db_path: Path, clock: ManualClock) -> AsyncIterator[Harness]:
    async for h in running(db_path, clock, practice_nodes=NODES):
        yield h


def pictures(call: Call) -> list[str]:
    """The alt texts of the board PNGs a call carries."""
    return [alt or "" for _, alt, data in call.files if data.startswith(PNG)]


def posted(exchange: Exchange) -> list[Call]:
    """The messages an interaction posted: its response and followups, not edits."""
    return [c for c in exchange.calls if c.kind in ("callback", "followup")]


async def practice(h: Harness, game: str) -> None:
    started = await h.slash(ALICE, "practice", game=game, level=1, starter="me")
    assert not started.first.ephemeral, started.text
    # alice is to move, but she has just asked for the game: it does not ping her
    assert ALICE.mention not in started.first.content, started.first.content
    assert started.first.allowed_user_ids == set()


def unpinged(call: Call) -> bool:
    """Whether a message pings nobody: no mention, and none allowed."""
    return "<@" not in call.content and call.allowed_user_ids == set()


def pings_alice(call: Call) -> bool:
    """Whether a message pings alice, and only her."""
    return ALICE.mention in call.content and call.allowed_user_ids == {ALICE.id}


@pytest.mark.parametrize("game", ["morris", "abalone"])
async def test_a_move_and_the_bots_answer_show_one_board(practice_bot: Harness, game: str) -> None:
    h = practice_bot
    await practice(h, game)
    turn = await h.slash(ALICE, "play", command=MOVES[game])
    mine, answer = posted(turn)
    assert [c.kind for c in turn.calls] == ["callback", "followup"]  # nothing edited
    assert pictures(mine) == [] and not any(e.get("image") for e in mine.embeds)
    assert "Alice" in mine.text and "Referee" in mine.text  # the move, and who moves next
    (board,) = pictures(answer)
    assert "after 2 moves" in board and "Alice" in board, board  # both moves on it
    # alice is to move again, but the answer to what she has just typed does not ping her
    assert unpinged(mine) and unpinged(answer), answer.content


async def test_an_atmalof_drop_and_the_bots_keep_announcement_then_roll(
    practice_bot: Harness,
) -> None:
    """The player's drop: the announcement, then the roll (said without a board); the bot's
    drop: its announcement, then its roll, with the one board of the turn."""
    h = practice_bot
    await practice(h, "atmalof")
    turn = await h.slash(ALICE, "play", command=MOVES["atmalof"])
    calls = posted(turn)
    assert [c.kind for c in turn.calls] == ["callback", "followup", "followup", "followup"]
    said = [c.text for c in calls]
    assert "Alice (Red) announces row 4. Rolling the die" in said[0]
    assert "Alice (Red) announces row 4 and rolls" in said[1]
    assert "Referee (Blue) announces" in said[2] and "Rolling the die" in said[2]
    assert "Referee (Blue) announces" in said[3] and "rolls" in said[3]
    assert [len(pictures(c)) for c in calls] == [0, 0, 0, 1]
    assert "after 2 moves" in pictures(calls[3])[0]
    assert all(unpinged(c) for c in calls)


def queued(h: Harness, seconds: float) -> None:
    """The next search waits ``seconds`` behind another game's, which the worker is searching
    (the thinker's queue holds it ahead of this game's until then); then it is searched."""
    thinker = h.bot.referee.practice_games.thinker  # type: ignore[attr-defined]
    search = thinker.turn
    ahead = contextlib.ExitStack()
    ahead.enter_context(thinker.asked(-1))  # another game's search, asked for first

    async def slow(*args: Any) -> Any:
        assert not thinker.searching(game_id(h)), "queued behind the other game's"
        await asyncio.sleep(seconds)
        ahead.close()  # the other game's answer came
        thinker.turn = search
        return await search(*args)

    thinker.turn = slow


def searched_slowly(h: Harness, seconds: float) -> None:
    """The next search takes ``seconds`` longer in the worker (a loaded host)."""
    thinker = h.bot.referee.practice_games.thinker  # type: ignore[attr-defined]
    search = thinker.turn

    async def slow(*args: Any) -> Any:
        assert thinker.searching(game_id(h)), "this game's search is the worker's"
        await asyncio.sleep(seconds)
        thinker.turn = search
        return await search(*args)

    thinker.turn = slow


def game_id(h: Harness) -> int:
    """The id of the one game the tests of this module play at a time."""
    (game,) = h.bot.referee.practice_games.thinking  # type: ignore[attr-defined]
    return int(game)


async def test_a_late_answer_adds_the_players_board_then_follows(practice_bot: Harness) -> None:
    """The bot's answer is not there within the bound, its search queued behind another
    game's: the player's move gets its board (its message edited), and the answer follows
    with its own when it comes, pinging the player (they may have looked away)."""
    h = practice_bot
    h.bot.board_after = 0.05  # type: ignore[attr-defined]
    await practice(h, "morris")
    queued(h, 0.5)
    turn = await h.slash(ALICE, "play", command=MOVES["morris"])
    assert [c.kind for c in turn.calls] == ["callback", "edit", "followup"]
    mine, edit, answer = turn.calls
    assert pictures(mine) == [] and turn.latency < 0.5  # said at once, before the search
    (late,) = pictures(edit)
    assert "after 1 move" in late and "Referee (Black) to move" in late, late
    assert edit.message is not None and edit.message["id"] == mine.message["id"]  # type: ignore[index]
    assert 0.04 <= edit.at - mine.at < answer.at - mine.at  # (the loop's timer is coarse)
    assert "after 2 moves" in pictures(answer)[0]
    assert unpinged(mine) and pings_alice(answer), answer.content  # late: it pings her


async def test_a_search_under_way_holds_the_board_up_to_the_ceiling(practice_bot: Harness) -> None:
    """At the board's wait the worker is searching this game's answer (a loaded host: 3 of 55
    level-5 turns showed two boards 0.3-0.9 s apart): the board waits for it, and the turn
    shows one board. Past the ceiling the move's board is shown all the same."""
    h = practice_bot
    h.bot.board_after = 0.05  # type: ignore[attr-defined]
    h.bot.board_ceiling = 30.0  # type: ignore[attr-defined]
    await practice(h, "morris")
    searched_slowly(h, 0.5)
    turn = await h.slash(ALICE, "play", command=MOVES["morris"])
    assert [c.kind for c in turn.calls] == ["callback", "followup"]  # nothing edited
    mine, answer = turn.calls
    assert answer.at - mine.at >= 0.45  # well past the wait
    assert pictures(mine) == [] and "after 2 moves" in pictures(answer)[0]
    assert unpinged(answer)  # in time: the wait was for the answer

    h.bot.board_ceiling = 0.25  # type: ignore[attr-defined]
    searched_slowly(h, 1.0)
    where, me = Where(GUILD_ID, CHANNEL_ID), Actor(ALICE.id, ALICE.name)
    move = (await h.bot.referee.legal_moves(where, me))[0]  # type: ignore[attr-defined]
    late = await h.slash(ALICE, "play", command=move)
    assert [c.kind for c in late.calls] == ["callback", "edit", "followup"]
    mine, edit, answer = late.calls
    assert 0.24 <= edit.at - mine.at < answer.at - mine.at
    assert "after 3 moves" in pictures(edit)[0] and "after 4 moves" in pictures(answer)[0]
    assert pings_alice(answer)


@pytest.mark.parametrize("game", ["morris", "atmalof"])
async def test_a_failed_search_shows_the_players_board_and_the_sweeper_answers(
    practice_bot: Harness, game: str
) -> None:
    """The search fails for real (a position that kills every worker it is sent to): the
    player's move gets its board at once, and the sweeper's bot move comes later."""
    h = practice_bot
    await practice(h, game)
    thinker = h.bot.referee.practice_games.thinker  # type: ignore[attr-defined]
    search = thinker.turn

    async def failing(game: str, state: Any, *args: Any) -> Any:
        return await search(game, KillsItsWorker(), *args)

    thinker.turn = failing
    turn = await h.slash(ALICE, "play", command=MOVES[game])
    *said, edit = turn.calls
    assert edit.kind == "edit" and [c.kind for c in said] == ["callback", "followup"][: len(said)]
    assert all(pictures(c) == [] for c in said)
    (board,) = pictures(edit)
    assert "after 1 move" in board and "Referee" in board and "to move" in board, board
    assert edit.message is not None and edit.message["id"] == said[-1].message["id"]  # type: ignore[index]
    thinker.turn = search
    notices = 2 if game == "atmalof" else 1  # a drop: its announcement, then its roll
    assert await h.bot.post_notices() == notices  # type: ignore[attr-defined]
    assert posted_in(h) == [CHANNEL_ID] * notices
    bot_move = [c for c in h.rest_calls if c.path == "/channels/{channel_id}/messages"][-1]
    assert "after 2 moves" in pictures(bot_move)[0]
    assert pings_alice(bot_move)  # the sweeper's move comes when she may have looked away


async def test_a_game_ended_by_the_player_shows_its_board(practice_bot: Harness) -> None:
    h = practice_bot
    await practice(h, "morris")
    await h.slash(ALICE, "play", command=MOVES["morris"])
    resigned = await h.slash(ALICE, "resign")
    assert [c.kind for c in resigned.calls] == ["callback"]
    (board,) = pictures(resigned.first)
    assert "Referee (Black) wins" in resigned.text and "Referee (Black) wins" in board, board


async def test_a_bug_after_the_players_move_still_shows_its_board(practice_bot: Harness) -> None:
    """Something unexpected fails after the player's move was posted without its board (here
    the replies' stream raises once the move is said): the move's message gets its board
    before the failure is reported, so the player still sees the position."""
    h = practice_bot
    await practice(h, "morris")
    referee = h.bot.referee  # type: ignore[attr-defined]
    sequence = referee.sequence

    async def breaks(where: Any, reply: Any) -> AsyncIterator[Any]:
        async for shown in sequence(where, reply):
            yield shown
            raise RuntimeError("a bug after the move")

    referee.sequence = breaks
    turn = await h.slash(ALICE, "play", command=MOVES["morris"])
    mine = turn.calls[0]
    assert mine.kind == "callback" and pictures(mine) == []
    edits = [c for c in turn.calls if c.kind == "edit"]
    assert len(edits) == 1 and "after 1 move" in pictures(edits[0])[0], turn.calls
    assert edits[0].message is not None and edits[0].message["id"] == mine.message["id"]  # type: ignore[index]


def count_drawings(h: Harness) -> list[Any]:
    """The views the real renderer draws from now on (wrapped, not replaced: each call still
    draws its PNG)."""
    referee = h.bot.referee  # type: ignore[attr-defined]
    draw = referee.ctx.renderer
    drawn: list[Any] = []

    def counting(view: Any) -> bytes:
        drawn.append(view)
        return bytes(draw(view))

    referee.ctx.renderer = counting
    return drawn


async def test_a_held_board_is_drawn_only_when_shown(practice_bot: Harness) -> None:
    """The player's board, held back for the bot's answer, is drawn only if it is shown: an
    answer in time costs one picture a turn (the answer's), a late one two (a reviewer's
    finding: the held board was drawn every turn and usually never shown)."""
    h = practice_bot
    await practice(h, "morris")
    drawn = count_drawings(h)
    turn = await h.slash(ALICE, "play", command=MOVES["morris"])
    assert [c.kind for c in turn.calls] == ["callback", "followup"]
    assert len(drawn) == 1  # the answer's board only
    (board,) = pictures(turn.calls[1])
    assert "after 2 moves" in board

    h.bot.board_after = 0.05  # type: ignore[attr-defined]
    queued(h, 0.5)
    drawn.clear()
    where, me = Where(GUILD_ID, CHANNEL_ID), Actor(ALICE.id, ALICE.name)
    move = (await h.bot.referee.legal_moves(where, me))[0]  # type: ignore[attr-defined]
    late = await h.slash(ALICE, "play", command=move)
    assert [c.kind for c in late.calls] == ["callback", "edit", "followup"]
    assert len(drawn) == 2  # the held board, once it was shown, then the answer's
    assert "after 3 moves" in pictures(late.calls[1])[0]
    assert "after 4 moves" in pictures(late.calls[2])[0]


def held_search(h: Harness) -> asyncio.Event:
    """The next search waits in the worker until the returned event is set."""
    thinker = h.bot.referee.practice_games.thinker  # type: ignore[attr-defined]
    search = thinker.turn
    go = asyncio.Event()

    async def held(*args: Any) -> Any:
        await go.wait()
        thinker.turn = search
        return await search(*args)

    thinker.turn = held
    return go


def searching(h: Harness) -> bool:
    """Whether the worker is searching the bot's answer in the game (``Referee.searching``)."""
    games = h.bot.referee.practice_games.thinking  # type: ignore[attr-defined]
    return any(h.bot.referee.searching(g) for g in games)  # type: ignore[attr-defined]


async def until(what: Callable[[], bool]) -> None:
    for _ in range(500):
        if what():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


# 120 s: the move's board is due when the answer ends with no move (the game ended); 1.5 s:
# it is due while the search still runs (the wait's own end)
WAITS = [120.0, 1.5]


@pytest.mark.parametrize("wait", WAITS)
async def test_a_resignation_during_the_search_leaves_the_moves_message_alone(
    practice_bot: Harness, wait: float
) -> None:
    """Carol resigned 0.4 s after her move, while the bot searched; 2.4 s later her move's
    message was edited to show its board, still saying the bot was to move (a player's
    finding). The move's board is added only while its game is as it was drawn."""
    h = practice_bot
    h.bot.board_after = h.bot.board_ceiling = wait  # type: ignore[attr-defined]
    await practice(h, "abalone")
    go = held_search(h)
    turn = asyncio.ensure_future(h.slash(ALICE, "play", command=MOVES["abalone"]))
    await until(lambda: searching(h))
    resigned = await h.slash(ALICE, "resign")
    (board,) = pictures(resigned.first)
    assert "Referee (White) wins" in board, board
    if wait < 100:
        await asyncio.sleep(wait + 0.2)  # past the board's wait, the search still under way
    go.set()
    moved = await turn
    assert [c.kind for c in moved.calls] == ["callback"], moved.calls  # no board, no answer
    assert pictures(moved.first) == [] and "Referee (White) to move" in moved.first.text


@pytest.mark.parametrize("wait", WAITS)
async def test_a_takeback_during_the_search_leaves_the_moves_message_alone(
    practice_bot: Harness, wait: float
) -> None:
    """A takeback asked for while the bot searches: the bot allows it at once, in the
    request's own answers (it waited for the search), and the move's own board, which the
    takeback undid, is never shown."""
    h = practice_bot
    h.bot.board_after = h.bot.board_ceiling = wait  # type: ignore[attr-defined]
    await practice(h, "morris")
    go = held_search(h)
    turn = asyncio.ensure_future(h.slash(ALICE, "play", command=MOVES["morris"]))
    await until(lambda: searching(h))
    asked = await h.slash(ALICE, "takeback request")
    assert [c.kind for c in asked.calls] == ["callback", "followup"], asked.calls
    question, allowed = asked.calls
    assert not asked.first.ephemeral and pictures(question) == [], asked.text
    (board,) = pictures(allowed)
    assert "after 0 moves" in board and "Alice (White) to move" in board, board
    assert not turn.done()  # the bot still searches
    if wait < 100:
        await asyncio.sleep(wait + 0.2)
    go.set()
    moved = await turn
    assert [c.kind for c in moved.calls] == ["callback"], moved.calls  # no board, no answer
    assert pictures(moved.first) == []
