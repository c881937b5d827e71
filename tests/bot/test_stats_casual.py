"""/stats and the games the ladder leaves out (a reviewer's finding): after four casual and
practice games /stats said "Rating: no rated games yet... Record (rated): 0W 0L 0D" and nothing
else. It now counts the player's casual games in this server (every season: they belong to
none), with games against the practice bot apart: a level the player chose is practice, not a
result between people. Counted by the store, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.names import CONSOLE_BOT
from bot.referee.replies import Where
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, THERE, both_act, play, start

ELSEWHERE = Where(guild_id=2, channel_id=20)  # another server: its games are not counted here


async def played(referee: Referee) -> None:
    """alice's games here: a casual win and a draw against bob, a rated win, a casual game
    aborted, a practice game she lost; and a casual win in another server."""
    await start(referee, "morris")
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, BOB)).ok  # alice wins
    await start(referee, "abalone", second=BOB)
    await both_act(referee, HERE, ALICE, BOB)
    await referee.offer_draw(HERE, ALICE)
    assert (await referee.answer_draw(HERE, BOB, True)).ok  # a draw
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, BOB)).ok  # rated: the ladder's, not casual
    await start(referee, "morris")
    assert (await referee.abort(HERE, ALICE)).ok  # no result: counts nowhere
    practice = await referee.practice(THERE, ALICE, "morris", bot=CONSOLE_BOT, starter="me")
    assert practice.ok, practice.text
    assert (await play(referee, THERE, ALICE, "place d7")).ok
    assert (await referee.resign(THERE, ALICE)).ok  # lost to the bot
    await start(referee, "morris", where=ELSEWHERE, first=ALICE, second=CAROL)
    await both_act(referee, ELSEWHERE, ALICE, CAROL)
    assert (await referee.resign(ELSEWHERE, CAROL)).ok


async def test_stats_count_casual_games_and_practice_apart(
    store: Store, clock: ManualClock
) -> None:
    referee = Referee(store, clock, render=False, practice_nodes=40)
    try:
        await played(referee)
        alice = (await referee.stats(HERE, ALICE)).text.splitlines()
        assert "Record (rated): 1W 0L 0D" in alice, alice
        casual = "Casual games here (not rated, all seasons): 1W 0L 1D"
        assert f"{casual}; practice against the bot: 0W 1L 0D" in alice, alice
        bob = (await referee.stats(HERE, BOB)).text.splitlines()
        assert "Casual games here (not rated, all seasons): 0W 1L 1D" in bob, bob  # no practice
        morris = (await referee.stats(HERE, ALICE, game="morris")).text.splitlines()
        only = "Casual games here (not rated, all seasons): 1W 0L 0D"  # the draw was Abalone
        assert f"{only}; practice against the bot: 0W 1L 0D" in morris, morris
        abroad = (await referee.stats(ELSEWHERE, ALICE)).text.splitlines()
        assert "Casual games here (not rated, all seasons): 1W 0L 0D" in abroad, abroad
        async with store.reading() as rx:  # the store's own answer, as the referee reads it
            counted = await rx.casual_records(HERE.guild_id, ALICE.id)
        assert (counted.people.wins, counted.people.losses, counted.people.draws) == (1, 0, 1)
        assert (counted.practice.wins, counted.practice.losses) == (0, 1)
        async with store.reading() as rx:  # against one opponent: theirs alone, no practice
            bob = await rx.casual_records(HERE.guild_id, ALICE.id, opponent=BOB.id)
            carol = await rx.casual_records(HERE.guild_id, ALICE.id, opponent=CAROL.id)
        assert (bob.people.wins, bob.people.losses, bob.people.draws) == (1, 0, 1)
        assert not bob.practice.games and not carol.people.games  # carol's was elsewhere
    finally:
        await referee.close()


async def test_the_casual_line_in_every_language(store: Store, clock: ManualClock) -> None:
    referee = Referee(store, clock, render=False, practice_nodes=40)
    try:
        await played(referee)
        reply = await referee.stats(HERE, BOB)
        said = {lang: reply_words(reply, lang).splitlines() for lang in ("hu", "eo", "is")}
        hu = "Barátságos játszmák itt (nem értékeltek, minden idény): 0Gy 1V 1D"
        assert hu in said["hu"], said["hu"]
        eo = "Amikaj ludoj ĉi tie (ne rangigitaj, ĉiuj sezonoj): 0V 1M 1R"
        assert eo in said["eo"], said["eo"]
        icelandic = "Vináttuviðureignir hér (án stiga, öll tímabil): 0S 1T 1J"
        assert icelandic in said["is"], said["is"]
    finally:
        await referee.close()


async def test_no_streak_is_said_in_words_in_every_language(referee: Referee) -> None:
    """Icelandic said "0" where English says "none"."""
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, ALICE)).ok
    reply = await referee.stats(HERE, ALICE)
    assert "Streak: 1 loss now; most wins in a row: none" in reply.text.splitlines()
    icelandic = reply_words(reply, "is").splitlines()
    assert "Hrina: 1 tap núna; lengsta sigurhrina: engin" in icelandic, icelandic


async def test_no_casual_games_no_casual_line(referee: Referee) -> None:
    """/stats said "Casual games here (not rated, all seasons): 0W 0L 0D" to a player who had
    played only rated games (a reviewer's finding): the line is left out when there are none,
    and comes with the first casual game."""
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, BOB)).ok
    rated_only = await referee.stats(HERE, ALICE)
    assert "Record (rated): 1W 0L 0D" in rated_only.text.splitlines(), rated_only.text
    assert "stats.casual" not in [line.key for line in rated_only.lines]
    assert "Casual games" not in rated_only.text
    await start(referee, "morris")
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, ALICE)).ok
    then = (await referee.stats(HERE, ALICE)).text.splitlines()
    assert "Casual games here (not rated, all seasons): 0W 1L 0D" in then, then


async def test_a_rated_game_ended_before_both_moved_counts_with_the_casual_ones(
    referee: Referee,
) -> None:
    """A rated game that ended before both had moved ("Not rated: ...") vanished from /stats:
    not in the rated record (it was not rated) nor the casual one (which read rated = 0 only).
    It was not rated, so it counts with the casual games, on SQLite and PostgreSQL."""
    await start(referee, "morris", rated=True)
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    ended = await referee.resign(HERE, ALICE)  # bob never moved
    assert ended.finished and "Not rated" in ended.text, ended.text
    await start(referee, "morris", rated=True)
    await referee.offer_draw(HERE, ALICE)
    assert (await referee.offer_draw(HERE, BOB)).finished  # a draw agreed at once
    alice = (await referee.stats(HERE, ALICE)).text.splitlines()
    assert not any(line.startswith("Record (rated)") for line in alice), alice  # none rated
    assert "Casual games here (not rated, all seasons): 0W 1L 1D" in alice, alice
    bob = (await referee.stats(HERE, BOB)).text.splitlines()
    assert "Casual games here (not rated, all seasons): 1W 0L 1D" in bob, bob


async def test_only_practice_says_only_practice(store: Store, clock: ManualClock) -> None:
    """/stats of a player who had played only the bot said "Casual games here (not rated, all
    seasons): 0W 0L 0D; practice against the bot: 0W 1L 0D", "Record (rated): 0W 0L 0D" and
    "Streak: none now; most wins in a row: none" under "Rating: no rated games yet this
    season." (a player's review): the empty parts are left out, in every language."""
    referee = Referee(store, clock, render=False, practice_nodes=40)
    try:
        practice = await referee.practice(THERE, ALICE, "morris", bot=CONSOLE_BOT, starter="me")
        assert practice.ok, practice.text
        assert (await play(referee, THERE, ALICE, "place d7")).ok
        assert (await referee.resign(THERE, ALICE)).ok
        reply = await referee.stats(HERE, ALICE)
        assert reply.text.splitlines() == [
            "alice, season 1",
            "Rating: no rated games yet this season.",
            "Practice against the bot here (not rated, all seasons): 0W 1L 0D",
        ], reply.text
        icelandic = reply_words(reply, "is").splitlines()
        assert "Æfingar við vélmennið hér (án stiga, öll tímabil): 0S 1T 0J" in icelandic
        assert len(icelandic) == 3, icelandic
    finally:
        await referee.close()
