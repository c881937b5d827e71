"""Ladders: Glicko-2 updates, which games count, rebuild == live, the leaderboard, seasons."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import glicko2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ladder import (
    FinishedGame,
    apply_game,
    close_season,
    counts,
    ladder_key,
    ladder_ratings,
    leaderboard,
    rebuild,
)
from bot.ladder.ratings import (
    NEW_PLAYER,
    PROVISIONAL_RD,
    START_RD,
    RatingState,
    is_provisional,
    rate_period,
    rating_change_text,
    rating_text,
    update,
    with_inactivity,
)
from engine.core import Termination

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
GUILD = 42


def finished(
    a: int,
    b: int,
    winner: int | None,
    minutes: int,
    *,
    game: str = "atmalof",
    variant: str = "standard",
    termination: Termination = Termination.LINE,
    rated: bool = True,
    season: int = 1,
    guild: int = GUILD,
) -> FinishedGame:
    return FinishedGame(
        guild_id=guild,
        game=game,
        variant=variant,
        players=(a, b),
        winner=winner,
        termination=termination,
        rated=rated,
        ended_at=T0 + timedelta(minutes=minutes),
        season=season,
    )


# --- Glicko-2 through the library ---------------------------------------------------------


def test_glickman_paper_example_1500_rd200_against_three_opponents() -> None:
    """Glickman, "Example of the Glicko-2 system": r' 1464.06, RD' 151.52, sigma' 0.05999."""
    after = rate_period(
        RatingState(1500, 200, 0.06),
        [(RatingState(1400, 30), 1), (RatingState(1550, 100), 0), (RatingState(1700, 300), 0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.rd == pytest.approx(151.52, abs=0.005)
    assert round(after.volatility, 5) == 0.05999


def test_the_wrapper_gives_exactly_the_library_numbers() -> None:
    raw = glicko2.Player(2300, 60, 0.06)
    raw.update_player([1500], [60], [0])
    after = rate_period(RatingState(2300, 60, 0.06), [(RatingState(1500, 60), 0)])
    assert (after.rating, after.rd, after.volatility) == (raw.rating, raw.rd, raw.vol)


def test_two_newcomers_win_gives_plus_and_minus_162_like_lichess() -> None:
    winner, loser = update(NEW_PLAYER, NEW_PLAYER, 1, T0)
    assert round(winner.rating) == 1662 and round(loser.rating) == 1338
    assert winner.rd == loser.rd == pytest.approx(290.32, abs=0.01)
    assert (winner.wins, winner.losses, loser.losses, winner.games) == (1, 0, 1, 1)
    assert winner.last_played == loser.last_played == T0


def test_a_draw_scores_half_and_leaves_equal_players_equal() -> None:
    a, b = update(NEW_PLAYER, NEW_PLAYER, 0.5, T0)
    assert a.rating == pytest.approx(1500) and b.rating == pytest.approx(1500)
    assert a.draws == b.draws == 1 and a.wins == a.losses == 0


def test_a_score_other_than_win_draw_or_loss_is_refused() -> None:
    with pytest.raises(ValueError, match=r"1, 0\.5 or 0"):
        update(NEW_PLAYER, NEW_PLAYER, 0.7, T0)


def test_newcomers_are_provisional_until_rd_drops_below_110() -> None:
    assert is_provisional(NEW_PLAYER) and rating_text(NEW_PLAYER) == "1500?"
    assert is_provisional(RatingState(rd=PROVISIONAL_RD))
    assert not is_provisional(RatingState(rd=PROVISIONAL_RD - 0.01))
    a, b = NEW_PLAYER, NEW_PLAYER
    for n in range(40):
        a, b = update(a, b, n % 2, T0 + timedelta(hours=n))
    assert not a.provisional and rating_text(a) == str(round(a.rating))


def test_idle_rating_periods_widen_rd_up_to_the_newcomer_cap() -> None:
    settled = RatingState(1600, 60, 0.06, 30, T0)
    assert with_inactivity(settled, T0 + timedelta(days=4)) == settled  # under one period
    after_year = with_inactivity(settled, T0 + timedelta(days=365))
    assert 100 < after_year.rd < 120 and after_year.rating == 1600
    assert with_inactivity(settled, T0 + timedelta(days=365 * 40)).rd <= START_RD


def test_a_returning_player_moves_more_than_an_active_one() -> None:
    active = RatingState(1600, 60, 0.06, 30, T0 + timedelta(days=360))
    idle = RatingState(1600, 60, 0.06, 30, T0)
    opponent = RatingState(1600, 60, 0.06, 30, T0 + timedelta(days=360))
    at = T0 + timedelta(days=365)
    gain_active = update(active, opponent, 1, at)[0].rating - 1600
    gain_idle = update(idle, opponent, 1, at)[0].rating - 1600
    assert gain_idle > gain_active > 0


def test_rating_change_text_shows_names_marks_and_rounded_change() -> None:
    after, loser = update(NEW_PLAYER, NEW_PLAYER, 1, T0)
    assert rating_change_text(NEW_PLAYER, after, "Alice") == "Alice 1500? → 1662? (+162)"
    assert rating_change_text(NEW_PLAYER, loser, "Bob") == "Bob 1500? → 1338? (-162)"
    steady = RatingState(1700.2, 50)
    assert rating_change_text(steady, RatingState(1699.9, 50)) == "1700 → 1700 (±0)"


# --- which games count ----------------------------------------------------------------------


def test_only_rated_games_between_two_different_people_count() -> None:
    assert counts(finished(1, 2, 0, 0))
    assert not counts(finished(1, 2, 0, 0, rated=False))
    assert not counts(finished(1, 1, 0, 0))
    assert apply_game({}, finished(1, 1, 0, 0)) is None


def test_aborted_games_never_count_even_when_flagged_rated() -> None:
    aborted = finished(1, 2, None, 0, termination=Termination.ABORTED)
    assert not counts(aborted) and apply_game({}, aborted) is None


@pytest.mark.parametrize("termination", [Termination.TIMEOUT, Termination.ABANDONMENT])
def test_a_loss_on_time_or_by_abandonment_is_an_ordinary_loss(termination: Termination) -> None:
    change = apply_game({}, finished(1, 2, 1, 0, termination=termination))
    assert change is not None
    loser, winner = change.after
    assert loser.losses == 1 and winner.wins == 1 and winner.rating > loser.rating
    normal = apply_game({}, finished(1, 2, 1, 0))
    assert normal is not None and normal.after == change.after


def test_variants_share_a_ladder_unless_the_server_splits_them() -> None:
    assert ladder_key("atmalof", "junior") == "atmalof"
    assert ladder_key("atmalof", "junior", per_variant=True) == "atmalof/junior"
    games = [finished(1, 2, 0, 0), finished(1, 2, 0, 1, variant="junior")]
    shared = rebuild(games)
    assert shared[(GUILD, "atmalof", 1)].games == 2
    split = rebuild(games, per_variant=lambda guild, game: guild == GUILD and game == "atmalof")
    assert split[(GUILD, "atmalof/standard", 1)].games == 1
    assert split[(GUILD, "atmalof/junior", 1)].games == 1


def test_each_server_and_game_has_its_own_ladder() -> None:
    table = rebuild(
        [finished(1, 2, 0, 0), finished(1, 2, 1, 1, game="morris"), finished(1, 2, 1, 2, guild=7)]
    )
    assert table[(GUILD, "atmalof", 1)].wins == 1
    assert table[(GUILD, "morris", 1)].losses == 1
    assert table[(7, "atmalof", 1)].losses == 1


# --- rebuild equals the live updates -------------------------------------------------------

SCRIPT = [
    (1, 2, 0),
    (2, 3, None),
    (3, 1, 1),
    (1, 4, 0),
    (4, 2, 1),
    (1, 2, None),
    (3, 4, 0),
]


def test_rebuild_equals_the_live_sequence_of_updates_on_a_scripted_history() -> None:
    games = [finished(a, b, w, 60 * 24 * 3 * i) for i, (a, b, w) in enumerate(SCRIPT)]
    games.insert(2, finished(1, 3, 0, 100, rated=False))
    games.insert(4, finished(2, 2, 0, 200))
    live: dict[int, RatingState] = {}
    for i, (a, b, w) in enumerate(SCRIPT):  # after each game, straight through `update`
        score = 0.5 if w is None else float(w == 0)
        at = T0 + timedelta(minutes=60 * 24 * 3 * i)
        live[a], live[b] = update(live.get(a, NEW_PLAYER), live.get(b, NEW_PLAYER), score, at)
    assert ladder_ratings(rebuild(games), GUILD, "atmalof") == live


def test_rebuild_reads_games_in_the_order_they_ended() -> None:
    games = [finished(a, b, w, 10 * i) for i, (a, b, w) in enumerate(SCRIPT)]
    shuffled = games[:]
    random.Random(7).shuffle(shuffled)
    assert rebuild(shuffled) == rebuild(games)


@st.composite
def histories(draw: st.DrawFn) -> list[FinishedGame]:
    n = draw(st.integers(0, 30))
    games = []
    minutes = 0
    for _ in range(n):
        a = draw(st.integers(1, 5))
        b = draw(st.integers(1, 5))
        minutes += draw(st.integers(1, 60 * 24 * 60))  # up to two months apart
        games.append(
            finished(
                a,
                b,
                draw(st.sampled_from([0, 1, None])),
                minutes,
                game=draw(st.sampled_from(["atmalof", "morris"])),
                variant=draw(st.sampled_from(["standard", "junior"])),
                termination=draw(st.sampled_from(list(Termination))),
                rated=draw(st.booleans()),
            )
        )
    return games


@settings(max_examples=60, deadline=None)
@given(histories(), st.booleans())
def test_rebuild_equals_live_updates_on_any_history(
    games: list[FinishedGame], per_variant: bool
) -> None:
    live: dict = {}
    for game in games:  # the store's path: read two rows, apply, write two rows back
        change = apply_game(live, game, per_variant)
        if change is not None:
            live.update(change.rows())
    assert rebuild(games, per_variant=per_variant) == live
    for (_, _, player), state in live.items():
        assert state.games == state.wins + state.losses + state.draws
        assert player in {p for g in games if counts(g) for p in g.players}


# --- the leaderboard ---------------------------------------------------------------------


def settled(rating: float, games: int = 30, days_ago: int = 1, rd: float = 60) -> RatingState:
    return RatingState(rating, rd, 0.06, games, T0 - timedelta(days=days_ago), games, 0, 0)


def test_leaderboard_orders_by_rating_then_games_then_player_id() -> None:
    ratings = {
        5: settled(1700),
        3: settled(1800, games=10),
        9: settled(1800, games=20),
        2: settled(1700),
        8: settled(1650),
    }
    board = leaderboard(ratings, now=T0)
    assert [r.player for r in board.rows] == [9, 3, 2, 5, 8]
    assert [r.rank for r in board.rows] == [1, 2, 3, 4, 5]
    assert board.rows[0].games == 20 and board.rows[0].wins == 20


def test_leaderboard_hides_provisional_players_unless_asked() -> None:
    ratings = {1: settled(1900, rd=150), 2: settled(1600)}
    board = leaderboard(ratings, now=T0)
    assert [r.player for r in board.rows] == [2] and board.hidden == 1
    both = leaderboard(ratings, now=T0, include_provisional=True)
    assert [(r.player, r.provisional) for r in both.rows] == [(1, True), (2, False)]


def test_the_active_provisional_players_wait_unranked_after_the_ranked() -> None:
    """Not an empty table after the first rated games, nor one of the few ranked: who has
    played, unranked, as far as ``top`` leaves room."""
    ratings = {1: settled(1500, rd=300, games=1), 2: settled(1700, rd=250, games=2),
               3: settled(1600, rd=300, games=1, days_ago=31)}  # fmt: skip
    board = leaderboard(ratings, now=T0)
    assert board.rows == () and board.hidden == 3
    waiting = [(r.player, r.rank, r.provisional) for r in board.waiting]
    assert waiting == [(2, None, True), (1, None, True)]  # the idle one (3) stays hidden
    assert leaderboard(ratings, now=T0, top=1).waiting[0].player == 2
    asked = leaderboard(ratings, now=T0, include_provisional=True)
    assert [r.rank for r in asked.rows] == [1, 2] and asked.waiting == ()
    ranked = leaderboard({**ratings, 4: settled(1400)}, now=T0)  # one ranked: they follow
    assert [r.player for r in ranked.rows] == [4] and ranked.hidden == 3
    assert [(r.player, r.rank) for r in ranked.waiting] == [(2, None), (1, None)]
    assert leaderboard({**ratings, 4: settled(1400)}, now=T0, top=2).waiting[0].player == 2
    assert leaderboard({**ratings, 4: settled(1400)}, now=T0, top=1).waiting == ()


def test_leaderboard_hides_players_idle_for_thirty_days_unless_asked() -> None:
    ratings = {1: settled(1900, days_ago=31), 2: settled(1600, days_ago=30)}
    assert [r.player for r in leaderboard(ratings, now=T0).rows] == [2]
    board = leaderboard(ratings, now=T0, include_inactive=True)
    assert [(r.player, r.inactive) for r in board.rows] == [(1, True), (2, False)]
    assert [r.player for r in leaderboard(ratings, now=T0, inactive_days=60).rows] == [1, 2]


def test_the_caller_sees_their_own_rank_outside_the_top() -> None:
    ratings = {p: settled(2000 - p) for p in range(1, 21)}
    board = leaderboard(ratings, top=5, caller=17, now=T0)
    assert len(board.rows) == 5 and board.ranked == 20
    assert board.caller is not None and (board.caller.rank, board.caller.player) == (17, 17)


def test_a_hidden_caller_gets_their_row_without_a_rank() -> None:
    ratings = {1: settled(1600), 2: settled(1500, rd=300, games=1)}
    board = leaderboard(ratings, caller=2, now=T0)
    assert board.caller is not None and board.caller.rank is None and board.caller.provisional
    assert leaderboard(ratings, caller=99, now=T0).caller is None


# --- seasons -----------------------------------------------------------------------------


def test_closing_a_season_archives_the_table_and_everyone_starts_fresh() -> None:
    season1 = [
        finished(1, 2, 0, 0),
        finished(1, 2, 0, 1, game="morris"),
        finished(3, 4, 0, 2, guild=7),
    ]
    table = rebuild(season1, season=1)
    archive, fresh = close_season(table, GUILD, 1, T0 + timedelta(days=90))
    assert archive.season == 1 and archive.ratings[("atmalof", 1)] == table[(GUILD, "atmalof", 1)]
    assert set(archive.ladder("morris")) == {1, 2}
    assert all(key[0] == 7 for key in fresh)  # other servers keep their season
    with pytest.raises(TypeError):
        archive.ratings[("atmalof", 1)] = NEW_PLAYER  # type: ignore[index]
    season2 = [*season1, finished(2, 1, 0, 100, season=2)]
    new = rebuild(season2, season=2)
    assert new[(GUILD, "atmalof", 2)].games == 1
    assert new[(GUILD, "atmalof", 2)] == update(NEW_PLAYER, NEW_PLAYER, 1, season2[-1].ended_at)[0]
