"""Player stats on a scripted history, and Atmalof dice luck on a scripted list of drops."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.ladder import FinishedGame, ladder_ratings, rebuild
from bot.ladder.stats import DiceDrop, Record, Streak, dice_luck, player_stats
from engine.core import Termination

T0 = datetime(2025, 5, 1, tzinfo=UTC)
ALICE, BOB, CARA = 1, 2, 3


def g(a: int, b: int, winner: int | None, day: int, **kw: object) -> FinishedGame:
    fields: dict = {
        "guild_id": 9,
        "game": "atmalof",
        "variant": "standard",
        "players": (a, b),
        "winner": winner,
        "termination": Termination.LINE,
        "rated": True,
        "ended_at": T0 + timedelta(days=day),
        "season": 1,
    }
    fields.update(kw)
    return FinishedGame(**fields)


# Alice's results in order: W W L D W W W L(timeout) ; plus games that do not count.
HISTORY = [
    g(ALICE, BOB, 0, 1),
    g(CARA, ALICE, 1, 2),
    g(ALICE, BOB, 1, 3),
    g(ALICE, CARA, None, 4),
    g(BOB, CARA, 0, 5),  # Alice not in it: moves Bob's rating, not her record
    g(BOB, ALICE, 1, 6),
    g(ALICE, BOB, 0, 7),
    g(ALICE, BOB, 1, 7, termination=Termination.ABORTED),  # never counts
    g(ALICE, CARA, 1, 8, rated=False),  # casual: not in the record
    g(ALICE, ALICE, 1, 8),  # self-play: never counts
    g(CARA, ALICE, 1, 9),
    g(ALICE, BOB, 1, 10, termination=Termination.TIMEOUT),
    g(ALICE, BOB, 0, 11, game="morris"),
]


def test_record_counts_rated_wins_losses_and_draws() -> None:
    stats = player_stats(HISTORY, ALICE, "atmalof")
    assert stats.record == Record(wins=5, losses=2, draws=1)
    assert stats.record.text() == "5W 2L 1D" and stats.record.games == 8
    assert player_stats(HISTORY, ALICE).record == Record(6, 2, 1)  # every game


def test_current_streak_and_best_win_streak() -> None:
    stats = player_stats(HISTORY, ALICE, "atmalof")
    assert stats.current_streak == Streak("L", 1)
    assert stats.best_win_streak == Streak("W", 3)
    assert player_stats(HISTORY, ALICE).current_streak == Streak("W", 1)
    assert Streak("L", 2).text() == "2 losses" and Streak("W", 1).text() == "1 win"
    assert player_stats([], ALICE).current_streak.text() == "none"


def test_head_to_head_against_a_chosen_opponent() -> None:
    stats = player_stats(HISTORY, ALICE, "atmalof", opponent=BOB)
    assert stats.head_to_head == Record(wins=3, losses=2, draws=0)
    assert player_stats(HISTORY, ALICE, opponent=CARA).head_to_head == Record(2, 0, 1)
    assert player_stats(HISTORY, ALICE).head_to_head is None


def test_rating_history_has_one_point_per_counted_game_ending_at_the_ladder_rating() -> None:
    stats = player_stats(HISTORY, ALICE, "atmalof")
    points = stats.history["atmalof"]
    assert [(p.at - T0).days for p in points] == [1, 2, 3, 4, 6, 7, 9, 10]
    table = ladder_ratings(rebuild(HISTORY), 9, "atmalof")
    assert points[-1].rating == table[ALICE].rating and points[-1].rd == table[ALICE].rd
    assert stats.ratings["atmalof"] == table[ALICE]
    assert points[0].rating > 1500 and points[-1].rating < points[-2].rating  # won, then lost
    assert set(player_stats(HISTORY, ALICE).history) == {"atmalof", "morris"}


# --- dice luck ---------------------------------------------------------------------------


def test_dice_luck_compares_rolls_with_a_fair_die() -> None:
    drops = [DiceDrop(6, r, True, 1.0) for r in (6, 6, 5, 4, 6, 3)]
    luck = dice_luck(drops)
    assert luck.rolls == 6
    assert luck.mean_roll == pytest.approx(5.0) and luck.expected_mean_roll == 3.5
    # sum 30 vs 21, variance 6 * 35/12 = 17.5
    assert luck.roll_z == pytest.approx(9 / 17.5**0.5)
    # faces seen: 6 x3, 5, 4, 3 against 1 each expected: (1+1+0+0+0+4)=6 on 5 df
    assert luck.chi_square == pytest.approx(6.0) and luck.chi_df == 5


def test_dice_luck_counts_lost_turns_against_the_board_odds() -> None:
    drops = [
        (6, 2, False, 0.5),  # half the line was full: a lost turn was a coin flip
        (6, 4, True, 0.5),
        (6, 1, False, 5 / 6),  # an unlucky loss
        (6, 3, True, 1.0),
        (4, 4, True, 0.25),  # a lucky landing on a four-faced die (custom variant)
    ]
    luck = dice_luck(drops)
    assert luck.lost_turns == 2
    assert luck.expected_lost_turns == pytest.approx(0.5 + 0.5 + 1 / 6 + 0 + 0.75)
    assert luck.turns_saved == pytest.approx(luck.expected_lost_turns - 2)
    variance = 0.25 + 0.25 + 5 / 36 + 0 + 0.1875
    assert luck.lost_z == pytest.approx((2 - luck.expected_lost_turns) / variance**0.5)
    assert luck.expected_mean_roll == pytest.approx((3.5 * 4 + 2.5) / 5)
    assert luck.chi_df == 5 + 3
    assert "lost 2 turns, expected 1.9 (unlucky by 0.1)" in luck.text()


def test_no_drops_means_no_luck_either_way() -> None:
    luck = dice_luck([])
    assert (luck.rolls, luck.lost_turns, luck.roll_z, luck.lost_z) == (0, 0, 0.0, 0.0)
    assert luck.text() == "no drops yet"


@pytest.mark.parametrize("bad", [(6, 7, True, 1.0), (1, 1, True, 1.0), (6, 3, True, 1.5)])
def test_a_roll_a_fair_die_cannot_show_is_refused(bad: tuple) -> None:
    with pytest.raises(ValueError, match="not a drop"):
        dice_luck([bad])
