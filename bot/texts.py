"""The referee's sentences: who is who, whose turn, the clocks, the result. Plain words only.

Front ends add mentions and formatting; these are the same on Discord and at the console.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import engine
from bot.clock import ClockSpec, format_seconds
from bot.ladder.ratings import PROVISIONAL_NOTE
from bot.store import GameRow
from engine import EngineError, Outcome, Termination

if TYPE_CHECKING:
    from bot.referee.replies import Rated

MOVED_ON = "that game has moved on: look at the latest board and try again"
NO_GAME = "there is no game running here: start one with a challenge"
NOT_A_PLAYER = "you are not playing in this game ({players})"
FROZEN = (
    "the game is frozen for a dispute: no move, claim or offer is taken until a moderator "
    "resumes, restores or decides it"
)
CANT_SAVE = (
    "The referee can't save right now; your move was not recorded. Please try again in a moment."
)
BROKEN_GAME = (
    "This game's stored log no longer replays (action {seq}, {action!r}), so the referee cannot "
    "go on with it. A moderator can end it with /referee void or /referee abort; the channel is "
    "then free for a new game."
)
BROKEN_GAME_AGAIN = (
    "this game's stored log is damaged: a moderator can end it with /referee void or abort"
)
ROLL_LATER = (
    "The announcement stands, but the referee can't save the roll right now; the die will be "
    "rolled as soon as it can (or use /board in a moment)."
)


def seat_label(g: GameRow, sides: tuple[str, str], seat: int) -> str:
    """ "alice (Red)"."""
    return f"{g.names[seat]} ({sides[seat]})"


def players_line(g: GameRow, sides: tuple[str, str]) -> str:
    return f"{seat_label(g, sides, 0)} vs {seat_label(g, sides, 1)}"


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


def clocks_line(g: GameRow, sides: tuple[str, str], to_move: int, now: float) -> str | None:
    """ "Clocks: Red 9:41, Blue 10:00" or None without a clock."""
    left = [remaining(g, seat, to_move, now) for seat in (0, 1)]
    if left[0] is None or left[1] is None:
        return None
    return f"Clocks: {sides[0]} {format_seconds(left[0])}, {sides[1]} {format_seconds(left[1])}"


def result_line(g: GameRow, sides: tuple[str, str], outcome: Outcome) -> str:
    return f"Game over: {outcome_words(g.names, sides, outcome)}."


def outcome_words(names: tuple[str, str], sides: tuple[str, str], outcome: Outcome) -> str:
    """ "alice (Red) wins (Blue resigned)", "a draw (...)", "no result (aborted by ...)"."""
    reason = outcome.reason.rstrip(".")
    if outcome.winner is not None:
        seat = outcome.winner
        who = sides[seat] if names[seat] == sides[seat] else f"{names[seat]} ({sides[seat]})"
        return f"{who} wins ({reason})"
    if outcome.termination is Termination.ABORTED:
        return f"no result ({reason})"
    return f"a draw ({reason})"


def seed_line(g: GameRow) -> str:
    """The revealed seed, saying what it proves: this game's rolls, its coin toss, or nothing."""
    if g.rolls:
        proves = "check every roll with verify"
    elif g.toss is not None:
        proves = "check the coin toss, this game's only roll, with verify"
    else:
        proves = "nothing was rolled in this game"
    return (
        f"Dice seed revealed: {g.seed} (its SHA-256 is the commitment {g.commitment[:16]}..., "
        f"{proves})"
    )


def rolls_dice(game: str, state: Any) -> bool:
    """Whether the game rolls dice in play (Atmalof's drops), not only for the coin toss."""
    rules = engine.get_game(game)
    return any(rules.die_faces(state, a) is not None for a in rules.legal(state))


def turn_line(g: GameRow, sides: tuple[str, str], to_move: int) -> str:
    return f"{seat_label(g, sides, to_move)} to move."


def drop_words(notation: str) -> str:
    """ "drop col 3" -> "column 3": sentences spell the line out; the notation stays short."""
    words = notation.removeprefix("drop ").split()
    if words[:1] == ["col"]:
        words[0] = "column"
    return " ".join(words)


def changed_options(game: str, variant: str, options: Mapping[str, Any] | str) -> dict[str, Any]:
    """The options that differ from the variant's defaults: what both players must be told."""
    chosen = json.loads(options) if isinstance(options, str) else dict(options)
    rules = engine.get_game(game)
    try:
        base = rules.options(rules.new(variant))
    except EngineError:  # a variant the engine no longer knows: every option is news
        base = {}
    return {k: v for k, v in sorted(chosen.items()) if k not in base or base[k] != v}


def option_value(value: Any) -> str:
    """``True`` -> "on", as players type it in ``/challenge options:``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def options_line(
    game: str, variant: str, options: Mapping[str, Any] | str, clock: str = "none"
) -> str | None:
    """ "Not the defaults: flying=off, no_remill=on, clock 10+5." or None when all are default."""
    parts = [f"{k}={option_value(v)}" for k, v in changed_options(game, variant, options).items()]
    if clock != "none":
        parts.append(f"clock {clock}")
    return f"Not the defaults: {', '.join(parts)}." if parts else None


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


# Why the referee refuses a command, by the reason code a ``bot.errors.Refusal`` carries; its
# parameters fill the sentence. The one place these sentences live (a language adds a catalog).
REFUSALS: dict[str, str] = {
    "no_game": NO_GAME,
    "not_a_player": NOT_A_PLAYER,
    "frozen": FROZEN,
    "moved_on": MOVED_ON,
    "cant_save": CANT_SAVE,
    "roll_later": ROLL_LATER,
    "broken_game": BROKEN_GAME_AGAIN,
    "engine": "{message}",  # the engine's own sentence ("c3 is occupied")
    "no_takeback_rated": NO_TAKEBACK_RATED,
    "no_takeback_here": NO_TAKEBACK_HERE,
    "dice_words_text": "dice words are text",
    "dice_words_too_long": "dice words are at most {max_words} characters",
    "bots_cannot_play": "bots cannot play",
    "opponent_is_bot": "{opponent_name} is a bot and cannot play",
    "challenge_yourself": "you cannot challenge yourself: challenge someone else, or anyone",
    "bad_starter": "who starts must be me, them or random",
    "accept_own_challenge": "you cannot accept your own challenge (decline withdraws it)",
    "challenge_for_other": "this challenge is for {opponent_name}",
    "challenge_answered": "that challenge was already answered",
    "no_finished_game": "a rematch follows a finished game; none here yet",
    "rematch_asked": "you already asked for a rematch; waiting for the answer",
    "no_challenge": "there is no challenge waiting here",
    "dice_words_plain": "dice words must be plain text",
    "channel_busy": (
        "this channel is busy: a game or a challenge is already here. Finish it, or play in "
        "another channel or a thread"
    ),
    "options_do_not_fit": "those options do not fit {game}: {exc}",
    "game_running_here": "a game is already running here: play in another channel or thread",
    "open_challenge_decline": "an open challenge is not declined: just leave it, it will expire",
    "own_game": "you play in this game: another moderator must decide it",
    "moderators_only": "only moderators can do that",
    "reason_needed": "give a reason: it is logged with the game",
    "draw_offered_already": "you have already offered a draw",
    "no_draw_offer": "there is no draw offer for you to answer",
    "takeback_asked_already": "you have already asked for a takeback",
    "no_takeback_request": "there is no takeback request for you to answer",
    "abort_too_late": "too late to abort: you have already moved. Resign or offer a draw instead",
    "claim_on_own_turn": "it is your turn: you cannot claim while you are to move",
    "claim_not_abandoned": (
        "{opponent} has been thinking for {idle}; you can claim after {after} without a move"
    ),
    "claim_time_left": "{opponent} still has {left} to move",
    "winner_not_playing": "{winner_name} is not playing in this game",
    "not_your_turn": "it is {player}'s turn, not yours",
    "no_roll_waiting": "no roll is waiting",
    "settings_moderators_only": "only moderators can change this server's settings",
    "settings_need_server": "settings belong to a server",
    "forget_moderators_only": "only moderators can remove this server's data",
    "forget_needs_server": "only a server's data can be removed this way",
    "not_my_button": "that button is not one of mine",
    "button_game_gone": "that game is over or elsewhere",
    "unknown_theme": "unknown theme {theme!r}: choose one of {themes}",
    "unknown_setting": "there is no setting {key!r} (try theme)",
    "unknown_language": "{message}",
    "unknown_person": "I don't know {who!r} here (players: {known})",
    "console_challenge_usage": (
        "challenge whom to what? e.g. `challenge bob atmalof` or `challenge anyone morris`"
    ),
    "console_import_usage": "import which file? `import <path>`, e.g. a file `record` saved",
    "console_rules_usage": "rules of which game? {games}",
    "console_no_moves": (
        "no moves for you now: there is no game here, it is not your turn, or the game waits for "
        "a roll or a moderator"
    ),
    "console_empty": "say something: try help",
    "console_cannot_read": "cannot read {path}: {error}",
    "console_not_a_file": "cannot read {path!r}: that is not a file name",
    "console_no_rules": "I have no rules for {words!r}: {games}",
    "console_moves_usage": "`moves` takes a page number, e.g. `moves 2`; `legal d7` filters",
    "console_no_such_moves": "none of your {count} legal moves contains {prefix!r}",
    "console_award_usage": "award to whom? `award alice <reason>`, or `award draw <reason>`",
    "console_action_usage": "{sub} to which action? e.g. `{sub} 4 <reason>` (0 is the start)",
    "console_settings_moderators": "only moderators can look at the settings",
    "console_season_confirm": "nothing changed: `season-close confirm` closes the season",
    "console_answer_usage": (
        "`{head}` alone answers the challenge waiting here; `{head} 3` answers challenge 3"
    ),
    "console_history_usage": "`history` takes a page number, e.g. `history 2`",
    "console_no_such_challenge": "there is no challenge {answer} here",
    "import_too_large": "{name} is larger than {max_import_bytes:,} bytes: not a record",
    "import_unreadable": "{name} is not a readable record: {exc}",
    "import_uncheckable": "{name} cannot be checked: {exc}",
    "no_such_ladder": "there is no ladder for {name!r}: choose {choices}",
    "head_to_head_needs_other": "head-to-head needs an opponent other than the player",
    "season_moderators_only": "only moderators can close a season",
    "season_needs_server": "seasons belong to a server",
    "no_such_game": "there is no game {name!r}: choose {choices}",
    "rewind_out_of_range": "choose an action from 0 (the start) to {seq}",
    "not_frozen": "the game is not frozen",
    "restore_out_of_range": "choose an action from 0 (the start) to {last}",
    "dispute_open": "a dispute is already open: the moderators have been told",
    "over_limit": "{message}",
    "bad_option": "{message}",
    "bad_ladder_setting": "{message}",
    "challenge_expired": "that challenge has expired: make a new one",
    "challenge_closed": "that challenge was already {status}",
    "takeback_after_announce": "a drop has been announced: it cannot be taken back",
    "no_move_to_take_back": "you have no move to take back",
    "takeback_after_roll": "a drop cannot be taken back: the die has been rolled",
    "console_moderator_usage": (
        "moderator commands: abort <reason> | award <name|draw> <reason> | void <reason> | rewind"
        " <N> [reason] | restore <N> <reason> | resume [reason] | theme <name> | settings | "
        "season-close confirm"
    ),
    "unreplayable": (
        "action {seq} ({action!r}) no longer replays: choose an earlier action, or void the game"
    ),
}


def refusal_text(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for a refusal's reason code and parameters."""
    return REFUSALS[code].format(**params)


# What the referee tells the channel (or the person) happened, by the notice code a reply
# carries (``Reply.notice``); its ``params`` fill the sentence.
NOTICES: dict[str, str] = {
    "draw_offered": "{actor} offers a draw. {other}, accept or decline?",
    "draw_declined": "{actor} declines the draw.",
    "takeback_asked": "{actor} asks to take back: {moves}. {other}, accept or decline?",
    "takeback_refused": "{actor} refuses the takeback.",
    "challenge_withdrawn": "{actor} withdrew the challenge.",
    "challenge_declined": "{actor} declined {challenger}'s challenge.",
    "challenge_expired": "{challenger}'s challenge to {opponent} expired.",
    "drop_cancelled": "Nothing was announced: it is still your turn.",
    "ladders_set": "Ladders on this server: {ladders}.",
    "takebacks_on": "Takebacks on this server: casual games may take back a move if both agree.",
    "takebacks_off": "Takebacks on this server: off. A move once made stands, in every game.",
    "language_set": "Server language: {language}.",
    "user_language_set": "Your language is now {language}.",
    "user_language_auto": "Your language now follows your Discord client, else the server's.",
    "setting_set": "Server setting {key} is now {value}.",
    "mod_role_set": "Disputes now notify <@&{role}>.",
    "mod_role_cleared": "Disputes now notify nobody (disputes go to the channel).",
    "resumed": "Moderator {moderator} resumes the game ({why}).",
    "resumed_clocks": (
        "Moderator {moderator} resumes the game ({why}). The clocks go on from where they "
        "stopped ({paused} paused)."
    ),
    "restored": (
        "Moderator {moderator} restores the game to action {number} ({why}): {undone} left the "
        "game (they stay in the log). The clocks continue from their current times."
    ),
}


def notice_text(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for a notice's code and parameters."""
    return NOTICES[code].format(**params)


def rating_lines(rated: Rated, names: Sequence[str]) -> list[str]:
    """The result message's lines about ratings ("Ratings (morris): alice 1500? → 1662? (+162),
    ..."; the change is of the rounded numbers shown) and, when a rating is provisional, what
    the "?" means."""

    def shown(rating: float, provisional: bool) -> str:
        return f"{round(rating)}{'?' if provisional else ''}"

    parts = []
    for seat in (0, 1):
        before, after = rated.before[seat], rated.after[seat]
        delta = round(after) - round(before)
        sign = "±" if delta == 0 else ("+" if delta > 0 else "-")
        parts.append(
            f"{names[seat]} {shown(before, rated.provisional_before[seat])} → "
            f"{shown(after, rated.provisional_after[seat])} ({sign}{abs(delta)})"
        )
    lines = [f"Ratings ({rated.ladder}): {', '.join(parts)}"]
    if any(rated.provisional_before) or any(rated.provisional_after):
        lines.append(PROVISIONAL_NOTE)
    return lines
