"""Importing a record file: check it the way ``python -m engine.verify`` does and show it.

The text is untrusted: its size is bounded before it is parsed, ``engine.record`` refuses
anything malformed with a reason, and ``verify`` replays it. The answer is the verdict, the final
position as a picture and, on request, the animated replay (drawn in a worker thread).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from bot.errors import Refusal
from bot.game_names import game_title
from bot.i18n import Msg, msg, person_name, say_all
from bot.referee import boards
from bot.referee.boards import BoardView
from bot.referee.context import Context
from bot.referee.proof import problem_msg, verdict_lines
from bot.referee.records import record_ending, stored_record
from bot.referee.replays import MAX_GIF_BYTES, replay_gif
from bot.referee.replies import Reply, Where
from bot.texts import outcome_msg, players_msg
from engine import EngineError, Outcome, chain, get_game
from engine.record import (
    MAX_ACTIONS,
    MAX_JSON_CHARS,
    Record,
    RecordError,
    problem_of,
    replay,
    verify,
)
from render import Last

log = logging.getLogger(__name__)

MAX_IMPORT_BYTES = MAX_JSON_CHARS
"""/import's limits (2,000,000 bytes and 5,000 log rows) bound the bot's work on an upload; the
bot's own records have no limit, and ``referee-verify`` checks a longer one offline."""


class Imports:
    """import_record."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def import_record(
        self,
        where: Where,
        data: bytes,
        *,
        name: str = "record.json",
        gif: bool = False,
        max_gif_bytes: int = MAX_GIF_BYTES,
    ) -> Reply:
        """The verdict on a record file, its final position and (``gif``) its replay."""
        if len(data) > MAX_IMPORT_BYTES:
            raise Refusal("import_too_large", {"name": name, "max_import_bytes": MAX_IMPORT_BYTES})
        try:
            record = Record.from_json(data, max_chars=MAX_IMPORT_BYTES, max_rows=MAX_ACTIONS)
        except RecordError as exc:
            why = problem_msg(problem_of(exc))  # English as is, another language from its code
            raise Refusal("import_unreadable", {"name": name, "exc": why}) from exc
        try:
            verdict = verify(record)
        except EngineError as exc:  # a game module refusing what verify did not foresee
            why = problem_msg(problem_of(exc))
            raise Refusal("import_uncheckable", {"name": name, "exc": why}) from exc
        players = players_msg(_names(record))
        said = verdict_lines(verdict, record_ending(record))
        lines = [  # the verdict first: a picture must never read as proof of a forged result
            said[0],
            await self._here(where, record, verdict.ok),  # a file proves itself only
            *said[1:],
            msg(  # "Imported" after a problem read as success: a forgery is only read
                "import.summary" if verdict.ok else "import.summary_unverified",
                name=name,
                game=game_title(record.game, record.variant),  # as the verdict's line says it
                players=players,
                version=record.version,
                game_id=record.game_id,
            ),
        ]
        try:
            states = replay(record)
        except EngineError as exc:
            lines.append(msg("import.no_picture", reason=problem_msg(problem_of(exc))))
            return Reply(
                text=say_all(lines), lines=lines, chain=record.head, chain_label="Log head"
            )
        # Only a verified record's result is drawn; otherwise the engine's own, if any.
        outcome = record.result if verdict.ok else get_game(record.game).result(states[-1])
        lines.append(_shown_line(record, verdict.ok, outcome))
        theme, lang = await self.ctx.look(where.guild_id)
        last = _last(record, states)
        view = BoardView(
            record.game,
            states[-1],
            last,
            theme,
            _names(record),
            outcome,
            lang=lang,  # the server's, as a game's board here: its words and its alt text
            ended=record_ending(record),
        )
        image = await boards.png(self.ctx.renderer, view)
        reply = Reply(
            text=say_all(lines),
            lines=lines,
            image=image,
            image_name=f"import-{record.game_id}.png",
            board=view,
            finished=record.result is not None,
            chain=record.head,
            chain_label="Log head",
        )
        if gif and self.ctx.renderer is not None:
            try:
                reply.file = await asyncio.to_thread(replay_gif, record, theme, max_gif_bytes, lang)
                reply.file_name = f"replay-{record.game_id}.gif"
            except Exception:  # the verdict stands even if the animation fails
                log.exception("replay of an imported record failed")
        return reply

    async def _here(self, where: Where, record: Record, verified: bool) -> Msg:
        """Whether the record is this server's game of its id: anyone can make a record that
        checks out on its own (a seed, its commitment, rolls and a chain of their own), so
        "every roll checks out" proves that the bot played it only once its commitment and its
        head are the stored game's, and the file verifies: its head's hash then covers every row
        (a failed check's head may be the stored one over edited rows). Only a game of this
        server is compared (another server's is not told apart from none)."""
        g = None
        if re.fullmatch(r"[0-9]{1,18}", record.game_id):  # a store id (int64), not a test's name
            g = await self.ctx.store.game(int(record.game_id))
        if g is None or g.guild_id != where.guild_id:
            return msg("import.not_here", game_id=record.game_id)
        stored = await stored_record(self.ctx.store, g)
        hashes = {row.hash for row in stored.log or stored.actions} | {chain.GENESIS}
        if verified and record.commitment == stored.commitment and record.head in hashes:
            return msg("import.same_here", game_id=g.id, head=chain.short(record.head))
        return msg("import.other_here", game_id=g.id, head=chain.short(stored.head))


def _shown_line(record: Record, verified: bool, outcome: Outcome | None) -> Msg:
    """Which position the picture is, and whose result it carries."""
    game = get_game(record.game)
    n = len(record.actions)
    names = _names(record)
    if verified:
        if outcome is None:
            return msg("import.shown_running", n=n)
        ended = record_ending(record)
        said = outcome_msg(
            record.game, names, game.side_names, outcome, record.options, ended=ended
        )
        return msg("import.shown_result", n=n, outcome=said)
    if record.result is not None:
        stated = outcome_msg(
            record.game,
            names,
            game.side_names,
            record.result,
            record.options,
            ended=record_ending(record),
        )
        return msg("import.shown_unconfirmed", n=n, outcome=stated)
    return msg("import.shown_replayed", n=n)


def _names(record: Record) -> tuple[str, str]:
    """The record's player names as the verdict and its pictures show them: a record's names are
    anything, so each is one plain line (``person_name``), "?" when nothing visible is left."""
    first, second = record.players[:2]
    return (person_name(first.name, "?"), person_name(second.name, "?"))


def _last(record: Record, states: list[Any]) -> Last | None:
    if not record.actions:
        return None
    entry, before = record.actions[-1], states[-2]
    return Last(before, get_game(record.game).parse(before, entry.notation), entry.roll)
