"""The discord.py bot: a thin adapter from interactions to ``Referee`` calls and back.

The store and referee are made by the caller and handed in (``RefereeBot(referee)``), so tests and
the benchmark drive the same bot on their own database. ``run(config)`` serves until SIGTERM;
``sync(config, guild_id)`` publishes the slash commands on purpose, never on every start.

Why it is long: it holds the whole adapter's life cycle in one place (start, sync, sweeping,
draining on SIGTERM, delivering replies and their failures, languages).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import json
import logging
import os
import signal
import socket
from pathlib import Path
from typing import Any, cast

import aiohttp
import discord
from discord.ext import commands

from bot import event_loop, logs
from bot.config import LOOPBACK, shown_database
from bot.discord_ui.format import Outgoing, to_message
from bot.discord_ui.guards import Cooldowns, Deliveries
from bot.discord_ui.shutdown import GRACE_SECONDS, Drain
from bot.discord_ui.translator import CatalogTranslator
from bot.discord_ui.tree import RefereeTree
from bot.discord_ui.turns import (
    BOARD_AFTER,
    BOARD_CEILING,
    Held,
    Steps,
    answered_by_bot,
    edit_kwargs,
    has_board,
    unpinged,
)
from bot.discord_ui.views import RefereeButton, UnknownButton
from bot.errors import RefereeError, StoreUnavailable
from bot.i18n import Msg, person_name
from bot.metrics import METRICS, Metrics
from bot.referee import Referee
from bot.referee.replies import Actor, ButtonSpec, Notice, Reply, Where
from bot.shards import Shards

log = logging.getLogger("bot.discord")

SWEEP_SECONDS = 5.0
COG_MODULES = (
    "bot.discord_ui.cogs.play",
    "bot.discord_ui.cogs.game",
    "bot.discord_ui.cogs.info",
    "bot.discord_ui.cogs.ladder",
    "bot.discord_ui.cogs.disputes",
    "bot.discord_ui.cogs.referee_mod",
    "bot.discord_ui.cogs.practice",
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


def here(interaction: discord.Interaction[Any]) -> tuple[Where, Actor]:
    """Where an interaction happened and who made it: the first two arguments of every referee
    command (``referee.resign(*here(interaction))``)."""
    return where_of(interaction), actor_of(interaction.user)


def actor_of(user: discord.abc.User | discord.Member) -> Actor:
    """The referee's person for a Discord user or member, named as every message, thread name,
    board and record repeats them (``person_name``: one line, no direction override; the next
    of nickname, global name, username when nothing visible is left of one)."""
    name = str(user.id)
    for chosen in (user.name, getattr(user, "global_name", None), user.display_name):
        name = person_name(chosen or "", name)
    return Actor(
        id=user.id,
        name=name,
        is_moderator=is_moderator(user),
        is_bot=user.bot,
    )


class RefereeBot(commands.AutoShardedBot):
    """The bot. Cogs reach the referee as ``bot.referee``; nothing else holds game state.

    Sharded: ``shard_count`` and ``shard_ids`` (options) give this process its shards, and it
    sweeps only their servers; without them Discord picks the count and it serves them all."""

    def __init__(
        self,
        referee: Referee,
        *,
        sweep_seconds: float | None = SWEEP_SECONDS,
        heartbeat: str | os.PathLike[str] | None = None,
        metrics: Metrics | None = None,
        **options: Any,
    ) -> None:
        # The referee never joins a voice channel: discord.py's two "voice will NOT be
        # supported" warnings at every start said nothing an operator could act on.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
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
        if referee is not None:  # ``sync``'s bot has none: it answers no command
            referee.hold_boards()  # a practice move's board is drawn only if shown (turns.py)
        self.sweep_seconds = sweep_seconds
        self.heartbeat = Path(heartbeat) if heartbeat else None
        self.gateway_connected = False  # on_connect / on_resumed set it, on_disconnect clears it
        self._sweeper: asyncio.Task[None] | None = None
        self.deliveries: Deliveries | None = Deliveries()  # discord_ui.guards: None: off
        self.cooldowns: Cooldowns | None = Cooldowns()
        self.drain = Drain()  # discord_ui.shutdown: what is in flight when the bot stops
        self.grace_seconds = GRACE_SECONDS
        self.board_after = BOARD_AFTER  # discord_ui.turns: a move's own board, if no answer
        self.board_ceiling = BOARD_CEILING  # ... or at most this late while it is searched
        self.metrics = metrics or METRICS
        self._frozen = False  # freeze_startup has run

    @property
    def own_shards(self) -> Shards | None:
        """The shards this process serves when it serves only some (None: all of them)."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        shards = Shards(self.shard_count, tuple(sorted(self.shard_ids)))
        return None if shards.serves_all else shards

    async def setup_hook(self) -> None:
        """Buttons first (a click may arrive before anything else), then the commands."""
        self.add_dynamic_items(RefereeButton, UnknownButton)
        await self.tree.set_translator(CatalogTranslator(self.tree))  # Hungarian menus
        for name in COG_MODULES:
            if name not in self.extensions:
                await self.load_extension(name)

    async def on_ready(self) -> None:
        log.info("ready %s", json.dumps({"user": str(self.user), "guilds": len(self.guilds)}))
        self.freeze_startup()
        self.beat()
        if self.sweep_seconds and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="referee-sweeper")

    def freeze_startup(self) -> None:
        """Leave what the process holds once connected (modules, commands, the guilds' caches,
        fonts) out of Python's cyclic collector, once: it lives as long as the process, and
        scanning it made each full collection a pause of 74-96 ms under load, against 22-35 ms
        frozen (``python -m bench discord``'s run at 100/s, issue 17)."""
        if not self._frozen:
            self._frozen = True
            gc.collect()  # garbage first: what is frozen is never collected
            gc.freeze()

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

    # ---- per shard, for the metrics (AutoShardedBot's events) --------------------------------
    async def on_shard_connect(self, shard_id: int) -> None:
        self.metrics.gateway(shard_id, True)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.metrics.gateway(shard_id, True)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.metrics.gateway(shard_id, False)

    def _gateway_metrics(self) -> None:
        for shard_id, shard in self.shards.items():
            self.metrics.gateway(shard_id, not shard.is_closed(), shard.latency)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], _: Any
    ) -> None:
        self.metrics.finished(interaction)  # failures are counted where they are reported

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

    async def close_resources(self) -> None:
        """Release what the referee holds besides the store (the practice opponent's worker
        process); ``serve`` calls it before closing the store, and so do the tests."""
        await self.referee.close()

    # ---- the one path from a referee reply to Discord ----------------------------------------
    async def answer(
        self, interaction: discord.Interaction[Any], reply: Reply, *, title: Msg | None = None
    ) -> None:
        """Show the replies a command's answer stands for, in order (an Atmalof announcement:
        the announcement, then the die's roll; ``Referee.sequence``). A board whose next move
        is the practice opponent's is posted without its picture, which the bot's answer shows
        after both moves; if the answer is late or never comes, the board is added to it
        (``bot.discord_ui.turns``). The person who acted is not pinged by an answer in time.

        What the referee stored stands even if Discord fails to take the message: the failure
        is logged, the roll still happens, and the next /board shows the game as it is.
        """
        if reply.reason == "cant_save":  # the referee answers a store fault as a reply
            self.metrics.outcome(interaction, "cant_save")
            self.metrics.store_faults.labels("command").inc()
        elif not reply.ok:
            self.metrics.outcome(interaction, "refused")
        public, private = await self.languages(interaction)
        bot_id = self.user.id if self.user is not None else None
        loop = asyncio.get_running_loop()
        steps = Steps(self.referee.sequence(where_of(interaction), reply))
        held: Held | None = None
        late = False  # the player's board was shown because the bot's answer was late
        try:
            while True:
                within = None if held is None else max(0.0, held.due - loop.time())
                try:
                    shown = await steps.next(within)
                except TimeoutError:  # the bot's answer is late: the player's board now ...
                    assert held is not None  # a bound is set only while a board is held
                    if held.due < held.ceiling and self.referee.searching(held.reply.game_id):
                        held.due = held.ceiling  # ... unless a worker is on it: it is coming
                        continue
                    await self._show_board(interaction, held)
                    held, late = None, True
                    continue
                if shown is None:
                    break
                if shown.reason == "roll_later":  # the store could not save the roll yet
                    self.metrics.store_faults.labels("roll").inc()
                if not late:  # they have just typed
                    shown = unpinged(shown, interaction.user.id)
                lang = public if shown.public else private
                hold = answered_by_bot(shown, bot_id)
                if not hold:
                    shown = await self.referee.draw(shown)
                out = to_message(shown, title=title, lang=lang, board=not hold)
                delivered, message = await self._deliver(interaction, out, shown)
                if delivered and shown.public and has_board(shown):
                    # a board posted stands for the one held back (only once Discord took it:
                    # else the held one is still the board to show)
                    held = None
                    if hold:
                        now = loop.time()
                        due, ceiling = now + self.board_after, now + self.board_ceiling
                        held = Held(shown, lang, title, message, due, max(due, ceiling))
                title = None  # the title heads the first message only
        except Exception:
            await self._show_board(interaction, held)  # a bug's report follows it
            raise
        finally:
            await steps.close()
        await self._show_board(interaction, held)  # no answer came: the board of the move

    async def _show_board(self, interaction: discord.Interaction[Any], held: Held | None) -> None:
        """Add its board to a message posted without it (nothing when none was held back, or
        when its game has changed since: ``Referee.held_board``)."""
        if held is None:
            return
        try:
            drawn = await self.referee.held_board(held.reply)  # drawn only now that it is shown
        except StoreUnavailable:  # whether it still stands is unknown: the board, as it was
            drawn = await self.referee.draw(held.reply)
        if drawn is None:
            return
        out = to_message(drawn, title=held.title, lang=held.lang)
        try:
            if held.message is None:
                await interaction.edit_original_response(**edit_kwargs(out))
            else:
                await held.message.edit(**edit_kwargs(out))
        except discord.HTTPException as exc:
            log.warning("board not added to game %s's move: %s", held.reply.game_id, exc.status)

    async def languages(self, interaction: discord.Interaction[Any]) -> tuple[str, str]:
        """(public, private): the server's language, and the person's own for private replies
        (their /language, else their client's locale where we have it, else the server's)."""
        locale = getattr(interaction.locale, "value", None)
        try:
            return await self.referee.languages(where_of(interaction), interaction.user.id, locale)
        except StoreUnavailable:  # the answer must still go out: in English
            return ("en", "en")

    async def _deliver(
        self, interaction: discord.Interaction[Any], out: Outgoing, reply: Reply
    ) -> tuple[bool, discord.WebhookMessage | None]:
        """Send ``out``: whether Discord took it, and the followup message it made (None for
        the interaction's response)."""
        try:
            return True, await self.send(interaction, out)
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
            return False, None

    async def send(
        self, interaction: discord.Interaction[Any], out: Outgoing
    ) -> discord.WebhookMessage | None:
        """The first answer as the response (None), every later one as a followup (the
        message it made)."""
        if interaction.response.is_done():
            return await interaction.followup.send(**out.kwargs(), wait=True)
        self.metrics.answering(interaction)
        await interaction.response.send_message(**out.kwargs())
        return None

    async def on_button(self, interaction: discord.Interaction[Any], spec: ButtonSpec) -> None:
        """A click: the referee decides; a click that did something retires the buttons."""
        reply = await self.referee.press(
            *here(interaction), spec.custom_id, request_id=str(interaction.id)
        )
        if reply.reason == "cant_save":  # the referee answers a store fault as a reply
            self.metrics.outcome(interaction, "cant_save")
            self.metrics.store_faults.labels("command").inc()
        elif not reply.ok:
            self.metrics.outcome(interaction, "refused")
            private = (await self.languages(interaction))[1]
            await self.send(interaction, to_message(reply, lang=private))
            self.metrics.finished(interaction)
            return
        try:
            await interaction.response.edit_message(view=None)  # retire the clicked buttons
        except discord.HTTPException:
            log.warning(
                "could not retire the buttons of message %s",
                getattr(interaction.message, "id", None),
            )
        await self.answer(interaction, reply)
        self.metrics.finished(interaction)

    # ---- notices the sweeper produces (flag falls, expired challenges) -----------------------
    async def _sweep_forever(self) -> None:
        """Sweep at once, then every ``sweep_seconds``: the first sweep gives back the clock
        time an outage ran, before a command could find a flag fallen in it."""
        while True:
            self._gateway_metrics()
            try:
                await self.post_notices()
                self.beat()  # only after a round that worked: the store answers too
            except StoreUnavailable as exc:  # the store logged the fault; try next round
                self.metrics.store_faults.labels("sweep").inc()
                log.warning("sweep postponed: %s", exc)
            except Exception:  # the sweeper must outlive one bad round
                log.exception("sweep failed")
            await asyncio.sleep(self.sweep_seconds or SWEEP_SECONDS)

    async def post_notices(self) -> int:
        """Run one sweep, posting each notice in its game's channel as the sweep yields it (a
        bot's move after a restart starts its player's clock: it is shown at once, not after
        the other practice games' searches), then refresh the active-games gauge (this
        process's shards); returns how many notices went out. A store fault ends the sweep
        with StoreUnavailable, after what it had done was posted."""
        posted = 0
        # closed here, not by the garbage collector: a shutdown cancels this while a notice is
        # posted, and the sweep's practice answers under way must be cancelled with it
        async with contextlib.aclosing(self.referee.sweep(shards=self.own_shards)) as notices:
            async for notice in notices:
                if await self.post_notice(notice):
                    posted += 1
                    self.beat()  # a long sweep (practice games after a restart) is a working one
        await self.count_games()
        return posted

    async def count_games(self) -> int:
        """Set the active-games gauge to the running games of this process's shards (the
        store's count); returns it. ``serve`` calls it before the first sweep too: a scrape
        right after a restart read 0 while dozens of games ran."""
        running = await self.referee.running_games(self.own_shards)
        self.metrics.active_games.set(running)
        return running

    async def post_notice(self, notice: Notice) -> bool:
        """Post one notice in its channel, in the server's language; False when Discord would
        not take it (a deleted channel or lost permission: logged)."""
        channel = self.get_channel(notice.where.channel_id) or self.get_partial_messageable(
            notice.where.channel_id, guild_id=notice.where.guild_id
        )
        try:
            lang = (await self.referee.languages(notice.where, None))[0]
        except StoreUnavailable:
            lang = "en"
        out = to_message(await self.referee.draw(notice.reply), lang=lang)
        try:
            await channel.send(**out.kwargs(for_channel=True))  # type: ignore[union-attr]
        except discord.HTTPException:
            log.warning("could not post a notice in %s", notice.where.channel_id)
            return False
        return True


def configure_logging(level: str = "INFO", fmt: str = "text", shards: Any = None) -> None:
    """One line per event (text, or JSON for a log collector: ``bot.logs``), with the time, the
    logger and, when this process serves only some shards, which."""
    ids = getattr(shards, "ids", None)
    fields: dict[str, object] | None = None
    if fmt == "json":
        fields = {"shards": f"{ids[0]}-{ids[-1]}" if ids else "all"}
    logs.configure(level, fmt, fields=fields)


async def _open(config: Any) -> tuple[Any, Referee]:
    """The store and referee for a configuration (the store imported here: it is the layer the
    referee stands on)."""
    from bot.store import open_store

    store = await open_store(str(config.db_path))
    workers = getattr(config, "practice_workers", 1)
    return store, Referee(store, practice_workers=workers)


class CannotStart(RefereeError):
    """The bot cannot serve: the metrics port is taken or its address is not this host's,
    Discord cannot be reached, or it refuses the token. ``run`` and ``sync`` log the message as
    one line and exit 1 (a restart policy tries again), after closing everything they had
    opened."""


def _serve_metrics(metrics: Metrics, host: str, port: int) -> None:
    """Expose /metrics on ``host``:``port``, or CannotStart saying which setting and what to do."""
    try:
        bound_host, bound = metrics.serve(port, host)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(
            exc, socket.gaierror
        ):
            raise CannotStart(
                f"METRICS_HOST={host} cannot be listened on ({why}): set it to an address of "
                "this host (127.0.0.1, or 0.0.0.0 for every interface)"
            ) from None
        raise CannotStart(
            f"METRICS_PORT={port} cannot be opened on {host} ({why}): stop what listens "
            "on that port, or set METRICS_PORT to a free one"
        ) from None
    log.info(
        "metrics on %s port %s",
        bound_host,
        bound,
        extra={"metrics_host": bound_host, "metrics_port": bound},
    )


UNREACHABLE = (OSError, asyncio.TimeoutError, aiohttp.ClientError, discord.GatewayNotFound)


def _cannot_reach(exc: BaseException) -> CannotStart | None:
    """What a failed login or gateway connection tells the operator, in one line (None: a
    bug, raised as it is). The token is never in it."""
    if isinstance(exc, discord.LoginFailure):
        return CannotStart(
            "Discord refused DISCORD_TOKEN: copy the bot's token again from the developer "
            "portal (docs/discord-setup.md)"
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return CannotStart(
            "Discord refused the bot's intents: turn on the ones docs/discord-setup.md names "
            "in the developer portal"
        )
    if isinstance(exc, discord.HTTPException):
        return CannotStart(f"Discord answered {exc.status} {exc.text or ''}".rstrip())
    if isinstance(exc, UNREACHABLE):
        detail = str(exc) or type(exc).__name__
        return CannotStart(f"cannot reach Discord ({detail}): check the network and DNS")
    return None


async def serve(config: Any, metrics: Metrics | None = None) -> None:
    """Log in and serve until SIGTERM or SIGINT, then close the gateway and the store; what
    was opened is closed whatever fails (CannotStart: the metrics address, Discord).
    ``metrics``: the process's own unless a test brings its registry."""
    store, referee = await _open(config)
    where = shown_database(str(config.db_path))  # once: a mistyped path made a new one
    log.info("database: %s", where, extra={"database": where})
    try:
        heartbeat = os.environ.get("REFEREE_HEARTBEAT")
        if heartbeat:  # one left by an earlier run says nothing about this one
            Path(heartbeat).unlink(missing_ok=True)
        shards = getattr(config, "shards", None) or Shards()
        bot = RefereeBot(
            referee,
            heartbeat=heartbeat,
            metrics=metrics,
            shard_count=shards.count,
            shard_ids=shards.ids,
        )
        port = getattr(config, "metrics_port", None)
        if port is not None:  # counted first: no scrape reads 0 games while games run
            await bot.count_games()  # a store that cannot count: exit 3, as one not opened
            _serve_metrics(bot.metrics, getattr(config, "metrics_host", LOOPBACK), port)
        loop = asyncio.get_running_loop()
        kind = event_loop.kind(loop)
        log.info("event loop: %s", kind, extra={"event_loop": kind})
        stopping = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stopping.set)
        async with bot:
            runner = asyncio.create_task(bot.start(config.token), name="discord-gateway")
            stopper = asyncio.create_task(stopping.wait(), name="referee-stop")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("signal received: shutting down")
            await bot.close()
            stopper.cancel()
            if stopper in done:  # the gateway task ends with the close: whatever it raises (a
                # login cut short: 'Connector is closed.') is the stop's doing, not Discord's,
                # and left unread it was logged as "Task exception was never retrieved"
                await asyncio.wait({runner}, timeout=GRACE_SECONDS)
                runner.cancel()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await runner
                return
            failed = runner.exception() if runner.done() and not runner.cancelled() else None
            if failed is not None:
                raise _cannot_reach(failed) or failed
    finally:
        await referee.close()
        await store.close()
        log.info("stopped")


def run(config: Any) -> int:
    """``python -m bot``: serve Discord with the token from the configuration; the exit
    status (1: CannotStart, said in one log line)."""
    configure_logging(
        getattr(config, "log_level", "INFO"),
        getattr(config, "log_format", "text"),
        getattr(config, "shards", None),
    )
    try:
        event_loop.run(serve(config), getattr(config, "event_loop", event_loop.DEFAULT))
    except CannotStart as exc:
        log.critical("cannot start: %s", exc)
        return 1
    return 0


async def _sync(config: Any, guild_id: int | None) -> list[str]:
    bot = RefereeBot(referee=cast(Referee, None), sweep_seconds=None)  # no command runs
    async with bot:
        try:
            await bot.login(config.token)  # runs setup_hook: the commands are loaded
        except Exception as exc:
            raise _cannot_reach(exc) or exc from None
        guild = None if guild_id is None else discord.Object(id=guild_id)
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    return [c.name for c in synced]


def sync(config: Any, guild_id: int | None = None) -> int:
    """``python -m bot sync GUILD | --global``: publish the commands (to one guild: instantly);
    ``guild_id`` None publishes globally, which ``bot.__main__`` allows only with --global.
    The exit status (1: Discord could not be reached or refused, said in one log line)."""
    configure_logging(getattr(config, "log_level", "INFO"), getattr(config, "log_format", "text"))
    try:
        names = event_loop.run(
            _sync(config, guild_id), getattr(config, "event_loop", event_loop.DEFAULT)
        )
    except CannotStart as exc:
        log.critical("cannot sync: %s", exc)
        return 1
    where = "every guild (global; may take a while)" if guild_id is None else f"guild {guild_id}"
    print(f"synced {len(names)} commands to {where}: {', '.join(sorted(names))}")
    return 0
