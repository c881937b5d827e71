"""People and places beyond the harness's one server and channel: another channel of the same
server, another server, a direct message, a bot account. Each builds the raw payload Discord
would send, from the harness's own, and dispatches it through the real bot."""

from __future__ import annotations

from typing import Any

from bot.store import Store
from tests.discord.harness import (
    CHANNEL_ID,
    GUILD_ID,
    Exchange,
    Harness,
    Person,
    text_channel_payload,
    user_payload,
)

OTHER_GUILD_ID = 700_000_000_000_000_103
FOREIGN_CHANNEL_ID = 700_000_000_000_000_104  # a channel of the other server
NEIGHBOUR_CHANNEL_ID = 700_000_000_000_000_105  # another channel of the same server
DM_CHANNEL_ID = 700_000_000_000_000_106

PLACES = ("here", "neighbour", "foreign", "dm")


def place_payload(payload: dict[str, Any], person: Person, place: str, *, bot: bool) -> None:
    """Rewrite a guild interaction payload as if it came from ``place`` (and from a bot)."""
    if bot:
        payload["member"]["user"] = user_payload(person.id, person.name, bot=True)
    if place == "neighbour":
        payload["channel_id"] = str(NEIGHBOUR_CHANNEL_ID)
        payload["channel"] = text_channel_payload(NEIGHBOUR_CHANNEL_ID)
    elif place == "foreign":
        channel = text_channel_payload(FOREIGN_CHANNEL_ID)
        channel["guild_id"] = str(OTHER_GUILD_ID)
        payload.update(
            guild_id=str(OTHER_GUILD_ID),
            guild={"id": str(OTHER_GUILD_ID), "locale": "en-US", "features": []},
            channel_id=str(FOREIGN_CHANNEL_ID),
            channel=channel,
            authorizing_integration_owners={"0": str(OTHER_GUILD_ID)},
        )
    elif place == "dm":
        for key in ("guild_id", "guild", "member", "guild_locale"):
            payload.pop(key, None)
        user = user_payload(person.id, person.name, bot=bot)
        payload.update(
            user=user,
            channel_id=str(DM_CHANNEL_ID),
            channel={"id": str(DM_CHANNEL_ID), "type": 1, "recipients": [user], "flags": 0},
            context=1,
            authorizing_integration_owners={"1": str(person.id)},
        )
    else:
        assert place == "here", place


def channel_of(place: str, here: int = CHANNEL_ID) -> int:
    return {
        "here": here,
        "neighbour": NEIGHBOUR_CHANNEL_ID,
        "foreign": FOREIGN_CHANNEL_ID,
        "dm": DM_CHANNEL_ID,
    }[place]


async def slash(
    h: Harness,
    person: Person,
    path: str,
    *,
    place: str = "here",
    bot: bool = False,
    channel: int = CHANNEL_ID,
    **values: Any,
) -> Exchange:
    """``/path`` as ``person`` from ``place`` (``here`` is ``channel``)."""
    payload = h._base(2, person, channel)
    payload["data"], _ = h._options(path, values)
    place_payload(payload, person, place, bot=bot)
    return await h.dispatch(payload)


async def click(
    h: Harness,
    person: Person,
    message: dict[str, Any],
    custom_id: str,
    *,
    place: str = "here",
    bot: bool = False,
) -> Exchange:
    """Press ``custom_id`` on ``message`` as ``person`` from ``place`` (a forged click when the
    message is not there)."""
    payload = h._base(3, person, int(message["channel_id"]))
    payload["message"] = message
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    place_payload(payload, person, place, bot=bot)
    return await h.dispatch(payload, message_id=int(message["id"]))


def message_with(h: Harness, custom_ids: list[str], channel: int = CHANNEL_ID) -> dict[str, Any]:
    """A message of the bot's in ``channel`` carrying buttons with these custom_ids (an old
    message, one from an older version, or one a client tampered with)."""
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": "?", "custom_id": cid}
                for cid in custom_ids[i : i + 5]
            ],
        }
        for i in range(0, len(custom_ids), 5)
    ]
    return h._message({"content": "board", "components": rows}, [], channel_id=channel)


async def snapshot(store: Store) -> list[Any]:
    """Everything a command could change: every row of every table (a refusal changes none)."""
    tables = await store.db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    out: list[Any] = []
    for name in sorted(r[0] for r in tables):
        rows = await store.db.execute_fetchall(f'SELECT * FROM "{name}" ORDER BY rowid')
        out.append((name, [tuple(r) for r in rows]))
    return out


__all__ = ["GUILD_ID", "click", "message_with", "place_payload", "slash", "snapshot"]
