"""Ladders over the store: the referee's side of rating, composed in the store's units of work.

The live path is ``change_game``: the change to a game and, when it finishes the game (or a
dispute changes a finished result), its rating, in one transaction, so a game is never over
without its rating change (nor rated twice). The rating folds ``bot.ladder.apply_game`` onto
the two players' rows, exactly as ``bot.ladder.rebuild`` folds it over the stored games, so the
table always equals the rebuild: when a game would land out of order (an earlier-ended game of
one of its players was rated after a later one, or the game was rated before), the guild's
season is recomputed instead. A bug in the ladder code is undone to a savepoint
(``Transaction.guarded``) and never keeps a game from ending.

The store keeps only rows (``bot.store``); the computing is pure (``bot.ladder``). Games outside
any server (the console, direct messages) are rated on guild 0.

Why it is long: rating inside a game's transaction, the out-of-order recompute and the season's
close share the same row folding; split, each would repeat it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.ladder import (
    FinishedGame,
    PerVariant,
    RatingChange,
    SeasonArchive,
    Table,
    apply_game,
    counts,
    game_ladder,
)
from bot.ladder.ratings import RatingState
from bot.ladder.rules import (
    GAMES,
    LOCAL_GUILD,
    differences,
    differing,
    guild_key,
    ladder_for,
    per_variant_of,
    per_variant_rule,
    replay_changes,
    to_time,
)
from bot.store import (
    GameRow,
    LoggedChange,
    NewAction,
    NewEvent,
    Reader,
    Store,
    Transaction,
)

__all__ = [
    "GAMES",
    "LOCAL_GUILD",
    "LoggedChange",
    "guild_key",
    "ladder_for",
    "per_variant_rule",
]

log = logging.getLogger(__name__)

RESULT_COLUMNS = frozenset(
    {"status", "winner", "termination", "rated", "ended_at", "player0", "player1", "variant"}
)
"""Columns of a finished game whose change afterwards (a dispute) changes the ladder."""


# --- the live path, inside the transaction that changes the game ------------------------------


async def change_game(
    store: Store,
    game: GameRow,
    changes: Mapping[str, Any],
    actions: Sequence[NewAction] = (),
    events: Sequence[NewEvent] = (),
    *,
    request: tuple[str, dict[str, Any]] | None = None,
    checkpoint: str | None = None,
) -> GameRow:
    """``Transaction.change_game`` in a transaction of its own that also rates the game when the
    change finishes it, or recomputes its season when a dispute changes a finished result."""
    async with store.transaction(f"a change to game {game.id} at version {game.version}") as tx:
        row = await tx.change_game(
            game, changes, actions, events, request=request, checkpoint=checkpoint
        )
        await rate_change(tx, game, changes)
    return row


async def rate_change(tx: Transaction, game: GameRow, changes: Mapping[str, Any]) -> None:
    """What ``changes`` to ``game`` (just written in ``tx``) do to the ladder."""
    if changes.get("status") == "finished":  # rated in the transaction that ends it
        await rate_finished(tx, game.id)
    elif game.status == "finished" and RESULT_COLUMNS & set(changes):
        await result_changed(tx, game.id)  # a dispute changed a rated result


async def rate_finished(tx: Transaction, game_id: int) -> RatingChange | None:
    """The live update for a game that has just finished. Does nothing for a game that does not
    count (casual, self-play, aborted). A store fault fails the whole transaction (the game does
    not end either); a bug in the ladder code is logged and undone, so it never keeps a game from
    ending (``python -m bot ladder rebuild --check`` then reports the missing game)."""
    return await tx.guarded(_stale(game_id), lambda: _rate_finished(tx, game_id))


async def result_changed(tx: Transaction, game_id: int) -> None:
    """A finished game's result changed afterwards (voided, awarded, reopened by a dispute):
    recompute the season it was rated in, in the same transaction."""

    async def redo() -> None:
        rated = await tx.rated_season(game_id)
        if rated is not None:
            await rerate(tx, *rated)
            return
        game = await tx.game(game_id)
        if game is not None:
            guild = guild_key(game.guild_id)
            await rerate(tx, guild, await tx.season(guild))

    await tx.guarded(_stale(game_id), redo)


def _stale(game_id: int) -> str:
    return f"rating game {game_id} (the ladder is stale until a rebuild)"


async def _per_variant(rx: Reader, guild: int) -> PerVariant:
    return per_variant_of((await rx.guild_settings(guild))["ladder"])


async def rerate(tx: Transaction, guild: int, season: int) -> Table:
    """Recompute one guild's season from its stored games and write it (rows and log)."""
    per_variant = await _per_variant(tx, guild)
    table, changes = replay_changes(await tx.rated_games(guild, season), per_variant)
    await tx.replace_season(guild, season, table, changes)
    return table


async def _rate_finished(tx: Transaction, game_id: int) -> RatingChange | None:
    row = await tx.game(game_id)
    if row is None:
        return None
    guild = guild_key(row.guild_id)
    season = await tx.season(guild)
    game = await tx.finished_game(game_id, season)
    if game is None or not counts(game):
        return None
    per_variant = await _per_variant(tx, guild)
    ladder = game_ladder(game, per_variant)
    if await tx.rated_later(game_id, guild, season, ladder, game.players):
        await rerate(tx, guild, season)  # out of order: redo the fold in the rebuild's order
        return None
    found = await tx.ratings(guild, ladder, season, list(game.players))
    table = {(guild, ladder, p): s for p, s in found.items()}
    change = apply_game(table, game, per_variant)
    assert change is not None and list(change.keys) == [(guild, ladder, p) for p in game.players]
    await tx.put_ratings(season, change.rows())
    await tx.log_rating_change(game_id, season, game, change)
    return change


# --- reads and moderator writes, each one unit of work ----------------------------------------


async def rating_change(store: Store, game_id: int) -> LoggedChange | None:
    """What the game did to the ratings, or None when it did not count."""
    async with store.reading() as rx:
        return await rx.rating_change(game_id)


async def season_of(store: Store, guild: int) -> int:
    async with store.reading() as rx:
        return await rx.season(guild)


async def ratings(store: Store, guild: int, ladder: str, season: int) -> dict[int, RatingState]:
    """One ladder's rows by player id (``bot.ladder.leaderboard``'s input)."""
    async with store.reading() as rx:
        return await rx.ratings(guild, ladder, season)


async def table(store: Store, guild: int, season: int) -> Table:
    """The guild's whole table for a season, every ladder."""
    async with store.reading() as rx:
        return (await rx.table(guild, season)).get(season, {})


async def ladders(store: Store, guild: int, season: int) -> list[str]:
    """The ladder keys with at least one rated player this season, busiest first."""
    async with store.reading() as rx:
        return await rx.ladders(guild, season)


async def games(store: Store, guild: int, season: int | None) -> list[FinishedGame]:
    """The guild's finished rated games of a season (None: every season), oldest first."""
    async with store.reading() as rx:
        return [g for _, g in await rx.rated_games(guild, season)]


async def names(store: Store, ids: Iterable[int]) -> dict[int, str]:
    async with store.reading() as rx:
        return await rx.names(ids)


async def set_ladder_setting(
    store: Store, guild: int, setting: Mapping[str, Any], now: float
) -> Table:
    """Store the guild's ladder setting and recompute its open season under it, atomically."""
    async with store.transaction(f"the ladder setting of guild {guild}") as tx:
        await tx.set_ladder_setting(guild, setting, now)
        return await rerate(tx, guild, await tx.season(guild))


async def close_season(store: Store, guild: int, now: float, by: int | None) -> SeasonArchive:
    """Archive the open season's table and open the next one, in one transaction."""
    async with store.transaction(f"closing the season of guild {guild}") as tx:
        season = await tx.season(guild)
        rows = (await tx.table(guild, season)).get(season, {})
        snapshot = {(k, p): s for (_, k, p), s in rows.items()}
        archived = SeasonArchive(guild, season, to_time(now) or datetime.now(UTC), snapshot)
        await tx.close_season(guild, season, now, by, archived)
    return archived


async def archive(store: Store, guild: int, season: int) -> SeasonArchive | None:
    """A closed season's final table, or None if that season is not closed."""
    async with store.reading() as rx:
        return await rx.archive(guild, season)


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
    """One recomputed season that differs from the stored one: its table, its rating log, and
    the (ended_at, id) of the last game folded in, so later games can be folded on top."""

    table: Table
    log: list[tuple[int, FinishedGame, RatingChange]]
    last: tuple[float, int]


@dataclass
class _GuildRebuild:
    """One guild's recomputed seasons, from one snapshot of the store."""

    mark: tuple[Any, ...]  # its seasons and ladder setting (``Reader.ladder_mark``)
    finished: dict[int, int]  # its finished games: id -> version
    per_variant: PerVariant
    seasons: int = 0
    games: int = 0
    rows: int = 0
    differences: list[str] = field(default_factory=list)
    writes: dict[int, _Season] = field(default_factory=dict)  # only seasons that differ


def _logged(guild: int, season: int, item: tuple[int, FinishedGame, RatingChange]) -> LoggedChange:
    """A recomputed game's entry in the rating log, as the store reads it back."""
    game_id, game, change = item
    return LoggedChange(
        game_id=game_id,
        guild=guild,
        season=season,
        ladder=change.keys[0][1],
        players=game.players,
        ended_at=game.ended_at.timestamp(),
        before=change.before,
        after=change.after,
    )


async def _compute_guild(store: Store, guild: int) -> _GuildRebuild:
    """Read one consistent snapshot of the guild, then fold its seasons with no lock held."""
    async with store.reading() as rx:
        mark = await rx.ladder_mark(guild)
        finished = await rx.finished_versions(guild)
        per_variant = await _per_variant(rx, guild)
        played = await rx.rated_games(guild, None)
        stored = await rx.table(guild, None)
        stored_log = await rx.rating_log(guild)
    out = _GuildRebuild(mark, finished, per_variant)
    refolded = {}
    for season in sorted({fg.season for _, fg in played} | set(stored)):
        chosen = [(i, fg) for i, fg in played if fg.season == season]
        refolded[season] = (chosen, *replay_changes(chosen, per_variant))
    differ = {k[2] for n, (_, t, _) in refolded.items() for k in differing(stored.get(n, {}), t)}
    named = await names(store, differ) if differ else {}  # the differing players only
    for season, (chosen, fresh, changes) in refolded.items():
        out.seasons += 1
        out.games += sum(counts(fg) for _, fg in chosen)
        out.rows += len(fresh)
        found = differences(guild, season, stored.get(season, {}), fresh, named)
        out.differences += found
        logged = {_logged(guild, season, c) for c in changes}
        if found or logged != stored_log.get(season, set()):
            last = max(((fg.ended_at.timestamp(), i) for i, fg in chosen), default=(0.0, 0))
            out.writes[season] = _Season(fresh, changes, last)
    return out


async def _catch_up(tx: Transaction, guild: int, done: _GuildRebuild) -> int | None:
    """Inside the write: fold onto the recomputed seasons the games that finished since the
    snapshot (the live path rated them on the old rows); how many counted. None when
    something else changed (a finished game's result, a season, the setting, a game ending
    out of order): the guild must be computed again."""
    if await tx.ladder_mark(guild) != done.mark:
        return None
    now = await tx.finished_versions(guild)
    if any(now.get(i) != v for i, v in done.finished.items()):
        return None  # a finished game changed or was reopened (a dispute)
    new = [i for i in now if i not in done.finished]
    added = await tx.rated_games(guild, None, new) if new else []
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
            season.log.append((game_id, game, change))
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
        async with store.reading() as rx:
            guilds = await rx.rated_guilds()
    else:
        guilds = [guild]
    for g in guilds:
        for _ in range(MAX_REBUILD_TRIES):
            done = await _compute_guild(store, g)
            if computed is not None:
                await computed(g)
            if check or not done.writes:
                break
            async with store.transaction(f"writing the ladder rebuild of guild {g}") as tx:
                caught = await _catch_up(tx, g, done)
                if caught is None:
                    report.retries += 1
                    continue  # a result changed meanwhile: fold the guild again
                done.games += caught
                for number, season in done.writes.items():
                    await tx.replace_season(g, number, season.table, season.log)
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
