"""What /ladder, /stats and a season's close say, as sentences (``Msg``) built from the
ladder's numbers; each front end says them in its reader's language. The ladder package stays
pure arithmetic and knows no words."""

from __future__ import annotations

from typing import Any

from bot.i18n import Msg, msg, number
from bot.ladder.ratings import RatingState, is_provisional, rating_text
from bot.ladder.stats import CasualRecords, DiceLuck, PlayerStats, Record, Streak
from bot.ladder.tables import INACTIVE_DAYS, Leaderboard, LeaderboardRow
from bot.referee.replies import Actor
from bot.texts import ladder_name

_STREAK = {"W": "stats.streak_wins", "L": "stats.streak_losses", "D": "stats.streak_draws"}


def ladder_title(ladder: str, season: int) -> Msg:
    return msg("ladder.title", ladder=ladder_name(ladder), season=season)


def record_msg(record: Record) -> Msg:
    return msg("stats.record_counts", wins=record.wins, losses=record.losses, draws=record.draws)


def _rating(row: LeaderboardRow) -> str:
    """A row's rating as its line and the caller's line both show it: "1662", or "1662?"."""
    return f"{round(row.rating)}{'?' if row.provisional else ''}"


def _row(row: LeaderboardRow, name: str) -> Msg:
    return msg(
        "ladder.row",
        rank=f"{row.rank}." if row.rank is not None else "–",
        name=name,
        rating=_rating(row),
        record=msg("stats.record_counts", wins=row.wins, losses=row.losses, draws=row.draws),
    )


def leaderboard_lines(
    board: Leaderboard,
    names: dict[int, str],
    title: Msg,
    actor: Actor,
    provisional: bool,
) -> list[Msg]:
    """The leaderboard as text: the rows, who is hidden, and where the caller stands. The
    active provisional players follow the ranked ones, unranked ("– alice 1500?"): a small
    server's players stay provisional for some twenty games each, and a ladder listing no one
    told them nothing. That they are ranked once their rating settles is said once, by the
    "?" note when there is one (a player read it three times, in two wordings)."""
    hidden = board.hidden - len(board.waiting)
    settling = hidden > board.inactive or not board.hidden  # not only idle players left out
    me = board.caller
    shown = (*board.rows, *board.waiting)
    noted = any(r.provisional for r in shown) or (me is not None and me.provisional)
    lines = [title]
    if board.waiting and not board.rows:
        lines.append(msg("ladder.unranked_head"))
    elif not board.rows:
        why = settling and not provisional and not noted  # else the note or nothing says it
        lines.append(msg("ladder.empty_settling" if why else "ladder.empty"))
    lines += [_row(r, names.get(r.player, "?")) for r in board.rows]
    if board.waiting and board.rows:
        lines.append(msg("ladder.provisional_head"))
    lines += [_row(r, names.get(r.player, "?")) for r in board.waiting]
    if hidden:
        lines.append(msg("ladder.hidden", n=hidden))
        # show_provisional lists provisional players, never inactive ones: offered only when
        # it would list someone (how to ask is the front end's to say)
        if not provisional and not board.waiting and hidden > board.inactive:
            lines.append(msg("ladder.show_hidden"))
    if board.inactive:
        lines.append(msg("ladder.inactive_note", n=INACTIVE_DAYS))
    if me is None:
        lines.append(msg("ladder.you_absent", name=actor.name))
    elif any(r.player == actor.id for r in board.waiting):
        pass  # their row, unranked, says it: "bob: 1338?, unranked" repeated it
    elif me.rank is None:  # inactivity first: it is the reason showing provisional ones keeps
        key = "ladder.you_inactive" if me.inactive else "ladder.you_provisional"
        lines.append(msg(key, name=actor.name, rating=_rating(me)))
    elif all(r.player != actor.id for r in board.rows):
        lines.append(
            msg(
                "ladder.you_rank_rating",
                name=actor.name,
                rank=me.rank,
                ranked=board.ranked,
                rating=_rating(me),  # with its "?", as the rows above show it
            )
        )
    else:
        lines.append(msg("ladder.you_rank", name=actor.name, rank=me.rank, ranked=board.ranked))
    if noted:
        lines.append(msg("ladder.provisional_note"))
    return lines


def hidden_footnote(board: Leaderboard) -> Msg | None:
    """The leaderboard image's footnote: that no one is ranked yet (the rows are the
    provisional players), how many are left out, or what the "?" of the listed ones means."""
    if board.waiting and not board.rows:
        return msg("ladder.unranked_short")
    hidden = board.hidden - len(board.waiting)
    if hidden:
        return msg("ladder.hidden_short", n=hidden)
    return msg("rating.provisional_short") if board.waiting else None


def streak_msg(streak: Streak) -> Msg:
    if not streak.length:
        return msg("stats.streak_none")
    return msg(_STREAK[streak.kind], n=streak.length)


def _rating_item(ladder: str, state: RatingState) -> Msg:
    return msg(
        "stats.rating_item", ladder=ladder_name(ladder), rating=rating_text(state), n=state.games
    )


def stats_lines(
    who: Actor,
    season: int,
    game: str | None,
    st: PlayerStats,
    opponent: Actor | None,
    casual: CasualRecords | None = None,
) -> list[Msg]:
    """A player's season: ratings, record, streaks, head-to-head, then their casual games if
    they have any (dice luck is added apart)."""
    if game:
        head = msg("stats.head_game", name=who.name, season=season, game=msg(f"game.{game}"))
    else:
        head = msg("stats.head", name=who.name, season=season)
    lines = [head]
    if game and set(st.ratings) == {game}:  # the head names the game: said once
        state = st.ratings[game]
        items = [msg("stats.rating_game_item", rating=rating_text(state), n=state.games)]
        lines.append(msg("stats.ratings", ratings=items))
    elif st.ratings:
        items = [_rating_item(k, s) for k, s in sorted(st.ratings.items())]
        lines.append(msg("stats.ratings", ratings=items))
    else:
        lines.append(msg("stats.no_ratings"))
    rated = st.record.games > 0  # no rated games: "0W 0L 0D" and "none" said nothing more
    if rated:
        lines.append(msg("stats.record", record=record_msg(st.record)))
        streaks = streak_msg(st.current_streak), streak_msg(st.best_win_streak)
        lines.append(msg("stats.streak", now=streaks[0], best=streaks[1]))
    if rated and opponent is not None and st.head_to_head is not None:
        lines.append(
            msg("stats.head_to_head", opponent=opponent.name, record=record_msg(st.head_to_head))
        )
    if casual is not None and opponent is not None:  # counted against the opponent alone
        if casual.people.games:
            lines.append(casual_against_msg(opponent, casual))
    elif casual is not None and (casual.people.games or casual.practice.games):
        lines.append(casual_msg(casual))  # "0W 0L 0D" of no casual games said nothing
    if any(is_provisional(s) for s in st.ratings.values()):
        lines.append(msg("rating.provisional_note"))  # last, once: what the "?" means
    return lines


def casual_against_msg(opponent: Actor, casual: CasualRecords) -> Msg:
    """ "Casual games against Alice here (not rated, all seasons): 1W 0L 0D", under the rated
    head-to-head; the bot is never an opponent there, so there is no practice to count."""
    return msg("stats.casual_against", opponent=opponent.name, record=record_msg(casual.people))


def casual_msg(casual: CasualRecords) -> Msg:
    """ "Casual games here (not rated, all seasons): 2W 1L 0D; practice against the bot:
    1W 3L 0D": practice counted apart, and each part named only once there is some."""
    if not casual.people.games:
        return msg("stats.practice", record=record_msg(casual.practice))
    if casual.practice.games:
        return msg(
            "stats.casual_practice",
            record=record_msg(casual.people),
            practice=record_msg(casual.practice),
        )
    return msg("stats.casual", record=record_msg(casual.people))


def dice_luck_msg(luck: DiceLuck, games: int) -> Msg:
    """One line: "12 drops, mean roll 3.8 (expected 3.5); lost 2 turns, expected 3.4 (lucky
    by 1.4)", over up to the latest ``games`` games, rated or not (every game rolls the same
    public dice; the line says so, as it stands under the rated record)."""
    if not luck.rolls:
        return msg("stats.dice_luck", games=games, luck=msg("luck.no_drops"))
    saved = luck.turns_saved
    if abs(saved) < 0.05:
        verdict = msg("luck.as_expected")
    elif saved > 0:
        verdict = msg("luck.lucky", by=number(saved))
    else:
        verdict = msg("luck.unlucky", by=number(-saved))
    said = msg(
        "luck.line",
        drops=msg("luck.drops", n=luck.rolls),
        mean=number(luck.mean_roll),
        expected=number(luck.expected_mean_roll),
        lost=msg("luck.turns", n=luck.lost_turns),
        expected_lost=number(luck.expected_lost_turns),
        verdict=verdict,
    )
    return msg("stats.dice_luck", games=games, luck=said)


def season_closed_lines(
    season: int,
    closer: str,
    ratings: int,
    ladders: int,
    leaders: list[tuple[str, str, str]],
) -> list[Msg]:
    """A closed season: what was archived, each ladder's leader (ladder, name, rating), and
    that the next one starts."""
    return [
        msg(
            "season.closed",
            season=season,
            name=closer,
            ratings=msg("season.ratings", n=ratings),
            ladders=msg("season.ladders", n=ladders),
        ),
        *(
            msg("season.leader", ladder=ladder_name(key), name=name, rating=rating)
            for key, name, rating in leaders
        ),
        msg("season.next", season=season + 1),
    ]


def ladder_setting_msg(value: Any, *, changed: bool = True) -> Msg:
    """How this server's ladders are split (the ``ladder`` setting's ``per_variant``), and,
    after a change, that this season's ratings were recomputed."""
    split = value.get("per_variant", False)
    if split is True:
        said = msg("ladder.setting_variants")
    elif not split:
        said = msg("ladder.setting_games")
    else:
        names = [msg(f"game.{g}") for g in split]
        said = msg("ladder.setting_variants_of", games=names)
    return msg("ladder.setting_recomputed", setting=said) if changed else said
