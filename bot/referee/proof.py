"""Proof: what happened in a game, as a page of its log, its record file, and the verdict of
replaying it (rolls rechecked after the end, the chain checked)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import engine
from bot import texts
from bot.ending import NOT_TOLD, Ending
from bot.errors import Refusal
from bot.game_names import game_title
from bot.i18n import Msg, coded, msg, plain, say_all
from bot.i18n.replies import engine_msg
from bot.referee.context import (
    HISTORY_PAGE,
    Context,
)
from bot.referee.records import (
    VERIFY_PROGRAM,
    check_stored,
    ending,
    outcome_of,
    stored_record,
)
from bot.referee.replays import MAX_GIF_BYTES, replay_gif
from bot.referee.replies import (
    Reply,
    Where,
)
from bot.referee.turns import Turn, turns_of
from bot.store import GameRow
from engine import Outcome
from engine.record import FULL_VERSION, Problem, Verification
from translations import DEFAULT, words


class Proof:
    """history, record, verify."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def game(self, where: Where, game_id: int | None) -> GameRow:
        """The game a proof command is about: the one numbered ``game_id`` if this channel (a
        thread's channel, this table) played it, else the game here (``Context.game_here``). A
        number not played here is refused alike whether no game or another channel's or
        server's has it: nothing tells a channel about games it cannot see."""
        g = await self.ctx.game_here(where, game_id)
        if g is not None:
            return g
        if game_id is None:
            raise Refusal("no_game")
        code = "no_game_number" if where.guild_id is not None else "no_game_number_here"
        raise Refusal(code, {"id": game_id})

    async def history(
        self, where: Where, page: int | None = None, *, game_id: int | None = None
    ) -> Reply:
        """The game's moves with their times, ``HISTORY_PAGE`` to a page, and a finished
        game's result after its last move. A move is a turn as players number it
        (``bot.referee.turns``): a Morris mill and its removal are one row, typed apart or
        joined. Pages count back from the end: page 1 (the default) holds the latest moves,
        where the moves a player asks about are, page 2 the ones just before, and so on; only
        the last page, with the first moves, may hold fewer. The head says which moves a page
        holds and which page holds the moves before them."""
        g = await self.game(where, game_id)
        turns = turns_of(g, await self.ctx.store.actions(g.id))
        pages = max(1, -(-len(turns) // HISTORY_PAGE))
        players = {"id": g.id, "first": texts.seat_msg(g, 0), "second": texts.seat_msg(g, 1)}
        # a page past the last shows the last, and says so
        beyond = [msg("page.beyond", asked=int(page))] if page and int(page) > pages else []
        page = 1 if page is None else min(max(1, int(page)), pages)
        end = len(turns) - (page - 1) * HISTORY_PAGE
        chunk = turns[max(0, end - HISTORY_PAGE) : end]
        if pages == 1:
            head = msg("history.head", **players)  # one page: no "(page 1 of 1)" to say
        else:
            span = {"start": chunk[0].number, "end": chunk[-1].number, "total": len(turns)}
            if page < pages:
                head = msg(
                    "history.head_more", page=page, pages=pages, earlier=page + 1, **span, **players
                )
            else:
                head = msg("history.head_first", page=page, pages=pages, **span, **players)
        lines = [head, *beyond]
        for turn in chunk:
            lines.append(_history_line(g, turn))
        if not turns:
            lines.append(msg("history.empty"))
        outcome = outcome_of(g)
        if outcome is not None and (not chunk or chunk[-1] is turns[-1]):  # after the last move
            sides = engine.get_game(g.game).side_names
            ended = await ending(self.ctx.store, g)
            lines.append(texts.result_line(g, sides, outcome, ended=ended))
        if g.pending:
            lines.append(msg("history.pending", action=g.pending))
        return Reply(
            text=say_all(lines),
            lines=lines,
            game_id=g.id,
            version=g.version,
            chain=g.last_hash,
            chain_label="Log head",
        )

    async def record(self, where: Where, *, game_id: int | None = None) -> Reply:
        """The game's record as JSON in ``reply.file`` (seed included once the game is over)."""
        g = await self.game(where, game_id)
        data = (await stored_record(self.ctx.store, g)).to_json().encode()
        key = "record.running" if g.status == "active" else "record.finished"
        name = f"game-{g.id}.json"  # the file sent with it, named as such: no word to translate
        # How to check it is each front end's to say (Discord's /import, the console's import):
        # the same sentence as data, the console's own words in bot.console.format.
        lines = [msg(key, id=g.id, program=VERIFY_PROGRAM, file=name)]
        changed = texts.options_line(g.game, g.variant, g.options, g.clock)
        if changed:
            lines.append(changed)
        return _with_file(g, lines, data, name)

    async def replay(
        self, where: Where, *, game_id: int | None = None, max_bytes: int = MAX_GIF_BYTES
    ) -> Reply:
        """The game's animated replay as a GIF in ``reply.file``, in the server's theme and
        language (drawn in a worker thread: every frame is Pillow work)."""
        g = await self.game(where, game_id)
        record = await stored_record(self.ctx.store, g)
        theme, lang = await self.ctx.look(g.guild_id)
        gif = await asyncio.to_thread(replay_gif, record, theme, max_bytes, lang)
        return _with_file(g, [msg("replay.alt")], gif, f"replay-{g.id}.gif")

    async def verify(self, where: Where, *, game_id: int | None = None) -> Reply:
        """Replay the stored log with the engine, recheck rolls (after the end) and the chain."""
        g = await self.game(where, game_id)
        verdict = await check_stored(self.ctx.store, g)
        lines = verdict_lines(verdict, await ending(self.ctx.store, g))
        return Reply(
            text=say_all(lines),
            lines=lines,
            ok=True,
            game_id=g.id,
            version=g.version,
            chain=g.last_hash,
        )


def _history_line(g: Any, turn: Turn) -> Msg:
    """One numbered move of the history, with a drop's roll (and a lost turn), or the
    marbles a push put off the board."""
    said = {
        "seq": turn.number,
        "side": texts.side_msg(g.game, turn.side),
        "action": turn.action,
        "time": turn.at[11:19],
    }
    effect = turn.effect
    if effect is not None and effect.pushed_off:
        other = texts.side_msg(g.game, 1 - turn.side)
        off = {"n": effect.pushed_off, "other": other, "cell": effect.off_from}
        return msg("history.pushed_off", **off, **said)
    if turn.roll is None:
        return msg("dispute.log_action", **said)
    if effect is not None and effect.lost_turn:
        return msg("history.lost_turn", roll=turn.roll, **said)
    return msg("dispute.log_rolled", roll=turn.roll, **said)


def verdict_lines(verdict: Verification, ended: Ending = NOT_TOLD) -> list[Msg]:
    """A verification as sentences: first a verdict every player understands ("Every move and
    every roll checks out"), then, under a heading, what moderators read: the summary (or the
    problem) and each thing checked. Every line is said from its code (``verify.<code>``, in
    English too, so each count takes its plural form); what is wrong with a forged record from
    ``problem.<code>``. ``ended``: who ended the verified game, from its log's ending event (a
    moderator's name and reason; the verdict itself knows only the event's kind)."""
    key = "verify.ok" if verdict.ok else "verify.problem"
    reason = _summary(verdict, ended) if verdict.ok else problem_msg(verdict.reason)
    lines = [_verdict(verdict), plain(""), msg("verify.details_head"), msg(key, reason=reason)]
    findings = verdict.findings if len(verdict.findings) == len(verdict.details) else ()
    codes = {code for code, _ in findings}
    # the seed's line already says no die was rolled: "rolls: none" and "rolled nothing" said
    # it twice more (the engine keeps both findings: older records and the offline checker)
    said_once = NO_DICE_AGAIN if codes & {"seed_matches_unused", "seed_hidden_unused"} else ()
    for i, english in enumerate(verdict.details):
        code, params = findings[i] if findings else ("", {})
        if code not in said_once:
            lines.append(msg("verify.detail", detail=_finding(code, english, params, ended)))
    return lines


NO_DICE_AGAIN = ("rolls_none", "dice_unused")
"""Findings a verdict leaves out under ``seed_matches_unused`` (``seed_hidden_unused`` while
the game runs), which says the same."""


def _verdict(verdict: Verification) -> Msg:
    """The verdict in a line: all checks out, so far (the seed still secret), or not."""
    if not verdict.ok:
        return msg("verify.verdict_problem")
    codes = {code for code, _ in verdict.findings}
    if not verdict.rolls_checked:  # no "rolls are checked once..." where nothing rolls
        if "seed_hidden_unused" in codes:
            return msg("verify.verdict_running_no_dice")
        if "seed_hidden_toss" in codes:
            return msg("verify.verdict_running_toss")
        return msg("verify.verdict_running")
    if "dice_unused" in codes or "seed_matches_unused" in codes:
        return msg("verify.verdict_ok_no_dice")
    if "seed_matches_toss" in codes:  # "every roll" would be about the toss alone
        return msg("verify.verdict_ok_toss")
    return msg("verify.verdict_ok")


RESULTS = ("outcome", "stated", "logged", "replayed")  # a problem's parameters that are results


def problem_msg(problem: object, game: str | None = None) -> Msg:
    """What is wrong with a record (``engine.record.Problem``: its English and its data), said
    from ``problem.<code>``; a problem without a code is shown as the engine wrote it."""
    code = problem.code if isinstance(problem, Problem) else ""
    if not isinstance(problem, Problem) or not code:
        return plain(str(problem))
    data = problem.params
    game = data.get("game") or game  # a problem inside another is about the same game
    if code == "engine":  # the engine's own refusal, said from its reason code
        given = {"engine_params": data.get("engine_params") or {}, "code": data.get("reason")}
        return engine_msg({**given, "message": str(problem), "game": game})
    params: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Problem):  # a problem inside a problem
            params[key] = problem_msg(value, game)
        elif isinstance(value, Outcome) or (value is None and key in RESULTS):
            params[key] = _result_msg(str(game), value)
        elif key in ("side", "to_move") and game:
            params[key] = texts.side_msg(str(game), int(value))
        elif key == "game" and value:
            params[key] = msg(f"game.{value}")
        else:
            params[key] = value
    return coded(f"problem.{code}", str(problem), **params)


COUNTS = {"rows": "verify.rows_chained", "undone": "verify.undone"}
"""A verification line's second and third counts (``verify.log_chained*``), each said as a
sentence of its own with its own plural form: the line's own plural follows ``n``."""


def _finding(code: str, english: str, params: Mapping[str, Any], ended: Ending = NOT_TOLD) -> Msg:
    if not code:
        return problem_msg(english)  # a problem the referee's own checks noted, or plain
    said = dict(params)
    if code.startswith("log_chained"):
        said.update({k: msg(COUNTS[k], n=v) for k, v in params.items() if k in COUNTS})
    if code == "result":  # in every language from the catalog: the engine's English said
        game, options = str(said.pop("game")), said.pop("options", None)  # "by two pieces"
        ended_by = said.pop("ended_by", None)
        return msg(
            "verify.result",
            outcome=_result_msg(game, said.get("outcome"), options, ended_by, ended),
        )
    if f"verify.{code}" in words(DEFAULT):  # the catalog's words, in English too
        return msg(f"verify.{code}", **said)
    return coded(f"verify.{code}", english, **said)  # a code newer than the catalog


def _result_msg(
    game: str,
    outcome: Outcome | None,
    options: Any = None,
    ended_by: str | None = None,
    ended: Ending = NOT_TOLD,
) -> Msg:
    """A verified result from the sides' point of view ("White wins (Black resigned)"); a
    void (``ended_by``, the log's ending event) as a moderator's void, and with ``ended`` (the
    same event read whole) who voided, aborted or awarded it and why."""
    if outcome is None:
        return msg("verify.running")
    sides = engine.get_game(game).side_names
    if ended == NOT_TOLD and ended_by == "void":
        ended = Ending(voided="")
    return texts.outcome_msg(game, sides, sides, outcome, options, ended=ended)


def _summary(verdict: Verification, ended: Ending = NOT_TOLD) -> Msg:
    """A positive verdict's first line: the game, what was replayed, the result, and what an
    older record version leaves out."""
    data = verdict.summary
    if not data:
        return plain(verdict.reason)
    if data["rows"] is None:
        counted = msg("verify.counted_actions", n=data["actions"])
    else:
        rows = msg("verify.log_rows", n=data["rows"])
        counted = msg("verify.counted_rows", n=data["actions"], rows=rows)
    said = msg(
        "verify.summary",
        game=game_title(str(data["game"]), str(data["variant"])),
        counted=counted,
        result=_result_msg(
            str(data["game"]), data["outcome"], data.get("options"), data.get("ended_by"), ended
        ),
    )
    codes = {code for code, _ in verdict.findings}
    if "seed_hidden_toss" in codes:
        said = msg("verify.summary_untossed", summary=said)
    elif not data["seed_revealed"] and "seed_hidden_unused" not in codes:
        said = msg("verify.summary_unrolled", summary=said)
    if data["version"] < FULL_VERSION:
        said = msg(f"verify.summary_old_{data['version']}", summary=said)
    return said  # the catalog's words in English too: the engine's said "wins by two pieces"


def _with_file(g: Any, lines: list[Msg], data: bytes, name: str) -> Reply:
    """A reply that carries a file made from the game (its record, its replay), at its head."""
    return Reply(
        text=say_all(lines),
        lines=lines,
        file=data,
        file_name=name,
        game_id=g.id,
        version=g.version,
        chain=g.last_hash,
    )
