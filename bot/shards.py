"""Which servers this process serves: Discord's shard of a guild, and this process's shard range.

Discord sends each guild's events to shard ``(guild_id >> 22) % shard_count``; direct messages
(and the console, which has no guild) go to shard 0. Several processes split the shards between
them (``SHARD_IDS=0-3`` in one, ``4-7`` in the next) over one database, and each sweeps only the
games of its own shards, so no flag falls twice and none is missed while every process runs.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096  # far beyond any bot this serves; a typo like 40000 is refused


class ShardError(ValueError):
    """SHARD_COUNT or SHARD_IDS cannot be used; the message names the variable."""


def _digits(text: str) -> bool:
    """Only 0-9 (``str.isdigit`` alone takes ``'²'``, which ``int`` then refuses)."""
    return text.isascii() and text.isdigit()


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; None (direct messages, console) is shard 0."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """``"0-3"``, ``"4,6,7"`` or ``"0-1,5"``: the shards, ascending, each below ``shard_count``."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not _digits(low) or (dash and not _digits(high)):
            raise ShardError(f"SHARD_IDS must look like 0-3 or 0,2,5, not {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ShardError(f"SHARD_IDS range {part!r} runs backwards")
        if last >= shard_count:
            raise ShardError(f"SHARD_IDS {part!r} reaches past SHARD_COUNT={shard_count}")
        twice = ids.intersection(range(first, last + 1))
        if twice:
            raise ShardError(f"SHARD_IDS names shard {min(twice)} twice: {text!r}")
        ids.update(range(first, last + 1))
    if not ids:
        raise ShardError(f"SHARD_IDS names no shard: {text!r}")
    return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class Shards:
    """This process's shards: ``count`` None means Discord chooses (one process serves all)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @classmethod
    def from_text(cls, count: str | None, ids: str | None) -> Shards:
        """From SHARD_COUNT and SHARD_IDS as the environment gives them (unset or empty: None)."""
        count_text = (count or "").strip()
        ids_text = (ids or "").strip()
        if not count_text:
            if ids_text:
                raise ShardError("SHARD_IDS needs SHARD_COUNT (how many shards in all)")
            return cls()
        if not _digits(count_text) or not 0 < int(count_text) <= MAX_SHARDS:
            raise ShardError(f"SHARD_COUNT must be a number 1..{MAX_SHARDS}, not {count_text!r}")
        total = int(count_text)
        chosen = parse_shard_ids(ids_text, total) if ids_text else tuple(range(total))
        return cls(total, chosen)

    @property
    def serves_all(self) -> bool:
        """True when this process serves every shard (also when Discord picks the count)."""
        return self.count is None or self.ids is None or len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process serves ``guild_id`` (None: direct messages, shard 0)."""
        if self.serves_all:
            return True
        assert self.count is not None and self.ids is not None
        return shard_of(guild_id, self.count) in self.ids
