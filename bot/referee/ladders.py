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
from bot import ladder_store
from bot.errors import Refusal
from bot.ladder import Leaderboard, LeaderboardRow, leaderboard
from bot.ladder.ratings import PROVISIONAL_NOTE, is_provisional, rating_text
from bot.ladder.stats import DiceDrop, PlayerStats, dice_luck, player_stats
from bot.ladder_store import GAMES, guild_key, ladder_for, per_variant_rule
from bot.referee.context import Context
from bot.referee.replies import Actor, Reply, Where
from bot.store import Store

log = logging.getLogger(__name__)

LUCK_GAMES = 100
"""Dice luck looks at the player's latest this many Atmalof games on the server."""
MAX_TOP = 25


def _title(ladder: str) -> str:
    game, _, variant = ladder.partition("/")
    title = engine.get_game(game).title
    return f"{title} ({variant})" if variant else title


def _row_text(row: LeaderboardRow, name: str) -> str:
    rank = f"{row.rank}." if row.rank is not None else "–"
    rating = f"{round(row.rating)}{'?' if row.provisional else ''}"
    return f"{rank} {name} {rating} · {row.wins}W {row.losses}L {row.draws}D"


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
        name, _, given = str(game).strip().lower().partition("/")
        if name not in GAMES:
            raise Refusal("no_such_ladder", {"name": name, "choices": ", ".join(GAMES)})
        return ladder_for(name, given or variant, setting)

    async def ladder_names(self, where: Where) -> list[str]:
        """Ladder keys for autocomplete: this season's ladders here, then every game."""
        guild = guild_key(where.guild_id)
        season = await ladder_store.season_of(self.ctx.store, guild)
        found = await ladder_store.ladders(self.ctx.store, guild, season)
        return list(dict.fromkeys([*found, *GAMES]))

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
        title = f"{_title(key)} ladder, season {season}"
        text = _leaderboard_text(board, names, title, actor, include_provisional)
        image = await self._leaderboard_image(where, board, names, title, actor)
        return Reply(
            text=text,
            image=image,
            image_name=f"ladder-{key.replace('/', '-')}-s{season}.png",
            alt_text=text if image else "",
        )

    async def _leaderboard_image(
        self, where: Where, board: Leaderboard, names: dict[int, str], title: str, actor: Actor
    ) -> bytes | None:
        if self.ctx.renderer is None:
            return None
        from render.chart import Standing, leaderboard_png

        rows = [
            Standing.of(r, names.get(r.player, "?"), you=r.player == actor.id) for r in board.rows
        ]
        caller = None
        if board.caller is not None:
            caller = Standing.of(board.caller, names.get(actor.id, actor.name), you=True)
        foot = f"{board.hidden} provisional or inactive hidden" if board.hidden else None
        theme = await self._theme(where.guild_id)
        try:
            return await asyncio.to_thread(
                leaderboard_png, rows, title, theme, caller=caller, footnote=foot
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
        """A player's season: rating(s), record, streaks, head-to-head, history chart, and for
        Atmalof their dice luck."""
        who = player or actor
        guild = guild_key(where.guild_id)
        name = None
        if game is not None and str(game).strip():
            name = str(game).strip().lower().partition("/")[0]
            if name not in GAMES:
                raise Refusal("no_such_game", {"name": name, "choices": ", ".join(GAMES)})
        if opponent is not None and opponent.id == who.id:
            raise Refusal("head_to_head_needs_other")
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
        lines = [
            f"{who.name}, season {season}" + (f", {engine.get_game(name).title}" if name else "")
        ]
        lines += _stats_lines(st, opponent)
        if name in (None, "atmalof"):
            drops = await atmalof_drops(self.ctx.store, where.guild_id, who.id)
            if drops:
                lines.append(f"Dice luck (Atmalof): {dice_luck(drops).text()}")
        image = await self._chart(where, st, who)
        return Reply(
            text="\n".join(lines),
            image=image,
            image_name=f"rating-{who.id}.png",
            alt_text=f"Rating history of {who.name}" if image else "",
        )

    async def _chart(self, where: Where, st: PlayerStats, who: Actor) -> bytes | None:
        if self.ctx.renderer is None or not st.history:
            return None
        from render.chart import rating_chart_png

        ladder, points = max(st.history.items(), key=lambda item: len(item[1]))
        theme = await self._theme(where.guild_id)
        title = f"{who.name} · {_title(ladder)}"
        try:
            return await asyncio.to_thread(rating_chart_png, points, theme, title=title)
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
        lines = [
            f"Season {archived.season} is closed by {actor.name}: {len(archived.ratings)} "
            f"rating{'s' if len(archived.ratings) != 1 else ''} on {len(ladders)} "
            f"ladder{'s' if len(ladders) != 1 else ''} archived.",
        ]
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
                name = names.get(best.player, "?")
                lines.append(f"{_title(key)} leader: {name} {round(best.rating)}{mark}")
        lines.append(f"Season {archived.season + 1} starts now: everyone begins at 1500?.")
        return Reply(text="\n".join(lines))


def _leaderboard_text(
    board: Leaderboard, names: dict[int, str], title: str, actor: Actor, provisional: bool
) -> str:
    lines = [title]
    if not board.rows:
        settle = " (new players are ranked once their rating settles; ask for provisional ones)."
        lines.append("No ranked players yet" + ("." if provisional else settle))
    lines += [_row_text(r, names.get(r.player, "?")) for r in board.rows]
    if board.hidden:
        players = "player" if board.hidden == 1 else "players"
        lines.append(f"({board.hidden} provisional or inactive {players} hidden)")
    me = board.caller
    if me is None:
        lines.append(f"{actor.name}: not on this ladder yet; play a rated game to join.")
    elif me.rank is None:
        why = "provisional" if me.provisional else "inactive"
        lines.append(
            f"{actor.name}: {round(me.rating)}{'?' if me.provisional else ''}, unranked ({why})."
        )
    elif all(r.player != actor.id for r in board.rows):
        lines.append(f"{actor.name}: #{me.rank} of {board.ranked}, {round(me.rating)}.")
    else:
        lines.append(f"{actor.name}: #{me.rank} of {board.ranked}.")
    if any(r.provisional for r in board.rows) or (me is not None and me.provisional):
        lines.append(PROVISIONAL_NOTE)
    return "\n".join(lines)


def _stats_lines(st: PlayerStats, opponent: Actor | None) -> list[str]:
    lines = []
    if st.ratings:
        lines.append(
            "Rating: "
            + ", ".join(
                f"{_title(k)} {rating_text(s)} ({s.games} game{'s' if s.games != 1 else ''})"
                for k, s in sorted(st.ratings.items())
            )
        )
    else:
        lines.append("Rating: no rated games yet this season.")
    lines.append(f"Record (rated): {st.record.text()}")
    best = st.best_win_streak.text()  # "best none" read as if there were no streak at all
    lines.append(f"Streak: {st.current_streak.text()} now; most wins in a row: {best}")
    if opponent is not None and st.head_to_head is not None:
        lines.append(f"Head-to-head against {opponent.name}: {st.head_to_head.text()}")
    if any(is_provisional(s) for s in st.ratings.values()):
        lines.append(PROVISIONAL_NOTE)  # last, once: what the "?" of a rating means
    return lines


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


def ladder_setting_text(value: Any, *, changed: bool = True) -> str:
    split = value.get("per_variant", False)
    if split is True:
        text = "one ladder per variant for every game"
    elif not split:
        text = "one ladder per game, variants together"
    else:
        text = f"one ladder per variant for {', '.join(split)}"
    return text + (" (this season's ratings recomputed)" if changed else "")
