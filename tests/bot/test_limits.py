"""Limits, so one person cannot fill the store or slow the bot for others: open challenges and
active games per user, custom board sizes, text and option lengths, history pages, replay
frames, and per-user cooldowns on the expensive commands (answered privately with the wait)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from bot import limits
from bot.clock import ManualClock
from bot.console.format import reply_text
from bot.discord_ui.guards import COOLDOWNS, Cooldowns
from bot.i18n import reply_words
from bot.lru import LRU
from bot.referee import Referee
from bot.referee.context import HISTORY_PAGE
from bot.referee.grammar import MAX_TEXT
from bot.referee.replies import Actor, Reply, Where
from bot.store import Store, open_store
from engine.atmalof.config import MAX_SIZE
from render.replay import MAX_FRAMES
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, random_game, start
from tests.discord.conftest import ALICE as ALICE_P  # members, not referee actors
from tests.discord.conftest import BOB as BOB_P
from tests.discord.conftest import start_bot
from tests.discord.harness import CHANNEL_ID, Harness, Person
from tests.discord.play import button, message_with_buttons, start_game, to_move

STRING, INTEGER, NUMBER = 3, 4, 10
LONGEST_OPTION = 200  # no string option takes more than this many characters


def channel(n: int) -> Where:
    return Where(guild_id=1, channel_id=1000 + n)


# ---- challenges and games per user -----------------------------------------------------------


async def test_a_user_may_have_at_most_three_challenges_waiting(
    referee: Referee, clock: ManualClock
) -> None:
    for n in range(limits.MAX_OPEN_CHALLENGES):
        assert (await referee.challenge(channel(n), ALICE, "morris", opponent=BOB)).ok
    fourth = await referee.challenge(channel(9), ALICE, "morris")
    assert not fourth.ok and fourth.ephemeral
    assert "3 challenges waiting" in fourth.text and "withdraw" in fourth.text
    assert (await referee.challenge(channel(9), BOB, "morris")).ok  # others are not held back
    assert (await referee.decline(channel(0), ALICE)).ok  # withdrawing one makes room
    assert (await referee.challenge(channel(8), ALICE, "abalone")).ok
    clock.advance(referee.challenge_ttl + 1)  # expired challenges do not count
    assert (await referee.challenge(channel(7), ALICE, "abalone")).ok


async def test_a_user_may_play_at_most_ten_games_at_once(referee: Referee) -> None:
    for n in range(limits.MAX_ACTIVE_GAMES):
        opponent = Actor(5000 + n, f"p{n}")
        await start(referee, "morris", channel(n), ALICE, opponent)
    eleventh = await referee.challenge(channel(20), ALICE, "morris", opponent=BOB)
    assert not eleventh.ok and "already playing 10 games" in eleventh.text
    posted = await referee.challenge(channel(21), BOB, "morris")  # open: anyone may accept
    assert posted.ok
    taken = await referee.accept(channel(21), ALICE)
    assert not taken.ok and taken.text.startswith("you are already playing 10 games")
    assert (await referee.accept(channel(21), CAROL)).ok  # the challenge still stands for others
    assert (await referee.resign(channel(0), ALICE)).ok  # one ends: room for another
    assert (await referee.challenge(channel(20), ALICE, "morris", opponent=BOB)).ok


async def test_accepting_is_refused_when_the_challenger_is_at_the_limit(referee: Referee) -> None:
    assert (await referee.challenge(channel(30), ALICE, "morris", opponent=BOB)).ok
    for n in range(limits.MAX_ACTIVE_GAMES):
        await start(referee, "morris", channel(n), ALICE, Actor(6000 + n, f"q{n}"))
    late = await referee.accept(channel(30), BOB)
    assert not late.ok and late.text.startswith("alice is already playing 10 games")
    # a catalog message, said in the reader's language (it was English on every server)
    assert reply_words(late, "hu").startswith("alice már 10 játszmát játszik"), late.params


# ---- the same limits under concurrency: the count is taken inside the insert's transaction ----

AT_ONCE = 40
RIVALS = [Actor(7000 + n, f"r{n}") for n in range(AT_ONCE)]


async def waiting(store: Store, user_id: int) -> int:
    return await limits.open_challenges(store, user_id, 0.0)


async def test_forty_challenges_at_once_leave_three_waiting(referee: Referee, store: Store) -> None:
    replies = await asyncio.gather(
        *(
            referee.challenge(channel(n), ALICE, "morris", opponent=RIVALS[n])
            for n in range(AT_ONCE)
        )
    )
    assert sum(r.ok for r in replies) == limits.MAX_OPEN_CHALLENGES
    assert await waiting(store, ALICE.id) == limits.MAX_OPEN_CHALLENGES
    refused = [r for r in replies if not r.ok]
    assert all(r.ephemeral and "3 challenges waiting" in r.text for r in refused)


async def post_rivals_challenges(referee: Referee) -> None:
    """Each rival challenges Alice in a channel of their own (one challenge each: allowed)."""
    for n, rival in enumerate(RIVALS):
        assert (await referee.challenge(channel(n), rival, "morris", opponent=ALICE)).ok


async def test_forty_accepts_at_once_start_ten_games(referee: Referee, store: Store) -> None:
    await post_rivals_challenges(referee)
    replies = await asyncio.gather(*(referee.accept(channel(n), ALICE) for n in range(AT_ONCE)))
    assert sum(r.ok for r in replies) == limits.MAX_ACTIVE_GAMES
    assert await limits.active_games(store, ALICE.id) == limits.MAX_ACTIVE_GAMES
    assert all("already playing 10 games" in r.text for r in replies if not r.ok)


async def test_two_referees_on_one_file_share_the_limits(
    referee: Referee, store: Store, store_url: str, clock: ManualClock
) -> None:
    """Two processes (two Stores) on one database: SQLite's write lock, PostgreSQL's per-user
    lock, makes the count and the insert one step across both."""
    other_store = await open_store(store_url)
    other = Referee(other_store, clock, render=False)
    try:
        both = (referee, other)
        replies = await asyncio.gather(
            *(
                both[n % 2].challenge(channel(n), ALICE, "morris", opponent=RIVALS[n])
                for n in range(AT_ONCE)
            )
        )
        assert sum(r.ok for r in replies) == limits.MAX_OPEN_CHALLENGES
        assert await waiting(store, ALICE.id) == limits.MAX_OPEN_CHALLENGES
        for n in range(AT_ONCE):  # withdraw them; now the rivals challenge Alice
            await referee.decline(channel(n), ALICE)
        await post_rivals_challenges(referee)
        replies = await asyncio.gather(
            *(both[n % 2].accept(channel(n), ALICE) for n in range(AT_ONCE))
        )
        assert sum(r.ok for r in replies) == limits.MAX_ACTIVE_GAMES
        assert await limits.active_games(other_store, ALICE.id) == limits.MAX_ACTIVE_GAMES
    finally:
        await other_store.close()


async def test_forty_slash_challenges_at_once_through_discord_leave_three(bot: Harness) -> None:
    channels = [CHANNEL_ID + 1 + n for n in range(AT_ONCE)]
    exchanges = await asyncio.gather(
        *(bot.slash(ALICE_P, "challenge", channel=c, game="morris") for c in channels)
    )
    public = [e for e in exchanges if not e.first.ephemeral]
    assert len(public) == limits.MAX_OPEN_CHALLENGES
    assert all("3 challenges waiting" in e.text for e in exchanges if e.first.ephemeral)
    store = bot.bot.referee.store  # type: ignore[attr-defined]
    assert await waiting(store, ALICE_P.id) == limits.MAX_OPEN_CHALLENGES


async def test_forty_accept_clicks_at_once_through_discord_start_ten_games(bot: Harness) -> None:
    challenges = []
    for n in range(AT_ONCE):
        rival = Person(910_000_000_000_000_000 + n, f"rival{n}")
        posted = await bot.slash(
            rival, "challenge", channel=CHANNEL_ID + 1 + n, game="morris", opponent=ALICE_P
        )
        challenges.append(message_with_buttons(posted))
    clicks = await asyncio.gather(
        *(bot.click(ALICE_P, c.message, button(c, "accept")) for c in challenges)
    )
    started = [e for e in clicks if not e.first.ephemeral]
    assert len(started) == limits.MAX_ACTIVE_GAMES
    store = bot.bot.referee.store  # type: ignore[attr-defined]
    assert await limits.active_games(store, ALICE_P.id) == limits.MAX_ACTIVE_GAMES


# ---- /challenge thread:true: check first, create after, and a cooldown on threads ------------

THREADS = "/channels/{channel_id}/threads"


def threads_made(h: Harness) -> list[Any]:
    return [c for c in h.rest_calls if c.method == "POST" and c.path == THREADS]


def threads_deleted(h: Harness) -> list[Any]:
    return [c for c in h.rest_calls if c.method == "DELETE"]


def answer(exchange: Any) -> Any:
    """The interaction's own response (a thread's REST calls come before it)."""
    (call,) = [c for c in exchange.calls if c.kind == "callback"]
    return call


async def test_the_challenge_pre_check_refuses_as_the_challenge_would(
    referee: Referee, store: Store
) -> None:
    assert await referee.challenge_refusal(HERE, ALICE, "morris", opponent=BOB) is None
    for n in range(limits.MAX_OPEN_CHALLENGES):
        assert (await referee.challenge(channel(n), ALICE, "morris")).ok
    for kwargs in ({}, {"variant": "nonsense"}, {"opponent": ALICE}, {"clock": "99x"}):
        refused = await referee.challenge_refusal(HERE, ALICE, "morris", **kwargs)
        made = await referee.challenge(HERE, ALICE, "morris", **kwargs)
        assert refused is not None and not made.ok and refused.text == made.text, kwargs
    assert await store.open_challenge(HERE.channel_id) is None


async def test_a_thread_challenge_that_will_be_refused_opens_no_thread(bot: Harness) -> None:
    """Issue 13.5: a user at the limit made 25 create/delete pairs of threads. Every refusal
    that does not need the thread comes first now, and nothing is created."""
    for n in range(limits.MAX_OPEN_CHALLENGES):
        posted = await bot.slash(ALICE_P, "challenge", channel=CHANNEL_ID + 1 + n, game="morris")
        assert not posted.first.ephemeral, posted.text
    for _ in range(25):
        refused = await bot.slash(ALICE_P, "challenge", game="morris", thread=True)
        assert refused.all_ephemeral and "3 challenges waiting" in refused.text, refused.text
    wrong = await bot.slash(BOB_P, "challenge", game="morris", variant="nonsense", thread=True)
    assert wrong.all_ephemeral
    assert threads_made(bot) == [] and threads_deleted(bot) == []


def posted_in_thread(h: Harness) -> dict[str, Any]:
    """The last challenge message the bot posted in a thread (it carries the buttons)."""
    posts = [c for c in h.rest_calls if c.path == "/channels/{channel_id}/messages"]
    return posts[-1].message


async def test_opening_threads_for_challenges_cools_down_per_user(bot: Harness) -> None:
    uses, per = COOLDOWNS["thread"]
    for _ in range(uses):  # each challenge withdrawn at once: the limit never stops them
        opened = await bot.slash(ALICE_P, "challenge", game="abalone", thread=True)
        assert not answer(opened).ephemeral, opened.text
        message = posted_in_thread(bot)
        ids = [c["custom_id"] for row in message["components"] for c in row["components"]]
        (decline,) = [i for i in ids if i.split(":")[1] == "decline"]
        withdrawn = await bot.click(ALICE_P, message, decline)
        assert not withdrawn.first.ephemeral, withdrawn.text
    slowed = await bot.slash(ALICE_P, "challenge", game="abalone", thread=True)
    assert slowed.all_ephemeral and f"try again in {per:.0f} s" in slowed.text, slowed.text
    assert len(threads_made(bot)) == uses
    here = await bot.slash(ALICE_P, "challenge", game="abalone")  # no thread: no cooldown
    assert not here.first.ephemeral, here.text
    other = await bot.slash(BOB_P, "challenge", game="abalone", thread=True)
    assert not answer(other).ephemeral  # others are not slowed


async def test_thread_challenges_at_once_keep_only_the_threads_of_challenges_that_landed(
    bot: Harness,
) -> None:
    """The check passes for all of them at once, and then the insert refuses most: each of
    those threads is removed again; what stays is one thread per challenge that landed."""
    bot.bot.cooldowns = None
    exchanges = await asyncio.gather(
        *(bot.slash(ALICE_P, "challenge", game="morris", thread=True) for _ in range(8))
    )
    landed = [e for e in exchanges if not answer(e).ephemeral]
    assert len(landed) == limits.MAX_OPEN_CHALLENGES
    made, gone = threads_made(bot), threads_deleted(bot)
    assert len(made) - len(gone) == limits.MAX_OPEN_CHALLENGES
    assert len(bot.channels) == 1 + limits.MAX_OPEN_CHALLENGES  # the channel and 3 threads


# ---- memory: positions kept for games in play and games looked at ----------------------------


def test_an_lru_keeps_its_size_and_the_recently_used() -> None:
    kept: LRU[int, str] = LRU(3)
    for n in range(10):
        kept[n] = str(n)
        assert len(kept) <= 3
    assert kept.get(7) == "7"  # read: now the most recent
    kept[10] = "10"
    assert 7 in kept and 8 not in kept and kept.get(8) is None
    assert kept.pop(7) == "7" and len(kept) == 2


async def test_boards_of_many_finished_games_keep_a_bounded_number_of_positions(
    store: Store, clock: ManualClock
) -> None:
    """Issue 13.4: every finished game looked at with /board stayed in memory forever."""
    referee = Referee(store, clock, render=False, positions_kept=4)
    for n in range(12):
        await start(referee, "morris", channel(n), ALICE, RIVALS[n])
        assert (await referee.act(channel(n), ALICE, "place d7")).ok
        assert (await referee.resign(channel(n), RIVALS[n])).ok
    shown = [await referee.board(channel(n)) for n in range(12)]
    assert all(s.ok and s.finished for s in shown)
    assert len(referee.ctx.states) == 4
    assert shown[0].game_id not in referee.ctx.states  # forgotten: replayed, the same
    assert (await referee.board(channel(0))).board_text == shown[0].board_text


# ---- sizes and lengths -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"rows": MAX_SIZE + 1},
        {"cols": 10**9},
        {"rows": 0},
        {"pieces": 10**6},
        {"line": 99},
        {"beyond_rows": -1},
    ],
)
async def test_custom_atmalof_parameters_stay_within_sane_bounds(
    referee: Referee, store: Store, options: dict[str, Any]
) -> None:
    reply = await referee.challenge(HERE, ALICE, "atmalof", variant="custom", options=options)
    assert not reply.ok and reply.ephemeral, reply.text
    assert await store.open_challenge(HERE.channel_id) is None


async def test_console_text_is_cut_at_its_limit(referee: Referee) -> None:
    reply = await referee.handle(HERE, ALICE, "challenge " + "x" * 100_000)
    assert not reply.ok and len(reply.text) < MAX_TEXT + 100


async def test_history_pages_are_clamped_to_the_game(referee: Referee) -> None:
    await start(referee, "morris")
    await random_game(referee, HERE, {ALICE.id: ALICE, BOB.id: BOB}, seed=3)
    first = await referee.history(HERE, 0)
    pages = first.lines[0].params["pages"]
    assert pages >= 2, first.text
    for asked, shown in ((-5, 1), (10**12, pages), (pages + 1, pages)):
        reply = await referee.history(HERE, asked)
        assert f", page {shown} of {pages}" in reply.text
        assert len(reply.text.splitlines()) <= HISTORY_PAGE + 3


def numbers(reply: Reply) -> list[int]:
    """The numbers of the moves a page of the history lists, in order."""
    return [m.params["seq"] for m in reply.lines if m.params.get("seq") is not None]


async def test_history_pages_count_back_from_the_latest_moves_without_overlap(
    referee: Referee,
) -> None:
    """A player asks what just happened: history opens at page 1, the latest moves and the
    result; its head names the page with the moves just before. Read page after page, the
    pages hold every move once: each a full page but the last, which holds the first moves."""
    await start(referee, "morris")
    ended = await random_game(referee, HERE, {ALICE.id: ALICE, BOB.id: BOB}, seed=3)
    g = await referee.store.latest_game(HERE.channel_id)
    assert g is not None
    morris = engine.get_game("morris")
    moves = morris.turns(morris.from_text(g.position))  # a mill with its removal: one move
    assert moves < g.seq and moves > 2 * HISTORY_PAGE and moves % HISTORY_PAGE, (moves, g.seq)
    pages = -(-moves // HISTORY_PAGE)
    latest = await referee.history(HERE)
    assert latest.text == (await referee.history(HERE, 1)).text
    said = (
        f": moves {moves - HISTORY_PAGE + 1}–{moves} of {moves}, page 1 of {pages}; "
        "`/history page: 2` for the moves before"
    )
    assert latest.text.splitlines()[0].endswith(said), latest.text
    result = next(line for line in ended.lines if line.key == "board.game_over")
    assert latest.lines[-1] == result  # the game's result after its last move
    read: list[int] = []
    for page in range(1, pages + 1):
        reply = await referee.history(HERE, page)
        shown = numbers(reply)
        head = reply.lines[0]
        assert (head.params["start"], head.params["end"]) == (shown[0], shown[-1])
        if page < pages:
            assert head.key == "history.head_more" and head.params["earlier"] == page + 1
            assert len(shown) == HISTORY_PAGE
        else:
            assert head.key == "history.head_first" and "for the moves before" not in reply.text
            assert shown[0] == 1 and len(shown) == moves % HISTORY_PAGE
        assert (result in reply.lines) == (page == 1)
        read = shown + read
    assert read == list(range(1, moves + 1))  # every move once, none twice
    typed = await referee.handle(HERE, ALICE, "history")
    assert typed.text == latest.text  # the console then says its own command:
    assert "; `history 2` for the moves before\n" in reply_text(typed)
    second = await referee.handle(HERE, ALICE, "history 2")
    assert second.text == (await referee.history(HERE, 2)).text
    assert "; `history 3` for the moves before\n" in reply_text(second)


def test_replays_are_bounded_in_frames_and_bytes() -> None:
    from bot.discord_ui.cogs.info import MAX_REPLAY_BYTES

    assert MAX_FRAMES <= 400 and MAX_REPLAY_BYTES <= 8 * 1024 * 1024


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Harness]:
    h, store = await start_bot(tmp_path / "limits.db", ManualClock())
    try:
        yield h
    finally:
        await h.close()
        await store.close()


def options_of(h: Harness) -> list[tuple[str, dict[str, Any]]]:
    """(path, option) for every option of every slash command, as sync would send them."""
    found = []

    def walk(options: list[dict[str, Any]], path: str) -> None:
        for option in options:
            if option["type"] in (1, 2):
                walk(option.get("options") or [], f"{path} {option['name']}")
            else:
                found.append((f"{path} {option['name']}", option))

    for command in h.bot.tree.get_commands():
        payload = command.to_dict(h.bot.tree)
        walk(payload.get("options") or [], payload["name"])
    return found


async def test_every_string_option_has_a_length_limit(bot: Harness) -> None:
    strings = [(p, o) for p, o in options_of(bot) if o["type"] == STRING]
    assert len(strings) > 10
    for path, option in strings:
        if option.get("choices"):
            continue  # Discord only sends one of the listed values
        assert 1 <= option.get("max_length", 6000) <= LONGEST_OPTION, path


async def test_every_number_option_has_bounds(bot: Harness) -> None:
    for path, option in options_of(bot):
        if option["type"] in (INTEGER, NUMBER) and not option.get("choices"):
            assert "min_value" in option and "max_value" in option, path


# ---- cooldowns ---------------------------------------------------------------------------------


def test_a_cooldown_counts_per_user_and_command() -> None:
    book = Cooldowns({"history": (2, 30.0)})
    book.check("history", 1, 100.0)
    book.check("history", 1, 100.0)
    with pytest.raises(Exception) as refused:
        book.check("history", 1, 101.0)
    assert round(refused.value.retry_after) == 29  # type: ignore[attr-defined]
    book.check("history", 2, 101.0)  # another user
    book.check("place", 1, 101.0)  # a command without a cooldown
    book.check("history", 1, 131.0)  # the window has passed


@pytest.mark.parametrize("command", ["history", "record", "verify", "replay", "board"])
async def test_expensive_commands_cool_down_per_user_with_the_wait_shown(
    bot: Harness, command: str
) -> None:
    await start_game(bot, ALICE_P, BOB_P, "morris")
    uses, per = COOLDOWNS[command]
    for _ in range(uses):
        assert "slow down" not in (await bot.slash(ALICE_P, command)).text
    refused = await bot.slash(ALICE_P, command)
    assert refused.all_ephemeral and refused.first.response_type == 4
    assert f"try again in {per:.0f} s" in refused.text, refused.text
    assert "slow down" not in (await bot.slash(BOB_P, command)).text  # others are not slowed


async def test_moves_have_no_cooldown(bot: Harness) -> None:
    await start_game(bot, ALICE_P, BOB_P, "morris")
    for _ in range(max(uses for uses, _ in COOLDOWNS.values()) + 4):
        mover, commands = await to_move(bot, (ALICE_P, BOB_P), CHANNEL_ID)
        assert mover is not None
        moved = await bot.slash(mover, "play", command=commands[0])
        assert not moved.first.ephemeral, moved.text
