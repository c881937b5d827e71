"""Ladders in the store: rating rows, seasons and the per-game rating log, over ``bot.ladder``.

The live path is ``rate_finished(db, game_id)``: ``Store.change_game`` calls it inside the very
transaction that finishes a game, so a game is never over without its rating change (nor rated
twice). It folds ``bot.ladder.apply_game`` onto the two players' rows, exactly as
``bot.ladder.rebuild`` folds it over the stored games, so the table always equals the rebuild:
when a game would land out of order (an earlier-ended game of one of its players was rated
after a later one, or the game was rated before), the guild's season is recomputed instead.

Games outside any server (the console, direct messages) are rated on guild 0.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import aiosqlite

from bot.ladder import (
    FinishedGame,
    PerVariant,
    RatingChange,
    RatingKey,
    SeasonArchive,
    Table,
    apply_game,
    counts,
    game_ladder,
    ladder_key,
)
from bot.ladder.ratings import PROVISIONAL_NOTE, RatingState, is_provisional, rating_change_text

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")

LOCAL_GUILD = 0
"""The ladder of games played outside any server."""
GAMES = ("atmalof", "morris", "abalone")


def guild_key(guild_id: int | None) -> int:
    return LOCAL_GUILD if guild_id is None else guild_id


def to_time(t: float | None) -> datetime | None:
    """A stored unix time as the aware datetime the rating maths uses (and back: ``.timestamp``)."""
    return None if t is None else datetime.fromtimestamp(t, UTC)


def per_variant_rule(setting: Mapping[str, Any]) -> Callable[[str], bool]:
    """From a guild's ``ladder`` setting: does ``game`` get one ladder per variant?

    ``{"per_variant": true}`` splits every game, ``{"per_variant": ["atmalof"]}`` only those.
    """
    value = setting.get("per_variant", False)
    if isinstance(value, list | tuple):
        chosen = {str(v) for v in value}
        return lambda game: game in chosen
    return lambda game: bool(value)


def state_json(state: RatingState) -> str:
    return json.dumps(
        {
            "rating": state.rating,
            "rd": state.rd,
            "volatility": state.volatility,
            "games": state.games,
            "last_played": None if state.last_played is None else state.last_played.timestamp(),
            "wins": state.wins,
            "losses": state.losses,
            "draws": state.draws,
        }
    )


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


_STATE_COLUMNS = "rating, rd, volatility, games, last_played, wins, losses, draws"
_UPSERT_RATING = (
    f"INSERT OR REPLACE INTO ratings (guild_id, season, ladder, player_id, {_STATE_COLUMNS})"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
_UPSERT_CHANGE = (
    "INSERT OR REPLACE INTO rating_changes (game_id, guild_id, season, ladder, player0, player1,"
    " ended_at, before0, after0, before1, after1) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_GAME_FIELDS = "id, guild_id, game, variant, player0, player1, winner, termination, rated, ended_at"


def _rating_row(season: int, key: RatingKey, s: RatingState) -> tuple[Any, ...]:
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
    )


# --- inside a transaction (db is the Store's connection, BEGIN IMMEDIATE already run) -------


async def _fetch(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return list(await db.execute_fetchall(sql, params))


async def current_season(db: aiosqlite.Connection, guild: int) -> int:
    """The guild's open season: 1 until a moderator first closes one."""
    rows = await _fetch(db, "SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild,))
    return int(rows[0][0] or 1)


async def ladder_setting(db: aiosqlite.Connection, guild: int) -> dict[str, Any]:
    rows = await _fetch(db, "SELECT ladder FROM guild_settings WHERE guild_id = ?", (guild,))
    return json.loads(rows[0][0]) if rows else {}


async def _per_variant(db: aiosqlite.Connection, guild: int) -> PerVariant:
    rule = per_variant_rule(await ladder_setting(db, guild))
    return lambda _guild, game: rule(game)


async def season_games(
    db: aiosqlite.Connection, guild: int, season: int | None, ids: Sequence[int] | None = None
) -> list[tuple[int, FinishedGame]]:
    """(game id, game) for the guild's finished rated games, oldest first (ended_at, then id);
    ``ids``: only those games.

    A game's season is the one it was rated in (``rating_changes``); a game never rated live
    (stored before ladders existed) belongs to the last season started before it ended.
    """
    starts = await _fetch(
        db, "SELECT number, started_at FROM seasons WHERE guild_id = ? ORDER BY number", (guild,)
    )
    where = "g.guild_id IS NULL" if guild == LOCAL_GUILD else "g.guild_id = ?"
    rows = await _fetch(
        db,
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


def replay_changes(
    games: Iterable[tuple[int, FinishedGame]], per_variant: PerVariant
) -> tuple[Table, list[tuple[int, FinishedGame, RatingChange]]]:
    """``bot.ladder.rebuild``'s fold, keeping each game's change (for the rating log)."""
    ordered = sorted(games, key=lambda item: item[1].ended_at)
    table: Table = {}
    changes = []
    for game_id, game in ordered:
        change = apply_game(table, game, per_variant)
        if change is not None:
            table.update(change.rows())
            changes.append((game_id, game, change))
    return table, changes


async def rerate(db: aiosqlite.Connection, guild: int, season: int) -> Table:
    """Recompute one guild's season from its stored games and write it (rows and log)."""
    per_variant = await _per_variant(db, guild)
    table, changes = replay_changes(await season_games(db, guild, season), per_variant)
    await db.execute("DELETE FROM ratings WHERE guild_id = ? AND season = ?", (guild, season))
    await db.execute(
        "DELETE FROM rating_changes WHERE guild_id = ? AND season = ?", (guild, season)
    )
    await db.executemany(_UPSERT_RATING, [_rating_row(season, k, s) for k, s in table.items()])
    await db.executemany(_UPSERT_CHANGE, [_change_row(i, season, g, c) for i, g, c in changes])
    return table


RESULT_COLUMNS = frozenset(
    {"status", "winner", "termination", "rated", "ended_at", "player0", "player1", "variant"}
)
"""Columns of a finished game whose change afterwards (a dispute) changes the ladder."""


async def rate_finished(db: aiosqlite.Connection, game_id: int) -> RatingChange | None:
    """The live update for a game that has just finished (called by ``Store.change_game``).

    Does nothing for a game that does not count (casual, self-play, aborted). A database fault
    fails the whole transaction (the game does not end either); a bug in the ladder code is
    logged and undone to a savepoint, so it never keeps a game from ending (``python -m bot
    ladder rebuild --check`` then reports the missing game).
    """
    return await _guarded(db, game_id, _rate_finished(db, game_id))


async def result_changed(db: aiosqlite.Connection, game_id: int) -> None:
    """A finished game's result changed afterwards (voided, awarded, reopened by a dispute):
    recompute the season it was rated in, in the same transaction (``Store.change_game``)."""

    async def redo() -> None:
        rated = await _fetch(
            db, "SELECT guild_id, season FROM rating_changes WHERE game_id = ?", (game_id,)
        )
        if rated:
            await rerate(db, rated[0]["guild_id"], rated[0]["season"])
            return
        rows = await _fetch(db, "SELECT guild_id FROM games WHERE id = ?", (game_id,))
        if rows:
            guild = guild_key(rows[0]["guild_id"])
            await rerate(db, guild, await current_season(db, guild))

    await _guarded(db, game_id, redo())


async def _guarded(db: aiosqlite.Connection, game_id: int, work: Awaitable[T]) -> T | None:
    await db.execute("SAVEPOINT ladder")
    try:
        done = await work
    except sqlite3.Error:
        raise
    except Exception:
        log.exception("rating game %s failed; the ladder is stale until a rebuild", game_id)
        await db.execute("ROLLBACK TO ladder")
        done = None
    await db.execute("RELEASE ladder")
    return done


async def _rate_finished(db: aiosqlite.Connection, game_id: int) -> RatingChange | None:
    rows = await _fetch(db, f"SELECT {_GAME_FIELDS} FROM games WHERE id = ?", (game_id,))
    if not rows or rows[0]["ended_at"] is None:
        return None
    guild = guild_key(rows[0]["guild_id"])
    season = await current_season(db, guild)
    game = _finished(rows[0], season)
    if not counts(game):
        return None
    per_variant = await _per_variant(db, guild)
    ladder = game_ladder(game, per_variant)
    a, b = game.players
    later = await _fetch(
        db,
        "SELECT 1 FROM rating_changes WHERE game_id = ? OR (guild_id = ? AND season = ?"
        " AND ladder = ? AND (player0 IN (?, ?) OR player1 IN (?, ?))"
        " AND (ended_at > ? OR (ended_at = ? AND game_id > ?))) LIMIT 1",
        (game_id, guild, season, ladder, a, b, a, b, rows[0]["ended_at"], rows[0]["ended_at"],
         game_id),
    )  # fmt: skip
    if later:  # out of order: the fold must be redone in the rebuild's order
        await rerate(db, guild, season)
        return None
    keys = [(guild, ladder, p) for p in (a, b)]
    found = await _fetch(
        db,
        f"SELECT player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ? AND season = ?"
        " AND ladder = ? AND player_id IN (?, ?)",
        (guild, season, ladder, a, b),
    )
    table = {(guild, ladder, r["player_id"]): _state_of_row(r) for r in found}
    change = apply_game(table, game, per_variant)
    assert change is not None and list(change.keys) == keys
    await db.executemany(
        _UPSERT_RATING, [_rating_row(season, k, s) for k, s in change.rows().items()]
    )
    await db.execute(_UPSERT_CHANGE, _change_row(game_id, season, game, change))
    return change


# --- through the Store (each call one read or one transaction) --------------------------------


@dataclass(frozen=True, slots=True)
class LoggedChange:
    """A game's entry in the rating log: its ladder and both players' states around it."""

    game_id: int
    season: int
    ladder: str
    players: tuple[int, int]
    before: tuple[RatingState, RatingState]
    after: tuple[RatingState, RatingState]


async def rating_change(store: Store, game_id: int) -> LoggedChange | None:
    """What the game did to the ratings, or None when it did not count."""
    row = await store._one("SELECT * FROM rating_changes WHERE game_id = ?", (game_id,))
    if row is None:
        return None
    return LoggedChange(
        game_id=game_id,
        season=row["season"],
        ladder=row["ladder"],
        players=(row["player0"], row["player1"]),
        before=(state_from(json.loads(row["before0"])), state_from(json.loads(row["before1"]))),
        after=(state_from(json.loads(row["after0"])), state_from(json.loads(row["after1"]))),
    )


async def season_of(store: Store, guild: int) -> int:
    row = await store._one("SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild,))
    return int((row[0] if row is not None else None) or 1)


async def ratings(store: Store, guild: int, ladder: str, season: int) -> dict[int, RatingState]:
    """One ladder's rows by player id (``bot.ladder.leaderboard``'s input)."""
    rows = await store._all(
        f"SELECT player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ? AND season = ?"
        " AND ladder = ?",
        (guild, season, ladder),
    )
    return {r["player_id"]: _state_of_row(r) for r in rows}


async def table(store: Store, guild: int, season: int) -> Table:
    """The guild's whole table for a season, every ladder."""
    rows = await store._all(
        f"SELECT ladder, player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ?"
        " AND season = ?",
        (guild, season),
    )
    return {(guild, r["ladder"], r["player_id"]): _state_of_row(r) for r in rows}


async def ladders(store: Store, guild: int, season: int) -> list[str]:
    """The ladder keys with at least one rated player this season, busiest first."""
    rows = await store._all(
        "SELECT ladder, COUNT(*) AS n FROM ratings WHERE guild_id = ? AND season = ?"
        " GROUP BY ladder ORDER BY n DESC, ladder",
        (guild, season),
    )
    return [r["ladder"] for r in rows]


async def games(store: Store, guild: int, season: int | None) -> list[FinishedGame]:
    """The guild's finished rated games of a season (None: every season), oldest first."""
    async with store._lock:
        return [g for _, g in await season_games(store.db, guild, season)]


async def names(store: Store, ids: Iterable[int]) -> dict[int, str]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await store._all(
        f"SELECT id, name FROM players WHERE id IN ({', '.join('?' * len(wanted))})", wanted
    )
    return {r["id"]: r["name"] for r in rows}


async def set_ladder_setting(
    store: Store, guild: int, setting: Mapping[str, Any], now: float
) -> Table:
    """Store the guild's ladder setting and recompute its open season under it, atomically."""
    async with store._write(f"the ladder setting of guild {guild}") as db:
        await db.execute(
            "INSERT INTO guild_settings (guild_id, ladder, updated_at) VALUES (?,?,?)"
            " ON CONFLICT(guild_id) DO UPDATE SET ladder = excluded.ladder,"
            " updated_at = excluded.updated_at",
            (guild, json.dumps(dict(setting)), now),
        )
        return await rerate(db, guild, await current_season(db, guild))


async def close_season(store: Store, guild: int, now: float, by: int | None) -> SeasonArchive:
    """Archive the open season's table and open the next one, in one transaction."""
    async with store._write(f"closing the season of guild {guild}") as db:
        season = await current_season(db, guild)
        rows = await _fetch(
            db,
            f"SELECT ladder, player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ?"
            " AND season = ?",
            (guild, season),
        )
        snapshot = {(r["ladder"], r["player_id"]): _state_of_row(r) for r in rows}
        archive = {
            "guild_id": guild,
            "season": season,
            "closed_at": now,
            "ratings": [
                {"ladder": k, "player": p, **json.loads(state_json(s))}
                for (k, p), s in sorted(snapshot.items(), key=lambda kv: (kv[0][0], kv[0][1]))
            ],
        }
        await db.execute(
            "INSERT OR IGNORE INTO seasons (guild_id, number, started_at) VALUES (?, ?, 0)",
            (guild, season),
        )
        await db.execute(
            "UPDATE seasons SET closed_at = ?, closed_by = ?, archive = ? WHERE guild_id = ?"
            " AND number = ?",
            (now, by, json.dumps(archive, sort_keys=True), guild, season),
        )
        await db.execute(
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
            (guild, season + 1, now),
        )
    return SeasonArchive(guild, season, to_time(now) or datetime.now(UTC), snapshot)


async def archive(store: Store, guild: int, season: int) -> SeasonArchive | None:
    """A closed season's final table, or None if that season is not closed."""
    row = await store._one(
        "SELECT closed_at, archive FROM seasons WHERE guild_id = ? AND number = ?"
        " AND closed_at IS NOT NULL",
        (guild, season),
    )
    if row is None:
        return None
    data = json.loads(row["archive"])
    snapshot = {(r["ladder"], r["player"]): state_from(r) for r in data["ratings"]}
    return SeasonArchive(guild, season, to_time(row["closed_at"]) or datetime.now(UTC), snapshot)


# --- rebuild (python -m bot ladder rebuild) ----------------------------------------------------


@dataclass
class RebuildReport:
    """What a rebuild found: per (guild, season), rows that differ from the stored ones;
    ``retries``: computations redone because a game ended (or a result changed) meanwhile."""

    seasons: int = 0
    games: int = 0
    rows: int = 0
    differences: list[str] = field(default_factory=list)
    retries: int = 0


class RebuildRaced(Exception):
    """The games kept changing under the rebuild (``MAX_REBUILD_TRIES`` times in a row)."""


MAX_REBUILD_TRIES = 8


@dataclass
class _Season:
    """One recomputed season that differs from the stored one: its table, its rating log rows,
    and the (ended_at, id) of the last game folded in, so later games can be folded on top."""

    table: Table
    log: list[tuple[Any, ...]]
    last: tuple[float, int]


@dataclass
class _GuildRebuild:
    """One guild's recomputed seasons, from one snapshot of the file."""

    mark: tuple[Any, ...]  # its seasons and ladder setting (``_guild_mark``)
    finished: dict[int, int]  # its finished games: id -> version
    per_variant: PerVariant
    seasons: int = 0
    games: int = 0
    rows: int = 0
    differences: list[str] = field(default_factory=list)
    writes: dict[int, _Season] = field(default_factory=dict)  # only seasons that differ


async def _guild_mark(db: aiosqlite.Connection, guild: int) -> tuple[Any, ...]:
    """The guild's seasons and ladder setting, in a few values: equal marks, equal rules."""
    seasons = await _fetch(
        db,
        "SELECT COUNT(*), COALESCE(MAX(number), 0), COALESCE(MAX(closed_at), 0) FROM seasons"
        " WHERE guild_id = ?",
        (guild,),
    )
    return (*seasons[0], json.dumps(await ladder_setting(db, guild), sort_keys=True))


async def _finished_versions(db: aiosqlite.Connection, guild: int) -> dict[int, int]:
    """id -> version of the guild's finished games: a version moves with any change to one."""
    where = "guild_id IS NULL" if guild == LOCAL_GUILD else "guild_id = ?"
    rows = await _fetch(
        db,
        f"SELECT id, version FROM games WHERE {where} AND status = 'finished'",
        () if guild == LOCAL_GUILD else (guild,),
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def _compute_guild(store: Store, guild: int) -> _GuildRebuild:
    """Read one consistent snapshot of the guild (a read transaction: writers go on), then
    fold its seasons with no lock held."""
    async with store.reading() as db:
        mark = await _guild_mark(db, guild)
        finished = await _finished_versions(db, guild)
        per_variant = await _per_variant(db, guild)
        played = await season_games(db, guild, None)
        old = await _fetch(
            db,
            f"SELECT season, ladder, player_id, {_STATE_COLUMNS} FROM ratings WHERE guild_id = ?",
            (guild,),
        )
        logged = await _fetch(db, "SELECT * FROM rating_changes WHERE guild_id = ?", (guild,))
    stored: dict[int, Table] = {}
    for r in old:
        key = (guild, r["ladder"], r["player_id"])
        stored.setdefault(r["season"], {})[key] = _state_of_row(r)
    stored_log: dict[int, set[tuple[Any, ...]]] = {}
    for r in logged:
        stored_log.setdefault(r["season"], set()).add(tuple(r))
    out = _GuildRebuild(mark, finished, per_variant)
    for season in sorted({fg.season for _, fg in played} | set(stored)):
        chosen = [(i, fg) for i, fg in played if fg.season == season]
        fresh, changes = replay_changes(chosen, per_variant)
        log_rows = [_change_row(i, season, g, c) for i, g, c in changes]
        out.seasons += 1
        out.games += sum(counts(fg) for _, fg in chosen)
        out.rows += len(fresh)
        differences = _differences(guild, season, stored.get(season, {}), fresh)
        out.differences += differences
        if differences or set(log_rows) != stored_log.get(season, set()):
            last = max(((fg.ended_at.timestamp(), i) for i, fg in chosen), default=(0.0, 0))
            out.writes[season] = _Season(fresh, log_rows, last)
    return out


async def _catch_up(db: aiosqlite.Connection, guild: int, done: _GuildRebuild) -> int | None:
    """Inside the write: fold onto the recomputed seasons the games that finished since the
    snapshot (the live path rated them on the old rows); how many counted. None when
    something else changed (a finished game's result, a season, the setting, a game ending
    out of order): the guild must be computed again."""
    if await _guild_mark(db, guild) != done.mark:
        return None
    now = await _finished_versions(db, guild)
    if any(now.get(i) != v for i, v in done.finished.items()):
        return None  # a finished game changed or was reopened (a dispute)
    new = [i for i in now if i not in done.finished]
    added = await season_games(db, guild, None, new) if new else []
    for game_id, game in added:
        season = done.writes.get(game.season)
        if season is None:
            continue  # an unchanged season: the live update kept it equal to the rebuild
        key = (game.ended_at.timestamp(), game_id)
        if key < season.last:
            return None
        change = apply_game(season.table, game, done.per_variant)
        if change is not None:
            season.table.update(change.rows())
            season.log.append(_change_row(game_id, game.season, game, change))
        season.last = key
    return sum(counts(game) for _, game in added)


async def rebuild_store(
    store: Store,
    guild: int | None = None,
    *,
    check: bool = False,
    computed: Callable[[int], Awaitable[None]] | None = None,
) -> RebuildReport:
    """Recompute every (guild, season) table by the fold of ``bot.ladder.rebuild`` over the
    stored games; compare with the stored rows and, unless ``check``, write the seasons that
    differ.

    No lock is held while the folding runs (tens of thousands of games take seconds, and the
    bot must go on saving moves and results): each guild is read in one snapshot and folded,
    then written in one short transaction that first folds in the games finished meanwhile
    (``_catch_up``); if anything else changed, the guild is computed again.
    ``computed(guild)`` is awaited between the fold and the write (tests end a game there).
    """
    report = RebuildReport()
    if guild is None:
        async with store.reading() as db:
            found = await _fetch(
                db,
                "SELECT DISTINCT COALESCE(guild_id, 0) FROM games WHERE status = 'finished'"
                " AND rated = 1 UNION SELECT DISTINCT guild_id FROM ratings",
            )
        guilds = sorted(int(r[0]) for r in found)
    else:
        guilds = [guild]
    for g in guilds:
        for _ in range(MAX_REBUILD_TRIES):
            done = await _compute_guild(store, g)
            if computed is not None:
                await computed(g)
            if check or not done.writes:
                break
            async with store._write(f"writing the ladder rebuild of guild {g}") as db:
                caught = await _catch_up(db, g, done)
                if caught is None:
                    report.retries += 1
                    continue  # a result changed meanwhile: fold the guild again
                done.games += caught
                for number, season in done.writes.items():
                    await db.execute(
                        "DELETE FROM ratings WHERE guild_id = ? AND season = ?", (g, number)
                    )
                    await db.execute(
                        "DELETE FROM rating_changes WHERE guild_id = ? AND season = ?",
                        (g, number),
                    )
                    await db.executemany(
                        _UPSERT_RATING,
                        [_rating_row(number, k, st) for k, st in season.table.items()],
                    )
                    await db.executemany(_UPSERT_CHANGE, season.log)
            break
        else:
            raise RebuildRaced(
                f"guild {g}'s games changed during each of {MAX_REBUILD_TRIES} rebuilds; "
                "try again when the bot is quieter"
            )
        report.seasons += done.seasons
        report.games += done.games
        report.rows += done.rows
        report.differences += done.differences
    return report


def _shown(s: RatingState | None) -> str:
    return "none" if s is None else f"{s.rating:.6f}/{s.rd:.6f} ({s.games} games)"


def _differences(guild: int, season: int, stored: Table, fresh: Table) -> list[str]:
    out = []
    for key in sorted(set(stored) | set(fresh), key=lambda k: (k[1], k[2])):
        old, new = stored.get(key), fresh.get(key)
        if old != new:
            where = f"guild {guild} season {season} {key[1]} player {key[2]}"
            out.append(f"{where}: stored {_shown(old)}, rebuilt {_shown(new)}")
    return out


def ladder_for(game: str, variant: str | None, setting: Mapping[str, Any]) -> str:
    """The ladder key a /ladder or /stats request means under the guild's setting."""
    split = per_variant_rule(setting)(game)
    if split and variant:
        return ladder_key(game, variant, True)
    if split:
        return ladder_key(game, "standard", True)
    return game


async def rating_lines(store: Store, game_id: int, names: Sequence[str]) -> list[str]:
    """The result message's line about ratings: each player's change, or nothing if unrated."""
    change = await rating_change(store, game_id)
    if change is None:
        return []
    parts = [rating_change_text(change.before[i], change.after[i], names[i]) for i in range(2)]
    lines = [f"Ratings ({change.ladder}): {', '.join(parts)}"]
    if any(is_provisional(s) for s in (*change.before, *change.after)):
        lines.append(PROVISIONAL_NOTE)
    return lines
