"""The discord.py bot: a thin adapter from interactions to ``Referee`` calls and back.

The store and referee are made by the caller and handed in (``RefereeBot(referee)``), so tests and
the benchmark drive the same bot on their own database. ``run(config)`` serves until SIGTERM;
``sync(config, guild_id)`` publishes the slash commands on purpose, never on every start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import time
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.discord_format import Outgoing, to_message
from bot.errors import RefereeTree
from bot.guards import Cooldowns, Deliveries
from bot.replies import Actor, ButtonSpec, Reply, Where, refusal
from bot.shutdown import GRACE_SECONDS, Drain
from bot.store import StoreUnavailable
from bot.texts import ROLL_LATER
from bot.translator import CatalogTranslator
from bot.views import RefereeButton, UnknownButton

log = logging.getLogger("bot.discord")

SWEEP_SECONDS = 5.0
COG_MODULES = (
    "bot.cogs.play",
    "bot.cogs.game",
    "bot.cogs.info",
    "bot.cogs.ladder",
    "bot.cogs.disputes",
    "bot.cogs.referee_mod",
)


def where_of(interaction: discord.Interaction[Any]) -> Where:
    """The referee's place for an interaction: the channel, or a thread and its parent."""
    channel = interaction.channel
    parent = getattr(channel, "parent_id", None) if isinstance(channel, discord.Thread) else None
    return Where(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        parent_id=parent,
    )


def is_moderator(user: discord.abc.User | discord.Member) -> bool:
    """Manage Server or Manage Messages in the channel: the people who may end others' games."""
    perms = getattr(user, "resolved_permissions", None) or getattr(user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.manage_messages or perms.administrator))


def actor_of(user: discord.abc.User | discord.Member) -> Actor:
    """The referee's person for a Discord user or member."""
    return Actor(
        id=user.id,
        name=getattr(user, "display_name", None) or user.name,
        is_moderator=is_moderator(user),
        is_bot=user.bot,
    )


class RefereeBot(commands.Bot):
    """The bot. Cogs reach the referee as ``bot.referee``; nothing else holds game state."""

    def __init__(
        self,
        referee: Any,
        *,
        sweep_seconds: float | None = SWEEP_SECONDS,
        heartbeat: str | os.PathLike[str] | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads in the cache; nothing privileged
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=RefereeTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.referee = referee
        self.sweep_seconds = sweep_seconds
        self.heartbeat = Path(heartbeat) if heartbeat else None
        self.gateway_connected = False  # on_connect / on_resumed set it, on_disconnect clears it
        self._sweeper: asyncio.Task[None] | None = None
        self.deliveries: Deliveries | None = Deliveries()  # bot.guards: None switches it off
        self.cooldowns: Cooldowns | None = Cooldowns()
        self.drain = Drain()  # bot.shutdown: what is in flight when the bot stops
        self.grace_seconds = GRACE_SECONDS

    async def setup_hook(self) -> None:
        """Buttons first (a click may arrive before anything else), then the commands."""
        self.add_dynamic_items(RefereeButton, UnknownButton)
        await self.tree.set_translator(CatalogTranslator(self.tree))  # Hungarian menus
        for name in COG_MODULES:
            if name not in self.extensions:
                await self.load_extension(name)

    async def on_ready(self) -> None:
        log.info("ready %s", json.dumps({"user": str(self.user), "guilds": len(self.guilds)}))
        self.beat()
        if self.sweep_seconds and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="referee-sweeper")

    # ---- the heartbeat: "connected to the gateway and serving", for Docker's health check ---
    async def on_connect(self) -> None:  # discord.py: a READY arrived (a new session)
        self.gateway_connected = True

    async def on_resumed(self) -> None:  # discord.py: a dropped session was resumed
        self.gateway_connected = True
        log.info("gateway resumed")
        self.beat()

    async def on_disconnect(self) -> None:  # discord.py: the gateway connection was lost
        if self.gateway_connected:
            log.warning("gateway disconnected: the heartbeat stops until it is back")
        self.gateway_connected = False

    @property
    def serving(self) -> bool:
        """Connected to the gateway, past READY, and not closing: interactions can arrive."""
        return self.gateway_connected and self.is_ready() and not self.is_closed()

    def beat(self) -> bool:
        """Touch the heartbeat file if serving; otherwise leave it to go stale. True if touched."""
        if self.heartbeat is None or not self.serving:
            return False
        try:
            self.heartbeat.touch()
        except OSError as exc:  # a health check that cannot be written must not stop the bot
            log.warning("cannot touch the heartbeat %s: %s", self.heartbeat, exc)
            return False
        return True

    async def close(self) -> None:
        self.gateway_connected = False
        if self.heartbeat is not None:  # a restarted container must not start out healthy
            with contextlib.suppress(OSError):
                self.heartbeat.unlink(missing_ok=True)
        """Take no new interaction, let those in flight finish (``grace_seconds`` at most),
        stop the sweeper, then close the gateway; the caller closes the store after this."""
        await self.drain.stop(self.grace_seconds)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await super().close()

    # ---- the one path from a referee reply to Discord ----------------------------------------
    async def answer(
        self, interaction: discord.Interaction[Any], reply: Reply, *, title: str | None = None
    ) -> None:
        """Show a reply; for an Atmalof announcement, show it, then roll and show the die.

        What the referee stored stands even if Discord fails to take the message: the failure
        is logged, the roll still happens, and the next /board shows the game as it is.
        """
        await self._deliver(interaction, to_message(reply, title=title), reply)
        if reply.ok and reply.pending_roll:
            try:
                rolled = await self.referee.roll_pending(
                    where_of(interaction), game_id=reply.game_id
                )
            except StoreUnavailable:  # logged by the store; the sweeper rolls it later
                await self._deliver(interaction, to_message(refusal(ROLL_LATER)), reply)
                return
            await self._deliver(interaction, to_message(rolled), rolled)

    async def _deliver(
        self, interaction: discord.Interaction[Any], out: Outgoing, reply: Reply
    ) -> None:
        try:
            await self.send(interaction, out)
        except discord.HTTPException as exc:
            log.warning(
                "reply not delivered (what the referee stored stands) %s",
                json.dumps(
                    {
                        "interaction": interaction.id,
                        "user": interaction.user.id,
                        "channel": interaction.channel_id,
                        "game": reply.game_id,
                        "version": reply.version,
                        "ok": reply.ok,
                        "status": exc.status,
                        "error": exc.text[:200],
                    }
                ),
            )

    @staticmethod
    async def send(interaction: discord.Interaction[Any], out: Outgoing) -> None:
        """The first answer as the response, every later one as a followup."""
        if interaction.response.is_done():
            await interaction.followup.send(**out.kwargs())
        else:
            await interaction.response.send_message(**out.kwargs())

    async def call(
        self, interaction: discord.Interaction[Any], method: str, *args: Any, **kwargs: Any
    ) -> Reply:
        """``referee.<method>(where, actor, ...)`` with a log line that follows the game."""
        started = time.perf_counter()
        reply: Reply = await getattr(self.referee, method)(
            where_of(interaction), actor_of(interaction.user), *args, **kwargs
        )
        log.info(
            "%s",
            json.dumps(
                {
                    "op": method,
                    "args": [str(a) for a in args],
                    "user": interaction.user.id,
                    "channel": interaction.channel_id,
                    "guild": interaction.guild_id,
                    "ok": reply.ok,
                    "game": reply.game_id,
                    "version": reply.version,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                }
            ),
        )
        return reply

    async def on_button(self, interaction: discord.Interaction[Any], spec: ButtonSpec) -> None:
        """A click: the referee decides; a click that did something retires the buttons."""
        reply: Reply = await self.referee.press(
            where_of(interaction),
            actor_of(interaction.user),
            spec.custom_id,
            request_id=str(interaction.id),
        )
        log.info(
            "%s",
            json.dumps(
                {"op": "press", "id": spec.custom_id, "user": interaction.user.id, "ok": reply.ok}
            ),
        )
        if not reply.ok:
            await self.send(interaction, to_message(reply))
            return
        try:
            await interaction.response.edit_message(view=None)  # retire the clicked buttons
        except discord.HTTPException:
            log.warning(
                "could not retire the buttons of message %s",
                getattr(interaction.message, "id", None),
            )
        await self.answer(interaction, reply)

    # ---- notices the sweeper produces (flag falls, expired challenges) -----------------------
    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds or SWEEP_SECONDS)
            try:
                await self.post_notices()
                self.beat()  # only after a round that worked: the store answers too
            except StoreUnavailable as exc:  # the store logged the fault; try next round
                log.warning("sweep postponed: %s", exc)
            except Exception:  # the sweeper must outlive one bad round
                log.exception("sweep failed")

    async def post_notices(self) -> int:
        """Run one sweep and post what it decided in each game's channel; returns how many."""
        posted = 0
        for notice in await self.referee.sweep():
            channel = self.get_channel(notice.where.channel_id) or self.get_partial_messageable(
                notice.where.channel_id, guild_id=notice.where.guild_id
            )
            out = to_message(notice.reply)
            try:
                await channel.send(**out.kwargs(for_channel=True))  # type: ignore[union-attr]
            except discord.HTTPException:  # a deleted channel or lost permission: log, go on
                log.warning("could not post a notice in %s", notice.where.channel_id)
                continue
            posted += 1
        return posted


def configure_logging(level: str = "INFO") -> None:
    """One line per event, with a timestamp and the logger: enough to follow a game."""
    logging.basicConfig(
        level=getattr(logging, str(level).upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))


async def _open(config: Any) -> tuple[Any, Any]:
    """The store and referee for a configuration (imported here: they are the other layer's)."""
    from bot.referee import Referee
    from bot.store import Store

    store = await Store.open(str(config.db_path))
    return store, Referee(store)


async def serve(config: Any) -> None:
    """Log in and serve until SIGTERM or SIGINT, then close the gateway and the store."""
    store, referee = await _open(config)
    heartbeat = os.environ.get("REFEREE_HEARTBEAT")
    if heartbeat:  # one left by an earlier run says nothing about this one
        Path(heartbeat).unlink(missing_ok=True)
    bot = RefereeBot(referee, heartbeat=heartbeat)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stopping.set)
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(config.token), name="discord-gateway")
            stopper = asyncio.create_task(stopping.wait(), name="referee-stop")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("signal received: shutting down")
            await bot.close()
            stopper.cancel()
            if runner.done() and runner.exception():
                raise runner.exception()  # type: ignore[misc]
    finally:
        await store.close()
        log.info("stopped")


def run(config: Any) -> None:
    """``python -m bot``: serve Discord with the token from the configuration."""
    configure_logging(getattr(config, "log_level", "INFO"))
    asyncio.run(serve(config))


async def _sync(config: Any, guild_id: int | None) -> list[str]:
    bot = RefereeBot(referee=None, sweep_seconds=None)
    async with bot:
        await bot.login(config.token)  # runs setup_hook: the commands are loaded
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    return [c.name for c in synced]


def sync(config: Any, guild_id: int | None = None) -> None:
    """``python -m bot sync GUILD | --global``: publish the commands (to one guild: instantly);
    ``guild_id`` None publishes globally, which ``bot.__main__`` allows only with --global."""
    configure_logging(getattr(config, "log_level", "INFO"))
    names = asyncio.run(_sync(config, guild_id))
    where = f"guild {guild_id}" if guild_id else "every guild (global; may take a while)"
    print(f"synced {len(names)} commands to {where}: {', '.join(sorted(names))}")
