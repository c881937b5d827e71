"""Ladders through the referee on a real SQLite file: which games count, the rating change in
the result message, leaderboard, stats and dice luck, seasons, and rebuild == live."""

from __future__ import annotations

import asyncio
import io
import sqlite3

import pytest

from bot import ladder_store
from bot.clock import ManualClock
from bot.config import Config
from bot.console.format import reply_text
from bot.errors import Refusal
from bot.i18n import msg, reply_words, say
from bot.ladder import ladder_ratings, rebuild
from bot.ladder.ratings import NEW_PLAYER, RatingState, rating_change_text, update
from bot.ladder.stats import DiceDrop, dice_luck
from bot.ladder_cli import main as ladder_cli
from bot.referee import Referee
from bot.referee.grammar import dispatch
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore, Store
from bot.store.migrations import LATEST, MIGRATIONS
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    HERE,
    MOD,
    THERE,
    both_act,
    play,
    poke,
    rows,
    start,
    swept,
)

GUILD = HERE.guild_id
DAVE = Actor(404, "dave")


async def resigned(referee: Referee, winner: Actor, loser: Actor, **kwargs) -> str:
    """A rated game that ``loser`` resigns after one action each; the result message."""
    kwargs.setdefault("rated", True)
    await start(referee, kwargs.pop("game", "morris"), first=winner, second=loser, **kwargs)
    where = kwargs.get("where", HERE)
    await both_act(referee, where, winner, loser)
    reply = await referee.resign(where, loser)
    assert reply.ok and reply.finished, reply.text
    return reply.text


async def stored(store: Store, ladder: str = "morris", season: int = 1) -> dict[int, RatingState]:
    return await ladder_store.ratings(store, GUILD, ladder, season)


async def assert_rebuild_equals_live(store: Store) -> None:
    """The stored table is exactly bot.ladder.rebuild over the stored games, every season."""
    rule = ladder_store.per_variant_rule((await store.guild_settings(GUILD))["ladder"])
    for season in (1, 2, 3):
        games = await ladder_store.games(store, GUILD, season)
        fresh = rebuild(games, season=season, per_variant=lambda _g, game: rule(game))
        assert await ladder_store.table(store, GUILD, season) == fresh
    assert (await ladder_store.rebuild_store(store, check=True)).differences == []


# --- which games count --------------------------------------------------------------------


async def test_a_rated_win_moves_both_ratings_and_the_result_shows_the_change(
    referee: Referee, store: Store
) -> None:
    text = await resigned(referee, ALICE, BOB)
    table = await stored(store)
    assert table[ALICE.id].rating > 1500 > table[BOB.id].rating
    assert (table[ALICE.id].wins, table[BOB.id].losses) == (1, 1)
    line = next(t for t in text.splitlines() if t.startswith("Ratings"))
    assert rating_change_text(NEW_PLAYER, table[ALICE.id], "alice") in line
    assert rating_change_text(NEW_PLAYER, table[BOB.id], "bob") in line
    assert "alice 1500? → 1662? (+162)" in line and "bob 1500? → 1338? (-162)" in line


async def test_a_casual_game_changes_no_rating(referee: Referee, store: Store) -> None:
    text = await resigned(referee, ALICE, BOB, rated=False)
    assert await stored(store) == {}
    assert "Ratings" not in text


async def test_nobody_can_play_themselves_and_a_self_game_would_not_count(
    referee: Referee, store: Store
) -> None:
    refused = await referee.challenge(HERE, ALICE, "morris", opponent=ALICE, rated=True)
    assert not refused.ok and "yourself" in refused.text
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    await poke(store, "UPDATE games SET player1 = player0")  # as if the seats were one
    game = await store.active_game(HERE.channel_id)
    assert await referee.resign(HERE, ALICE)
    assert (await store.game(game.id)).status == "finished"
    assert await stored(store) == {} and await ladder_store.rating_change(store, game.id) is None


async def test_an_aborted_game_never_counts(referee: Referee, store: Store) -> None:
    await start(referee, "morris", rated=True)
    assert (await referee.abort(HERE, BOB)).ok
    await start(referee, "morris", rated=True)
    await play(referee, HERE, ALICE, "place d7")
    await play(referee, HERE, BOB, "place d1")
    assert (await referee.moderator_abort(HERE, MOD, "wrong channel")).ok
    assert await stored(store) == {}
    assert await rows(store, "SELECT * FROM rating_changes") == []


async def test_a_loss_on_time_counts_as_a_loss(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", rated=True, clock="1+0")
    await both_act(referee, HERE, ALICE, BOB)
    clock.advance(61)  # alice, to move, runs out
    (notice,) = await swept(referee)
    assert (
        "ran out of time" in notice.reply.text
        and "Ratings (Nine Men's Morris)" in notice.reply.text
    )
    table = await stored(store)
    assert (table[BOB.id].wins, table[ALICE.id].losses) == (1, 1)


async def test_abandonment_and_a_moderators_award_count(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    await play(referee, HERE, ALICE, (await referee.legal_for(HERE, ALICE))[0])
    clock.advance(referee.abandon_after + 1)  # bob walked away after his first move
    assert (await referee.claim(HERE, ALICE)).ok
    await start(referee, "morris", rated=True, first=BOB, second=ALICE)
    await both_act(referee, HERE, BOB, ALICE)
    awarded = await referee.award(HERE, MOD, BOB, "alice left the server")
    assert "Ratings (Nine Men's Morris)" in awarded.text
    table = await stored(store)
    assert (table[ALICE.id].wins, table[ALICE.id].losses) == (1, 1)
    assert (table[BOB.id].wins, table[BOB.id].losses) == (1, 1)


async def test_a_draw_counts_for_both(referee: Referee, store: Store) -> None:
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    await referee.offer_draw(HERE, ALICE)
    agreed = await referee.answer_draw(HERE, BOB, True)
    table = await stored(store)
    assert table[ALICE.id].draws == table[BOB.id].draws == 1
    after, _ = update(NEW_PLAYER, NEW_PLAYER, 0.5, table[ALICE.id].last_played)
    assert table[ALICE.id] == after and after.rating == 1500.0 and after.rd < 350
    assert "alice 1500? → 1500? (±0)" in agreed.text


async def test_variants_share_a_ladder_unless_the_server_splits_them(
    referee: Referee, store: Store
) -> None:
    await resigned(referee, ALICE, BOB, game="atmalof")
    await resigned(referee, ALICE, BOB, game="atmalof", variant="junior")
    assert (await stored(store, "atmalof"))[ALICE.id].games == 2
    refused = await referee.set_setting(HERE, ALICE, "ladder", {"per_variant": True})
    assert not refused.ok
    bad = await referee.set_setting(HERE, MOD, "ladder", {"per_variant": ["chess"]})
    assert not bad.ok and "per_variant" in bad.text
    split = await referee.set_setting(HERE, MOD, "ladder", {"per_variant": ["atmalof"]})
    assert split.ok and "recomputed" in split.text
    assert await stored(store, "atmalof") == {}  # the season was recomputed under the setting
    assert (await stored(store, "atmalof/standard"))[ALICE.id].games == 1
    assert (await stored(store, "atmalof/junior"))[BOB.id].games == 1
    await resigned(referee, BOB, ALICE, game="atmalof", variant="junior")
    assert (await stored(store, "atmalof/junior"))[BOB.id].games == 2
    await assert_rebuild_equals_live(store)


# --- leaderboard and stats -------------------------------------------------------------------


async def test_leaderboard_order_provisional_marks_and_the_callers_rank(
    referee: Referee, store: Store
) -> None:
    for i in range(16):  # enough games for RD < 110: alice and bob are established
        await resigned(referee, ALICE, BOB) if i % 3 else await resigned(referee, BOB, ALICE)
    await resigned(referee, CAROL, DAVE)  # one game each: provisional
    board = await referee.ladder(HERE, CAROL, "morris")
    lines = board.text.splitlines()
    assert lines[0] == "Nine Men's Morris ladder, season 1"
    assert lines[1].startswith("1. alice ") and lines[2].startswith("2. bob ")
    assert "?" not in lines[1] + lines[2]
    # the provisional players follow, unranked: a small server's ladder used to list only the
    # two established players and hide the two who had just started
    assert lines[3:6] == [
        "Not ranked yet:",
        "– carol 1662? · 1W 0L 0D",
        "– dave 1338? · 0W 1L 0D",
    ], lines
    assert "hidden" not in board.text and "show_provisional" not in board.text
    assert lines[-2:] == ["– dave 1338? · 0W 1L 0D", LADDER_NOTE]  # carol's row is her line
    assert board.text.count('?" marks') == 1  # the legend once
    wide = await referee.ladder(HERE, BOB, "morris", include_provisional=True)
    names = [line.split()[1] for line in wide.text.splitlines()[1:5]]
    assert names == ["carol", "alice", "bob", "dave"]  # 1662? > alice > bob > 1338?
    assert "1. carol 1662? · 1W 0L 0D" in wide.text and wide.text.endswith(
        f"bob: #3 of 4.\n{LADDER_NOTE}"
    )
    top1 = await referee.ladder(HERE, BOB, "morris", top=1)  # no room left for them
    assert top1.text.splitlines()[-1].startswith("bob: #2 of 2, ")
    assert "Not ranked yet" not in top1.text
    assert "(2 provisional or inactive players hidden)" in top1.text
    assert [line.key for line in top1.lines].count("ladder.show_hidden") == 1
    assert "show_provisional" in top1.text  # Discord's words; the console says `ladder all`:
    assert "(`ladder all` lists them too)" in reply_text(top1)
    nobody = await referee.ladder(HERE, CAROL, "abalone")
    assert "No one is ranked yet: players are ranked once their rating settles." in nobody.text
    assert "not on this ladder yet" in nobody.text
    assert not (await referee.ladder(HERE, CAROL, "chess")).ok


UNRANKED = {  # the line over the provisional players listed when no one is ranked yet
    "en": "No one is ranked yet. Rated so far:",
    "hu": "Még nincs rangsorolt játékos. Eddig értékelt játékosok:",
    "eo": "Ankoraŭ neniu estas rangigita. Ĝis nun poentitaj:",
    "is": "Enginn er kominn á töfluna enn. Með stig hingað til:",
}
RANKED_ONCE = {  # when a player is ranked: said once, in these words, by the note or the head
    "en": "Players are ranked once their rating settles.",
    "hu": "A játékosok akkor kerülnek a rangsorba, amikor beáll az értékszámuk.",
    "eo": "Ludantoj estas rangigitaj, kiam ilia poentaro stabiliĝas.",
    "is": "Leikmenn fá sæti þegar stig þeirra hafa náð jafnvægi.",
}
LADDER_NOTE = (
    '"?" marks a provisional rating: too few recent rated games to be sure of it yet. '
    "Players are ranked once their rating settles."
)


async def test_with_no_one_ranked_the_ladder_lists_who_played_unranked(referee: Referee) -> None:
    """After the first rated game: "No ranked players yet ... (2 provisional or inactive
    players hidden)" listed no one. Now each language lists them, "–" for no rank and "?"
    for a provisional rating, with what the "?" means, and nothing hidden to ask for."""
    await resigned(referee, ALICE, BOB)
    board = await referee.ladder(HERE, CAROL, "morris")
    for lang, head in UNRANKED.items():
        lines = reply_words(board, lang).splitlines()
        assert lines[1] == head, (lang, lines)
        assert lines[2].startswith("– alice 1662? · ") and lines[3].startswith("– bob 1338? · ")
        assert lines[-1] == say(msg("ladder.provisional_note"), lang), (lang, lines)
        assert len(lines) == 6, (lang, lines)  # the title, the head, two rows, carol, the note
    keys = [line.key for line in board.lines]
    assert "ladder.hidden" not in keys and "ladder.show_hidden" not in keys
    wide = await referee.ladder(HERE, CAROL, "morris", include_provisional=True)
    assert wide.text.splitlines()[1:3] == ["1. alice 1662? · 1W 0L 0D", "2. bob 1338? · 0W 1L 0D"]


async def test_with_no_one_ranked_the_ladder_says_why_once(referee: Referee) -> None:
    """A ladder with no one ranked said "players are ranked once their rating settles" in its
    head, "unranked (provisional)" on the caller's line under their own row, then the "?" note
    (a player's review), and an empty ladder said it in yet other words. Now the note says
    it, once; the caller's row is their line; an empty ladder says it in the note's words."""
    await resigned(referee, ALICE, BOB)
    board = await referee.ladder(HERE, ALICE, "morris")
    empty = await referee.ladder(HERE, ALICE, "abalone")
    for lang, ranked_once in RANKED_ONCE.items():
        lines = reply_words(board, lang).splitlines()
        assert lines[1:2] == [UNRANKED[lang]] and len(lines) == 5, (lang, lines)  # no "alice:"
        assert reply_words(board, lang).lower().count(ranked_once.lower()) == 1, (lang, lines)
        assert lines[-1].endswith(ranked_once), (lang, lines)
        nobody = reply_words(empty, lang).splitlines()
        assert nobody[1].lower().endswith(ranked_once.lower()), (lang, nobody)
    assert board.text.splitlines()[-1] == LADDER_NOTE


async def test_stats_on_a_scripted_history(referee: Referee, store: Store) -> None:
    # alice: W W L D W against bob and carol (rated), and one casual win that does not count
    await resigned(referee, ALICE, BOB)
    await resigned(referee, ALICE, CAROL)
    await resigned(referee, BOB, ALICE)
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    await referee.offer_draw(HERE, ALICE)
    await referee.answer_draw(HERE, BOB, True)
    await resigned(referee, ALICE, BOB)
    await resigned(referee, ALICE, BOB, rated=False)
    reply = await referee.stats(HERE, CAROL, ALICE, "morris", BOB)
    lines = reply.text.splitlines()
    rating = (await stored(store))[ALICE.id]
    assert lines[0] == "alice, season 1, Nine Men's Morris"
    assert lines[1] == f"Rating: {round(rating.rating)}? (5 games)"  # the game named once
    assert lines[2] == "Record (rated): 3W 1L 1D"
    assert lines[3] == "Streak: 1 win now; most wins in a row: 2 wins"
    assert lines[4] == "Head-to-head against bob (rated): 2W 1L 1D"  # not the casual win
    assert lines[5] == "Casual games against bob here (not rated, all seasons): 1W 0L 0D"
    mine = await referee.stats(HERE, BOB)  # no player: the caller
    assert mine.text.startswith("bob, season 1") and "Record (rated): 1W 2L 1D" in mine.text
    assert "Streak: 1 loss now; most wins in a row: 1 win" in mine.text
    assert not (await referee.stats(HERE, BOB, ALICE, None, ALICE)).ok


async def test_dice_luck_from_a_scripted_atmalof_game(referee: Referee, store: Store) -> None:
    """Both drop on row 1: alice's lands on an empty line (p 1), bob's die reaches six squares
    of which one is taken (p 5/6), and lands unless it rolls alice's square."""
    await start(referee, "atmalof", rated=True)
    await play(referee, HERE, ALICE, "drop row 1")
    await play(referee, HERE, BOB, "drop row 1")
    game = await store.active_game(HERE.channel_id)
    first, second = await store.actions(game.id)
    assert await referee.resign(HERE, ALICE)
    from bot.referee.ladders import atmalof_drops

    assert await atmalof_drops(store, GUILD, ALICE.id) == [DiceDrop(6, first.roll, True, 1.0)]
    (bob,) = await atmalof_drops(store, GUILD, BOB.id)
    assert bob == DiceDrop(6, second.roll, second.roll != first.roll, 5 / 6)
    luck = dice_luck([bob])
    stats = await referee.stats(HERE, BOB)
    label = "Dice luck (Atmalof, up to the latest 100 games here, rated or not)"
    assert f"{label}: {luck.text()}" in stats.text
    assert f"expected {1 / 6:.1f}" in stats.text
    await start(referee, "atmalof", rated=False)  # a casual game's drops count too, as said
    await play(referee, HERE, ALICE, "drop row 7")
    assert await referee.resign(HERE, BOB)
    assert len(await atmalof_drops(store, GUILD, ALICE.id)) == 2
    morris_only = await referee.stats(HERE, BOB, None, "morris")
    assert "Dice luck" not in morris_only.text


# --- seasons -------------------------------------------------------------------------------


async def test_closing_a_season_archives_it_and_everyone_starts_again(
    referee: Referee, store: Store
) -> None:
    await resigned(referee, ALICE, BOB)
    assert not (await referee.close_season(HERE, ALICE)).ok
    closed = await referee.close_season(HERE, MOD)
    assert closed.ok and "Season 1 is closed by mod: 2 ratings on 1 ladder archived" in closed.text
    assert "Nine Men's Morris leader: alice 1662?" in closed.text
    assert closed.text.endswith("Season 2 starts now: everyone begins at 1500?.")
    archived = await ladder_store.archive(store, GUILD, 1)
    assert archived.ladder("morris") == await stored(store, season=1)
    assert await stored(store, season=2) == {}
    text = await resigned(referee, BOB, ALICE)
    assert "bob 1500? → 1662? (+162)" in text  # a fresh start, not bob's 1338
    board = await referee.ladder(HERE, ALICE, "morris", include_provisional=True)
    assert board.text.startswith("Nine Men's Morris ladder, season 2\n1. bob 1662?")
    assert (await referee.stats(HERE, ALICE)).text.splitlines()[2] == "Record (rated): 0W 1L 0D"
    await assert_rebuild_equals_live(store)


# --- rebuild == live -----------------------------------------------------------------------


async def test_rebuild_equals_the_live_ratings_after_a_scripted_series(
    store_url: str, referee: Referee, store: Store, clock: ManualClock
) -> None:
    players = (ALICE, BOB, CAROL, DAVE)
    for i in range(12):
        a, b = players[i % 4], players[(i * 3 + 1) % 4]
        if a == b:
            b = players[(i + 2) % 4]
        clock.advance(3600 * (i % 5) + 7)  # gaps: inactivity widens RD between some games
        game = ("morris", "abalone", "atmalof")[i % 3]
        await resigned(referee, a, b, game=game)
    await start(referee, "morris", rated=True, clock="1+0", first=CAROL, second=ALICE)
    await both_act(referee, HERE, CAROL, ALICE)
    clock.advance(120)
    await swept(referee)  # carol loses on time
    await start(referee, "morris", rated=True, first=DAVE, second=BOB)
    await both_act(referee, HERE, DAVE, BOB)
    await referee.offer_draw(HERE, DAVE)
    await referee.answer_draw(HERE, BOB, True)
    await start(referee, "morris", rated=True)
    await referee.abort(HERE, ALICE)  # never counts
    await assert_rebuild_equals_live(store)
    out = io.StringIO()
    assert (
        await asyncio.to_thread(ladder_cli, Config(db_path=store_url), ["rebuild", "--check"], out)
        == 0
    )
    assert "no differences" in out.getvalue() and "14 rated game(s)" in out.getvalue()
    await poke(store, "UPDATE ratings SET rating = rating + 1 WHERE player_id = ?", BOB.id)
    out = io.StringIO()
    assert (
        await asyncio.to_thread(ladder_cli, Config(db_path=store_url), ["rebuild", "--check"], out)
        == 1
    )
    # named as the bot names players, id in brackets (it said "player 202" only)
    assert f"guild {GUILD} season 1 morris bob ({BOB.id}): stored " in out.getvalue()
    assert (
        await asyncio.to_thread(
            ladder_cli, Config(db_path=store_url), ["rebuild", "--guild", str(GUILD)], io.StringIO()
        )
        == 0
    )
    await assert_rebuild_equals_live(store)
    out = io.StringIO()  # an id with no games is said so, not "0 season(s)... no differences"
    assert (
        await asyncio.to_thread(
            ladder_cli, Config(db_path=store_url), ["rebuild", "--guild", "99999"], out
        )
        == 0
    )
    assert out.getvalue().startswith("guild 99999 has no rated games in "), out.getvalue()
    assert "no differences" not in out.getvalue()


async def test_games_that_end_out_of_clock_order_are_refolded(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """A sweep decides with the time it started at: a flag that fell before another game of the
    same player ended may be stored after it. The ladder refolds in ended-at order."""
    await start(referee, "morris", rated=True, clock="1+0", where=HERE)
    for person, point in ((ALICE, "d7"), (BOB, "d1"), (ALICE, "a7")):
        assert (await play(referee, HERE, person, f"place {point}")).ok
    t = clock.t  # bob (he has moved: the game counts) runs out 60 s after this
    await start(referee, "morris", rated=True, where=THERE, first=BOB, second=CAROL)
    await both_act(referee, THERE, BOB, CAROL)
    clock.advance(61)
    assert (await referee.resign(THERE, CAROL)).ok  # ends at t + 61
    (notice,) = await swept(referee, now=t + 60.5)  # bob's timeout ends at t + 60.5: earlier
    assert "ran out of time" in notice.reply.text
    await assert_rebuild_equals_live(store)
    table = await stored(store)
    assert table[BOB.id].games == 2 and table[BOB.id].losses == 1


async def test_a_schema_2_file_is_migrated_and_its_ladders_rebuilt(
    db_path: str, clock: ManualClock
) -> None:
    store = await SqliteStore.open(db_path)
    referee = Referee(store, clock, render=False)
    for winner, loser in ((ALICE, BOB), (BOB, CAROL), (ALICE, CAROL)):
        await resigned(referee, winner, loser)
    live = await ladder_store.table(store, GUILD, 1)
    await store.close()
    old = sqlite3.connect(db_path)  # back to schema 2: no ladder tables, rated games stored
    old.executescript(
        "DROP TABLE ratings; DROP TABLE seasons; DROP TABLE rating_changes; PRAGMA user_version=2;"
    )
    old.executescript(
        UNDO_MIGRATION_10
        + UNDO_MIGRATION_9
        + UNDO_MIGRATION_8
        + UNDO_MIGRATION_7
        + UNDO_MIGRATION_6
        + UNDO_MIGRATION_5
        + UNDO_MIGRATION_4
    )
    old.close()
    store = await SqliteStore.open(db_path)
    try:
        assert await store.schema_version() == LATEST >= 3
        assert await ladder_store.table(store, GUILD, 1) == {}
        report = await ladder_store.rebuild_store(store)
        assert report.games == 3 and len(report.differences) == 3
        assert await ladder_store.table(store, GUILD, 1) == live
        assert ladder_ratings(live, GUILD, "morris") == await stored(store)
    finally:
        await store.close()


UNDO_MIGRATION_10 = """
    DROP INDEX dispute_rooms_by_game; DROP TABLE dispute_rooms;
"""

UNDO_MIGRATION_9 = """
    DROP INDEX games_active_practice; ALTER TABLE games DROP COLUMN practice;
    ALTER TABLE games DROP COLUMN bot_seat;
"""

UNDO_MIGRATION_8 = """
    ALTER TABLE guild_settings DROP COLUMN language; DROP TABLE user_languages;
"""

UNDO_MIGRATION_7 = """
    DROP INDEX games_pending_roll; DROP INDEX games_active_by_player0;
    DROP INDEX games_active_by_player1; DROP INDEX challenges_open_by_challenger;
    DROP INDEX request_ids_by_time; ALTER TABLE games DROP COLUMN checkpoint_text;
    ALTER TABLE games DROP COLUMN checkpoint_seq; ALTER TABLE games DROP COLUMN checkpoint_head;
"""
UNDO_MIGRATION_6 = """
    ALTER TABLE challenges DROP COLUMN seed; ALTER TABLE challenges DROP COLUMN words;
    ALTER TABLE games DROP COLUMN dice_mix;
"""
UNDO_MIGRATION_4 = """
    ALTER TABLE games DROP COLUMN log_version; ALTER TABLE games DROP COLUMN links;
    ALTER TABLE games DROP COLUMN frozen_at; ALTER TABLE actions DROP COLUMN link;
    ALTER TABLE events DROP COLUMN link; ALTER TABLE events DROP COLUMN prev_hash;
    ALTER TABLE events DROP COLUMN hash; ALTER TABLE guild_settings DROP COLUMN mod_role;
"""
UNDO_MIGRATION_5 = """
    ALTER TABLE guild_settings DROP COLUMN takebacks;
"""


def test_migration_3_is_the_ladder_schema() -> None:
    db = sqlite3.connect(":memory:")
    for script in MIGRATIONS[:3]:
        db.executescript(script)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"ratings", "seasons", "rating_changes"} <= tables


async def test_console_ladder_and_stats_commands(referee: Referee, store: Store) -> None:
    table = Where(guild_id=None, channel_id=77)
    await start(referee, "morris", where=table, rated=True)
    await both_act(referee, table, ALICE, BOB)
    await referee.resign(table, BOB)
    people = {"alice": ALICE, "bob": BOB}
    board = await referee.handle(table, BOB, "ladder morris all", people=people)
    assert board.text.splitlines()[1].startswith("1. alice 1662?")
    stats = await referee.handle(table, BOB, "stats alice morris", people=people)
    assert stats.text.startswith("alice, season 1, Nine Men's Morris")
    assert "Record (rated): 1W 0L 0D" in stats.text
    # the console's games are rated on the ladder of games outside any server (guild 0)
    assert (await ladder_store.ratings(store, 0, "morris", 1))[ALICE.id].wins == 1


async def test_stats_of_someone_who_never_played_here_says_so(
    referee: Referee, store: Store
) -> None:
    """A name never seen at a game here gets "has not played here", not an empty record; one
    who played only casual games sees their casual record (no empty rated one)."""
    table = Where(guild_id=None, channel_id=77)
    await start(referee, "morris", where=table)  # casual
    await referee.resign(table, BOB)
    nobody = Actor(4242, "nobody")
    people = {"alice": ALICE, "bob": BOB, "nobody": nobody}
    reply = await referee.handle(table, ALICE, "stats nobody", people=people)
    assert not reply.ok and reply.reason == "never_played", reply.text
    assert reply.params["name"] == "nobody"
    assert say(msg("refusal.never_played", **reply.params), "hu") == ("nobody még nem játszott itt")
    game = await referee.handle(table, ALICE, "stats alice abalone", people=people)
    assert game.reason == "never_played_game", game.text
    assert "nobody" not in game.text and "alice" in game.text
    casual = await referee.handle(table, ALICE, "stats bob", people=people)
    assert casual.ok and "Casual games here (not rated, all seasons): 0W 1L 0D" in casual.text
    elsewhere = await referee.stats(HERE, ALICE)  # a server where alice never played
    assert elsewhere.reason == "never_played"
    # a word the console took for a rival (a game misspelt) is not an empty head-to-head
    chess = Actor(4343, "chess")
    rival = await referee.handle(
        table, ALICE, "stats alice chess", people={**people, "chess": chess}
    )
    assert rival.reason == "never_played" and rival.params["name"] == "chess", rival.text


async def test_stats_of_the_practice_opponent_say_it_is_never_rated(referee: Referee) -> None:
    """The bot plays only practice games, which are never rated: asking for its stats, or a
    head-to-head against it, says so instead of an empty record (on Discord and at the
    console, where `stats bot` names it)."""
    table = Where(guild_id=None, channel_id=78)
    await referee.handle(table, ALICE, "practice morris 1", people={"alice": ALICE})
    await referee.resign(table, ALICE)
    for words in ("stats bot", "stats alice bot", "stats bot morris"):
        reply = await referee.handle(table, ALICE, words, people={"alice": ALICE})
        assert not reply.ok and reply.reason == "stats_of_bot", (words, reply.text)
        assert reply.params == {"name": "bot"}
    discord_bot = Actor(999, "Referee", is_bot=True)
    assert (await referee.stats(HERE, ALICE, discord_bot)).reason == "stats_of_bot"
    against = await referee.stats(HERE, ALICE, ALICE, None, discord_bot)
    assert against.reason == "stats_of_bot"
    assert say(msg("refusal.stats_of_bot", name="Referee"), "en").startswith(
        "Referee is the practice opponent"
    )


async def test_a_ladder_bug_never_keeps_a_game_from_ending(
    referee: Referee, store: Store, monkeypatch
) -> None:
    def broken(*_args, **_kwargs):
        raise ValueError("a bug in the ladder")

    monkeypatch.setattr(ladder_store, "apply_game", broken)
    text = await resigned(referee, ALICE, BOB)
    assert "Game over" in text and "Ratings" not in text
    assert (await store.latest_game(HERE.channel_id)).status == "finished"
    assert await stored(store) == {}
    monkeypatch.undo()
    report = await ladder_store.rebuild_store(store, check=True)
    assert len(report.differences) == 2  # the rebuild finds the game the live path missed
    await ladder_store.rebuild_store(store)
    assert (await stored(store))[ALICE.id].wins == 1


async def test_a_result_changed_after_the_end_recomputes_the_season(
    referee: Referee, store: Store
) -> None:
    """A dispute that voids or reverses a rated game (ladder_store.change_game) is refolded."""
    await resigned(referee, ALICE, BOB)
    await resigned(referee, ALICE, CAROL)
    first = await store.game(1)
    await ladder_store.change_game(store, first, {"winner": 1})  # reversed: bob won game 1
    table = await stored(store)
    assert (table[BOB.id].wins, table[ALICE.id].losses, table[ALICE.id].wins) == (1, 1, 1)
    await assert_rebuild_equals_live(store)
    await ladder_store.change_game(store, await store.game(1), {"rated": 0})  # voided: unrated
    table = await stored(store)
    assert BOB.id not in table and table[ALICE.id].games == 1
    assert await ladder_store.rating_change(store, 1) is None
    await assert_rebuild_equals_live(store)


async def test_an_empty_ladder_points_to_its_games_other_ladders(
    referee: Referee, store: Store
) -> None:
    """A server that splits Abalone's variants: '/ladder abalone' is the empty standard
    ladder, which now says where the game's rated players are; autocomplete lists the found
    ladders and only games that have none (not a bare 'abalone' beside them)."""
    await referee.set_setting(HERE, MOD, "ladder", {"per_variant": ["abalone"]})
    await resigned(referee, ALICE, BOB, game="abalone", variant="belgian-daisy")
    empty = await referee.ladder(HERE, CAROL, "abalone")
    assert "No one is ranked yet" in empty.text
    assert "has its own ladder this season: `abalone/belgian-daisy`" in empty.text, empty.text
    hu = reply_words(empty, "hu")
    assert "külön ranglistája van" in hu and "(`abalone/belgian-daisy`)" in hu, hu
    names = await referee.ladder_names(HERE)
    assert names == ["abalone/belgian-daisy", "atmalof", "morris"], names
    await resigned(referee, CAROL, BOB, game="abalone", variant="german-daisy")
    empty = await referee.ladder(HERE, ALICE, "abalone")
    for variant in ("belgian-daisy", "german-daisy"):
        assert f"`abalone/{variant}`" in empty.text, empty.text
    found = await referee.ladder(HERE, CAROL, "abalone/belgian-daisy")
    assert "has its own ladder" not in found.text, found.text  # a ladder with players: no


async def test_a_rated_game_that_ended_before_both_moved_is_a_result_but_not_rated(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """A draw agreed at once, the first mover resigning before the reply, a flag that fell
    before the second player's first move: each is a result, none moves a rating (a player
    reviewer saw +168/-124 for a game the loser never played), and the result says why."""
    unplayed = "Not rated: the game ended before both players had moved."
    await start(referee, "morris", rated=True)
    await referee.offer_draw(HERE, ALICE)
    drawn = await referee.offer_draw(HERE, BOB)  # accepts the standing offer
    assert drawn.finished and "a draw" in drawn.text and unplayed in drawn.text, drawn.text
    await start(referee, "morris", rated=True)
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    resigned_first = await referee.resign(HERE, ALICE)  # bob never moved
    assert resigned_first.finished and unplayed in resigned_first.text
    assert "Ratings" not in resigned_first.text
    await start(referee, "morris", rated=True, clock="1+0")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    clock.advance(61)
    (fell,) = await swept(referee)
    assert "ran out of time" in fell.reply.text and unplayed in fell.reply.text
    assert "Ratings" not in fell.reply.text
    assert "mielőtt mindkét játékos lépett volna" in reply_words(fell.reply, "hu")
    assert unplayed not in (await resigned(referee, ALICE, BOB))  # one action each: rated
    assert [r.games for r in (await stored(store)).values()] == [1, 1]
    await assert_rebuild_equals_live(store)


async def test_the_consoles_ladder_takes_how_many_to_list_and_says_what_is_wrong(
    referee: Referee,
) -> None:
    """`ladder morris 99999` answered "there is no ladder for 'morris 99999'" (a reviewer's
    finding): the number was read as part of a game's name. A number is how many to list, as
    Discord's /ladder top (1 to 25), and one out of range is said to be that."""
    people = {"alice": ALICE, "bob": BOB, "carol": CAROL}
    for i in range(3):
        await resigned(referee, ALICE, BOB) if i % 2 else await resigned(referee, BOB, CAROL)
    for line in ("ladder morris 99999", "ladder 0", "ladder morris 2 3", "ladder all 26"):
        with pytest.raises(Refusal) as refused:
            await dispatch(referee, HERE, ALICE, line, people)
        assert refused.value.code == "console_ladder_top", line
        assert "no ladder for" not in str(refused.value)
    with pytest.raises(Refusal) as refused:
        await dispatch(referee, HERE, ALICE, "ladder morris 99999", people)
    assert (
        str(refused.value) == "`ladder` lists 1 to 25 players, e.g. `ladder morris 10`: not 99999"
    )
    one = (await dispatch(referee, HERE, ALICE, "ladder morris 1", people)).text.splitlines()
    assert len([line for line in one if line.startswith("– ")]) == 1, one  # one of three
    both = (await dispatch(referee, HERE, ALICE, "ladder 2 all", people)).text.splitlines()
    assert [line.split()[0] for line in both[1:3]] == ["1.", "2."], both
