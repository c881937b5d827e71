"""How a server's ladders are cut and folded: guild keys, the per-variant setting, and the fold
of finished games into a table with each game's change (the live path and the rebuild share it).
Pure: rows in, tables out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from bot.ladder.ratings import RatingState
from bot.ladder.tables import (
    FinishedGame,
    PerVariant,
    RatingChange,
    RatingKey,
    Table,
    apply_game,
    ladder_key,
)

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


def per_variant_of(setting: Mapping[str, Any]) -> PerVariant:
    """``per_variant_rule`` in the form ``apply_game`` takes (asked per guild and game)."""
    rule = per_variant_rule(setting)
    return lambda _guild, game: rule(game)


def ladder_for(game: str, variant: str | None, setting: Mapping[str, Any]) -> str:
    """The ladder key a /ladder or /stats request means under the guild's setting."""
    split = per_variant_rule(setting)(game)
    if split and variant:
        return ladder_key(game, variant, True)
    if split:
        return ladder_key(game, "standard", True)
    return game


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


def _shown(s: RatingState | None) -> str:
    return "none" if s is None else f"{s.rating:.6f}/{s.rd:.6f} ({s.games} games)"


def differing(stored: Table, fresh: Table) -> list[RatingKey]:
    """The rating rows that differ between the stored and the recomputed table, in order."""
    keys = sorted(set(stored) | set(fresh), key=lambda k: (k[1], k[2]))
    return [key for key in keys if stored.get(key) != fresh.get(key)]


def differences(
    guild: int, season: int, stored: Table, fresh: Table, names: Mapping[int, str] | None = None
) -> list[str]:
    """One line per rating row that differs between the stored and the recomputed table, the
    player named as the bot names them (their stored name, id in brackets: an operator reads
    "bob (202)", not a bare id to look up)."""
    out = []
    for key in differing(stored, fresh):
        name = (names or {}).get(key[2])
        who = f"{name} ({key[2]})" if name else f"player {key[2]}"
        where = f"guild {guild} season {season} {key[1]} {who}"
        out.append(f"{where}: stored {_shown(stored.get(key))}, rebuilt {_shown(fresh.get(key))}")
    return out
