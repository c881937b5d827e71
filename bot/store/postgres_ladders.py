"""The ladders' statements where PostgreSQL's dialect differs from SQLite's: upserts are
``ON CONFLICT ... DO UPDATE`` (not ``INSERT OR REPLACE``), a season row made only to be closed
starts at the epoch as a ``timestamptz``. Every other ladder read and write is the shared one in
``bot.store.sqlite_ladders``, run through ``bot.store.postgres.PgConnection``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.ladder import FinishedGame, RatingChange, SeasonArchive, Table
from bot.store.sqlite_ladders import _STATE_COLUMNS, _change_row, _rating_row, _state_dict

_UPSERT_RATING = (
    f"INSERT INTO ratings (guild_id, season, ladder, player_id, {_STATE_COLUMNS})"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (guild_id, season, ladder, player_id)"
    " DO UPDATE SET rating = excluded.rating, rd = excluded.rd,"
    " volatility = excluded.volatility, games = excluded.games,"
    " last_played = excluded.last_played, wins = excluded.wins, losses = excluded.losses,"
    " draws = excluded.draws"
)
_UPSERT_CHANGE = (
    "INSERT INTO rating_changes (game_id, guild_id, season, ladder, player0, player1,"
    " ended_at, before0, after0, before1, after1) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT (game_id) DO UPDATE SET guild_id = excluded.guild_id,"
    " season = excluded.season, ladder = excluded.ladder, player0 = excluded.player0,"
    " player1 = excluded.player1, ended_at = excluded.ended_at, before0 = excluded.before0,"
    " after0 = excluded.after0, before1 = excluded.before1, after1 = excluded.after1"
)


class PgLadderReads:
    """The ladder reads whose SQL differs on PostgreSQL (``db``: the unit's connection)."""

    db: Any

    async def ladder_mark(self, guild: int) -> tuple[Any, ...]:
        seasons = await self.db.execute_fetchall(
            "SELECT COUNT(*), COALESCE(MAX(number), 0),"
            " COALESCE(MAX(closed_at), 'epoch'::timestamptz) FROM seasons WHERE guild_id = ?",
            (guild,),
        )
        setting = await self.db.execute_fetchall(
            "SELECT ladder FROM guild_settings WHERE guild_id = ?", (guild,)
        )
        ladder = json.loads(setting[0][0]) if setting else {}
        return (*seasons[0], json.dumps(ladder, sort_keys=True))


class PgLadderWrites:
    """The ladder writes whose SQL differs on PostgreSQL."""

    db: Any

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
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, 'epoch')"
            " ON CONFLICT DO NOTHING",
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
