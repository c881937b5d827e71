"""Practice games on Discord (issue 18): /practice and /challenge with the bot itself start a
game at once; each of the player's moves is answered by the bot's move as a followup of the
same interaction, with the board after both (one board a turn: the player's move is posted
without its own, which is added only when the answer is late or fails); whole games of each
game end; refusals are private. The real discord.py bot, recorded HTTP calls, the real worker
process with a small node budget."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.referee.replies import Actor, Where
from tests.discord.conftest import ALICE, BOB, running, start_bot
from tests.discord.harness import (
    BOT_USER_ID,
    CHANNEL_ID,
    GUILD_ID,
    Call,
    Exchange,
    Harness,
    Person,
)
from tests.discord.play import PNG, button, message_with_buttons, moves_in, start_game

NODES = 40
THE_BOT = Person(BOT_USER_ID, "referee")
SMALL_ATMALOF = "rows=4 cols=4 beyond_rows=0 beyond_cols=0 pieces=5 line=3"
FINISHED_COLOUR = 0xC9A227


@pytest.fixture
async def practice_bot(db_path: Path, clock: ManualClock) -> AsyncIterator[Harness]:
    async for h in running(db_path, clock, practice_nodes=NODES):
        yield h


def boards(exchange: Exchange) -> int:
    return sum(1 for _, _, data in exchange.files if data.startswith(PNG))


def pictured(call: Call) -> bool:
    """The message shows a board: its PNG attached and the embed's image pointing at it."""
    png = any(data.startswith(PNG) for _, _, data in call.files)
    image = any((e.get("image") or {}).get("url") for e in call.embeds)
    assert png == image, call.text
    return png


def posted(exchange: Exchange) -> list[Call]:
    """The messages an interaction posted (its response and followups; not edits)."""
    return [c for c in exchange.messages if c.kind in ("callback", "followup")]


async def legal(h: Harness) -> list[str]:
    return moves_in(await h.autocomplete(ALICE, "play", "command"))


async def play_out(h: Harness, seed: int, limit: int = 300) -> list[Exchange]:
    """alice plays random legal commands by /play until she has none left (the game ended)."""
    rng = random.Random(seed)
    played: list[Exchange] = []
    for _ in range(limit):
        commands = await legal(h)
        if not commands:
            return played
        exchange = await h.slash(ALICE, "play", command=f"{rng.choice(commands)} confirm")
        assert not exchange.first.ephemeral, exchange.text
        played.append(exchange)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "options"),
    [("atmalof", {"variant": "custom", "options": SMALL_ATMALOF}), ("morris", {}), ("abalone", {})],
)
async def test_a_whole_practice_game(practice_bot: Harness, game: str, options: dict) -> None:
    h = practice_bot
    started = await h.slash(ALICE, "practice", game=game, level=2, starter="me", **options)
    assert not started.first.ephemeral and started.first.response_type == 4, started.text
    assert "Practice: Alice plays the bot at level 2" in started.text
    assert len(started.messages) == 1  # alice moves first: the bot waits
    played = await play_out(h, seed=11)
    assert len(played) >= 3
    # every move but the last is answered by the bot (the last may end the game: an Atmalof
    # drop that makes the line has two messages of its own, the announcement and the roll)
    answered = [e for e in played[:-1] if len(e.messages) >= 2]
    assert answered, "the bot never answered"
    for exchange in answered:  # alice's move, then the bot's as a followup with the board
        assert exchange.first.kind == "callback"
        assert all(c.kind == "followup" and not c.ephemeral for c in exchange.messages[1:])
        assert boards(exchange) == 1 and pictured(exchange.last), exchange.text
    for exchange in played:  # one board a turn, whoever's move ended the game
        assert [c.kind for c in exchange.calls if c.kind == "edit"] == []
        assert boards(exchange) == 1 and pictured(exchange.last), exchange.text
    final = played[-1].last
    assert final.embeds and final.embeds[0].get("color") == FINISHED_COLOUR, final.text
    verified = await h.slash(ALICE, "verify")
    assert "Verified" in verified.text, verified.text


async def test_challenging_the_bot_itself_starts_a_practice_game(practice_bot: Harness) -> None:
    h = practice_bot
    started = await h.slash(ALICE, "challenge", game="morris", opponent=THE_BOT, starter="them")
    assert not started.first.ephemeral, started.text
    assert "Practice: Alice plays the bot at level 3" in started.text
    assert not any(":accept:" in c for m in started.messages for c in m.custom_ids)
    assert len(started.messages) == 2 and boards(started) == 1  # the bot's first move follows
    assert pictured(started.last) and not pictured(started.first)
    # now alice is to move, but she has just asked for the game: the bot's answer in time
    # does not ping her (a player's finding: every answer of the bot pinged its player)
    assert ALICE.mention not in started.last.content and started.last.allowed_user_ids == set()


async def test_stats_show_casual_games_and_practice_apart(practice_bot: Harness) -> None:
    """After casual and practice games only, /stats said no more than "no rated games yet
    ... 0W 0L 0D" (a reviewer's finding): it now counts them, practice apart."""
    h = practice_bot
    await start_game(h, ALICE, BOB, "morris")
    await h.slash(BOB, "resign")
    await h.slash(ALICE, "practice", game="morris", level=1, starter="me")
    await h.slash(ALICE, "resign")
    stats = await h.slash(ALICE, "stats")
    assert not stats.first.ephemeral
    said = (
        "Casual games here (not rated, all seasons): 1W 0L 0D; practice against the bot: 0W 1L 0D"
    )
    assert said in stats.text.splitlines(), stats.text
    assert "Record (rated)" not in stats.text  # no rated games: no empty rated record
    bob = await h.slash(BOB, "stats")
    assert "Casual games here (not rated, all seasons): 0W 1L 0D" in bob.text.splitlines()


async def test_stats_of_the_bot_say_it_is_never_rated(practice_bot: Harness) -> None:
    """The bot's games are practice only: /stats of it, or against it, answers privately
    why it has no rating, rather than an empty record."""
    h = practice_bot
    await h.slash(ALICE, "practice", game="morris", level=1)
    await h.slash(ALICE, "resign")
    for options in ({"player": THE_BOT}, {"opponent": THE_BOT}):
        asked = await h.slash(ALICE, "stats", **options)
        assert asked.all_ephemeral, asked.text
        assert "is the practice opponent: its games are practice and never rated" in asked.text


async def test_rated_or_a_thread_with_the_bot_is_refused_privately(practice_bot: Harness) -> None:
    h = practice_bot
    rated = await h.slash(ALICE, "challenge", game="morris", opponent=THE_BOT, rated=True)
    assert rated.all_ephemeral and "never rated" in rated.text, rated.text
    thread = await h.slash(ALICE, "challenge", game="morris", opponent=THE_BOT, thread=True)
    assert thread.all_ephemeral and "thread" in thread.text, thread.text
    assert not [c for c in h.rest_calls if c.path.endswith("/threads")]


@pytest.mark.parametrize(
    ("game", "variants"),
    [
        ("atmalof", {"standard", "junior", "atmalos", "custom"}),
        ("morris", {"standard", "six", "twelve"}),
        ("abalone", {"standard", "belgian-daisy", "german-daisy"}),
    ],
)
async def test_practice_offers_the_games_variants_as_challenge_does(
    practice_bot: Harness, game: str, variants: set[str]
) -> None:
    """A player need not guess "belgian-daisy": /practice's variant suggests the variants of
    the game picked, the same as /challenge's, narrowed by what is typed."""
    h = practice_bot
    offered = await h.autocomplete(ALICE, "practice", "variant", game=game)
    assert {c["value"] for c in offered} == variants
    assert offered == await h.autocomplete(ALICE, "challenge", "variant", game=game)
    if game == "abalone":
        typed = await h.autocomplete(ALICE, "practice", "variant", game=game, variant="dai")
        assert [c["value"] for c in typed] == ["belgian-daisy", "german-daisy"]
    clocks = await h.autocomplete(ALICE, "practice", "clock", game=game, clock="1")
    assert [c["value"] for c in clocks] == ["10+0", "15+5"]


@pytest.mark.parametrize("level", [0, 6, 99])
async def test_a_level_out_of_range_is_refused_privately(practice_bot: Harness, level: int) -> None:
    h = practice_bot
    refused = await h.slash(ALICE, "practice", game="morris", level=level)
    assert refused.all_ephemeral, refused.text
    assert "level" in refused.text and "1" in refused.text and "5" in refused.text, refused.text
    assert (await h.slash(ALICE, "board")).all_ephemeral  # no game was started


async def test_a_stranger_cannot_play_in_a_practice_game(practice_bot: Harness) -> None:
    h = practice_bot
    await h.slash(ALICE, "practice", game="morris", starter="me")
    for path, values in (("place", {"point": "d7"}), ("resign", {}), ("draw offer", {})):
        refused = await h.slash(BOB, path, **values)
        assert refused.all_ephemeral and "not playing" in refused.text, refused.text
    (why,) = await h.autocomplete(BOB, "play", "command")  # no moves: one choice says why
    assert why["name"] == "You are not playing in this game (Alice vs Referee)", why
    picked = await h.slash(BOB, "play", command=why["value"])  # and picked, it changes nothing
    assert picked.all_ephemeral and "not playing" in picked.text, picked.text
    placed = await h.slash(ALICE, "place", point="d7")  # alice's game goes on
    assert len(placed.messages) == 2


async def test_only_the_person_is_pinged_and_only_when_it_is_their_turn(
    practice_bot: Harness,
) -> None:
    """The bot's own turn pinged the bot, and /board (anyone's) pinged the player to move: a
    bystander could ping a player at will. Then the bot's answer pinged the person each turn,
    who had just typed (a player's finding): now it pings her only when it comes late, or
    from the sweeper (tests/discord/test_practice_turns.py), and nothing else does."""
    h = practice_bot
    await h.slash(ALICE, "practice", game="morris", starter="me")
    placed = await h.slash(ALICE, "place", point="d7")
    mine, answer = placed.messages
    assert mine.allowed_user_ids == set() and f"<@{THE_BOT.id}>" not in mine.text
    assert answer.allowed_user_ids == set() and "<@" not in answer.text
    for who in (BOB, ALICE):
        looked = await h.slash(who, "board")
        assert not looked.first.ephemeral and looked.first.allowed_user_ids == set(), who
        assert "<@" not in looked.text, looked.text


async def test_the_bot_says_it_allows_the_takeback_and_a_person_is_said_to_accept_it(
    practice_bot: Harness,
) -> None:
    """In a practice game the takeback's answer names the bot that allowed it, as its draw
    answers do; it said "Takeback accepted, undone: ..." without saying who accepted."""
    h = practice_bot
    await h.slash(ALICE, "practice", game="morris", starter="me")
    await h.slash(ALICE, "place", point="d7")
    asked = await h.slash(ALICE, "takeback request")
    assert "Alice asks for a takeback" in asked.text, asked.text
    assert "Referee allows the takeback. Undone: Alice (White) places d7; Referee" in asked.text
    assert "Takeback accepted" not in asked.text
    assert not asked.all_ephemeral


async def test_the_rematch_button_starts_the_next_practice_game(practice_bot: Harness) -> None:
    h = practice_bot
    await h.slash(ALICE, "practice", game="morris", starter="me")
    resigned = await h.slash(ALICE, "resign")
    again = await h.click(ALICE, message_with_buttons(resigned).message,
                          button(message_with_buttons(resigned), "rematch"))  # fmt: skip
    assert not again.all_ephemeral, again.text
    assert "Practice: Alice plays the bot at level 3" in again.text
    assert boards(again) == 1 and pictured(again.last)  # the bot starts it, and has moved


async def test_the_bots_drop_is_announced_then_rolled_in_two_followups(
    practice_bot: Harness,
) -> None:
    h = practice_bot
    started = await h.slash(ALICE, "practice", game="atmalof", starter="them")
    board, announced, rolled = started.messages
    assert board.kind == "callback" and boards(started) == 1 and not board.files
    assert announced.kind == "followup" and not announced.files  # nothing rolled yet
    assert "announces" in announced.text and not announced.ephemeral
    assert rolled.kind == "followup" and any(d.startswith(PNG) for _, _, d in rolled.files)
    assert ALICE.mention not in rolled.content  # alice to move, but she has just typed


def posted_in(h: Harness) -> list[int]:
    """The channels of the messages the bot has posted itself (not answers to a command)."""
    posts = [c for c in h.rest_calls if c.path == "/channels/{channel_id}/messages"]
    return [int(c.message["channel_id"]) for c in posts]


async def test_after_a_restart_each_bot_move_is_posted_before_the_next_game_is_searched(
    db_path: Path, clock: ManualClock
) -> None:
    """The sweeper answers the practice games a restart left waiting for the bot one after
    another, a search each. Each move is posted in its channel as soon as it is made (it
    starts its player's clock), not once the last game has been searched: the searches are
    watched as the bot's worker is asked for each."""
    channels = [CHANNEL_ID + 1 + n for n in range(3)]
    players = [Person(ALICE.id + 10 + n, f"p{n}") for n in range(3)]
    h, store = await start_bot(db_path, clock, practice_nodes=NODES)
    try:
        for player, channel in zip(players, channels, strict=True):
            started = await h.slash(player, "practice", channel=channel, game="morris",
                                    starter="me")  # fmt: skip
            assert not started.first.ephemeral, started.text
            where, actor = Where(GUILD_ID, channel), Actor(player.id, player.name)
            assert (await h.bot.referee.act(where, actor, "place d7")).ok  # then the bot dies
    finally:
        await h.close()
        await store.close()
    h, store = await start_bot(db_path, clock, practice_nodes=NODES)  # the restart
    try:
        thinker = h.bot.referee.practice_games.thinker  # type: ignore[attr-defined]
        search = thinker.turn
        posted_before_search: list[list[int]] = []

        async def watched(*args: Any, **kwargs: Any) -> Any:
            posted_before_search.append(posted_in(h))
            return await search(*args, **kwargs)

        thinker.turn = watched
        assert await h.bot.post_notices() == 3  # type: ignore[attr-defined]
        assert posted_before_search == [[], channels[:1], channels[:2]]
        assert posted_in(h) == channels
    finally:
        await h.close()
        await store.close()
    assert not h.stray
