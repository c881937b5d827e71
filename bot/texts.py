"""The referee's sentences: who is who, whose turn, the clocks, the result. Plain words only.

Front ends add mentions and formatting; these are the same on Discord and at the console.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import engine
from bot.clock import IN_DAYS, ClockSpec, format_seconds
from bot.ending import NOT_TOLD, Ending
from bot.game_names import game_title
from bot.i18n import Msg, coded, say
from bot.i18n.replies import refusal_words
from bot.store import GameRow
from engine import EngineError, Outcome, Termination
from engine.atmalof import fours as atmalof_fours
from engine.record import stored_options

if TYPE_CHECKING:
    from bot.referee.replies import Rated

MOVED_ON = "that game has moved on: look at the latest board and try again"
NO_GAME = (
    "there is no game running here: challenge someone with `/challenge`, or practise against the "
    "bot with `/practice`"
)
NOT_A_PLAYER = "you are not playing in this game ({players})"
FROZEN = (
    "the game is frozen for a dispute: no move, claim or offer is taken until a moderator "
    "resumes, restores or decides it"
)
CANT_SAVE = (
    "the referee can't save right now, so your move was not recorded: please try again in a moment"
)
ROLL_LATER = (
    "the announcement stands, but the referee can't save the roll right now: the die will be "
    "rolled as soon as it can (or use /board in a moment)"
)


def start_players(g: GameRow) -> Msg:
    """ "Six Men's Morris: alice (White) vs bob (Black)." as a game starts (or is
    shown again when a front end starts again)."""
    return Msg(
        "start.players",
        {
            "game": game_title(g.game, g.variant),
            "first": seat_msg(g, 0),
            "second": seat_msg(g, 1),
        },
    )


def seat_msg(g: GameRow, seat: int) -> Msg:
    """ "alice (Red)" as data: the side's name is said in the reader's language."""
    return Msg("who.named", {"name": g.names[seat], "side": Msg(f"side.{g.game}.{seat}")})


def remaining(g: GameRow, seat: int, to_move: int, now: float) -> float | None:
    """Seconds ``seat`` has left (their bank, or the correspondence deadline), None: no clock."""
    spec = ClockSpec.parse(g.clock)
    if not spec.enabled:
        return None
    running = g.status == "active" and seat == to_move and g.pending is None
    if g.frozen_at is not None:  # a dispute stopped the clocks: time stands still
        now = g.frozen_at
        if running and spec.kind == "correspondence":
            return g.turn_started_at + spec.per_move - now
    if spec.kind == "fischer":
        bank = g.banks[seat]
        return bank - (now - g.turn_started_at) if running else bank
    if running and g.deadline is not None:
        return g.deadline - now
    return spec.per_move


def clocks_line(g: GameRow, sides: tuple[str, str], to_move: int, now: float) -> Msg | None:
    """ "Clocks: Red 9:41, Blue 10:00" or None without a clock."""
    left = [remaining(g, seat, to_move, now) for seat in (0, 1)]
    if left[0] is None or left[1] is None:
        return None
    return Msg(
        "board.clocks",
        {
            "side0": side_msg(g.game, 0),
            "time0": duration(left[0]),
            "side1": side_msg(g.game, 1),
            "time1": duration(left[1]),
        },
    )


def side_msg(game: str, seat: int) -> Msg:
    """A side's name ("Red"), said in the reader's language."""
    return Msg(f"side.{game}.{seat}")


def result_line(
    g: GameRow,
    sides: tuple[str, str],
    outcome: Outcome,
    *,
    ended: Ending = NOT_TOLD,
    state: Any = None,
) -> Msg:
    """ "Game over: alice (Red) wins (bob (Blue) resigned)."; with the final ``state``, a tie-break
    says what each side counted."""
    options = json.loads(g.options or "{}")
    counted = None
    if state is not None and outcome.termination is Termination.TIEBREAK:
        counted = tiebreak_counts(g.game, state)
    said = outcome_msg(g.game, g.names, sides, outcome, options, ended=ended, counted=counted)
    return Msg("board.game_over", {"outcome": said})


def tiebreak_counts(game: str, state: Any) -> dict[str, Any]:
    """The lines each side counted in an Atmalof tie-break (runs of L-1), and the side whose
    last piece in hand began it (``full``; the default rule): an ending never said why."""
    empty = [s for s in (0, 1) if not state.hands[s]] if state.config.tiebreak == "either" else []
    return {
        "n": state.line - 1,
        "side0": side_msg(game, 0),
        "a": len(atmalof_fours(state, 0)),
        "side1": side_msg(game, 1),
        "b": len(atmalof_fours(state, 1)),
        "full": side_msg(game, empty[0]) if len(empty) == 1 else None,
    }


NAMES_THE_LOSER = frozenset(
    f"end.{t}" for t in ("two_pieces", "blocked", "resignation", "timeout", "abandonment")
)
"""The ends whose sentence names the loser ("bob (Black) resigned"): said from the catalog in
English too, where the engine's and the referee's English names only the side ("Black
resigned") and every other language named the player."""

CATALOG_ENDS = frozenset(
    f"end.{t.value}" for t in (Termination.FULL_BOARD, Termination.SIX_OFF, Termination.REPETITION)
) | {f"end.move_limit{s}" for s in ("", "_atmalof", "_morris", "_abalone_more", "_abalone_even")}
"""Engine ends said from the catalog in English too (and ``end.line`` with its length): the
engine's English said "a draw (50 actions each without a piece landing: a draw)". A tie-break
keeps the engine's English, which says each side's count."""


def outcome_msg(
    game: str,
    names: tuple[str, str],
    sides: tuple[str, str],
    outcome: Outcome,
    options: Mapping[str, Any] | None = None,
    *,
    ended: Ending = NOT_TOLD,
    counted: Mapping[str, Any] | None = None,
) -> Msg:
    """ "alice (Red) wins (bob (Blue) resigned)", "a draw (...)", "no result (aborted by ...)" as
    data: the reason is the engine's or the referee's English, said elsewhere by how the game
    ended (``end.<termination>``). ``options``: the game's full options, for what an ending
    names (Atmalof's line length: "five in a row"). ``ended``: who or what aborted it (a void
    is said as a void, "voided by a moderator: ..."; a player's /abort with their name; a
    moderator's with their reason), in every language. ``counted``: an Atmalof tie-break's
    counts (``tiebreak_counts``), said with it."""
    english = outcome.reason.rstrip(".")
    loser: Any = ""
    if outcome.winner is not None:
        seat = 1 - outcome.winner
        loser = _who_msg(game, names, sides, seat)
    params: dict[str, Any] = {"loser": loser}
    if options and "line" in options:
        params["k"] = options["line"]
    key, said = ended.said(outcome.termination, names)
    params.update(said)
    full = (counted or {}).get("full")
    if counted:
        key = "end.tiebreak_counted"
        params.update({k: v for k, v in counted.items() if k != "full"})
    limit = (options or {}).get("move_limit")
    if key == "end.move_limit" and limit:  # each game counts its own moves; Abalone's in all
        more = "" if game != "abalone" else "_more" if outcome.winner is not None else "_even"
        key, params["n"] = f"end.move_limit_{game}{more}", limit
    if (
        key in CATALOG_ENDS
        or (key == "end.line" and "k" in params)
        or (
            key in NAMES_THE_LOSER and outcome.winner is not None  # English named the side alone
        )
    ):
        reason = Msg(key, params)
    else:
        reason = coded(key, english, **params)
    if full is not None:
        reason = Msg("end.tiebreak_full", {"full": full, "count": reason})
    if outcome.winner is not None:
        who = _who_msg(game, names, sides, outcome.winner)
        return Msg("outcome.win", {"who": who, "reason": reason})
    if outcome.termination is Termination.ABORTED:
        return Msg("outcome.aborted", {"reason": reason})
    return Msg("outcome.draw", {"reason": reason})


def players_msg(names: Sequence[str]) -> Msg:
    """A game's two players as a refusal or summary names them ("alice vs bob")."""
    return Msg("players.pair", {"first": names[0], "second": names[1]})


def _who_msg(game: str, names: tuple[str, str], sides: tuple[str, str], seat: int) -> Msg:
    """A player as a result names them: "alice (Red)", or the side alone (a record's)."""
    if names[seat] == sides[seat]:
        return side_msg(game, seat)
    return Msg("who.named", {"name": names[seat], "side": side_msg(game, seat)})


def seed_line(g: GameRow) -> Msg:
    """The revealed seed, saying what it proves: this game's rolls, its coin toss, or nothing."""
    if g.rolls:
        key = "seed.rolls"
    elif g.toss is not None:
        key = "seed.toss"
    else:
        key = "seed.none"
    return Msg(key, {"seed": g.seed, "commitment": g.commitment[:16]})


def rolls_dice(game: str, state: Any) -> bool:
    """Whether the game rolls dice in play (Atmalof's drops), not only for the coin toss."""
    rules = engine.get_game(game)
    return any(rules.die_faces(state, a) is not None for a in rules.legal(state))


def seed_matters(g: GameRow) -> bool:
    """Whether the game's secret seed decides anything: a coin toss, or dice its rules roll.
    Only then do its start and end show the commitment and the seed: a Morris or Abalone game
    with a chosen starter rolls nothing, and a commitment there only raised questions."""
    if g.toss is not None or g.rolls:
        return True
    rules = engine.get_game(g.game)
    return rolls_dice(g.game, rules.new(g.variant, **stored_options(g.game, json.loads(g.options))))


def turn_line(g: GameRow, sides: tuple[str, str], to_move: int) -> Msg:
    return Msg("board.turn", {"player": seat_msg(g, to_move)})


def drop_words(notation: str) -> str:
    """ "drop col 3" -> "column 3": sentences spell the line out; the notation stays short."""
    words = notation.removeprefix("drop ").split()
    if words[:1] == ["col"]:
        words[0] = "column"
    return " ".join(words)


def changed_options(game: str, variant: str, options: Mapping[str, Any] | str) -> dict[str, Any]:
    """The options that differ from the variant's defaults: what both players must be told.
    In the order the game declares them (``rules.options``: Atmalof's board, then its pieces
    and line, then the referee's rules), as a player thinks of them; the stored JSON's sorted
    keys read "cols=5, line=3, pieces=4, rows=5". One the game does not declare comes last."""
    chosen = json.loads(options) if isinstance(options, str) else dict(options)
    rules = engine.get_game(game)
    try:
        base = rules.options(rules.new(variant))
    except EngineError:  # a variant the engine no longer knows: every option is news
        base = {}
    rank = {k: i for i, k in enumerate(base)}
    order = sorted(chosen, key=lambda k: (rank.get(k, len(rank)), k))
    return {k: chosen[k] for k in order if k not in base or base[k] != chosen[k]}


def option_value(value: Any) -> str:
    """``True`` -> "on", as players type it in ``/challenge options:``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def options_line(
    game: str, variant: str, options: Mapping[str, Any] | str, clock: str = "none"
) -> Msg | None:
    """ "Not the defaults: flying=off, no_remill=on. Clock: 10 min each + 5 s a move." (either
    sentence alone), or None when every option is the default and there is no clock."""
    parts: list[Msg] = [
        Msg("plain", {"text": f"{k}={option_value(v)}"})
        for k, v in changed_options(game, variant, options).items()
    ]
    timed = ClockSpec.parse(clock).enabled
    if parts and timed:
        return Msg("options.changed_clock", {"options": parts, "clock": clock_msg(clock)})
    if timed:
        return Msg("options.clock", {"clock": clock_msg(clock)})
    return Msg("options.changed", {"options": parts}) if parts else None


STANDARD_DICE = (6, 6, 1, 1)
"""Atmalof's standard dice: a row's die picks columns 1-6, a column's rows 1-6; one row and one
column beyond them (the rules summary says so)."""


def dice_line(state: Any) -> Msg | None:
    """ "The dice here: announcing a row rolls 1-5 for its column, ..." for an atmaloid board
    whose dice differ from the standard game's, else None: a 6x6 custom board keeps one row and
    column beyond the die, and only this says the die has 5 faces."""
    config = getattr(state, "config", None)
    faces = getattr(config, "row_faces", None)
    if config is None or faces is None:
        return None
    if (faces, config.col_faces, config.beyond_rows, config.beyond_cols) == STANDARD_DICE:
        return None
    return Msg("options.dice", {"row_faces": faces, "col_faces": config.col_faces})


NO_TAKEBACK_RATED = (
    "takebacks are not allowed in rated games: a move once made stands, as the original rules "
    "say (casual games may take one back if both agree)"
)
NO_TAKEBACK_HERE = (
    "this server's moderators have turned takebacks off: a move once made stands, as the "
    "original rules say"
)


def takebacks_setting_text(allowed: bool) -> str:
    return notice_text("takebacks_on" if allowed else "takebacks_off", {})


def refusal_text(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for a refusal's reason code and parameters (the catalog's
    ``refusal.<code>``; the engine's reasons by their own codes)."""
    return refusal_words(code, dict(params), "en")


def notice_text(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for a notice's code and parameters (the catalog's
    ``notice.<code>``)."""
    return say(Msg(f"notice.{code}", dict(params)), "en")


def rating_lines(rated: Rated, names: Sequence[str]) -> list[Msg]:
    """The result message's lines about ratings ("Ratings (morris): alice 1500? → 1662? (+162),
    ..."; the change is of the rounded numbers shown) and, if provisional, "(? = provisional)":
    short, as results repeat it for weeks; /ladder and /stats say it in full."""

    def shown(rating: float, provisional: bool) -> str:
        return f"{round(rating)}{'?' if provisional else ''}"

    parts = []
    for seat in (0, 1):
        before, after = rated.before[seat], rated.after[seat]
        delta = round(after) - round(before)
        sign = "±" if delta == 0 else ("+" if delta > 0 else "-")
        parts.append(
            Msg(
                "rating.change",
                {
                    "name": names[seat],
                    "before": shown(before, rated.provisional_before[seat]),
                    "after": shown(after, rated.provisional_after[seat]),
                    "delta": f"{sign}{abs(delta)}",
                },
            )
        )
    lines = [Msg("rating.line", {"ladder": ladder_name(rated.ladder), "changes": parts})]
    if any(rated.provisional_before) or any(rated.provisional_after):
        lines.append(Msg("rating.provisional_short"))
    return lines


def ladder_name(ladder: str) -> Msg:
    """A ladder's name: the game's ("Nine Men's Morris"), as played in its variant when split
    ("atmalof/junior": "Junior Atmalof")."""
    game, _, variant = ladder.partition("/")
    return game_title(game, variant or "standard")


def duration(seconds: float) -> Msg:
    """A time left or waited: "4:05" and "1:02:03" the same in every language; "2d 3h" (long
    correspondence times) in the reader's units."""
    s = max(0, int(seconds))
    if s < IN_DAYS:
        return Msg("plain", {"text": format_seconds(s)})
    return Msg("time.days_hours", {"d": s // 86400, "h": s % 86400 // 3600})


def clock_msg(clock: str) -> Msg:
    """A game's clock as stored ("none", "10+5", "24h") in the reader's words ("no clock",
    "10 min each + 5 s a move", "24 h a move"): the one way every front end shows a clock."""
    spec = ClockSpec.parse(clock)
    if not spec.enabled:
        return Msg("clock.none")
    if spec.kind == "correspondence":
        return Msg("clock.per_move", {"hours": f"{spec.per_move / 3600:g}"})
    minutes = f"{spec.initial / 60:g}"
    if not spec.increment:
        return Msg("clock.fischer_flat", {"minutes": minutes})
    return Msg("clock.fischer", {"minutes": minutes, "seconds": f"{spec.increment:g}"})
