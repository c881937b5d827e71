"""Drive the real discord.py bot offline: raw INTERACTION_CREATE payloads in, recorded calls out.

Nothing here mocks discord.py's own objects. The two places where the library would touch the
network are replaced by recorders:

- ``AsyncWebhookAdapter.request`` carries every interaction response, followup and edit of the
  original response; the recorder keeps the JSON (``payload_json`` when files are attached), the
  files' bytes and descriptions, and answers with the dicts Discord would send back.
- ``HTTPClient.request`` carries ordinary REST calls. Thread creation and channel messages (the
  thread-per-game flow) are recorded and answered; anything else fails loudly so a stray call is
  caught.

Each dispatched interaction gets a :class:`Exchange` that collects the calls made on its behalf
(a context variable follows the tasks discord.py creates), so concurrent interactions in the
benchmark are kept apart.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

APP_ID = 700_000_000_000_000_001
BOT_USER_ID = 700_000_000_000_000_002
GUILD_ID = 700_000_000_000_000_003
CHANNEL_ID = 700_000_000_000_000_004
EPHEMERAL = 64
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 31)

_current: contextvars.ContextVar[Exchange | None] = contextvars.ContextVar(
    "harness_exchange", default=None
)
_ids = itertools.count(800_000_000_000_000_000)


_ESCAPE = re.compile(r"\\([\\_*~|`>\[\]#-])")


def shown(markdown: str) -> str:
    """Text as Discord shows it, as far as escapes go: ``no\\_remill`` reads ``no_remill``."""
    return _ESCAPE.sub(r"\1", markdown).replace("\u200b", "")


def snowflake() -> int:
    """A fresh, increasing id for interactions, messages and threads."""
    return next(_ids)


class StrayRequest(AssertionError):
    """The bot made a REST call that the harness does not expect."""


@dataclass
class Call:
    """One request the bot made: where it went and what it carried."""

    kind: str  # "callback", "followup", "edit", "rest"
    method: str
    path: str
    payload: dict[str, Any]
    files: list[tuple[str, str | None, bytes]] = field(default_factory=list)
    message: dict[str, Any] | None = None  # the message dict answered (when one was made)
    at: float = 0.0

    @property
    def ephemeral(self) -> bool:
        data = self.payload.get("data", self.payload)
        return bool((data.get("flags") or 0) & EPHEMERAL)

    @property
    def data(self) -> dict[str, Any]:
        """The message body: callbacks nest it under ``data``, other calls do not."""
        return self.payload.get("data", self.payload) if self.kind == "callback" else self.payload

    @property
    def response_type(self) -> int | None:
        return self.payload.get("type") if self.kind == "callback" else None

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.data.get("embeds") or []

    @property
    def text(self) -> str:
        """Content and every embed's visible text as a reader sees it (markdown's escapes and
        the zero-width spaces that break mentions do not show), for assertions that do not care
        where: ``raw`` is what was sent."""
        return shown(self.raw)

    @property
    def raw(self) -> str:
        """Content and every embed's text as sent (markdown escapes included)."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields") or []:
                parts += [fld.get("name") or "", fld.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    @property
    def custom_ids(self) -> list[str]:
        ids = []
        for row in self.data.get("components") or []:
            for comp in row.get("components") or []:
                if "custom_id" in comp:
                    ids.append(comp["custom_id"])
        return ids

    @property
    def allowed_user_ids(self) -> set[int] | None:
        mentions = self.data.get("allowed_mentions")
        if mentions is None:
            return None
        return {int(u) for u in mentions.get("users") or []}


@dataclass
class Exchange:
    """Everything the bot sent while handling one interaction."""

    interaction_id: int
    started: float
    channel_id: int = CHANNEL_ID
    message_id: int | None = None  # the message a clicked button sits on
    calls: list[Call] = field(default_factory=list)

    @property
    def first(self) -> Call:
        assert self.calls, "the bot did not answer the interaction"
        return self.calls[0]

    @property
    def latency(self) -> float:
        """Seconds from the payload's dispatch to the first recorded response."""
        return self.first.at - self.started

    @property
    def messages(self) -> list[Call]:
        """Calls that carry a message body (not a bare defer or autocomplete)."""
        return [c for c in self.calls if c.response_type not in (5, 6, 8)]

    @property
    def last(self) -> Call:
        assert self.messages, "the bot sent no message"
        return self.messages[-1]

    @property
    def text(self) -> str:
        return "\n".join(c.text for c in self.messages)

    @property
    def files(self) -> list[tuple[str, str | None, bytes]]:
        return [f for c in self.calls for f in c.files]

    @property
    def all_ephemeral(self) -> bool:
        return all(c.ephemeral for c in self.messages)

    def choices(self) -> list[dict[str, Any]]:
        (call,) = [c for c in self.calls if c.response_type == 8]
        return call.payload["data"]["choices"]


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name.title(),
        "avatar": None,
        "bot": bot,
    }


@dataclass(frozen=True)
class Upload:
    """A file a person attaches to a slash command option; the bot downloads it from the CDN,
    which the harness plays (``Harness.downloads`` records each GET)."""

    filename: str
    data: bytes
    content_type: str = "application/json"


@dataclass(frozen=True)
class Role:
    """A guild role, as a role option resolves it."""

    id: int
    name: str = "moderators"


@dataclass(frozen=True)
class Person:
    """A guild member as Discord describes one in an interaction."""

    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def member_payload(self) -> dict[str, Any]:
        return {
            "user": user_payload(self.id, self.name),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
            "permissions": str(self.permissions),
        }


def text_channel_payload(channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(GUILD_ID),
        "name": "games",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def thread_payload(thread_id: int, parent_id: int, name: str, owner_id: int) -> dict[str, Any]:
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(GUILD_ID),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2024-01-01T00:00:00+00:00",
            "locked": False,
        },
    }


class Harness:
    """A bot with recorded transport, and helpers that play the part of Discord's gateway."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.messages: dict[int, dict[str, Any]] = {}  # every message the bot made, by id
        self.originals: dict[str, int] = {}  # interaction token -> original response message id
        self.channels: dict[int, dict[str, Any]] = {CHANNEL_ID: text_channel_payload()}
        self.rest_calls: list[Call] = []
        self.stray: list[Call] = []  # REST calls nobody expected; the fixture fails on any
        self.cdn: dict[str, bytes] = {}  # attachment url -> bytes, for Attachment.read()
        self.downloads: list[str] = []  # every url the bot fetched from the CDN
        self._saved: list[tuple[type, str, Any]] = []
        self._command_ids: dict[str, int] = {}

    # ---- set-up ----------------------------------------------------------------------------
    async def start(self) -> Harness:
        """Patch the transport and run the bot's real setup without logging in."""
        self._patch(AsyncWebhookAdapter, "request", self._webhook_request)
        self._patch(HTTPClient, "request", self._rest_request)
        self._patch(HTTPClient, "get_from_cdn", self._cdn_get)
        bot = self.bot
        await bot._async_setup_hook()
        bot._connection.user = discord.ClientUser(
            state=bot._connection, data=user_payload(BOT_USER_ID, "referee", bot=True)
        )
        bot._connection.application_id = APP_ID
        await bot.setup_hook()
        return self

    async def close(self) -> None:
        """Undo the patches and let the bot release what it holds (its store, pools)."""
        try:
            closer = getattr(self.bot, "close_resources", None)
            if closer is not None:
                await closer()
        finally:
            for owner, name, original in reversed(self._saved):
                setattr(owner, name, original)
            self._saved.clear()

    def _patch(self, owner: type, name: str, replacement: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))

        async def patched(_self: Any, *args: Any, **kwargs: Any) -> Any:
            return await replacement(*args, **kwargs)

        patched.__name__ = name
        setattr(owner, name, patched)

    # ---- the recorders ---------------------------------------------------------------------
    def _record(self, call: Call) -> None:
        call.at = time.perf_counter()
        exchange = _current.get()
        if exchange is not None:
            exchange.calls.append(call)

    @staticmethod
    def _body(payload: Any, multipart: Any) -> dict[str, Any]:
        if payload is not None:
            return dict(payload)
        for item in multipart or []:
            if item.get("name") == "payload_json":
                return json.loads(item["value"])
        return {}

    @staticmethod
    def _read_files(files: Any) -> list[tuple[str, str | None, bytes]]:
        out = []
        for f in files or []:
            f.reset()
            out.append((f.filename, f.description, f.fp.read()))
            f.reset()
        return out

    def _message(
        self,
        body: dict[str, Any],
        files: list[tuple[str, str | None, bytes]],
        *,
        channel_id: int | None,
        message_id: int | None = None,
        interaction: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The message dict Discord answers with, kept so later clicks can point at it."""
        old = self.messages.get(message_id) if message_id is not None else None
        mid = message_id or snowflake()
        message: dict[str, Any] = (
            dict(old)
            if old
            else {
                "id": str(mid),
                "channel_id": str(channel_id or CHANNEL_ID),
                "guild_id": str(GUILD_ID),
                "type": 0 if interaction is None else 20,
                "author": user_payload(BOT_USER_ID, "referee", bot=True),
                "content": "",
                "embeds": [],
                "attachments": [],
                "components": [],
                "mentions": [],
                "mention_roles": [],
                "mention_everyone": False,
                "pinned": False,
                "tts": False,
                "timestamp": dt.datetime.now(dt.UTC).isoformat(),
                "edited_timestamp": None,
                "flags": 0,
            }
        )
        for key in ("content", "embeds", "components", "flags"):
            if key in body:
                message[key] = body[key] if body[key] is not None else message.get(key)
        if files or "attachments" in body:
            message["attachments"] = [
                {
                    "id": str(snowflake()),
                    "filename": name,
                    "description": description,
                    "size": len(data),
                    "url": f"https://cdn.example/{name}",
                    "proxy_url": f"https://cdn.example/{name}",
                }
                for name, description, data in files
            ]
        if old is not None:
            message["edited_timestamp"] = dt.datetime.now(dt.UTC).isoformat()
        self.messages[mid] = message
        return message

    async def _webhook_request(
        self,
        route: Any,
        session: Any = None,
        *,
        payload: Any = None,
        multipart: Any = None,
        files: Any = None,
        params: Any = None,
        **_: Any,
    ) -> Any:
        body = self._body(payload, multipart)
        recorded = self._read_files(files)
        path = route.path
        token = route.webhook_token
        exchange = _current.get()
        channel_id = exchange.channel_id if exchange is not None else None
        if path.endswith("/callback"):
            call = Call("callback", route.method, path, body, recorded)
            rtype = body.get("type")
            result: dict[str, Any] = {
                "interaction": {
                    "id": str(route.webhook_id),
                    "type": 2,
                    "response_message_loading": rtype == 5,
                    "response_message_ephemeral": bool(
                        ((body.get("data") or {}).get("flags") or 0) & EPHEMERAL
                    ),
                },
                "resource": {"type": rtype},
            }
            if rtype in (4, 5):
                message = self._message(
                    body.get("data") or {}, recorded, channel_id=channel_id, interaction=body
                )
                self.originals[token] = int(message["id"])
                result["interaction"]["response_message_id"] = message["id"]
                result["resource"]["message"] = message
                call.message = message
            elif rtype == 7 and exchange is not None and exchange.message_id:
                message = self._message(
                    body.get("data") or {},
                    recorded,
                    channel_id=channel_id,
                    message_id=exchange.message_id,
                )
                result["resource"]["message"] = message
                call.message = message
            self._record(call)
            return result
        if route.method == "PATCH" and path.endswith(("/messages/{message_id}", "/@original")):
            target = route.url.rsplit("/", 1)[-1]
            mid = self.originals.get(token) if target == "@original" else int(target)
            call = Call("edit", route.method, path, body, recorded)
            call.message = self._message(body, recorded, channel_id=channel_id, message_id=mid)
            self._record(call)
            return call.message
        if route.method == "POST" and path == "/webhooks/{webhook_id}/{webhook_token}":
            call = Call("followup", route.method, path, body, recorded)
            call.message = self._message(body, recorded, channel_id=channel_id, interaction=body)
            self._record(call)
            return call.message
        if route.method == "DELETE":
            call = Call("delete", route.method, path, body)
            self._record(call)
            return None
        self.stray.append(Call("webhook", route.method, path, body))
        raise StrayRequest(f"unexpected webhook request {route.method} {path}")

    async def _cdn_get(self, url: str) -> bytes:
        """``Attachment.read()``: the bytes of an ``Upload`` given in a slash command."""
        self.downloads.append(url)
        if url not in self.cdn:
            self.stray.append(Call("cdn", "GET", url, {}))
            raise StrayRequest(f"unexpected CDN download {url}")
        return self.cdn[url]

    async def _rest_request(
        self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        body = kwargs.get("json")
        if body is None:
            body = self._body(None, form)
        recorded = self._read_files(files)
        method, path = route.method, route.path
        call = Call("rest", method, path, dict(body or {}), recorded)
        if method == "POST" and path == "/channels/{channel_id}/threads":
            thread_id = snowflake()
            name = body.get("name", "")
            data = thread_payload(thread_id, int(route.channel_id), name, BOT_USER_ID)
            self.channels[thread_id] = data
            call.message = data
            result: Any = data
        elif method == "POST" and path == "/channels/{channel_id}/messages/{message_id}/threads":
            thread_id = int(route.url.split("/")[-2])
            data = thread_payload(
                thread_id, int(route.channel_id), body.get("name", ""), BOT_USER_ID
            )
            self.channels[thread_id] = data
            call.message = data
            result = data
        elif method == "POST" and path == "/channels/{channel_id}/messages":
            message = self._message(body or {}, recorded, channel_id=int(route.channel_id))
            call.message = message
            result = message
        elif method == "PUT" and path == "/channels/{channel_id}/thread-members/{user_id}":
            result = None
        elif method == "DELETE" and path == "/channels/{channel_id}":
            result = self.channels.pop(int(route.channel_id), None)
        elif method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            mid = int(route.url.rsplit("/", 1)[-1])
            message = self._message(
                body or {}, recorded, channel_id=int(route.channel_id), message_id=mid
            )
            call.message = message
            result = message
        else:
            self.stray.append(call)
            raise StrayRequest(f"unexpected REST call {method} {path}")
        self.rest_calls.append(call)
        self._record(call)
        return result

    # ---- the gateway's part ----------------------------------------------------------------
    def _base(self, kind: int, person: Person, channel_id: int) -> dict[str, Any]:
        iid = snowflake()
        channel = self.channels.get(channel_id) or text_channel_payload(channel_id)
        return {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"token-{iid}",
            "version": 1,
            "guild_id": str(GUILD_ID),
            "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
            "channel_id": str(channel_id),
            "channel": channel,
            "member": person.member_payload(),
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str((1 << 11) | (1 << 15) | (1 << 14) | (1 << 35) | (1 << 38)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def command(self, path: str) -> app_commands.Command[Any, ..., Any]:
        """The registered slash command for a path such as ``"drop row"``."""
        parts = path.split()
        found: Any = self.bot.tree.get_command(parts[0])  # type: ignore[attr-defined]
        assert found is not None, f"/{parts[0]} is not registered"
        for part in parts[1:]:
            found = found.get_command(part)
            assert found is not None, f"/{path} is not registered"
        return found

    def _options(
        self, path: str, values: dict[str, Any], focused: str | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """``data`` for a command path and keyword values; options typed from the registration."""
        parts = path.split()
        command = self.command(path)
        resolved: dict[str, Any] = {}
        leaf = []
        params = {p.name: p for p in command.parameters}
        for name, value in values.items():
            param = params.get(name)
            assert param is not None, f"/{path} has no option {name!r}"
            ptype = param.type.value
            if isinstance(value, Person):
                resolved.setdefault("users", {})[str(value.id)] = user_payload(value.id, value.name)
                member = value.member_payload()
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, Upload):
                aid = snowflake()
                url = f"https://cdn.example/attachments/{aid}/{value.filename}"
                self.cdn[url] = value.data
                resolved.setdefault("attachments", {})[str(aid)] = {
                    "id": str(aid),
                    "filename": value.filename,
                    "size": len(value.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": value.content_type,
                }
                value = str(aid)
            elif isinstance(value, Role):
                resolved.setdefault("roles", {})[str(value.id)] = {
                    "id": str(value.id),
                    "name": value.name,
                    "color": 0,
                    "hoist": False,
                    "position": 1,
                    "permissions": "0",
                    "managed": False,
                    "mentionable": True,
                }
                value = str(value.id)
            option: dict[str, Any] = {"name": param.display_name, "type": ptype, "value": value}
            if name == focused:
                option["focused"] = True
            leaf.append(option)
        options: list[dict[str, Any]] = leaf
        for depth in range(len(parts) - 1, 0, -1):
            options = [
                {
                    "name": parts[depth],
                    "type": 1 if depth == len(parts) - 1 else 2,
                    "options": options,
                }
            ]
        root = parts[0]
        cid = self._command_ids.setdefault(root, snowflake())
        data: dict[str, Any] = {"id": str(cid), "name": root, "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        return data, resolved

    async def slash(
        self,
        person: Person,
        path: str,
        *,
        channel: int = CHANNEL_ID,
        app_permissions: int | None = None,
        locale: str = "en-US",
        **values: Any,
    ) -> Exchange:
        """Invoke ``/path`` as ``person`` with the given option values; wait for the handling.

        ``app_permissions``: what the bot may do in the channel, when not the default;
        ``locale``: the person's Discord client language.
        """
        payload = self._base(2, person, channel)
        payload["locale"] = locale
        if app_permissions is not None:
            payload["app_permissions"] = str(app_permissions)
        payload["data"], _ = self._options(path, values)
        return await self.dispatch(payload)

    async def autocomplete(
        self,
        person: Person,
        path: str,
        focused: str,
        *,
        channel: int = CHANNEL_ID,
        locale: str = "en-US",
        **values: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``person`` types into option ``focused``
        (``locale``: their Discord client language)."""
        values.setdefault(focused, "")
        payload = self._base(4, person, channel)
        payload["locale"] = locale
        payload["data"], _ = self._options(path, values, focused=focused)
        exchange = await self.dispatch(payload)
        return exchange.choices()

    async def click(
        self, person: Person, message: dict[str, Any], custom_id: str, *, locale: str = "en-US"
    ) -> Exchange:
        """Press the button ``custom_id`` on a message the bot sent earlier (``locale``: the
        person's Discord client language)."""
        channel = int(message["channel_id"])
        payload = self._base(3, person, channel)
        payload["locale"] = locale
        payload["message"] = message
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        return await self.dispatch(payload, message_id=int(message["id"]))

    async def dispatch(self, payload: dict[str, Any], *, message_id: int | None = None) -> Exchange:
        """Feed one INTERACTION_CREATE to the bot and wait for the tasks it starts."""
        exchange = Exchange(
            int(payload["id"]), time.perf_counter(), int(payload["channel_id"]), message_id
        )
        before = asyncio.all_tasks()
        token = _current.set(exchange)
        try:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        finally:
            _current.reset(token)
        started = [
            t
            for t in asyncio.all_tasks() - before
            if t.get_name().startswith(("CommandTree-invoker", "discord-ui-"))
        ]
        if started:
            await asyncio.gather(*started)
        return exchange
