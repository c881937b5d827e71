"""The practice opponent through the referee (issue 18): a game against the bot starts at once,
the bot answers through the same referee (logged, chained, its drops announced then rolled),
never plays an illegal action, is never rated, and moves after a restart. Real stores (SQLite
and PostgreSQL), the real worker process, small node budgets."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest

import engine
import engine.ai
from bot.clock import ManualClock
from bot.i18n import reply_words, say
from bot.ladder_store import ladders, rating_change, season_of
from bot.referee import Referee, practice, upkeep
from bot.referee.names import CONSOLE_BOT
from bot.referee.practice_moves import DRAW_FROM_MOVE
from bot.referee.replies import Actor, LostTurn, Moved, Notice, Reply, ReplyKind, Result, Where
from bot.referee.thinker import Thinker
from bot.store import SqliteStore, Store, StoreUnavailable, open_store
from engine.atmalof import Drop, Move
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, THERE, checks_out, play, swept

NODES = 40  # the bot's node budget per move in these tests: fast, and still a search
SMALL_ATMALOF = {"rows": 4, "cols": 4, "beyond_rows": 0, "beyond_cols": 0, "pieces": 5, "line": 3}
BOT = CONSOLE_BOT


@pytest.fixture
async def referee(store: Store, clock: ManualClock):
    r = Referee(store, clock, render=False, practice_nodes=NODES)
    yield r
    await r.close()


async def shown(referee: Referee, where: Where, reply: Reply) -> list[Reply]:
    """Every reply a front end shows for a command's answer, the bot's answers included."""
    return [r async for r in referee.sequence(where, reply)]


def bot_moves(replies: list[Reply], seat: int) -> list[Moved]:
    return [e for r in replies for e in r.events if isinstance(e, Moved) and e.side == seat]


async def start(referee: Referee, game: str = "morris", **kwargs) -> tuple[list[Reply], int]:
    """A practice game of alice against the bot at HERE: what was shown, and the bot's seat."""
    options = SMALL_ATMALOF if game == "atmalof" else None
    variant = "custom" if game == "atmalof" else "standard"
    kwargs.setdefault("starter", "me")
    reply = await referee.practice(
        HERE, ALICE, game, bot=BOT, variant=variant, options=options, **kwargs
    )
    assert reply.ok, reply.text
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.bot_seat is not None
    return await shown(referee, HERE, reply), g.bot_seat


async def play_out(referee: Referee, seed: int, limit: int = 400) -> list[Reply]:
    """alice plays random legal actions; the bot answers each; until the game ends."""
    rng = random.Random(seed)
    everything: list[Reply] = []
    for _ in range(limit):
        moves = await referee.legal_moves(HERE, ALICE)
        if not moves:
            g = await referee.store.latest_game(HERE.channel_id)
            assert g is not None and g.status != "active", "alice cannot move, yet no result"
            return everything
        answer = await referee.act(HERE, ALICE, f"{rng.choice(moves)} confirm")
        assert answer.ok, answer.text
        replies = await shown(referee, HERE, answer)
        assert all(r.ok for r in replies), [r.text for r in replies if not r.ok]
        everything += replies
    raise AssertionError("the game did not end")


async def test_a_practice_game_starts_at_once_and_the_bot_answers_a_move(
    referee: Referee,
) -> None:
    replies, seat = await start(referee)
    assert seat == 1  # alice chose to move first
    assert len(replies) == 1 and replies[0].kind is ReplyKind.BOARD  # the bot waits its turn
    assert "Practice: alice plays the bot at level 3" in replies[0].text
    placed = await referee.act(HERE, ALICE, "place d7")
    after = await shown(referee, HERE, placed)
    assert [r.kind for r in after] == [ReplyKind.MOVE, ReplyKind.MOVE]
    assert after[0].mentions == []  # the bot's turn: the bot is never pinged
    assert bot_moves(after[1:], 1) and not after[1].ephemeral  # public, like any move
    assert after[1].mentions == [ALICE.id]  # it is alice's turn again
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.practice == 3 and g.rated == 0 and g.seq == 2
    log = await referee.store.log(g.id)
    assert [getattr(row, "actor", None) for row in log[1:]] == [str(ALICE.id), str(BOT.id)]
    looked = await referee.board(HERE)  # anyone may look: nobody is pinged by it
    assert looked.ok and "alice (White) to move" in looked.text and looked.mentions == []
    assert looked.to_move == ALICE.id  # whose turn, as data
    disputed = await referee.dispute(HERE, ALICE, "the bot cheats")
    assert disputed.ok and disputed.mentions == [ALICE.id]  # the people, never the bot


async def test_the_bot_moves_first_when_it_starts(referee: Referee) -> None:
    replies, seat = await start(referee, "abalone", starter="them")
    assert seat == 0
    assert [r.kind for r in replies] == [ReplyKind.BOARD, ReplyKind.MOVE]
    assert bot_moves(replies, 0)


async def test_the_bots_drop_is_announced_then_rolled_with_the_games_dice(
    referee: Referee,
) -> None:
    replies, _ = await start(referee, "atmalof", starter="them")
    announced, rolled = replies[1], replies[2]
    assert announced.pending_roll and announced.ok and not announced.events  # nothing rolled yet
    (moved,) = bot_moves([rolled], 0)
    assert moved.roll is not None and moved.action.startswith("drop")


@pytest.mark.parametrize("level", [1, 5])
@pytest.mark.parametrize("game", ["atmalof", "morris", "abalone"])
async def test_a_whole_game_against_the_bot_is_legal_and_verifies(
    referee: Referee, game: str, level: int
) -> None:
    """Every action of the bot goes through the referee's checks: one it refused would leave
    the game waiting for the bot, and alice without a move before any result."""
    replies, seat = await start(referee, game, level=level, starter="random")
    replies += await play_out(referee, seed=3 + level)
    assert bot_moves(replies, seat), "the bot never moved"
    if game == "morris":  # the bot's mill and its removal are one command and one reply
        actions = [m.action for m in bot_moves(replies, seat)]
        assert any(" x " in a for a in actions), actions
        assert not any(a.startswith("remove") for a in actions), actions
    assert any(isinstance(e, Result) for r in replies for e in r.events)
    verified = await referee.verify(HERE)
    assert verified.ok and checks_out(verified), verified.text
    if game == "atmalof":  # no challenge was accepted: the id is the command's that started it
        said = "every roll mixes the id of the command that started the game ("
        assert said in verified.text and "accept id" not in verified.text, verified.text
        hungarian = "minden dobásba belekeveredik a játszmát elindító parancs azonosítója ("
        assert hungarian in reply_words(verified, "hu")
    g = await referee.store.latest_game(HERE.channel_id)
    assert g is not None and g.rated == 0
    assert await rating_change(referee.store, g.id) is None  # never on a ladder


async def test_practice_is_never_rated(referee: Referee) -> None:
    refused = await referee.practice(HERE, ALICE, "morris", bot=BOT, rated=True)
    assert refused.reason == "practice_rated" and refused.ephemeral
    await start(referee)
    await referee.resign(HERE, ALICE)
    g = await referee.store.latest_game(HERE.channel_id)
    assert g is not None and g.status == "finished" and g.winner == 1
    assert await rating_change(referee.store, g.id) is None
    season = await season_of(referee.store, 1)
    assert await ladders(referee.store, 1, season) == []  # nobody on any ladder


@pytest.mark.parametrize("level", [0, 6, -1, "3", 2.5, True])
async def test_a_level_out_of_range_is_refused_privately(referee: Referee, level: object) -> None:
    refused = await referee.practice(HERE, ALICE, "morris", bot=BOT, level=level)  # type: ignore[arg-type]
    assert refused.refused and refused.reason == "practice_level", refused.text
    assert "1" in refused.text and "5" in refused.text
    assert await referee.store.active_game(HERE.channel_id) is None


async def test_a_stranger_cannot_play_in_someone_elses_practice_game(referee: Referee) -> None:
    await start(referee)
    for attempt in (
        referee.act(HERE, CAROL, "place d7"),
        referee.resign(HERE, CAROL),
        referee.offer_draw(HERE, CAROL),
        referee.request_takeback(HERE, CAROL),
    ):
        reply = await attempt
        assert reply.refused and reply.reason == "not_a_player", reply.text
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.seq == 0


async def test_the_bot_allows_a_takeback(referee: Referee) -> None:
    await start(referee)
    await shown(referee, HERE, await referee.act(HERE, ALICE, "place d7"))
    asked = await referee.request_takeback(HERE, ALICE)
    answers = await shown(referee, HERE, asked)
    assert answers[0].notice == "takeback_asked" and len(answers) == 2
    # the bot answers at once: the request asks nobody and offers no buttons to press
    said = answers[0].text
    assert said.startswith("alice asks for a takeback, which undoes: ") and said.endswith("."), said
    assert "accept or decline" not in said
    assert answers[0].buttons == [] and answers[0].mentions == []
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.seq == 0 and g.takeback_offer is None  # both moves undone
    assert await referee.legal_moves(HERE, ALICE)  # alice to move again
    # the bot says it allowed it, as it says it declines a draw ("Takeback accepted" said not who)
    (allowed,) = [line for line in answers[1].lines if line.key == "takeback.allowed_bot"]
    assert answers[1].text.startswith(
        "bot allows the takeback. Undone: alice (White) places d7; bot"
    )
    assert say(allowed, "hu").startswith("bot engedélyezi a visszavételt. Visszavonva: ")
    assert "accepted" not in answers[1].text


async def test_the_bot_declines_a_draw_offered_before_its_game_is_under_way(
    referee: Referee,
) -> None:
    """A draw offered at the first move is not agreed: the bot says why, and from when."""
    await start(referee)
    answers = await shown(referee, HERE, await referee.offer_draw(HERE, ALICE))
    assert [a.notice for a in answers] == ["draw_offered", "draw_declined"]
    assert [line.key for line in answers[1].lines] == ["notice.draw_declined_early", "board.turn"]
    assert answers[1].text == (
        "bot declines the draw: the game has only begun. It considers a draw from move 19.\n"
        "alice (White) to move."
    )
    assert say(answers[1].lines[0], "eo").startswith("bot rifuzas la remizon: la ludo")
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.draw_offer is None and g.status == "active"


async def play_until(referee: Referee, bot_better: bool, alice_level: int, seed: int) -> None:
    """Morris past its placing (the move from which the bot weighs a draw), alice playing at
    ``alice_level``, until the bot stands better (``bot_better``) or not, by its own look."""
    rng = random.Random(seed)
    for _ in range(120):
        g = await referee.store.active_game(HERE.channel_id)
        assert g is not None, "the game ended first"
        assert g.bot_seat is not None
        state = await referee.ctx.state(g)
        weighed = engine.get_game("morris").turns(state) >= DRAW_FROM_MOVE["morris"]
        if weighed and (engine.ai.standing("morris", state, g.bot_seat) > 0) == bot_better:
            return
        action = engine.ai.choose("morris", state, alice_level, rng.randrange(10**6), nodes=300)
        move = str(engine.get_game("morris").notation(state, action))
        await shown(referee, HERE, await referee.act(HERE, ALICE, move))
    raise AssertionError("the position never came")


async def test_the_bot_accepts_a_draw_when_it_does_not_stand_better(referee: Referee) -> None:
    """Nobody sees the bot press a button: its acceptance is a sentence of the ending, as
    its refusal is one of its own, in every language (as data, then words)."""
    await start(referee, level=1)
    await play_until(referee, bot_better=False, alice_level=5, seed=1)
    answers = await shown(referee, HERE, await referee.offer_draw(HERE, ALICE))
    ending = answers[1]
    assert ending.kind is ReplyKind.GAME_END
    keys = [line.key for line in ending.lines]
    assert keys[0] == "notice.draw_accepted" and len(keys) > 1, keys
    assert ending.text.startswith("bot accepts the draw.\nGame over: a draw"), ending.text
    assert say(ending.lines[0], "hu") == "bot elfogadja a döntetlent."
    assert say(ending.lines[0], "is") == "bot þiggur jafnteflið."
    me = Actor(BOT.id, "me")
    refused = await referee.practice(HERE, me, "morris", bot=BOT)
    assert refused.refused and refused.reason == "challenge_yourself"


async def test_the_bot_declines_a_draw_when_it_stands_better(referee: Referee) -> None:
    await start(referee, "morris", level=3)
    await play_until(referee, bot_better=True, alice_level=1, seed=2)
    answers = await shown(referee, HERE, await referee.offer_draw(HERE, ALICE))
    assert [a.notice for a in answers] == ["draw_offered", "draw_declined"]
    assert answers[0].text == "alice offers a draw." and answers[0].buttons == []
    assert answers[1].text == (
        "bot declines the draw: it thinks it stands better.\nalice (White) to move."
    )
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.draw_offer is None  # the game goes on


async def test_a_rematch_of_a_practice_game_starts_at_once_with_the_other_side_first(
    referee: Referee,
) -> None:
    await start(referee)
    await referee.resign(HERE, ALICE)
    again = await referee.rematch(HERE, ALICE)
    assert again.ok, again.text
    replies = await shown(referee, HERE, again)
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.practice == 3 and g.bot_seat == 0 and g.rematch_of is not None
    assert bot_moves(replies, 0)  # the bot, second last time, starts and has moved


async def test_a_stranger_cannot_ask_for_the_rematch_of_someone_elses_practice_game(
    referee: Referee,
) -> None:
    await start(referee)
    during = await referee.rematch(HERE, CAROL)  # not "finish it first, or resign"
    assert during.refused and during.reason == "channel_busy", during.text
    await referee.resign(HERE, ALICE)
    refused = await referee.rematch(HERE, CAROL)
    assert refused.refused and refused.reason == "rematch_not_player", refused.text
    assert refused.text.endswith("or practise against the bot with `/practice`"), refused.text
    assert await referee.store.active_game(HERE.channel_id) is None


async def test_after_a_restart_the_bot_moves_when_it_is_its_turn(
    store: Store, store_url: str, clock: ManualClock
) -> None:
    first = Referee(store, clock, render=False, practice_nodes=NODES)
    await start(first)
    moved = await first.act(HERE, ALICE, "place d7")  # shown by nobody: the process dies here
    assert moved.ok
    await first.close()
    await store.close()
    reopened = await open_store(store_url)
    try:
        second = Referee(reopened, clock, render=False, practice_nodes=NODES)
        notices = await swept(second)  # the first sweep of a process: every waiting game
        assert [n.where for n in notices] == [HERE]
        assert bot_moves([n.reply for n in notices], 1)
        assert await second.legal_moves(HERE, ALICE)  # alice's turn again
        assert await swept(second) == []  # nothing more to do
        await second.close()
    finally:
        await reopened.close()


async def test_the_sweeper_moves_for_the_bot_only_once_the_turn_is_stale(
    referee: Referee, clock: ManualClock
) -> None:
    await swept(referee)  # this process's first sweep is done
    await start(referee)
    await referee.act(HERE, ALICE, "place d7")  # nobody showed it: no answer yet
    assert await swept(referee) == []  # the command that made the turn answers it
    clock.advance(10)
    notices = await swept(referee)
    assert bot_moves([n.reply for n in notices], 1)


async def test_the_bot_must_not_be_the_player(referee: Referee) -> None:
    me = Actor(BOT.id, "me")
    refused = await referee.practice(HERE, me, "morris", bot=BOT)
    assert refused.refused and refused.reason == "challenge_yourself"


@pytest.mark.sqlite_only
async def test_a_store_that_cannot_write_delays_the_bots_move_without_an_error(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await swept(referee)  # this process's first sweep is done
    await start(referee)
    placed = await referee.act(HERE, ALICE, "place d7")
    await store.db.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
    replies = await shown(referee, HERE, placed)  # the bot's move cannot be saved
    assert replies == [placed]
    await store.db.execute("PRAGMA query_only = OFF")  # type: ignore[attr-defined]
    clock.advance(10)
    notices = await swept(referee)  # the sweeper makes the move once the store writes again
    assert bot_moves([n.reply for n in notices], 1)


async def test_a_roll_the_sweeper_completes_is_answered_by_the_bot_in_the_same_sweep(
    referee: Referee, clock: ManualClock
) -> None:
    await swept(referee)  # this process's first sweep is done
    await start(referee, "atmalof")
    announced = await referee.act(HERE, ALICE, "drop row 1")
    assert announced.pending_roll  # the process dies before the roll is shown and made
    clock.advance(10)
    notices = await swept(referee)
    assert bot_moves([n.reply for n in notices[:1]], 0)  # alice's drop, rolled
    assert bot_moves([n.reply for n in notices[1:]], 1)  # then the bot's action


async def waiting_after_a_restart(store: Store, clock: ManualClock, count: int) -> list[Where]:
    """``count`` practice games, each waiting for the bot to answer its player's first move:
    the process that stored the moves died before the bot answered. Their places, in the
    order of the games' ids."""
    first = Referee(store, clock, render=False, practice_nodes=NODES)
    places = [Where(guild_id=1, channel_id=500 + n) for n in range(count)]
    for n, where in enumerate(places):
        player = Actor(600 + n, f"p{n}")
        assert (await first.practice(where, player, "morris", bot=BOT, starter="me")).ok
        assert (await first.act(where, player, "place d7")).ok  # shown by nobody
    await first.close()
    return places


async def bot_has_answered(store: Store, where: Where) -> bool:
    g = await store.active_game(where.channel_id)
    assert g is not None
    return g.seq == 2  # the player's move and the bot's


@contextlib.asynccontextmanager
async def store_fault(store: Store, store_url: str) -> AsyncIterator[None]:
    """The store fails until the block ends, with a real fault of its kind: SQLite's file
    turns read-only (the next write fails), and PostgreSQL's action log is locked by another
    session (the next replay of a game's log waits out the lock timeout, then fails)."""
    if not hasattr(store, "pool"):
        await store.db.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        try:
            yield
        finally:
            await store.db.execute("PRAGMA query_only = OFF")  # type: ignore[attr-defined]
        return
    blocker = await asyncpg.connect(store_url)  # another process, mid-transaction
    try:
        await blocker.execute("BEGIN; LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
        yield
    finally:
        await blocker.close()  # its transaction and lock end with it


async def swept_into_a_fault(referee: Referee, store: Store, store_url: str) -> list[Where]:
    """Where a sweep told something before it raised StoreUnavailable: the store fails from
    just after the first notice until the sweep has raised (``store_fault``)."""
    told: list[Where] = []
    async with contextlib.AsyncExitStack() as faults:
        with pytest.raises(StoreUnavailable):
            async for notice in referee.sweep():
                told.append(notice.where)
                if len(told) == 1:
                    await faults.enter_async_context(store_fault(store, store_url))
    return told


async def test_a_sweep_shows_each_bot_move_before_it_searches_the_next_game(
    store: Store, clock: ManualClock
) -> None:
    """After a restart the sweeper answers the waiting practice games one after another (a
    second or two of search each at level 5). Each move is yielded as soon as it is stored,
    since it starts its player's clock: the sweep held them all until the last game had been
    searched (a reviewer measured 8.6 s of a 60 s bank lost, ten games at level 5)."""
    places = await waiting_after_a_restart(store, clock, 3)
    second = Referee(store, clock, render=False, practice_nodes=NODES)
    told: list[Where] = []
    answered_then: list[list[bool]] = []
    try:
        async for notice in second.sweep():
            told.append(notice.where)
            answered_then.append([await bot_has_answered(store, w) for w in places])
    finally:
        await second.close()
    assert told == places
    assert answered_then == [[True, False, False], [True, True, False], [True, True, True]]


async def test_a_store_fault_partway_through_a_sweep_loses_no_bot_move(
    store: Store, store_url: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails just after the bot's move in the first game is stored: the second
    game's log cannot be read (PostgreSQL) or its move saved (SQLite). The sweep raises, but
    only after yielding the first move (those moves were kept in a list that the fault lost,
    and never announced). The next sweep starts at the game the fault stopped at, not a page
    later, and is still the process's first: it takes every waiting game at once."""
    monkeypatch.setattr(practice, "SWEEP_PAGE", 2)  # three games: two pages
    places = await waiting_after_a_restart(store, clock, 3)
    second = Referee(store, clock, render=False, practice_nodes=NODES)
    try:
        told = await swept_into_a_fault(second, store, store_url)
        assert told == places[:1]
        assert [await bot_has_answered(store, w) for w in places] == [True, False, False]
        again = await swept(second)  # at the same moment: only a first sweep answers now
        assert [n.where for n in again] == places[1:]
        assert bot_moves([n.reply for n in again], 1)
        assert [await bot_has_answered(store, w) for w in places] == [True, True, True]
        assert await swept(second) == []  # that first sweep ran to its end: nothing is left
    finally:
        await second.close()


async def test_a_flag_that_falls_while_the_bot_searches_is_judged_before_the_next_search(
    store: Store, clock: ManualClock
) -> None:
    """The sweeper judges the flags again after each practice game it answers: a flag that
    fell during the searches was judged only after the last of them."""
    places = await waiting_after_a_restart(store, clock, 2)
    second = Referee(store, clock, render=False, practice_nodes=NODES)
    try:
        made = await second.challenge(
            THERE, BOB, "morris", opponent=CAROL, clock="1+0", starter="me"
        )
        assert made.ok, made.text
        accepted = await second.accept(THERE, CAROL)
        assert accepted.ok, accepted.text
        told: list[Notice] = []
        async for notice in second.sweep():
            told.append(notice)
            if len(told) == 1:
                clock.advance(61)  # the first search took a minute: a flag fell meanwhile
    finally:
        await second.close()
    assert [n.where for n in told] == [places[0], THERE, places[1]]
    (fell,) = [e for e in told[1].reply.events if isinstance(e, Result)]
    assert fell.termination == "timeout" and fell.winner == 1  # bob's flag: carol wins


@pytest.mark.parametrize("workers", [1, 2])
async def test_the_sweeper_searches_as_many_waiting_games_at_once_as_it_has_workers(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """After a restart of a busy bot, PRACTICE_WORKERS processes search that many waiting
    games at once (the sweeper answered them one after another, however many workers there
    were). Each search waits a moment for a second one to begin: with two workers one always
    does, with one it never can."""
    real_turn = Thinker.turn
    under_way, most = 0, 0
    second_began = asyncio.Event()

    async def turn(self: Thinker, *args: Any, **kwargs: Any) -> list[Any]:
        nonlocal under_way, most
        under_way += 1
        most = max(most, under_way)
        if under_way >= 2:
            second_began.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(second_began.wait(), 0.5)
        try:
            return await real_turn(self, *args, **kwargs)
        finally:
            under_way -= 1

    monkeypatch.setattr(Thinker, "turn", turn)
    places = await waiting_after_a_restart(store, clock, 3)
    second = Referee(store, clock, render=False, practice_nodes=NODES, practice_workers=workers)
    try:
        notices = await swept(second)
    finally:
        await second.close()
    assert most == workers
    assert sorted(n.where.channel_id for n in notices) == [w.channel_id for w in places]
    assert [await bot_has_answered(store, w) for w in places] == [True, True, True]


async def test_a_flag_that_falls_during_the_bots_search_is_judged_during_it(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweeper judges the flags while it waits for a search, every CLOCKS_EVERY seconds:
    a flag that fell in a search was judged only once the search ended (up to two seconds at
    level 5, while the player whose flag it was could still move)."""
    monkeypatch.setattr(upkeep, "CLOCKS_EVERY", 0.01)
    real_turn = Thinker.turn
    flag_told = asyncio.Event()

    async def turn(self: Thinker, *args: Any, **kwargs: Any) -> list[Any]:
        clock.advance(61)  # a flag falls while the bot searches ...
        with contextlib.suppress(TimeoutError):  # ... and goes on once the flag is told
            await asyncio.wait_for(flag_told.wait(), 10)
        return await real_turn(self, *args, **kwargs)

    monkeypatch.setattr(Thinker, "turn", turn)
    places = await waiting_after_a_restart(store, clock, 1)
    second = Referee(store, clock, render=False, practice_nodes=NODES)
    try:
        made = await second.challenge(
            THERE, BOB, "morris", opponent=CAROL, clock="1+0", starter="me"
        )
        assert made.ok, made.text
        assert (await second.accept(THERE, CAROL)).ok
        told: list[Notice] = []
        async for notice in second.sweep():
            told.append(notice)
            flag_told.set()
    finally:
        await second.close()
    assert [n.where for n in told] == [THERE, places[0]]
    (fell,) = [e for e in told[0].reply.events if isinstance(e, Result)]
    assert fell.termination == "timeout" and fell.winner == 1  # bob's flag: carol wins
    assert bot_moves([told[1].reply], 1)


async def test_a_store_fault_with_two_workers_shows_every_move_it_stored(
    store: Store, store_url: str, clock: ManualClock
) -> None:
    """Two workers answer two games at once when the store fails: the sweep raises, but the
    answer still under way in the other game finishes first, and a move it stored is shown
    (none is stored and never told), and the next sweep answers every game that is left."""
    places = await waiting_after_a_restart(store, clock, 4)
    second = Referee(store, clock, render=False, practice_nodes=NODES, practice_workers=2)
    try:
        told = await swept_into_a_fault(second, store, store_url)
        answered = [w for w in places if await bot_has_answered(store, w)]
        assert sorted(w.channel_id for w in told) == [w.channel_id for w in answered]
        assert 1 <= len(answered) < len(places)
        again = await swept(second)  # still the process's first sweep: every game left
        assert sorted(n.where.channel_id for n in again) == [
            w.channel_id for w in places if w not in answered
        ]
        assert [await bot_has_answered(store, w) for w in places] == [True] * 4
        assert await swept(second) == []
    finally:
        await second.close()


async def test_a_flag_the_sweeper_finds_in_practice_pings_the_person_never_the_bot(
    referee: Referee, clock: ManualClock
) -> None:
    await swept(referee)  # this process's first sweep is done
    _, seat = await start(referee, clock="1+0", starter="them")  # the bot moves, alice's clock
    clock.advance(61)
    (notice,) = await swept(referee)
    (fell,) = [e for e in notice.reply.events if isinstance(e, Result)]
    assert fell.termination == "timeout" and fell.winner == seat
    assert notice.reply.mentions == [ALICE.id]


async def test_a_store_fault_in_one_game_lets_the_search_under_way_in_another_store_its_move(
    store: Store, store_url: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers answer two games; the first game's move cannot be saved (the store fails
    just then) while the second game's search is still under way, and the store is back
    before that search ends: the second game's answer goes on, its move is stored and shown,
    and then the sweep raises; the next sweep answers the first game. (The two workers'
    store-fault test cannot tell this from cancelling the other answer at once: its fault
    stops both games' writes.)"""
    real_turn = Thinker.turn
    second = Referee(store, clock, render=False, practice_nodes=NODES, practice_workers=2)
    fault = store_fault(store, store_url)

    async def turn(self: Thinker, game: str, state: Any, level: int, seed: int, *rest: Any) -> Any:
        found = await real_turn(self, game, state, level, seed, *rest)
        if seed // 100_003 == 1:  # the first game: its move is about to be stored
            await fault.__aenter__()
        else:  # the other: ends once the first game's answer has failed, the store back
            while 1 in second.practice_games.thinking:
                await asyncio.sleep(0.01)
            await fault.__aexit__(None, None, None)
        return found

    monkeypatch.setattr(Thinker, "turn", turn)
    places = await waiting_after_a_restart(store, clock, 2)
    told: list[Where] = []
    try:
        with pytest.raises(StoreUnavailable):
            async for notice in second.sweep():
                told.append(notice.where)
        assert told == places[1:]
        assert [await bot_has_answered(store, w) for w in places] == [False, True]
        monkeypatch.setattr(Thinker, "turn", real_turn)
        again = await swept(second)
        assert [n.where for n in again] == places[:1]
        assert [await bot_has_answered(store, w) for w in places] == [True, True]
    finally:
        await second.close()


async def test_a_sweep_its_reader_closes_has_cancelled_the_answers_under_way_when_the_close_returns(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The front end stops reading a sweep (a shutdown closes its iterator) while a second
    game's search is under way: once the close returns, that answer is cancelled, so the
    referee and the store that close next have no answer left running. Referee.sweep and
    Upkeep.sweep iterated the inner generators without closing them, so the close reached
    bot_turns only later, from the garbage collector's finalizer, and its answers ran on."""
    real_turn = Thinker.turn
    searches = 0

    async def turn(self: Thinker, *args: Any, **kwargs: Any) -> list[Any]:
        nonlocal searches
        searches += 1
        if searches > 1:  # the other game's search takes long
            await asyncio.sleep(30)
        return await real_turn(self, *args, **kwargs)

    monkeypatch.setattr(Thinker, "turn", turn)
    await waiting_after_a_restart(store, clock, 2)
    second = Referee(store, clock, render=False, practice_nodes=NODES, practice_workers=2)
    try:
        async with contextlib.aclosing(second.sweep()) as sweep:
            async for _notice in sweep:
                break  # the reader stops after the first notice
        assert second.practice_games.thinking == set()  # no answer under way any more
    finally:
        await second.close()


@pytest.mark.sqlite_only
async def test_an_answer_cancelled_while_its_write_waits_for_the_file_leaves_no_transaction_open(
    store: Store, other: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader closes a sweep while the second game's answer waits for SQLite's write lock
    (another process holds it): the answer is cancelled there, and once the other process lets
    go the store's connection is not left inside a transaction (the write aiosqlite's thread
    still ran after the cancel), so the next sweep answers that game."""
    real_turn = Thinker.turn
    go = asyncio.Event()

    async def turn(self: Thinker, game: str, state: Any, level: int, seed: int, *rest: Any) -> Any:
        if seed // 100_003 != 1:  # the second game's search ends when the test says
            await go.wait()
        return await real_turn(self, game, state, level, seed, *rest)

    monkeypatch.setattr(Thinker, "turn", turn)
    places = await waiting_after_a_restart(store, clock, 2)
    second = Referee(store, clock, render=False, practice_nodes=NODES, practice_workers=2)
    try:
        async with contextlib.aclosing(second.sweep()) as sweep:
            async for notice in sweep:
                assert notice.where == places[0]
                await other.db.execute("BEGIN IMMEDIATE")  # type: ignore[attr-defined]
                go.set()
                await asyncio.sleep(0.5)  # the second game's move waits for the file's lock
                break
        await other.db.execute("ROLLBACK")  # type: ignore[attr-defined]
        await asyncio.sleep(0.2)
        assert not store.db.in_transaction  # type: ignore[attr-defined]
        monkeypatch.setattr(Thinker, "turn", real_turn)
        again = await swept(second)
        assert [n.where for n in again] == places[1:]
        assert [await bot_has_answered(store, w) for w in places] == [True, True]
    finally:
        await second.close()


async def test_the_thinker_answers_from_its_worker_and_starts_a_new_one_after_close() -> None:
    thinker = Thinker()
    try:
        game = engine.get_game("abalone")
        state = game.new("standard")
        first = await thinker.turn("abalone", state, 5, seed=1, nodes=NODES)
        assert len(first) == 1 and first[0] in game.legal(state)
        thinker.close()  # as Referee.close does; a later search makes a new worker
        assert await thinker.turn("abalone", state, 5, seed=1, nodes=NODES) == first
    finally:
        thinker.close()


def _meet(barrier: Any, timeout: float) -> int:
    """In a worker: wait until another worker is here too (each search's stand-in)."""
    barrier.wait(timeout=timeout)
    return os.getpid()


async def test_two_workers_search_two_games_at_once_and_one_queues_them() -> None:
    """PRACTICE_WORKERS (issue 18): with two, two practice games are searched at the same time,
    in two processes; with one, the second waits for the first (the meeting never happens)."""
    with multiprocessing.Manager() as manager:
        for workers, timeout in ((2, 30.0), (1, 1.0)):
            thinker = Thinker(workers)
            try:
                pool = thinker._executor()
                barrier = manager.Barrier(2)
                first, second = (pool.submit(_meet, barrier, timeout) for _ in range(2))
                if workers == 2:  # both at the meeting at once, in two processes
                    pids = {await asyncio.wrap_future(f) for f in (first, second)}
                    assert len(pids) == 2
                else:  # the second waits for the first, which meets nobody and times out
                    with pytest.raises(threading.BrokenBarrierError):
                        await asyncio.wrap_future(first)
            finally:
                thinker.close()
    with pytest.raises(ValueError, match="workers"):
        Thinker(0)


@pytest.mark.parametrize("asked", ["takeback", "draw"])
async def test_a_takeback_or_draw_asked_while_the_bot_thinks_is_answered_at_once(
    referee: Referee, asked: str
) -> None:
    """A takeback asked for while the bot searched lapsed: the bot's move landed on top of it
    ("the game went on"); later it waited for the search (2.4 s at level 5). Now an offer
    needs no search and is answered at once, in its own answers: the takeback allowed, a
    draw this early declined. The search's move is then dropped (taken back) or kept for the
    same position and played, and the search is not made twice."""
    await start(referee, "morris")
    thinker = referee.practice_games.thinker
    searching, go_on = asyncio.Event(), asyncio.Event()
    choose = thinker.turn
    searches = 0

    async def slow_choose(*args: Any) -> Any:
        nonlocal searches
        searches += 1
        searching.set()
        await go_on.wait()  # the person asks meanwhile
        return await choose(*args)

    thinker.turn = slow_choose  # type: ignore[method-assign]
    placed = await referee.act(HERE, ALICE, "place d7")
    answering = asyncio.ensure_future(shown(referee, HERE, placed))
    await searching.wait()
    if asked == "takeback":
        question = await referee.request_takeback(HERE, ALICE)
        asking = await shown(referee, HERE, question)
        assert asking[0].notice == "takeback_asked" and len(asking) == 2
        assert asking[1].lines[0].key == "takeback.allowed_bot"
        assert asking[1].text.startswith("bot allows the takeback. Undone: alice (White) places d7")
        g = await referee.store.active_game(HERE.channel_id)
        assert g is not None and g.takeback_offer is None and g.seq == 0
    else:
        question = await referee.offer_draw(HERE, ALICE)  # declined: too early in the game
        offered = await shown(referee, HERE, question)
        assert [a.notice for a in offered] == ["draw_offered", "draw_declined"]
        assert offered[1].text == (  # asked while the bot thinks: its turn still
            "bot declines the draw: the game has only begun. It considers a draw from move 19.\n"
            "bot (Black) to move."
        )
        g = await referee.store.active_game(HERE.channel_id)
        assert g is not None and g.draw_offer is None and g.seq == 1
    assert not answering.done()  # while the bot still searches
    go_on.set()
    answers = await answering
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.takeback_offer is None and g.draw_offer is None
    assert answers[0] is placed  # alice's move, then the bot's answers
    if asked == "takeback":  # taken back, and alice is to move again: the bot did not move
        assert g.seq == 0 and answers == [placed]
    else:  # the bot's move, with the turn its one search found
        assert [a.notice for a in answers[1:]] == [None]
        assert g.seq == 2 and len(bot_moves(answers[1:], 1)) == 1
    assert searches == 1


@pytest.mark.parametrize("bot_better", [True, False])
async def test_a_draw_offered_while_the_bot_thinks_past_the_opening_is_judged_at_once(
    referee: Referee, bot_better: bool
) -> None:
    """Past the move from which the bot weighs draws, an offer made during its search waited
    for the search before the bot looked one ply ahead (milliseconds). Now it looks at once:
    it declines where it stands better and accepts where it does not, and an accepted draw
    ends the game before the search's move, which is then dropped."""
    # as the two tests above reach their positions
    await start(referee, level=3 if bot_better else 1)
    alice_level, seed = (1, 2) if bot_better else (5, 1)
    await play_until(referee, bot_better, alice_level, seed)
    thinker = referee.practice_games.thinker
    searching, go_on = asyncio.Event(), asyncio.Event()
    choose = thinker.turn

    async def slow_choose(*args: Any) -> Any:
        searching.set()
        await go_on.wait()
        return await choose(*args)

    thinker.turn = slow_choose  # type: ignore[method-assign]
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.bot_seat is not None
    where, me, rules = HERE, ALICE, engine.get_game("morris")
    state = await referee.ctx.state(g)
    # alice's move (not a mill) after which the bot stands as this case needs
    for action in rules.legal(state):
        after = rules.apply(state, action)
        if (
            after.to_move == g.bot_seat
            and (engine.ai.standing("morris", after, g.bot_seat) > 0) == bot_better
        ):
            break
    else:
        raise AssertionError("no such move")
    action_text = str(rules.notation(state, action))
    placed = await referee.act(where, me, action_text)
    assert placed.ok, placed.text
    answering = asyncio.ensure_future(shown(referee, where, placed))
    await searching.wait()
    offered = await shown(referee, where, await referee.offer_draw(where, me))
    assert not answering.done()  # the answer came while the bot still searched
    assert offered[0].notice == "draw_offered" and len(offered) == 2, offered
    go_on.set()
    answers = await answering
    latest = await referee.store.latest_game(HERE.channel_id)
    assert latest is not None and latest.id == g.id
    if bot_better:
        assert offered[1].notice == "draw_declined"
        assert offered[1].lines[-2].key == "notice.draw_declined_ahead"
        assert offered[1].lines[-1].key == "board.turn"  # the bot's, as it still thinks
        assert latest.status == "active" and latest.draw_offer is None
        assert len(bot_moves(answers[1:], g.bot_seat)) == 1  # the move its search found
    else:
        assert offered[1].kind is ReplyKind.GAME_END
        assert offered[1].lines[0].key == "notice.draw_accepted"
        assert latest.status == "finished" and latest.winner is None
        assert answers == [placed]  # the search's move was dropped: the game had ended


@dataclass
class Searched:
    """One search the referee asked its thinker for, and the turn it found."""

    game: str
    state: Any
    level: int
    seed: int
    nodes: int | None
    turn: list[Any]
    seconds: float | None = None


def spy_on_searches(referee: Referee) -> list[Searched]:
    """Every search of the referee's practice bot from now on, in order: the real
    ``Thinker.turn`` still runs each one, in its worker process."""
    thinker = referee.practice_games.thinker
    real = thinker.turn
    searches: list[Searched] = []

    async def turn(
        game: str, state: Any, level: int, seed: int, nodes: int | None, seconds: float | None
    ) -> list[Any]:
        found = await real(game, state, level, seed, nodes, seconds)
        searches.append(Searched(game, state, level, seed, nodes, found, seconds))
        return found

    thinker.turn = turn  # type: ignore[method-assign]
    return searches


@pytest.mark.parametrize("level", [2, 5])
async def test_the_bot_searches_at_the_level_its_player_chose(referee: Referee, level: int) -> None:
    searches = spy_on_searches(referee)
    await start(referee, level=level)
    placed = await referee.act(HERE, ALICE, "place d7")
    (moved,) = bot_moves(await shown(referee, HERE, placed), 1)
    (search,) = searches
    assert (search.game, search.level, search.nodes) == ("morris", level, NODES)
    assert moved.action == engine.get_game("morris").notation(search.state, search.turn[0])


async def bot_answer(referee: Referee, move: str) -> str:
    """alice plays ``move``; the bot's answer (its notation)."""
    placed = await referee.act(HERE, ALICE, move)
    (moved,) = bot_moves(await shown(referee, HERE, placed), 1)
    return moved.action


async def test_the_bot_answers_the_same_position_alike_after_a_takeback_and_a_restart(
    store: Store, store_url: str, clock: ManualClock
) -> None:
    """The search's seed is the game and its move number, so at level 1 (a random move a third
    of the time, noise on every score) the bot still answers one position one way: after
    alice takes her move back and plays it again, and in a new process on the same store."""
    first = Referee(store, clock, render=False, practice_nodes=NODES)
    searches = spy_on_searches(first)
    await start(first, level=1)
    answers = []
    for _ in range(3):
        answers.append(await bot_answer(first, "place d7"))
        await shown(first, HERE, await first.request_takeback(HERE, ALICE))  # the bot allows it
        g = await first.store.active_game(HERE.channel_id)
        assert g is not None and g.seq == 0
    await first.close()
    await store.close()
    reopened = await open_store(store_url)
    try:
        second = Referee(reopened, clock, render=False, practice_nodes=NODES)
        searched_again = spy_on_searches(second)
        answers.append(await bot_answer(second, "place d7"))
        await second.close()
    finally:
        await reopened.close()
    assert len(set(answers)) == 1, answers
    searches += searched_again
    assert len(searches) == 4 and len({s.seed for s in searches}) == 1


async def test_each_move_of_the_bot_in_a_game_is_searched_with_its_own_seed(
    referee: Referee,
) -> None:
    """With one seed for a whole game a beginner would play a random move at every turn or at
    none (its chance is drawn from the seed), with the same noise at every move."""
    searches = spy_on_searches(referee)
    await start(referee, "abalone", level=1)  # every move passes the turn (no mills)
    for _ in range(4):
        moves = await referee.legal_moves(HERE, ALICE)
        await bot_answer(referee, moves[0])
    assert len(searches) == 4 and len({s.seed for s in searches}) == 4


WALLED = {
    "rows": 3,
    "cols": 4,
    "beyond_rows": 1,
    "beyond_cols": 2,
    "pieces": 6,
    "line": 4,
    "tiebreak": "both",
}
"""An Atmalof board whose die reaches rows 1-2 and columns 1-2 only (10 of its 12 squares), with
lines of 4 (rows only) and the tie-break "both" (a side with no piece in hand plays on while it
can move)."""
WALLED_IN = ("BBAA", "BAAA", "BA..")
"""The position where the bot (B) can only drop into a full line: every square a die reaches
is taken and its pieces are walled in; alice (A) has placed all six and no line stands."""


def walled_in(bot_seat: int) -> dict[tuple[int, int], int | None]:
    """``WALLED_IN`` as square -> side (None: empty)."""
    side = {"A": 1 - bot_seat, "B": bot_seat, ".": None}
    return {
        (r, c): side[mark] for r, row in enumerate(WALLED_IN, 1) for c, mark in enumerate(row, 1)
    }


def towards(state: Any, target: dict[tuple[int, int], int | None], bot_seat: int) -> Any:
    """An action of the side to move that brings ``state`` nearer ``target`` whatever the die
    rolls: a piece on a square not its own steps to a free one that is; a drop whose free
    landings are all its own; else a drop into a full line (the turn is lost) or, for the
    bot, a drop that may land wrong (and is stepped right later). alice keeps her last piece
    until the bot's are all in place, so that hers is the last to land."""
    rules = engine.get_game("atmalof")
    side = state.to_move
    mine = {square for square, s in target.items() if s == side}
    legal = rules.legal(state)
    for action in legal:
        if isinstance(action, Move) and action.origin not in mine and action.target in mine:
            return action
    drops = {a: {x.square for x in rules.landings(state, a) if x.free} for a in legal}
    safe = [a for a, free in drops.items() if free and free <= mine]
    futile = [a for a, free in drops.items() if isinstance(a, Drop) and not free]
    risky = [a for a, free in drops.items() if free & mine]
    if side == bot_seat:
        ranked = [safe, risky, futile]
    else:
        bot_done = all(state.at(sq) == bot_seat for sq, s in target.items() if s == bot_seat)
        ranked = [safe if bot_done or state.in_hand(side) > 1 else [], futile, risky]
    return next(a for choices in ranked for a in choices)


async def test_the_bots_drop_into_a_full_line_is_made_and_the_game_goes_on(
    referee: Referee,
) -> None:
    """A drop into a line whose every square the die reaches is taken is announced only when
    confirmed (a person is asked first); the bot's confirms itself. Unconfirmed, its only
    action would be a question nobody answers, and the game would wait for it for ever."""
    reply = await referee.practice(
        HERE, ALICE, "atmalof", bot=BOT, variant="custom", options=WALLED, starter="me"
    )
    assert reply.ok, reply.text
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.bot_seat == 1
    rules = engine.get_game("atmalof")
    target = walled_in(g.bot_seat)
    last = reply
    for _ in range(300):  # alice, and the bot's seat in the bot's stead, play to WALLED_IN
        g = await referee.store.active_game(HERE.channel_id)
        assert g is not None, "the game ended first"
        state = await referee.ctx.state(g)
        done = all(state.at(square) == side for square, side in target.items())
        if done and state.to_move == g.bot_seat:
            break
        actor = BOT if state.to_move == g.bot_seat else ALICE
        action = towards(state, target, g.bot_seat)
        last = await play(referee, HERE, actor, rules.notation(state, action))
        assert last.ok, last.text
    else:
        raise AssertionError("the position never came")
    legal = rules.legal(state)  # the bot's only actions: drops that can only lose the turn
    assert legal and all(isinstance(a, Drop) for a in legal)
    assert not any(x.free for a in legal for x in rules.landings(state, a))
    answers = await shown(referee, HERE, last)  # alice's last drop, then the bot's answer
    announced, rolled = answers[1:]
    assert announced.pending_roll and announced.lines[0].key == "move.announces_futile"
    (moved,) = bot_moves([rolled], g.bot_seat)
    assert moved.action.startswith("drop") and moved.roll is not None
    assert LostTurn(g.bot_seat, moved.roll) in rolled.events  # its piece stays in hand
    after = await referee.store.active_game(HERE.channel_id)
    assert after is not None and after.seq == g.seq + 1  # the game goes on: alice to move
    assert rolled.to_move == ALICE.id and await referee.legal_moves(HERE, ALICE)


async def test_a_sequence_its_reader_leaves_has_closed_the_bots_answer_when_the_close_returns(
    referee: Referee, clock: ManualClock
) -> None:
    """A front end that stops reading ``Referee.sequence`` in the middle of the bot's answer
    (a shutdown, a failure posting it) closes it: once the close returns, the bot's answer
    has ended (its game no longer marked as being answered, its roll left to the sweeper).
    Without ``aclosing`` in ``sequence`` the answers' generator would be dropped unclosed and
    only finalised later by the event loop's hook, its search or roll running on meanwhile."""
    _, seat = await start(referee, "atmalof")
    drop = (await referee.legal_moves(HERE, ALICE))[0]
    reply = await referee.act(HERE, ALICE, f"{drop} confirm")
    assert reply.ok and reply.pending_roll, reply.text
    read: list[Reply] = []
    async with contextlib.aclosing(referee.sequence(HERE, reply)) as replies:
        async for shown_now in replies:
            read.append(shown_now)
            if len(read) == 3:  # alice's announcement and roll, then the bot's announcement
                break
    bots = read[2]
    assert bots.pending_roll and "announces" in bots.text and bots.mentions == [], bots.text
    assert referee.practice_games.thinking == set()  # the answer ended with the close
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.pending is not None  # the bot's drop waits for its roll
    assert g.pending_seat == seat
    clock.advance(10)
    later = await swept(referee)  # the sweeper rolls it, as after a restart: nothing is lost
    assert bot_moves([n.reply for n in later], seat), [n.reply.text for n in later]


class FastClock:
    """Game time running ``speed`` times the wall clock's pace (the referee takes its clock as
    a parameter): a 1+0 bank lasts 60 / ``speed`` real seconds, the bot's searches included."""

    def __init__(self, speed: float) -> None:
        self.speed, self.start = speed, time.time()

    def now(self) -> float:
        return self.start + self.speed * (time.time() - self.start)


async def test_the_bot_shares_out_a_short_clock_and_does_not_lose_on_time(db_path: str) -> None:
    """Abalone at level 5 (its own budget, real searches) on a 1+0 clock that runs three times
    fast, the player answering at once: the bot spent its level's 1.9 s of CPU a move whatever
    was left on its clock, and lost on time (a player's finding, 3-0 up; here within about 10
    moves). Now each search gets a share of its bank, and 16 moves leave it time in hand."""
    store = await SqliteStore.open(db_path)
    referee = Referee(store, FastClock(3.0), render=False)
    searches = spy_on_searches(referee)
    abalone = engine.get_game("abalone")
    try:
        await start(referee, "abalone", level=5, clock="1+0")
        rng = random.Random(5)
        for _ in range(16):
            g = await store.latest_game(HERE.channel_id)
            assert g is not None and g.bot_seat is not None
            if g.status != "active":  # the bot may win first: never on time, though
                assert g.termination != "timeout", g.reason
                break
            state = await referee.ctx.state(g)
            action = engine.ai.choose("abalone", state, 3, rng.randrange(10**6), nodes=150)
            answers = await shown(
                referee, HERE, await referee.act(HERE, ALICE, str(abalone.notation(state, action)))
            )
            assert "ran out of time" not in " ".join(a.text for a in answers)
            assert len(bot_moves(answers, g.bot_seat)) == 1
            g = await store.latest_game(HERE.channel_id)
            assert g is not None and g.bot_seat is not None
            assert g.banks[g.bot_seat] > 0.0
    finally:
        await referee.close()
        await store.close()
    assert len(searches) >= 10
    level_5 = engine.ai.level(5, "abalone")
    for search in searches:  # each bounded by its share of the bank, its nodes cut alike
        assert search.seconds is not None and search.seconds < level_5.seconds
        assert search.nodes == int(level_5.nodes * search.seconds / level_5.seconds)
    assert searches[-1].seconds < searches[0].seconds  # a smaller bank, a smaller share


async def test_the_bots_move_after_its_own_flag_fell_says_it_ran_out_of_time_thinking(
    referee: Referee, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's move that lands after its flag fell ends the game on time; it said "bot's
    command came after Black's flag fell.", though nobody typed a command. A person's late
    command still says so (``notice.flag_fell_first``)."""
    real_turn = Thinker.turn

    async def turn(self: Thinker, *args: Any, **kwargs: Any) -> list[Any]:
        clock.advance(61)  # the bot's whole bank goes by while it searches
        return await real_turn(self, *args, **kwargs)

    monkeypatch.setattr(Thinker, "turn", turn)
    await start(referee, "morris", clock="1+0")
    placed = await referee.act(HERE, ALICE, "place d7")
    answers = await shown(referee, HERE, placed)
    assert answers[0] is placed and len(answers) == 2
    ended = answers[1]
    assert [line.key for line in ended.lines[:1]] == ["notice.flag_fell_thinking"]
    assert ended.text.startswith(
        "bot ran out of time while thinking.\n"
        "Game over: alice (White) wins (bot (Black) ran out of time)."
    ), ended.text
    assert "command" not in ended.text
    assert say(ended.lines[0], "eo") == "bot elĉerpis sian tempon dum pripensado."
    (result,) = [e for e in ended.events if isinstance(e, Result)]
    assert result.termination == "timeout" and result.winner == 0  # alice, White
    g = await referee.store.latest_game(HERE.channel_id)
    assert g is not None and g.termination == "timeout" and g.seq == 1  # no bot move stored
