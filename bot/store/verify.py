"""A store-level check of a game's stored chain, for commands that move stores (``store copy``):
every row's hash recomputed over the previous one (``engine.record``), the rows' places in the
log, the game row's head and length, and its live line. It reads through the ``Reader``
protocol, so it checks any store, and it stands below the referee: proving that the bytes
survived a move needs the chain, not the rules (``/verify`` adds the replay of the moves)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store.protocol import ActionRow, EventRow, GameRow, Reader
from engine import chain
from engine.record import LOG_VERSION, RecordError, event_hash, iso_time, row_hash


def _hash_of(row: ActionRow | EventRow, prev: str) -> str:
    if isinstance(row, ActionRow):
        return row_hash(prev, row.seq, row.side, row.actor, row.action, row.roll, row.at)
    when = iso_time(datetime.fromtimestamp(row.at, UTC))
    return event_hash(prev, row.kind, row.seat, row.user_id, when, row.details)


async def chain_problem(rx: Reader, g: GameRow) -> str | None:
    """What is wrong with the game's stored chain, or None when every hash checks out."""
    try:
        if g.log_version < LOG_VERSION:  # only the moves are chained, along the live line
            rows: list[ActionRow | EventRow] = list(await rx.actions(g.id))
            numbered = False
        else:
            rows = list(await rx.log(g.id))
            numbered = True
        head = chain.GENESIS
        for number, row in enumerate(rows, start=1):
            if numbered and row.link != number:
                return f"row {number} is missing from the log (the next stored is {row.link})"
            if row.prev_hash != head:
                return f"row {number} does not follow the row before it"
            if _hash_of(row, head) != row.hash:
                return f"row {number}'s hash does not match its content"
            head = row.hash
    except (RecordError, ValueError) as exc:
        return f"a row cannot be read: {exc}"
    if head != g.last_hash:
        return "the game's head is not the hash of its last row"
    if numbered and len(rows) != g.links:
        return f"the game counts {g.links} log rows, but {len(rows)} are stored"
    if len(await rx.actions(g.id)) != g.seq:
        return f"the game is at move {g.seq}, but its live line is shorter"
    return None
