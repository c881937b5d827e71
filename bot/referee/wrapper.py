"""The one wrapper every public referee command goes through (``@command``).

It owns what no command should repeat: the request id (a repeated click or a redelivered
interaction gets the first answer and changes nothing), turning a ``Refusal`` into a private
reply, a ``Preempted`` into its public reply, a ``Conflict`` into "that game has moved on" (or
the twin's answer), the store's ``StoreUnavailable`` into "can't save", and the one log line per
command (op, who, where, result, milliseconds). Commands called from another command (a button
press, the console grammar) are answered the same way but logged once, by the outer one.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar, cast

from bot.errors import Conflict, Refusal, StoreUnavailable
from bot.i18n import from_data, from_json, to_data, to_json
from bot.referee.replies import Actor, Preempted, Reply, Where

if TYPE_CHECKING:
    from bot.referee.facade import Referee

log = logging.getLogger("bot.referee")

_REQUEST: ContextVar[str | None] = ContextVar("referee_request_id", default=None)
_NESTED: ContextVar[bool] = ContextVar("referee_nested", default=False)
_Command = TypeVar("_Command", bound=Callable[..., Awaitable[Reply]])

_REPLY_FIELDS = ("text", "ok", "ephemeral", "game_id", "version", "pending_roll", "finished")


def current_request_id() -> str | None:
    """The request id of the command being run (e.g. the accept's interaction id that the dice
    mix, or the id a move writes with its change); None outside one."""
    return _REQUEST.get()


def reply_dict(reply: Reply) -> dict[str, Any]:
    """What a request id keeps of its first answer: enough to say it again, in the words of
    whoever reads the repeat (its sentences and notice as data, not only its English)."""
    kept = {k: getattr(reply, k) for k in _REPLY_FIELDS}
    if reply.lines:
        kept["lines"] = [to_data(m) for m in reply.lines]
    if reply.notice is not None:
        kept["notice"] = reply.notice
        kept["params"] = to_json(reply.params)
    return kept


def reply_from(data: Mapping[str, Any]) -> Reply:
    reply = Reply(**{k: data[k] for k in _REPLY_FIELDS if k in data})
    reply.lines = [from_data(m) for m in data.get("lines") or ()]
    if data.get("notice") is not None:
        reply.notice = str(data["notice"])
        reply.params = from_json(data.get("params") or {})
    return reply


def refused(exc: Refusal) -> Reply:
    """The private reply for a refusal: its sentence, with the reason as data."""
    return Reply(
        text=exc.text,
        ok=False,
        ephemeral=True,
        game_id=exc.game_id,
        version=exc.version,
        reason=exc.code,
        params=exc.params,
    )


def command(*, keep: bool = True) -> Callable[[_Command], _Command]:
    """Make a referee method a public command (see the module). ``keep``: store the whole answer
    under the request id once it is built (a command whose change does not carry it); ``act``
    writes its answer in the change's own transaction and keeps nothing more.

    Each command declares ``request_id: str | None = None`` (keyword-only) so that its typed
    signature shows it; the wrapper takes it, so inside the body it is always None
    (``current_request_id()`` gives it)."""

    def wrap(method: _Command) -> _Command:
        @functools.wraps(method)
        async def run(self: Referee, *args: Any, request_id: str | None = None, **kw: Any):
            nested = _NESTED.get()
            started = time.perf_counter()
            token = _NESTED.set(True)
            try:
                reply = await _once(
                    self, request_id, keep, lambda: _answered(self, method, args, kw)
                )
            finally:
                _NESTED.reset(token)
            if not nested:
                _log_line(method.__name__, args, request_id, reply, started)
            return reply

        return cast(_Command, run)

    return wrap


async def _answered(
    self: Referee, method: Callable[..., Awaitable[Reply]], args: Any, kw: Any
) -> Reply:
    """The command's reply, with every expected way of not landing turned into one."""
    try:
        return await method(self, *args, **kw)
    except Refusal as exc:
        return refused(exc)
    except Preempted as exc:
        return exc.reply
    except Conflict:
        return await moved_on(self)
    except StoreUnavailable:  # the store logged the fault; nothing was changed
        return refused(Refusal("cant_save"))


async def moved_on(self: Referee) -> Reply:
    """MOVED_ON, unless the change that moved the game on was this very request's twin: then
    its answer."""
    request_id = _REQUEST.get()
    if request_id is not None:
        earlier = await self.ctx.store.request_reply(request_id)
        if earlier is not None:
            return reply_from(earlier)
    return refused(Refusal("moved_on"))


async def _once(
    self: Referee,
    request_id: str | None,
    keep: bool,
    run: Callable[[], Awaitable[Reply]],
) -> Reply:
    """Run a command once per ``request_id``: a repeat gets the first answer's text again and
    changes nothing. A change that lands writes the id in its own transaction (see
    ``Context.request``); with ``keep`` the full answer is kept once it is built. Refusals
    are not kept."""
    if request_id is None:
        return await run()
    try:
        earlier = await self.ctx.store.request_reply(request_id)
    except StoreUnavailable:
        return refused(Refusal("cant_save"))
    if earlier is not None:
        return reply_from(earlier)
    token = _REQUEST.set(request_id)
    try:
        reply = await run()
    finally:
        _REQUEST.reset(token)
    if not keep:
        return reply
    if reply.ok or not reply.ephemeral:  # it changed something: keep the whole answer
        kept = reply_dict(reply)
        with contextlib.suppress(StoreUnavailable):  # the change stands regardless
            await self.ctx.store.keep_reply(request_id, reply.game_id, kept, self.ctx.now())
        return reply
    with contextlib.suppress(StoreUnavailable):
        earlier = await self.ctx.store.request_reply(request_id)  # its twin landed meanwhile
    return reply_from(earlier) if earlier is not None else reply


def _log_line(
    op: str, args: tuple[Any, ...], request_id: str | None, reply: Reply, started: float
) -> None:
    where = next((a for a in args if isinstance(a, Where)), None)
    actor = next((a for a in args if isinstance(a, Actor)), None)
    rest = [str(a)[:100] for a in args if not isinstance(a, Where | Actor)]
    log.info(
        "%s",
        json.dumps(
            {
                "op": op,
                "args": rest,
                "request": request_id,
                "user": actor.id if actor else None,
                "guild": where.guild_id if where else None,
                "channel": where.channel_id if where else None,
                "ok": reply.ok,
                "reason": reply.reason,
                "game": reply.game_id,
                "version": reply.version,
                "ms": round((time.perf_counter() - started) * 1000, 1),
            }
        ),
    )
