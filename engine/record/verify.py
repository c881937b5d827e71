"""``verify``: replay a record and check its commitment, rolls, legality, chain and result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import chain, dice
from engine.core import (
    EngineError,
    Game,
    IllegalAction,
    Outcome,
    ParseError,
    Termination,
)
from engine.record.fields import (
    _DECISIVE_ONLY,
    _DRAWN_ONLY,
    ENDING_EVENTS,
    FREEZE_EVENT,
    FULL_VERSION,
    LINE_EVENTS,
    NOT_CHAINED,
    REFEREE_TERMINATIONS,
    THAW_EVENTS,
    TOSS_ANNOUNCEMENT,
    TOSS_NUMBER,
    Problem,
    engine_problem,
    problem_of,
    quoted,
)
from engine.record.format import Record, RecordAction, RecordEvent
from engine.record.replay import start
from engine.record.rows import chain_hash

Finding = tuple[str, Mapping[str, Any]]
"""What one line of a verdict says as data: a code and its parameters ("" when the line is a
finding only this module words, such as where a forged record goes wrong)."""


@dataclass(frozen=True, slots=True)
class Verification:
    """A verdict: ok, the first bad action (1-based) if any, why, and what was checked.

    ``reason`` and ``details`` are English; ``summary`` (the reason of a positive verdict) and
    ``findings`` (one per detail, in order) say the same as data, so a front end can say them
    in another language. ``summary`` holds game, variant, actions, rows (None for version 1),
    outcome (an ``Outcome`` or None), seed_revealed and version."""

    ok: bool
    first_bad: int | None
    reason: str
    details: tuple[str, ...] = ()
    rolls_checked: bool = False
    head: str = chain.GENESIS
    findings: tuple[Finding, ...] = ()
    summary: Mapping[str, Any] | None = None

    def __str__(self) -> str:
        return ("OK: " if self.ok else "BAD: ") + self.reason


@dataclass(slots=True)
class _Walk:
    """The state of a verification as it walks the log."""

    record: Record
    details: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    prev: str = chain.GENESIS
    rolls: int = 0
    dice: bool = True  # the game's rules roll a die (Atmalof), not only the coin toss
    tossed: bool = False  # the start row holds a coin toss (read whether or not the seed is out)

    def note(self, code: str, english: str, **params: Any) -> None:
        """One line of what was checked, in English and as data."""
        self.details.append(english)
        self.findings.append((code, params))

    def verdict(self, first_bad: int | None, reason: str) -> Verification:
        if first_bad is not None and first_bad > 1:
            good = first_bad - 1
            rows = "log row" if self.record.log else "action"
            code = "rows_check_out" if self.record.log else "actions_check_out"
            english = f"{rows} 1 checks out" if good == 1 else f"{rows}s: 1 to {good} check out"
            self.note(code, english, n=good)
        return Verification(
            ok=False,
            first_bad=first_bad,
            reason=reason,
            details=tuple(self.details),
            rolls_checked=self.record.seed is not None,
            head=self.prev,
            findings=tuple(self.findings),
        )


def verify(record: Record, head: str | None = None) -> Verification:
    """Replay ``record`` and check commitment, rolls, legality, chain hashes and result.

    ``head`` is a chain hash published elsewhere (e.g. on the last board message, its short
    prefix is enough); when given, the log must end on it, which catches deleted final rows.
    A version 2 record is checked row by row, events included (see ``_verify_log``); its
    ``first_bad`` is then the log row's number.
    """
    walk = _Walk(record)
    seed = record.seed
    if seed is None:
        walk.note(
            "seed_hidden", "dice: seed not revealed yet (game running), so rolls are not checked"
        )
    elif not dice.check_commitment(seed, record.commitment):
        english = "the revealed seed does not match the dice commitment"
        return walk.verdict(None, Problem("seed_mismatch", english))
    else:
        walk.note("seed_matches", "dice: the revealed seed matches the commitment")
    try:
        game, state = start(record)
    except EngineError as exc:
        return walk.verdict(None, problem_of(exc))
    walk.dice = any(game.die_faces(state, a) is not None for a in game.legal(state))
    if record.log:
        return _verify_log(walk, game, state, head)
    for number, entry in enumerate(record.actions, start=1):
        problem = _check_action(walk, game, state, number, entry)
        if isinstance(problem, str):
            said = Problem("at_action", f"action {number}: {problem}", n=number, problem=problem)
            return walk.verdict(number, said)
        state = problem
    count = len(record.actions)
    walk.note(
        "actions_replayed", f"actions: {count} replayed, every one legal and canonical", n=count
    )
    _rolls(walk, seed is not None)
    short = chain.short(walk.prev)
    walk.note("chain_links", f"chain: {_links(count)}, head #{short}", n=count, head=short)
    problem = _check_result(game, state, record.result)
    if problem:
        return walk.verdict(None, problem)
    _result(walk, game, record.result)
    return _conclude(walk, game, head, _actions(count), count, None)


def _say_what_the_seed_decided(walk: _Walk) -> None:
    """Reword "the revealed seed matches the commitment" once the walk knows what the seed
    decided: said alone, it read as a proof about rolls in a game that rolled none (a chosen
    starter and no die) or only the coin toss. A running game's "rolls are not checked" is
    reworded alike when its rules roll no die (its log's start row tells the toss)."""
    codes = [code for code, _ in walk.findings]
    if "seed_hidden" in codes and _rolls_nothing(walk):
        at = codes.index("seed_hidden")
        if walk.tossed:
            code = "seed_hidden_toss"
            english = (
                "dice: seed not revealed yet (game running), so the coin toss, this game's only "
                "roll, is not checked"
            )
        else:
            code = "seed_hidden_unused"
            english = (
                "dice: this game rolls nothing (no coin toss, no die), so its seed decides nothing"
            )
        walk.details[at] = english
        walk.findings[at] = (code, {})
        return
    if "seed_matches" not in codes or walk.rolls:
        return
    at = codes.index("seed_matches")
    if "toss_recomputed" in codes:
        code = "seed_matches_toss"
        english = (
            "dice: the coin toss was this game's only roll; the revealed seed matches the "
            "commitment"
        )
    else:
        code = "seed_matches_unused"
        english = "dice: no dice were rolled in this game; the revealed seed matches the commitment"
    walk.details[at] = english
    walk.findings[at] = (code, {})


def _rolls_nothing(walk: _Walk) -> bool:
    """Whether a game rolls no die at all: none rolled, and its rules roll none (a Morris or
    Abalone game). Known only from a log (a version 1 record does not tell a coin toss)."""
    return not walk.rolls and not walk.dice and bool(walk.record.log)


def _actions(n: int) -> str:
    """ "1 action", "2 actions": the English verdict's count (other languages: the catalog)."""
    return _count(n, "action")


def _links(n: int) -> str:
    """ "1 row links", "2 rows link"."""
    return "1 row links" if n == 1 else f"{n} rows link"


def _count(n: int, noun: str) -> str:
    """ "1 row", "2 rows": a count in the English verdict (the bot says it from its catalog)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _rolls(walk: _Walk, recomputed: bool) -> None:
    if (recomputed and not walk.rolls) or _rolls_nothing(
        walk
    ):  # "0 recomputed ..., all equal" claimed a check of nothing
        walk.note("rolls_none", "rolls: none (no die was rolled in this game)")
    elif recomputed:
        english = f"rolls: {walk.rolls} recomputed from the seed, all equal"
        walk.note("rolls_recomputed", english, n=walk.rolls)
    else:
        walk.note("rolls_in_range", f"rolls: {walk.rolls} in range (not recomputed)", n=walk.rolls)


def _result(
    walk: _Walk, game: Game[Any, Any], result: Outcome | None, ended_by: str | None = None
) -> None:
    english = f"result: {_describe_result(game, result, ended_by)}"
    walk.note(
        "result",
        english,
        game=game.name,
        outcome=result,
        options=walk.record.options,
        ended_by=ended_by,
    )


def _conclude(
    walk: _Walk,
    game: Game[Any, Any],
    head: str | None,
    counted: str,
    actions: int,
    rows: int | None,
    ended_by: str | None = None,
) -> Verification:
    """The published-head check and the positive verdict; ``ended_by``: the log's ending
    event's kind (a void is told apart from an abort by it)."""
    record = walk.record
    if head is not None:
        wanted = head.strip().lstrip("#").lower()
        if len(wanted) < chain.SHORT or not walk.prev.startswith(wanted):
            short = chain.short(walk.prev)
            english = f"the log ends on #{short}, not the published #{wanted}"
            return walk.verdict(None, Problem("head_mismatch", english, head=short, wanted=wanted))
        walk.note("published_head", "chain: the log ends on the published hash")
    result = _describe_result(game, record.result, ended_by)
    reason = f"{record.game} {record.variant}, {counted}, {result}"
    if record.seed is None and not _rolls_nothing(walk):
        reason += " (rolls not checked: seed not revealed)"
    elif record.seed is None and walk.tossed:
        reason += " (coin toss not checked: seed not revealed)"
    if record.version < FULL_VERSION:
        uncovered = NOT_CHAINED[record.version]
        reason += f"; record version {record.version} does not cover {uncovered}"
        walk.note(
            f"not_covered_{record.version}",
            f"not covered (record version {record.version}): {uncovered}; actors are not "
            "compared with the seats' players; the rolls mix nothing the operator could not pick",
            version=record.version,
        )
    else:
        walk.note(
            "covers_all",
            "chain: covers every field (the start row holds the game, options, names, the id of "
            "the command that started the game and the dice words, and its time is when the game "
            "was created; the end row, written when the game ends, holds when it ended)",
        )
        tossed = walk.tossed or any(code == "toss_recomputed" for code, _ in walk.findings)
        # "and the players' words" about none read as if the players had given some
        given = any((record.words or {}).values())
        mixed = "and the players' words" if given else "(no player gave dice words)"
        plain = "" if given else "_no_words"
        if not walk.rolls and tossed:
            walk.note(
                f"dice_mixed_toss{plain}",
                "dice: the coin toss mixes the id of the command that started the game "
                f"({record.accept}) {mixed}",
                accept=record.accept,
            )
        elif walk.rolls or tossed or (record.seed is None and not _rolls_nothing(walk)):
            walk.note(
                f"dice_mixed{plain}",
                "dice: every roll mixes the id of the command that started the game "
                f"({record.accept}) {mixed}",
                accept=record.accept,
            )
        else:  # a chosen starter and no die (Morris, Abalone): "every roll" would be about none
            walk.note("dice_unused", "dice: this game rolled nothing (no coin toss, no die)")
    _say_what_the_seed_decided(walk)
    return Verification(
        ok=True,
        first_bad=None,
        reason=reason,
        details=tuple(walk.details),
        rolls_checked=record.seed is not None,
        head=walk.prev,
        findings=tuple(walk.findings),
        summary={
            "game": record.game,
            "variant": record.variant,
            "actions": actions,
            "rows": rows,
            "outcome": record.result,
            "seed_revealed": record.seed is not None,
            "version": record.version,
            "options": record.options,
            "ended_by": ended_by,
        },
    )


@dataclass(slots=True)
class _Line:
    """The live line while a version 2 log is walked: positions, whether frozen, the end."""

    states: list[Any]
    frozen: bool = False
    ended: Outcome | None = None
    undone: int = 0
    ended_at: str | None = None
    reason: str | None = None
    ended_by: str | None = None  # the ending event's kind: a void and an abort both abort


def _verify_log(walk: _Walk, game: Game[Any, Any], first: Any, head: str | None) -> Verification:
    """Walk a version 2 log: every row chained in order, actions replayed on the live line,
    rolls numbered over the whole log (an undone roll keeps its number), events checked."""
    record = walk.record
    line = _Line([first])
    for number, entry in enumerate(record.log, start=1):
        if line.ended is not None:
            english = f"row {number}: comes after the game ended"
            return walk.verdict(number, Problem("after_end", english, n=number))
        if isinstance(entry, RecordAction):
            k, notation = len(line.states), entry.notation
            label = Problem("row_action", f"row {number} (action {k}, {quoted(notation)})",
                            n=number, k=k, action=quoted(notation))  # fmt: skip
            if number == 1:
                english = f"{label}: the log must open with the start event"
                return walk.verdict(number, Problem("start_first", english, row=label))
            if line.frozen:
                english = f"{label}: played while the game was frozen"
                return walk.verdict(number, Problem("played_frozen", english, row=label))
            after = _check_action(walk, game, line.states[-1], len(line.states), entry)
            if isinstance(after, str):
                said = Problem("at_row", f"{label}: {after}", row=label, problem=after)
                return walk.verdict(number, said)
            line.states.append(after)
            continue
        problem = _check_event(walk, game, line, number, entry)
        if problem:
            english = f"row {number} (event {entry.kind}): {problem}"
            said = Problem("at_event", english, n=number, kind=entry.kind, problem=problem)
            return walk.verdict(number, said)
    final = game.result(line.states[-1])
    if final is not None and line.ended is None:
        english = f"the replay ends the game ({final.reason}), but the log has no end row"
        return walk.verdict(None, Problem("no_end_row", english, game=game.name, outcome=final))
    stored = record.result
    if (stored is None) != (line.ended is None) or (
        stored is not None
        and line.ended is not None
        and (stored.termination, stored.winner) != (line.ended.termination, line.ended.winner)
    ):
        english = (
            f"the record's result ({_describe_result(game, stored)}) is not the logged one "
            f"({_describe_result(game, line.ended)})"
        )
        said = Problem("result_not_logged", english, game=game.name, stated=stored,
                       logged=line.ended)  # fmt: skip
        return walk.verdict(None, said)
    if record.version >= FULL_VERSION:
        if record.ended != line.ended_at:
            english = "the record's ended time is not the ending row's time"
            return walk.verdict(None, Problem("ended_time", english))
        if stored is not None and stored.reason != line.reason:
            english = "the record's result reason is not the logged one"
            return walk.verdict(None, Problem("result_reason", english))
    live = len(line.states) - 1
    rows = len(record.log)
    english = f"log: {_count(rows, 'row')} chained, {_actions(live)} in the live line"
    if line.undone:
        english += f", {line.undone} taken back or restored away"
        walk.note("log_chained_undone", english, rows=rows, n=live, undone=line.undone)
    else:
        walk.note("log_chained", english, rows=rows, n=live)
    _rolls(walk, record.seed is not None)
    short = chain.short(walk.prev)
    walk.note("chain_links", f"chain: {_links(rows)}, head #{short}", n=rows, head=short)
    _result(walk, game, stored, line.ended_by)
    counted = f"{_actions(live)}, {_count(rows, 'log row')}"
    return _conclude(walk, game, head, counted, live, rows, line.ended_by)


def _check_start(record: Record, entry: RecordEvent) -> str | None:
    """A version 3 start row must state every field the chain covers through it; an older
    record must not carry a version 3 start row (a downgrade to escape those checks)."""
    note = entry.note
    if record.version < FULL_VERSION:
        if "record" in note:
            english = f"the log was written for a version {note['record']} record"
            return Problem("log_version", english, version=note["record"])
        return None
    wanted = {
        "record": FULL_VERSION,
        "game": record.game,
        "variant": record.variant,
        "options": record.options,
        "game_id": record.game_id,
        "names": [p.name for p in record.players],
        "accept": record.accept,
        "words": record.words,
    }
    for name, value in wanted.items():
        if note.get(name) != value:
            english = f"the record does not match the start row's {quoted(name)}"
            return Problem("start_field", english, field=name)
    if entry.at != record.created:
        return Problem("created_time", "the record's created time is not the start row's time")
    return None


def _check_event(
    walk: _Walk, game: Game[Any, Any], line: _Line, number: int, entry: RecordEvent
) -> str | None:
    """What is wrong with an event row (None: it checks out, and ``line`` is updated)."""
    record = walk.record
    if unchained := _link(walk, entry):
        return unchained
    note = entry.note
    if (number == 1) != (entry.kind == "start"):
        return Problem("start_only_first", "the log opens with the start event, and only there")
    if entry.kind == "start":
        if note.get("commitment") != record.commitment:
            english = "the dice commitment logged at the start is not the record's"
            return Problem("start_commitment", english)
        ids = [str(p) for p in note.get("players") or []]
        if ids != [p.id for p in record.players]:
            english = "the seats logged at the start are not the record's players"
            return Problem("start_seats", english)
        problem = _check_start(record, entry)
        if problem:
            return problem
        toss = note.get("toss")
        walk.tossed = toss is not None
        if toss is not None and record.seed is not None:
            expected = dice.roll(
                record.seed, record.game_id, TOSS_NUMBER, TOSS_ANNOUNCEMENT, 2, record.mixed
            )
            if toss != expected:
                english = f"the coin toss shows {toss}, but the seed gives {expected}"
                return Problem("toss_mismatch", english, toss=toss, expected=expected)
            walk.note("toss_recomputed", "coin toss: recomputed from the seed, equal")
    elif entry.kind in LINE_EVENTS:
        to, live = note.get("to"), len(line.states) - 1
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to <= live:
            english = f"it must go back to an action from 0 to {live}, not {quoted(to)}"
            return Problem("line_target", english, live=live, to=quoted(to))
        line.undone += live - to
        del line.states[to + 1 :]
    elif entry.kind in ENDING_EVENTS:
        outcome = entry.outcome()
        if outcome is None:
            english = "its note does not state a result (termination, winner, reason)"
            return Problem("no_result_note", english)
        problem = _check_result(game, line.states[-1], outcome)
        if problem:
            return problem
        wanted = ENDING_EVENTS[entry.kind]
        if wanted is None and outcome.termination in REFEREE_TERMINATIONS:
            english = f"an engine's end cannot be {outcome.termination.value}"
            return Problem("engine_end", english, termination=outcome.termination.value)
        if wanted is not None and outcome.termination is not wanted:
            english = f"a {entry.kind} ends by {wanted.value}, not {outcome.termination.value}"
            return Problem("wrong_termination", english, kind=entry.kind, wanted=wanted.value,
                           termination=outcome.termination.value)  # fmt: skip
        if entry.kind == "resign" and entry.seat is not None and outcome.winner != 1 - entry.seat:
            return Problem("resigner_wins", "the player who resigned cannot be the winner")
        line.ended = outcome
        line.ended_at = entry.at
        line.ended_by = entry.kind
        line.reason = outcome.reason
    if entry.kind == FREEZE_EVENT:
        line.frozen = True
    elif entry.kind in THAW_EVENTS:
        line.frozen = False
    return None


def _check_action(
    walk: _Walk, game: Game[Any, Any], state: Any, number: int, entry: RecordAction
) -> Any:
    """The state after ``entry``, or a string saying what is wrong with it."""
    names = game.side_names
    text = entry.notation
    said = quoted(text)
    if entry.seq != number:
        english = f"its number is {entry.seq} (rows are missing, repeated or out of order)"
        return Problem("seq_mismatch", english, seq=entry.seq)
    if entry.side != state.to_move:
        english = f"{names[entry.side]} acted, but it was {names[state.to_move]}'s turn"
        return Problem("wrong_turn", english, game=game.name, side=entry.side,
                       to_move=state.to_move)  # fmt: skip
    seated = walk.record.players[entry.side].id
    if walk.record.version >= FULL_VERSION and entry.actor != seated:
        actor, player = quoted(entry.actor), quoted(seated)
        english = f"the actor {actor} is not {names[entry.side]}'s player ({player})"
        return Problem("wrong_actor", english, game=game.name, side=entry.side,
                       actor=actor, seated=player)  # fmt: skip
    over = game.result(state)
    if over is not None:
        english = f"{said} comes after the game ended ({over.reason})"
        return Problem("after_game_end", english, action=said, game=game.name, outcome=over)
    try:
        action = game.parse(state, text)
    except ParseError as exc:
        english = f"{said} is not a command of {game.title}: {exc}"
        return Problem(
            "not_a_command", english, action=said, game=game.name, why=engine_problem(exc)
        )
    except IllegalAction as exc:
        english = f"{said} is illegal here: {exc}"
        return Problem("illegal", english, action=said, game=game.name, why=engine_problem(exc))
    canonical = game.notation(state, action)
    if canonical != text:
        english = f"{said} is not written canonically (expected {quoted(canonical)})"
        return Problem("not_canonical", english, action=said, expected=quoted(canonical))
    faces = game.die_faces(state, action)
    if faces is None and entry.roll is not None:
        english = f"{said} rolls no die, but the record has roll {entry.roll}"
        return Problem("roll_unexpected", english, action=said, roll=entry.roll)
    if faces is not None:
        if entry.roll is None:
            english = f"{said} rolls a {faces}-sided die, but the record has no roll"
            return Problem("roll_missing", english, action=said, faces=faces)
        if not 1 <= entry.roll <= faces:
            english = f"roll {entry.roll} is not a face of a {faces}-sided die"
            return Problem("roll_face", english, roll=entry.roll, faces=faces)
        walk.rolls += 1
        record = walk.record
        if record.seed is not None:
            expected = dice.roll(record.seed, record.game_id, walk.rolls, text, faces, record.mixed)
            if entry.roll != expected:
                english = f"roll {entry.roll} does not match the seed (expected {expected})"
                return Problem("roll_mismatch", english, roll=entry.roll, expected=expected)
    try:
        after = game.apply(state, action, entry.roll)
    except IllegalAction as exc:
        english = f"{said} is illegal here: {exc}"
        return Problem("illegal", english, action=said, game=game.name, why=engine_problem(exc))
    unchained = _link(walk, entry)
    return after if unchained is None else unchained


def _check_result(game: Game[Any, Any], state: Any, stored: Outcome | None) -> str | None:
    replayed = game.result(state)
    names = game.side_names
    if stored is None:
        if replayed is not None:
            english = (
                f"the replay ends the game ({replayed.termination.value}: {replayed.reason}), "
                "but the record stores no result"
            )
            return Problem("no_stored_result", english, game=game.name, outcome=replayed)
        return None
    if stored.termination in REFEREE_TERMINATIONS:
        if replayed is not None:
            english = (
                f"the record says {stored.termination.value}, but the engine had already ended "
                f"the game ({replayed.termination.value}: {replayed.reason})"
            )
            return Problem("already_ended", english, game=game.name,
                           termination=stored.termination.value, outcome=replayed)  # fmt: skip
        if stored.termination in _DRAWN_ONLY and stored.winner is not None:
            english = f"a game ended by {stored.termination.value} has no winner"
            return Problem("no_winner", english, termination=stored.termination.value)
        if stored.termination in _DECISIVE_ONLY and stored.winner is None:
            english = f"a game ended by {stored.termination.value} has a winner"
            return Problem("has_winner", english, termination=stored.termination.value)
        return None
    if replayed is None:
        english = (
            f"the record says the game ended by {stored.termination.value}, "
            "but in the replay it is still running"
        )
        return Problem("still_running", english, termination=stored.termination.value)
    if (replayed.termination, replayed.winner) != (stored.termination, stored.winner):
        english = (
            f"the record says {stored.termination.value}, {_winner(names, stored.winner)}, "
            f"but the replay gives {replayed.termination.value}, "
            f"{_winner(names, replayed.winner)}"
        )
        return Problem("result_differs", english, game=game.name, stated=stored, replayed=replayed)
    return None


def _winner(names: tuple[str, str], winner: int | None) -> str:
    return "a draw" if winner is None else f"{names[winner]} wins"


_HOW = {
    Termination.AWARDED: "a moderator's decision",
    Termination.TIMEOUT: "time",
    Termination.AGREEMENT: "agreement",
    Termination.TWO_PIECES: "two pieces",
    Termination.SIX_OFF: "six marbles off",
    Termination.MOVE_LIMIT: "the move limit",
}
"""How a result's termination reads after "by" ("Red wins by a moderator's decision", not "by
awarded"); the others read as their names do ("by resignation", "by line")."""


def _describe_result(
    game: Game[Any, Any], result: Outcome | None, ended_by: str | None = None
) -> str:
    if result is None:
        return "game running"
    how = _HOW.get(result.termination, result.termination.value.replace("_", " "))
    if result.termination is Termination.ABORTED:
        return "voided by a moderator, no result" if ended_by == "void" else "aborted, no result"
    return f"{_winner(game.side_names, result.winner)} by {how}"


def _link(walk: _Walk, entry: RecordAction | RecordEvent) -> Problem | None:
    """The row's hash checked against the chain so far, and the chain moved on to it."""
    expected_hash = chain_hash(walk.prev, entry.row())
    if entry.hash != expected_hash:
        english = "its chain hash does not match the row (the row or its hash was altered)"
        return Problem("hash_mismatch", english)
    walk.prev = expected_hash
    return None
