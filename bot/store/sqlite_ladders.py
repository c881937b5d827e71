"""The ladders' rows in SQLite: ratings, seasons and the per-game rating log.

The reads and writes behind the ladder methods of ``Reader`` and ``Transaction`` (mixed into
``bot.store.sqlite``'s unit-of-work classes). Only rows go in and out; what a game does to a
rating is computed by the pure ``bot.ladder`` and composed by the referee in the transaction
that ends the game. Games outside any server (the console, direct messages) are on guild 0.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.ladder import FinishedGame, RatingChange, SeasonArchive, Table
from bot.ladder.ratings import RatingState
from bot.ladder.rules import LOCAL_GUILD, guild_key, to_time
from bot.ladder.tables import both_acted
from bot.store.protocol import LoggedChange
from bot.store.sqlite_begin import Conn

_STATE_COLUMNS = "rating, rd, volatility, games, last_played, wins, losses, draws"
_UPSERT_RATING = (
    f"INSERT OR REPLACE INTO ratings (guild_id, season, ladder, player_id, {_STATE_COLUMNS})"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
_UPSERT_CHANGE = (
    "INSERT OR REPLACE INTO rating_changes (game_id, guild_id, season, ladder, player0, player1,"
    " ended_at, before0, after0, before1, after1) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_GAME_FIELDS = (
    "id, guild_id, game, variant, player0, player1, winner, termination, rated, ended_at, moved"
)


def state_json(state: RatingState) -> str:
    """A rating state as the rating log and the season archives keep it."""
    return json.dumps(_state_dict(state))


def _state_dict(state: RatingState) -> dict[str, Any]:
    return {
        "rating": state.rating,
        "rd": state.rd,
        "volatility": state.volatility,
        "games": state.games,
        "last_played": None if state.last_played is None else state.last_played.timestamp(),
        "wins": state.wins,
        "losses": state.losses,
        "draws": state.draws,
    }


def state_from(data: Mapping[str, Any]) -> RatingState:
    return RatingState(
        rating=float(data["rating"]),
        rd=float(data["rd"]),
        volatility=float(data["volatility"]),
        games=int(data["games"]),
        last_played=to_time(data["last_played"]),
        wins=int(data["wins"]),
        losses=int(data["losses"]),
        draws=int(data["draws"]),
    )


def _rating_row(season: int, key: tuple[int, str, int], s: RatingState) -> tuple[Any, ...]:
    last = None if s.last_played is None else s.last_played.timestamp()
    return (key[0], season, key[1], key[2], s.rating, s.rd, s.volatility, s.games, last,
            s.wins, s.losses, s.draws)  # fmt: skip


def _change_row(game_id: int, season: int, g: FinishedGame, c: RatingChange) -> tuple[Any, ...]:
    return (
        game_id,
        g.guild_id,
        season,
        c.keys[0][1],
        g.players[0],
        g.players[1],
        g.ended_at.timestamp(),
        state_json(c.before[0]),
        state_json(c.after[0]),
        state_json(c.before[1]),
        state_json(c.after[1]),
    )


def _state_of_row(row: Any) -> RatingState:
    return RatingState(
        rating=row["rating"],
        rd=row["rd"],
        volatility=row["volatility"],
        games=row["games"],
        last_played=to_time(row["last_played"]),
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
    )


def _logged(row: Any) -> LoggedChange:
    return LoggedChange(
        game_id=row["game_id"],
        guild=row["guild_id"],
        season=row["season"],
        ladder=row["ladder"],
        players=(row["player0"], row["player1"]),
        ended_at=row["ended_at"],
        before=(state_from(json.loads(row["before0"])), state_from(json.loads(row["before1"]))),
        after=(state_from(json.loads(row["after0"])), state_from(json.loads(row["after1"]))),
    )


def _finished(row: Any, season: int) -> FinishedGame:
    return FinishedGame(
        guild_id=guild_key(row["guild_id"]),
        game=row["game"],
        variant=row["variant"],
        players=(row["player0"], row["player1"]),
        winner=row["winner"],
        termination=row["termination"] or "",
        rated=bool(row["rated"]),
        ended_at=to_time(row["ended_at"]) or datetime.fromtimestamp(0, UTC),
        season=season,
        both_acted=both_acted(row["moved"]),
    )


class LadderReads:
    """The ladder reads of a unit of work (``db`` is its connection)."""

    db: Conn

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self.db.execute_fetchall(sql, params))

    async def season(self, guild: int) -> int:
        rows = await self._rows("SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild,))
        return int(rows[0][0] or 1)

    async def finished_game(self, game_id: int, season: int) -> FinishedGame | None:
        rows = await self._rows(f"SELECT {_GAME_FIELDS} FROM games WHERE id = ?", (game_id,))
        if not rows or rows[0]["ended_at"] is None:
            return None
        return _finished(rows[0], season)

    async def rated_games(
        self, guild: int, season: int | None, ids: Sequence[int] | None = None
    ) -> list[tuple[int, FinishedGame]]:
        starts = await self._rows(
            "SELECT number, started_at FROM seasons WHERE guild_id = ? ORDER BY number", (guild,)
        )
        where = "g.guild_id IS NULL" if guild == LOCAL_GUILD else "g.guild_id = ?"
        rows = await self._rows(
            f"SELECT {', '.join('g.' + f for f in _GAME_FIELDS.split(', '))}, rc.season AS season"
            " FROM games g LEFT JOIN rating_changes rc ON rc.game_id = g.id"
            f" WHERE {where} AND g.status = 'finished' AND g.rated = 1 AND g.ended_at IS NOT NULL"
            + ("" if ids is None else f" AND g.id IN ({', '.join('?' * len(ids))})")
            + " ORDER BY g.ended_at, g.id",
            (() if guild == LOCAL_GUILD else (guild,)) + tuple(ids or ()),
        )
        out = []
        for row in rows:
            number = row["season"]
            if number is None:
                number = max((n for n, t in starts if t <= row["ended_at"]), default=1)
            if season is None or number == season:
                out.append((int(row["id"]), _finished(row, int(number))))
        return out

    async def rated_later(
        self, game_id: int, guild: int, season: int, ladder: str, players: tuple[int, int]
    ) -> bool:
        a, b = players
        later = await self._rows(
            "SELECT 1 FROM rating_changes, (SELECT ended_at AS at FROM games WHERE id = ?) e"
            " WHERE game_id = ? OR (guild_id = ? AND season = ? AND ladder = ?"
            " AND (player0 IN (?, ?) OR player1 IN (?, ?))"
            " AND (ended_at > e.at OR (ended_at = e.at AND game_id > ?))) LIMIT 1",
            (game_id, game_id, guild, season, ladder, a, b, a, b, game_id),
        )
        return bool(later)

    async def ratings(
        self, guild: int, ladder: str, season: int, players: Sequence[int] | None = None
    ) -> dict[int, RatingState]:
        only = "" if players is None else f" AND player_id IN ({', '.join('?' * len(players))})"
        rows = await self._rows(
            f"SELECT player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ? AND season = ?"
            " AND ladder = ?" + only,
            (guild, season, ladder, *(players or ())),
        )
        return {r["player_id"]: _state_of_row(r) for r in rows}

    async def table(self, guild: int, season: int | None) -> dict[int, Table]:
        rows = await self._rows(
            f"SELECT season, ladder, player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ?"
            + ("" if season is None else " AND season = ?"),
            (guild,) if season is None else (guild, season),
        )
        out: dict[int, Table] = {}
        for r in rows:
            out.setdefault(r["season"], {})[(guild, r["ladder"], r["player_id"])] = _state_of_row(r)
        return out

    async def ladders(self, guild: int, season: int) -> list[str]:
        rows = await self._rows(
            "SELECT ladder, COUNT(*) AS n FROM ratings WHERE guild_id = ? AND season = ?"
            " GROUP BY ladder ORDER BY n DESC, ladder",
            (guild, season),
        )
        return [r["ladder"] for r in rows]

    async def rating_change(self, game_id: int) -> LoggedChange | None:
        rows = await self._rows("SELECT * FROM rating_changes WHERE game_id = ?", (game_id,))
        return _logged(rows[0]) if rows else None

    async def rating_log(self, guild: int) -> dict[int, set[LoggedChange]]:
        out: dict[int, set[LoggedChange]] = {}
        for row in await self._rows("SELECT * FROM rating_changes WHERE guild_id = ?", (guild,)):
            out.setdefault(row["season"], set()).add(_logged(row))
        return out

    async def rated_season(self, game_id: int) -> tuple[int, int] | None:
        rows = await self._rows(
            "SELECT guild_id, season FROM rating_changes WHERE game_id = ?", (game_id,)
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def archive(self, guild: int, season: int) -> SeasonArchive | None:
        rows = await self._rows(
            "SELECT closed_at, archive FROM seasons WHERE guild_id = ? AND number = ?"
            " AND closed_at IS NOT NULL",
            (guild, season),
        )
        if not rows:
            return None
        data = json.loads(rows[0]["archive"])
        snapshot = {(r["ladder"], r["player"]): state_from(r) for r in data["ratings"]}
        closed = to_time(rows[0]["closed_at"]) or datetime.now(UTC)
        return SeasonArchive(guild, season, closed, snapshot)

    async def names(self, ids: Iterable[int]) -> dict[int, str]:
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        rows = await self._rows(
            f"SELECT id, name FROM players WHERE id IN ({', '.join('?' * len(wanted))})", wanted
        )
        return {r["id"]: r["name"] for r in rows}

    async def ladder_mark(self, guild: int) -> tuple[Any, ...]:
        seasons = await self._rows(
            "SELECT COUNT(*), COALESCE(MAX(number), 0), COALESCE(MAX(closed_at), 0) FROM seasons"
            " WHERE guild_id = ?",
            (guild,),
        )
        setting = await self._rows("SELECT ladder FROM guild_settings WHERE guild_id = ?", (guild,))
        ladder = json.loads(setting[0][0]) if setting else {}
        return (*seasons[0], json.dumps(ladder, sort_keys=True))

    async def finished_versions(self, guild: int) -> dict[int, int]:
        where = "guild_id IS NULL" if guild == LOCAL_GUILD else "guild_id = ?"
        rows = await self._rows(
            f"SELECT id, version FROM games WHERE {where} AND status = 'finished'",
            () if guild == LOCAL_GUILD else (guild,),
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def rated_guilds(self) -> list[int]:
        found = await self._rows(
            "SELECT DISTINCT COALESCE(guild_id, 0) FROM games WHERE status = 'finished'"
            " AND rated = 1 UNION SELECT DISTINCT guild_id FROM ratings",
        )
        return sorted(int(r[0]) for r in found)


class LadderWrites:
    """The ladder writes of a transaction (``db`` is its connection)."""

    db: Conn

    async def put_ratings(self, season: int, rows: Table) -> None:
        await self.db.executemany(
            _UPSERT_RATING, [_rating_row(season, k, s) for k, s in rows.items()]
        )

    async def log_rating_change(
        self, game_id: int, season: int, game: FinishedGame, change: RatingChange
    ) -> None:
        await self.db.execute(_UPSERT_CHANGE, _change_row(game_id, season, game, change))

    async def replace_season(
        self,
        guild: int,
        season: int,
        table: Table,
        changes: Sequence[tuple[int, FinishedGame, RatingChange]],
    ) -> None:
        db = self.db
        await db.execute("DELETE FROM ratings WHERE guild_id = ? AND season = ?", (guild, season))
        await db.execute(
            "DELETE FROM rating_changes WHERE guild_id = ? AND season = ?", (guild, season)
        )
        await db.executemany(_UPSERT_RATING, [_rating_row(season, k, s) for k, s in table.items()])
        await db.executemany(_UPSERT_CHANGE, [_change_row(i, season, g, c) for i, g, c in changes])

    async def set_ladder_setting(self, guild: int, setting: Mapping[str, Any], now: float) -> None:
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, ladder, updated_at) VALUES (?,?,?)"
            " ON CONFLICT(guild_id) DO UPDATE SET ladder = excluded.ladder,"
            " updated_at = excluded.updated_at",
            (guild, json.dumps(dict(setting)), now),
        )

    async def close_season(
        self, guild: int, season: int, now: float, by: int | None, archive: SeasonArchive
    ) -> None:
        data = {
            "guild_id": guild,
            "season": season,
            "closed_at": now,
            "ratings": [
                {"ladder": k, "player": p, **_state_dict(s)}
                for (k, p), s in sorted(archive.ratings.items(), key=lambda kv: kv[0])
            ],
        }
        db = self.db
        await db.execute(
            "INSERT OR IGNORE INTO seasons (guild_id, number, started_at) VALUES (?, ?, 0)",
            (guild, season),
        )
        await db.execute(
            "UPDATE seasons SET closed_at = ?, closed_by = ?, archive = ? WHERE guild_id = ?"
            " AND number = ?",
            (now, by, json.dumps(data, sort_keys=True), guild, season),
        )
        await db.execute(
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
            (guild, season + 1, now),
        )
