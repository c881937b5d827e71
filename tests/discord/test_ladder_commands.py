"""Ladders through the real bot: the rating change in the result, /ladder, /stats, and the
moderators' season close and per-variant setting."""

from __future__ import annotations

import io

from PIL import Image

from bot.clock import ManualClock
from bot.referee.replies import Where
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import CHANNEL_ID, GUILD_ID, Harness
from tests.discord.play import PNG, rated_win, start_game

HERE = Where(guild_id=GUILD_ID, channel_id=CHANNEL_ID)


async def test_the_result_message_shows_each_players_rating_change(harness: Harness) -> None:
    text = await rated_win(harness, ALICE, BOB)
    assert (
        "Ratings (Nine Men's Morris): Alice 1500? → 1662? (+162), Bob 1500? → 1338? (-162)" in text
    )
    # what "?" means, short: results repeated the full note for ~20 games each on a small server
    assert "(? = provisional)" in text.splitlines() and "marks a provisional" not in text
    stats = await harness.slash(ALICE, "stats")  # the full note once there; no casual games
    assert stats.text.count('"?" marks a provisional rating') == 1, stats.text
    assert "Casual games" not in stats.text, stats.text


async def test_a_casual_result_shows_no_ratings(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    assert "Ratings" not in (await harness.slash(BOB, "resign")).text


async def test_ladder_shows_an_image_the_ranking_and_the_callers_line(harness: Harness) -> None:
    await rated_win(harness, ALICE, BOB)
    board = await harness.slash(CAROL, "ladder", game="morris", show_provisional=True)
    assert not board.first.ephemeral
    assert board.first.embeds[0]["title"] == "Ladder"
    assert "1. Alice 1662? · 1W 0L 0D" in board.text and "2. Bob 1338? · 0W 1L 0D" in board.text
    assert "Carol: not on this ladder yet" in board.text
    (image,) = [f for f in board.files if f[2].startswith(PNG)]
    assert image[0].startswith("ladder-morris") and image[1]  # alt text for screen readers
    assert "show_provisional" not in board.text  # already shown


async def test_a_ladder_with_no_one_ranked_yet_lists_the_provisional_players(
    harness: Harness,
) -> None:
    """After the first rated game /ladder said "No ranked players yet ... (2 provisional or
    inactive players hidden)" over an image of an empty table (a reviewer's finding): it now
    lists them, unranked and marked "?", with the legend, and draws them."""
    await rated_win(harness, ALICE, BOB)
    hidden = await harness.slash(BOB, "ladder")  # this channel's game: morris
    assert not hidden.first.ephemeral
    lines = hidden.text.splitlines()
    assert lines[2:5] == [
        "No one is ranked yet. Rated so far:",
        "– Alice 1662? · 1W 0L 0D",
        "– Bob 1338? · 0W 1L 0D",
    ], lines
    assert not any(line.startswith("Bob:") for line in lines), lines  # his row says it
    assert lines[-1].startswith('"?" marks a provisional rating'), lines
    assert hidden.text.count("ranked once their rating settles") == 1, lines  # said once
    assert "hidden" not in hidden.text and "show_provisional" not in hidden.text
    (image,) = [f for f in hidden.files if f[2].startswith(PNG)]
    assert image[1] is not None and "– Alice 1662?" in image[1]  # the picture, in words


async def test_an_empty_ladder_sends_no_picture_of_an_empty_table(harness: Harness) -> None:
    for asked in ({}, {"show_provisional": True}):
        empty = await harness.slash(CAROL, "ladder", game="abalone", **asked)
        assert not empty.first.ephemeral and "No one is ranked yet" in empty.text, empty.text
        assert not [f for f in empty.files if f[2].startswith(PNG)], asked


async def test_ladder_suggests_the_ladders_of_this_server(harness: Harness) -> None:
    await rated_win(harness, ALICE, BOB, "abalone")
    choices = await harness.autocomplete(CAROL, "ladder", "game")
    assert [c["value"] for c in choices][:2] == ["abalone", "atmalof"]
    refused = await harness.slash(CAROL, "ladder", game="chess")
    assert refused.all_ephemeral and "no ladder for 'chess'" in refused.text


async def test_stats_of_a_chosen_player_with_head_to_head_and_chart(harness: Harness) -> None:
    await rated_win(harness, ALICE, BOB)
    await rated_win(harness, BOB, ALICE)
    stats = await harness.slash(CAROL, "stats", player=BOB, opponent=ALICE, game="morris")
    assert stats.first.embeds[0]["title"] == "Stats"
    lines = stats.text.splitlines()
    assert "Bob, season 1, Nine Men's Morris" in lines
    assert "Record (rated): 1W 1L 0D" in lines
    assert "Head-to-head against Alice (rated): 1W 1L 0D" in lines
    assert "Streak: 1 win now; most wins in a row: 1 win" in lines
    (chart,) = [f for f in stats.files if f[2].startswith(PNG)]
    assert chart[0] == f"rating-{BOB.id}.png"
    mine = await harness.slash(CAROL, "stats")  # carol never played here
    assert mine.all_ephemeral and "Carol has not played here yet" in mine.text, mine.text
    assert not [f for f in mine.files if f[2].startswith(PNG)]


async def test_stats_against_an_opponent_count_their_casual_games_alone(
    harness: Harness,
) -> None:
    """/stats player:Bob opponent:Alice game:morris put Bob's casual games with everyone
    under "Head-to-head against Alice (rated)", where they read as head-to-head, and named
    the game twice ("Bob, season 1, Nine Men's Morris", "Rating: Nine Men's Morris 1208?"; a
    player's review). The casual line now counts the games between the two alone (a small
    server's two friends play casual more often than rated: leaving it out would hide most of
    what was asked), and the rating is the game's, unnamed."""
    await rated_win(harness, BOB, ALICE)
    await start_game(harness, BOB, ALICE, "morris")
    await harness.slash(ALICE, "resign")  # a casual win against alice
    await start_game(harness, BOB, CAROL, "morris")
    await harness.slash(BOB, "resign")  # a casual loss against carol: not alice's
    stats = await harness.slash(CAROL, "stats", player=BOB, opponent=ALICE, game="morris")
    lines = stats.text.splitlines()
    assert lines[1:3] == ["Bob, season 1, Nine Men's Morris", "Rating: 1662? (1 game)"], lines
    assert "Head-to-head against Alice (rated): 1W 0L 0D" in lines, lines
    assert "Casual games against Alice here (not rated, all seasons): 1W 0L 0D" in lines, lines
    assert not any(line.startswith("Casual games here") for line in lines), lines
    alone = (await harness.slash(CAROL, "stats", player=BOB)).text.splitlines()
    assert "Casual games here (not rated, all seasons): 1W 1L 0D" in alone, alone
    assert "Rating: Nine Men's Morris 1662? (1 game)" in alone, alone  # no game named above


async def test_stats_of_a_player_with_casual_games_only_shows_an_empty_record(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(BOB, "resign")
    mine = await harness.slash(BOB, "stats")
    assert "Bob, season 1" in mine.text and "no rated games yet" in mine.text
    assert not [f for f in mine.files if f[2].startswith(PNG)]  # no history: no chart


async def test_only_a_moderator_closes_a_season(harness: Harness) -> None:
    await rated_win(harness, ALICE, BOB)
    refused = await harness.slash(ALICE, "referee season-close", confirm=True)
    assert refused.all_ephemeral and "moderators" in refused.text.lower()
    kept = await harness.slash(MODERATOR, "referee season-close", confirm=False)
    assert kept.all_ephemeral and "Nothing changed" in kept.text
    closed = await harness.slash(MODERATOR, "referee season-close", confirm=True)
    assert not closed.first.ephemeral
    assert "Season 1 is closed by Mo" in closed.text and "Season 2 starts now" in closed.text
    board = await harness.slash(ALICE, "ladder", game="morris", show_provisional=True)
    assert "season 2" in board.text and "Alice: not on this ladder yet" in board.text
    text = await rated_win(harness, BOB, ALICE)
    assert "Bob 1500? → 1662? (+162)" in text


async def test_a_moderator_splits_ladders_per_variant(harness: Harness) -> None:
    await rated_win(harness, ALICE, BOB, "atmalof")
    shown = await harness.slash(MODERATOR, "referee settings")
    assert shown.all_ephemeral and "one ladder per game, variants together" in shown.text
    changed = await harness.slash(MODERATOR, "referee settings", ladders="atmalof")
    assert "one ladder per variant for Atmalof" in changed.text
    settings = await harness.bot.referee.settings(HERE)
    assert settings["ladder"] == {"per_variant": ["atmalof"]}
    board = await harness.slash(CAROL, "ladder", game="atmalof", show_provisional=True)
    assert "1. Alice 1662?" in board.text
    assert "Atmalof ladder, season 1" in board.text
    refused = await harness.slash(ALICE, "referee settings", ladders="game")
    assert refused.all_ephemeral


async def test_stats_charts_every_game_the_player_is_rated_in_and_names_them(
    harness: Harness,
) -> None:
    """A player rated in Morris and Abalone saw one chart (the game with most games), and its
    alt text said only "Rating history of Alice" (a player's finding): the picture now has one
    chart per game, each titled with it, and its words name every game; with ``game:`` one."""
    await rated_win(harness, ALICE, BOB, "morris")
    await rated_win(harness, ALICE, BOB, "abalone")
    await rated_win(harness, BOB, ALICE, "abalone")
    stats = await harness.slash(CAROL, "stats", player=ALICE)
    (chart,) = [f for f in stats.files if f[2].startswith(PNG)]
    assert chart[1] == "Rating history of Alice: Nine Men's Morris, Abalone", chart[1]
    both = Image.open(io.BytesIO(chart[2]))
    one = await harness.slash(CAROL, "stats", player=ALICE, game="abalone")
    (single,) = [f for f in one.files if f[2].startswith(PNG)]
    assert single[1] == "Rating history of Alice: Abalone", single[1]
    alone = Image.open(io.BytesIO(single[2]))
    assert both.width == alone.width and both.height == 2 * alone.height
    assert both.crop((0, alone.height, both.width, both.height)).tobytes() == alone.tobytes()


async def test_a_ladder_gone_quiet_says_its_players_are_inactive(
    harness: Harness, clock: ManualClock
) -> None:
    """A month after the last rated game every player was left out, and /ladder said "new
    players are ranked once their rating settles", "(/ladder with show_provisional: True lists
    them too)" (it listed no one: they are inactive) and "Bob: 1338?, unranked (provisional)."
    even with provisional players shown (a moderator's finding): it now says why they are left
    out and how they come back."""
    await rated_win(harness, ALICE, BOB)
    clock.advance(31 * 24 * 3600)
    for asked in ({}, {"show_provisional": True}):
        board = await harness.slash(BOB, "ladder", **asked)
        lines = board.text.splitlines()
        assert lines[2] == "No one is ranked yet.", lines
        assert "(2 provisional or inactive players hidden)" in lines, lines
        note = "(players with no rated game in the last 30 days are left out until they play one)"
        assert note in lines, lines
        assert "show_provisional" not in board.text, lines
        assert "Bob: 1338?, unranked (inactive)." in lines, lines


async def test_the_callers_rating_below_the_top_keeps_its_provisional_mark(
    harness: Harness,
) -> None:
    """Below a short list the caller's line gave their rating without its "?" ("Bob: #2 of
    2, 1338."), though their row on a longer list read "1338?": the mark is kept."""
    await rated_win(harness, ALICE, BOB)
    board = await harness.slash(BOB, "ladder", top=1, show_provisional=True)
    lines = board.text.splitlines()
    assert "1. Alice 1662? · 1W 0L 0D" in lines, lines
    assert "Bob: #2 of 2, 1338?" in lines, lines  # the sentence's stop gives way to the "?"
