"""The referee's ladder commands: the leaderboard, a player's stats, closing a season.

Ratings themselves are written by the store in the transaction that ends a game
(``bot.ladder_store.change_game``); these commands only read them, draw them (in a worker
thread, like boards) and let a moderator close a season.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime
from typing import Any

import engine
import translations
from bot import ladder_store
from bot.errors import Refusal
from bot.game_names import game_named
from bot.i18n import Msg, msg, say, say_all
from bot.ladder import Leaderboard, leaderboard
from bot.ladder.stats import DiceDrop, PlayerStats, dice_luck, player_stats
from bot.ladder_store import GAMES, guild_key, ladder_for, per_variant_rule
from bot.referee.context import Context
from bot.referee.ladder_words import (
    dice_luck_msg,
    hidden_footnote,
    ladder_name,
    ladder_title,
    leaderboard_lines,
    season_closed_lines,
    stats_lines,
)
from bot.referee.replies import Actor, Reply, Where
from bot.store import Store

log = logging.getLogger(__name__)

LUCK_GAMES = 100
"""Dice luck looks at the player's latest this many Atmalof games on the server."""
MAX_TOP = 25


async def atmalof_drops(store: Store, guild_id: int | None, player: int) -> list[DiceDrop]:
    """The player's drops in their latest Atmalof games here, each with the chance it had.

    Each game is replayed with the engine: before a drop, ``p_land`` is the share of the squares
    the die can reach in the announced line that were empty; ``landed`` says whether the rolled
    square was empty (else the turn was lost).
    """
    async with store.reading() as rx:
        ids = await rx.recent_games("atmalof", guild_id, player, LUCK_GAMES)
    rules = engine.get_game("atmalof")
    drops: list[DiceDrop] = []
    for game_id in ids:
        view = await store.game_view(game_id, from_start=True)  # the row and its moves together
        if view is None:
            continue
        g = view.game
        state = rules.new(g.variant, **json.loads(g.options))
        for row in view.actions:
            action = rules.parse(state, row.action)
            landings = rules.landings(state, action)
            if landings and row.roll is not None and g.players[row.side] == player:
                faces = len(landings)
                empty = sum(x.free for x in landings)
                landed = any(x.free for x in landings if x.roll == row.roll)
                drops.append(DiceDrop(faces, row.roll, landed, empty / faces))
            state = rules.apply(state, action, row.roll, checked=True)
    return drops


class Ladders:
    """``ladder``, ``stats``, ``close_season`` and ``ladder_names`` (autocomplete)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def _theme(self, guild: int | None) -> str:
        if guild is None:
            return "dark"
        return str((await self.ctx.store.guild_settings(guild)).get("theme") or "dark")

    async def _language(self, where: Where) -> str:
        """The server's language: charts are posted in the channel, so they speak it."""
        return translations.choose(server=(await self.ctx.settings(where)).get("language"))

    async def _ladder_here(self, where: Where, game: str | None) -> str:
        """The ladder key meant by ``game`` ("atmalof", "atmalof/junior", or None: this
        channel's latest game, else the server's busiest ladder, else Atmalof)."""
        guild = guild_key(where.guild_id)
        setting = (await self.ctx.settings(where)).get("ladder") or {}
        variant = None
        if game is None or not str(game).strip():
            latest = await self.ctx.store.latest_game(where.channel_id)
            if latest is not None:
                game, variant = latest.game, latest.variant
            else:
                season = await ladder_store.season_of(self.ctx.store, guild)
                busiest = await ladder_store.ladders(self.ctx.store, guild, season)
                game = busiest[0] if busiest else "atmalof"
        typed, _, given = str(game).strip().lower().partition("/")
        try:  # its name in any language; a variant's own name is that variant's ladder
            name, named = game_named(typed) if typed not in GAMES else (typed, None)
        except engine.EngineError as exc:
            raise Refusal("no_such_ladder", {"name": typed, "choices": ", ".join(GAMES)}) from exc
        if name not in GAMES:
            raise Refusal("no_such_ladder", {"name": typed, "choices": ", ".join(GAMES)})
        return ladder_for(name, given or named or variant, setting)

    async def ladder_names(self, where: Where) -> list[str]:
        """Ladder keys for autocomplete: this season's ladders here, then each game that has
        none of them (a bare "abalone" beside "abalone/belgian-daisy" read as the same ladder,
        and led to the empty standard one)."""
        guild = guild_key(where.guild_id)
        season = await ladder_store.season_of(self.ctx.store, guild)
        found = await ladder_store.ladders(self.ctx.store, guild, season)
        played = {key.partition("/")[0] for key in found}
        return list(dict.fromkeys([*found, *(g for g in GAMES if g not in played)]))

    async def ladder(
        self,
        where: Where,
        actor: Actor,
        game: str | None = None,
        *,
        top: int = 10,
        include_provisional: bool = False,
    ) -> Reply:
        """The leaderboard of one ladder this season, with the caller's own rank."""
        key = await self._ladder_here(where, game)
        guild = guild_key(where.guild_id)
        season = await ladder_store.season_of(self.ctx.store, guild)
        table = await ladder_store.ratings(self.ctx.store, guild, key, season)
        board = leaderboard(
            table,
            top=max(1, min(int(top), MAX_TOP)),
            caller=actor.id,
            include_provisional=include_provisional,
            now=datetime.fromtimestamp(self.ctx.now(), UTC),
        )
        names = await ladder_store.names(self.ctx.store, table)
        title = ladder_title(key, season)
        lines = leaderboard_lines(board, names, title, actor, include_provisional)
        if not table:  # an empty ladder: where this game's rated players are this season
            game = key.partition("/")[0]
            for other in await ladder_store.ladders(self.ctx.store, guild, season):
                if other != key and other.partition("/")[0] == game:
                    lines.append(msg("ladder.elsewhere", ladder=ladder_name(other), name=other))
        image = await self._leaderboard_image(where, board, names, title, actor)
        return Reply(
            text=say_all(lines),
            lines=lines,
            image=image,
            image_name=f"ladder-{key.replace('/', '-')}-s{season}.png",
            # the picture in words, in the language its words are drawn in (the server's)
            image_alt=say_all(lines, await self._language(where)),
        )

    async def _leaderboard_image(
        self, where: Where, board: Leaderboard, names: dict[int, str], title: Msg, actor: Actor
    ) -> bytes | None:
        listed = (*board.rows, *board.waiting)
        if self.ctx.renderer is None or not listed:  # never a picture of an empty table
            return None
        from render.chart import Standing, leaderboard_png

        rows = [Standing.of(r, names.get(r.player, "?"), you=r.player == actor.id) for r in listed]
        caller = None
        if board.caller is not None:
            caller = Standing.of(board.caller, names.get(actor.id, actor.name), you=True)
        lang = await self._language(where)
        foot = hidden_footnote(board)
        theme = await self._theme(where.guild_id)
        try:
            return await asyncio.to_thread(
                leaderboard_png,
                rows,
                say(title, lang),
                theme,
                caller=caller,
                footnote=say(foot, lang) if foot else None,
                words=translations.words(lang),
            )
        except Exception:  # an image is a nicety: the text says it all
            log.exception("leaderboard image failed")
            return None

    async def stats(
        self,
        where: Where,
        actor: Actor,
        player: Actor | None = None,
        game: str | None = None,
        opponent: Actor | None = None,
    ) -> Reply:
        """A player's season: rating(s), record, streaks, head-to-head, history chart, their
        casual games here (every season: they have no season), and for Atmalof their dice
        luck."""
        who = player or actor
        guild = guild_key(where.guild_id)
        name = None
        if game is not None and str(game).strip():
            typed = str(game).strip().lower().partition("/")[0]
            try:  # its name in any language ("Malom")
                name = game_named(typed)[0]
            except engine.EngineError as exc:
                raise Refusal("no_such_game", {"name": typed, "choices": ", ".join(GAMES)}) from exc
            if name not in GAMES:
                raise Refusal("no_such_game", {"name": typed, "choices": ", ".join(GAMES)})
        for asked in (who, opponent):
            if asked is not None and asked.is_bot:  # only practice games: nothing to show
                raise Refusal("stats_of_bot", {"name": asked.name})
        if opponent is not None and opponent.id == who.id:
            raise Refusal("head_to_head_needs_other")
        for asked in (who, opponent):  # a rival never met here is a typo more often than not
            if asked is None or await self._has_played(where.guild_id, asked.id, name):
                continue
            if name is None:
                raise Refusal("never_played", {"name": asked.name})
            raise Refusal("never_played_game", {"name": asked.name, "game": msg(f"game.{name}")})
        season = await ladder_store.season_of(self.ctx.store, guild)
        setting = (await self.ctx.settings(where)).get("ladder") or {}
        rule = per_variant_rule(setting)
        played = await ladder_store.games(self.ctx.store, guild, season)
        st = player_stats(
            played,
            who.id,
            name,
            opponent.id if opponent else None,
            per_variant=lambda _g, game_name: rule(game_name),
        )
        async with self.ctx.store.reading() as rx:  # unrated play, which the ladder leaves out
            rival = opponent.id if opponent else None  # under the head-to-head: theirs only
            casual = await rx.casual_records(where.guild_id, who.id, name, rival)
        lines = stats_lines(who, season, name, st, opponent, casual)
        if name in (None, "atmalof"):
            drops = await atmalof_drops(self.ctx.store, where.guild_id, who.id)
            if drops:
                luck = dice_luck_msg(dice_luck(drops), LUCK_GAMES)
                note = lines[-1] if lines[-1].key == "rating.provisional_note" else None
                lines = [*lines[:-1], luck, note] if note else [*lines, luck]
        charted = _charted(st)
        image = await self._chart(where, st, who, charted)
        alt = msg("stats.chart_alt", name=who.name, ladders=[ladder_name(k) for k in charted])
        return Reply(
            text=say_all(lines),
            lines=lines,
            image=image,
            image_name=f"rating-{who.id}.png",
            image_alt=say(alt, await self._language(where)),
        )

    async def _has_played(self, guild_id: int | None, player: int, game: str | None) -> bool:
        """Whether ``player`` has any game here (of ``game``, if named; rated or casual, any
        season, running or over): "has not played here" rather than an empty record."""
        async with self.ctx.store.reading() as rx:
            for name in GAMES if game is None else (game,):
                if await rx.recent_games(name, guild_id, player, 1):
                    return True
        return False

    async def _chart(
        self, where: Where, st: PlayerStats, who: Actor, charted: list[str]
    ) -> bytes | None:
        """One chart per ladder of ``charted``, each titled with the player and the ladder."""
        if self.ctx.renderer is None or not charted:
            return None
        from render.chart import rating_charts_png

        theme = await self._theme(where.guild_id)
        lang = await self._language(where)
        charts = [
            (
                say(msg("stats.chart_title", name=who.name, ladder=ladder_name(k)), lang),
                st.history[k],
            )
            for k in charted
        ]
        try:
            return await asyncio.to_thread(
                rating_charts_png, charts, theme, words=translations.words(lang)
            )
        except Exception:
            log.exception("rating chart failed")
            return None

    async def close_season(self, where: Where, actor: Actor) -> Reply:
        """Moderators: archive this server's ratings; a new season starts with everyone new."""
        if not actor.is_moderator:
            raise Refusal("season_moderators_only")
        if where.guild_id is None:
            raise Refusal("season_needs_server")
        archived = await ladder_store.close_season(
            self.ctx.store, where.guild_id, self.ctx.now(), actor.id
        )
        ladders = sorted({k for k, _ in archived.ratings})
        names = await ladder_store.names(self.ctx.store, [p for _, p in archived.ratings])
        leaders: list[tuple[str, str, str]] = []
        for key in ladders:
            final = leaderboard(
                archived.ladder(key),
                top=1,
                include_provisional=True,
                include_inactive=True,
                now=archived.closed_at,
            )
            if final.rows:
                best = final.rows[0]
                mark = "?" if best.provisional else ""
                leaders.append((key, names.get(best.player, "?"), f"{round(best.rating)}{mark}"))
        lines = season_closed_lines(
            archived.season, actor.name, len(archived.ratings), len(ladders), leaders
        )
        return Reply(text=say_all(lines), lines=lines)


def ladder_setting_problem(value: Any) -> str | None:
    """Why a guild ``ladder`` setting cannot be stored, or None. Known key: ``per_variant``
    (true, false, or a list of games that get one ladder per variant)."""
    unknown = sorted(set(value) - {"per_variant"})
    if unknown:
        return f"unknown ladder setting {unknown[0]!r} (known: per_variant)"
    split = value.get("per_variant", False)
    if isinstance(split, bool):
        return None
    if isinstance(split, list | tuple) and all(g in GAMES for g in split):
        return None
    return f"per_variant must be true, false or a list of games ({', '.join(GAMES)})"


def _charted(st: PlayerStats) -> list[str]:
    """The ladders a player's chart shows, in the games' order ("atmalof", "atmalof/junior",
    "morris"...): every one they have rated games in, or the ``MAX_CHARTS`` with most games."""
    from render.chart import MAX_CHARTS

    busiest = sorted(st.history, key=lambda k: -len(st.history[k]))[:MAX_CHARTS]
    return sorted(busiest, key=lambda k: (GAMES.index(k.partition("/")[0]), k))
