"""Challenges and moves: /challenge, /drop row|column, /move, /place, /remove, /push, /play.

Each move command builds the text of the game's notation and hands it to ``Referee.act``; the
referee (and the engine under it) decides. Autocomplete offers the legal actions of the player
to move, filtered by what has been typed, at most 25 as Discord allows: when more match, the
25th choice says how many more and that typing more of the move narrows them; when there is
nothing to offer, one choice says why (``bot.discord_ui.choices``). A move command of another
game (/drop in a Morris game) is answered with the commands of this one.

Why it is long: every move command with its options, descriptions and autocomplete as Discord
declares them; each is a few lines that build the notation and call the referee.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.discord_ui.app import RefereeBot, actor_of, here, where_of
from bot.discord_ui.choices import (
    MAX_CHOICES,
    capped,
    clock_choices,
    hint,
    other_games,
    other_games_msg,
    unique,
    variant_choices,
    why_msg,
)
from bot.discord_ui.format import clip, mentions_of, to_message
from bot.discord_ui.guards import Cooldowns
from bot.discord_ui.tree import UserFacingError
from bot.errors import Refusal
from bot.game_names import game_title
from bot.i18n import Msg, msg, say, typed
from bot.referee.move_words import GAME_VERBS
from bot.referee.replies import Where
from bot.referee.wrapper import refused
from engine.core import clean_command

MAX_LINE = 12  # engine.atmalof.config.MAX_SIZE: the largest custom board
GAME_TITLES = {"atmalof": "Atmalof", "morris": "Nine Men's Morris", "abalone": "Abalone"}
DIRECTIONS = ("ne", "e", "se", "sw", "w", "nw")
MAX_OPTIONS_TEXT = 200
MAX_DICE_WORDS = 200  # engine.dice.MAX_WORDS
THREAD_NAME_LIMIT = 100  # Discord refuses a longer thread name
OPTION_PAIR = re.compile(r"([a-z_][a-z0-9_]{0,30})\s*=\s*([^\s=,;]{1,40})")


def parse_options(text: str | None) -> dict[str, Any]:
    """``"flying=off rows=8"`` -> ``{"flying": False, "rows": 8}``; a clear error otherwise."""
    if not text or not text.strip():
        return {}
    if len(text) > MAX_OPTIONS_TEXT:
        raise UserFacingError(msg("discord.options_too_long", max=MAX_OPTIONS_TEXT))
    cleaned = text.strip().lower()
    pairs = OPTION_PAIR.findall(cleaned)
    leftover = OPTION_PAIR.sub("", cleaned).replace(",", " ").replace(";", " ").strip()
    if leftover or not pairs:
        raise UserFacingError(msg("discord.options_unreadable", options=typed(text)))
    out: dict[str, Any] = {}
    for key, raw in pairs:
        value: Any = raw
        if raw in ("on", "true", "yes"):
            value = True
        elif raw in ("off", "false", "no"):
            value = False
        elif re.fullmatch(r"-?\d{1,6}", raw):
            value = int(raw)
        out[key] = value
    return out


# What the bot needs for what it does outside the replies to commands (Discord always lets an
# interaction's own responses carry embeds and files): the permission, and its name in Discord.
THREAD_NEEDS = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
}
POSTING_NEEDS = {
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
THREAD_POSTING_NEEDS = {
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def thread_name(title: str, first: str, second: str) -> str:
    """The thread's name, "Title: first vs second", in Discord's 100 characters: each name is
    cut to its half of what the title leaves, so a long first name never pushes out the second."""
    room = max(1, (THREAD_NAME_LIMIT - len(title) - len(": ") - len(" vs ")) // 2)
    first, second = (clip(n, room) for n in (first, second))
    return f"{title}: {first} vs {second}"[:THREAD_NAME_LIMIT]


def missing(perms: discord.Permissions, needs: dict[str, str]) -> list[str]:
    """The names of the permissions in ``needs`` that ``perms`` lacks."""
    return [name for attr, name in needs.items() if not getattr(perms, attr, False)]


def no_thread_text(lacking: list[str]) -> Msg:
    """Permission names stay as Discord's settings show them to admins (in English)."""
    return msg("discord.no_thread", permissions=", ".join(lacking))


def posting_note(lacking: list[str]) -> Msg:
    return msg("discord.posting_note", permissions=", ".join(lacking))


class Play(commands.Cog):
    """Starting games and making moves."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    # ---- autocomplete ----------------------------------------------------------------------
    async def _legal(self, interaction: discord.Interaction[Any], prefix: str) -> list[str]:
        return await self.bot.referee.legal_for(
            where_of(interaction), actor_of(interaction.user), prefix, limit=None
        )

    async def _suggest(
        self,
        interaction: discord.Interaction[Any],
        prefixes: tuple[str, ...],
        pick: Callable[[str], str],
        current: str = "",
        verb: str | None = None,
    ) -> list[Choice[str]]:
        """Legal notations starting with any prefix, reduced by ``pick`` to an option's value;
        none: one choice that says why (``_why_none``)."""
        found: list[str] = []
        for prefix in prefixes:
            found += [pick(n) for n in await self._legal(interaction, prefix)]
        values = unique(found)
        if not values:
            return await self._why_none(interaction, verb)
        lang = "en"
        if len(values) > MAX_CHOICES:  # only then is there a sentence to say
            lang = (await self.bot.languages(interaction))[1]
        return capped(values, current, lang)

    async def _why_none(
        self, interaction: discord.Interaction[Any], verb: str | None
    ) -> list[Choice[str]]:
        """The referee's reason why this person has nothing to play (no game here, another's
        turn...), else, for a command of a game (``verb``) other than the one here, this game's
        commands, as one choice; none when they may play and only what is typed matches nothing."""
        where = where_of(interaction)
        why = await self.bot.referee.why_no_choices(where, actor_of(interaction.user), verb)
        said = why_msg(why) if why is not None else None
        if said is None and verb is not None:
            game = await self.bot.referee.game_here(where)
            if game in GAME_VERBS and verb not in GAME_VERBS[game]:
                said = other_games_msg(verb, game, GAME_VERBS[game])
        if said is None:
            return []
        return [hint(said, (await self.bot.languages(interaction))[1])]

    @staticmethod
    def _typed(current: str) -> str:
        return clean_command(current[:50]) if current else ""

    async def _from_choices(self, interaction: discord.Interaction[Any], current: str):
        typed = self._typed(current)
        return await self._suggest(
            interaction, (f"move {typed}", f"fly {typed}"), lambda n: n.split()[1], current, "move"
        )

    async def _to_choices(self, interaction: discord.Interaction[Any], current: str):
        start = str(getattr(interaction.namespace, "from", None) or "").strip().lower()
        typed = self._typed(current)
        prefixes = (f"move {start} {typed}", f"fly {start} {typed}") if start else ("move ", "fly ")
        return await self._suggest(interaction, prefixes, lambda n: n.split()[2], current, "move")

    async def _point_choices(self, interaction: discord.Interaction[Any], verb: str, current: str):
        typed = self._typed(current)
        return await self._suggest(
            interaction, (f"{verb} {typed}",), lambda n: n.split()[1], current, verb
        )

    async def _removal_choices(
        self, interaction: discord.Interaction[Any], current: str, verb: str
    ):
        """The men to remove: for /remove, and /move's and /place's ``remove`` (``verb``: the
        command's, whose game it is)."""
        typed = self._typed(current)
        return await self._suggest(
            interaction, (f"remove {typed}",), lambda n: n.split()[1], current, verb
        )

    # ---- /challenge --------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone (or anyone) to a game")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game to play",
        opponent="Who you challenge; leave empty for an open challenge anyone may accept",
        variant="Variant (standard unless you pick another)",
        options="Rule options as name=value pairs, e.g. flying=off or rows=8 cols=8 line=5",
        rated="Rated on this server's ladder (default: casual)",
        clock="Clock: none, 10+0 or 15+5 (minutes+seconds), or 24h per move",
        starter="Who moves first",
        thread="Play in a new thread (default: here in this channel)",
        dice_words="Your own words, mixed into every roll so nobody can pick the dice",
    )
    @app_commands.choices(
        game=[Choice(name=title, value=name) for name, title in GAME_TITLES.items()],
        starter=[
            Choice(name="Coin toss (verifiable dice)", value="random"),
            Choice(name="Me", value="me"),
            Choice(name="My opponent", value="them"),
        ],
    )
    @app_commands.autocomplete(variant=variant_choices, clock=clock_choices)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        opponent: discord.Member | None = None,
        variant: Range[str, 1, 40] = "standard",
        options: Range[str, 1, MAX_OPTIONS_TEXT] | None = None,
        rated: bool = False,
        clock: Range[str, 1, 20] = "none",
        starter: str = "random",
        thread: bool = False,
        dice_words: Range[str, 1, MAX_DICE_WORDS] = "",
    ) -> None:
        """Post a challenge with Accept and Decline buttons, here or in a new thread."""
        kwargs: dict[str, Any] = {
            "dice_words": dice_words,
            "opponent": actor_of(opponent) if opponent is not None else None,
            "variant": variant.strip().lower(),
            "options": parse_options(options),
            "rated": rated,
            "clock": clock,
            "starter": starter,
        }
        if opponent is not None and opponent.id == interaction.user.id:
            raise UserFacingError(msg("discord.challenge_yourself"))
        if opponent is not None and self.bot.user is not None and opponent.id == self.bot.user.id:
            await self._practice(interaction, game, kwargs, thread)  # the bot itself: practice
            return
        perms = interaction.app_permissions
        in_thread = thread and not isinstance(interaction.channel, discord.Thread)
        if in_thread and (lacking := missing(perms, THREAD_NEEDS)):
            raise UserFacingError(no_thread_text(lacking))
        needs = POSTING_NEEDS
        if in_thread or isinstance(interaction.channel, discord.Thread):
            needs = THREAD_POSTING_NEEDS
        if not in_thread:
            reply = await self.bot.referee.challenge(*here(interaction), game, **kwargs)
            await self.bot.answer(interaction, reply)
            posted = reply.ok
        else:
            posted = await self._challenge_in_thread(interaction, game, opponent, kwargs)
        if posted and (lacking := missing(perms, needs)):
            lang = (await self.bot.languages(interaction))[1]
            await interaction.followup.send(say(posting_note(lacking), lang), ephemeral=True)

    async def _practice(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        kwargs: dict[str, Any],
        thread: bool,
    ) -> None:
        """A challenge to the bot itself: a practice game at once, at the default level,
        played here (a thread is refused rather than ignored)."""
        if thread:
            reply = refused(Refusal("practice_thread"))
        else:
            assert self.bot.user is not None
            terms = {k: v for k, v in kwargs.items() if k != "opponent"}
            reply = await self.bot.referee.practice(
                *here(interaction),
                game,
                bot=actor_of(self.bot.user),
                request_id=str(interaction.id),
                **terms,
            )
        await self.bot.answer(interaction, reply)

    async def _challenge_in_thread(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        opponent: discord.Member | None,
        kwargs: dict[str, Any],
    ) -> bool:
        """Open a thread, post the challenge in it, and point to it from the channel; whether
        the challenge was posted."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserFacingError(msg("discord.threads_text_only"))
        if not await self._may_open_thread(interaction, game, kwargs):
            return False
        public = (await self.bot.languages(interaction))[0]  # a thread is public
        variant = str(kwargs.get("variant") or "standard")
        named = game_title(game, variant)
        title = say(named, public) if game in GAME_TITLES else game
        them = actor_of(opponent).name if opponent else say(msg("who.anyone"), public)
        name = thread_name(title, actor_of(interaction.user).name, them)
        room = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        where = Where(guild_id=interaction.guild_id, channel_id=room.id, parent_id=channel.id)
        reply = await self.bot.referee.challenge(where, actor_of(interaction.user), game, **kwargs)
        public, private = await self.bot.languages(interaction)
        if not reply.ok:  # refused, or nothing could be saved: the empty thread goes too
            with contextlib.suppress(discord.HTTPException):
                await room.delete()
            await self.bot.send(interaction, to_message(reply, lang=private))
            return False
        await room.send(**to_message(reply, lang=public).kwargs(for_channel=True))
        players = [interaction.user.id] + ([opponent.id] if opponent else [])
        who = opponent.mention if opponent else msg("who.anyone")
        text = say(
            msg(
                "notice.challenge_in_thread",
                challenger=interaction.user.mention,
                opponent=who,
                game=named,
                room=room.mention,
            ),
            public,
        )
        await interaction.response.send_message(text, allowed_mentions=mentions_of(players))
        return True

    async def _may_open_thread(
        self, interaction: discord.Interaction[Any], game: str, kwargs: dict[str, Any]
    ) -> bool:
        """Check first, create after: every refusal the challenge would get that does not need
        the thread is answered now (and no thread made); then the per-user cooldown on opening
        threads (CommandOnCooldown: "slow down"). The write still checks the limits itself; a
        challenge refused there removes its thread."""
        refused = await self.bot.referee.challenge_refusal(
            where_of(interaction), actor_of(interaction.user), game, **kwargs
        )
        if refused is not None:
            lang = (await self.bot.languages(interaction))[1]
            await self.bot.send(interaction, to_message(refused, lang=lang))
            return False
        book: Cooldowns | None = self.bot.cooldowns
        if book is not None:
            book.check("thread", interaction.user.id, interaction.created_at.timestamp())
        return True

    @app_commands.command(name="accept", description="Accept the challenge waiting here")
    @app_commands.describe(
        dice_words="Your own words, mixed into every roll (the coin toss too) with this accept"
    )
    async def accept(
        self,
        interaction: discord.Interaction[Any],
        dice_words: Range[str, 1, MAX_DICE_WORDS] = "",
    ) -> None:
        """Accept like the button does, optionally adding your words to the game's dice."""
        reply = await self.bot.referee.accept(
            *here(interaction), request_id=str(interaction.id), dice_words=dice_words
        )
        await self.bot.answer(interaction, reply)

    # ---- moves ----------------------------------------------------------------------------
    async def _act(
        self, interaction: discord.Interaction[Any], text: str, verb: str | None = None
    ) -> None:
        """Play ``text``; ``verb``: the game verb of the slash command used (None for /play),
        so that another game's command is answered with this game's slash commands."""
        reply = await self.bot.referee.act(*here(interaction), text, request_id=str(interaction.id))
        said = other_games(reply, verb) if verb is not None else None
        if said is not None:
            raise UserFacingError(said)
        await self.bot.answer(interaction, reply)

    drop = app_commands.Group(
        name="drop", description="Atmalof: announce a row or column, then the die is rolled"
    )

    @drop.command(name="row", description="Announce a row; the die picks the column")
    @app_commands.describe(k="The row number (1 is the top row)")
    async def drop_row(
        self, interaction: discord.Interaction[Any], k: Range[int, 1, MAX_LINE]
    ) -> None:
        await self._act(interaction, f"drop row {k}", "drop")

    @drop.command(name="column", description="Announce a column; the die picks the row")
    @app_commands.describe(k="The column number (1 is the left column)")
    async def drop_column(
        self, interaction: discord.Interaction[Any], k: Range[int, 1, MAX_LINE]
    ) -> None:
        await self._act(interaction, f"drop col {k}", "drop")

    @app_commands.command(name="move", description="Move a piece (Atmalof, Nine Men's Morris)")
    @app_commands.rename(from_="from")
    @app_commands.describe(
        from_="The piece to move: 3,4 (row 3, column 4) in Atmalof, d7 in Morris",
        to="Where it goes: 4,5 or a direction (ne) in Atmalof, d6 in Morris",
        remove="Morris: the man to remove if this move closes a mill",
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        from_: Range[str, 1, 20],
        to: Range[str, 1, 20],
        remove: Range[str, 1, 20] | None = None,
    ) -> None:
        text = f"move {from_} {to}" + (f" x {remove}" if remove else "")
        await self._act(interaction, text, "move")

    @move.autocomplete("from_")
    async def _move_from(self, interaction: discord.Interaction[Any], current: str):
        return await self._from_choices(interaction, current)

    @move.autocomplete("to")
    async def _move_to(self, interaction: discord.Interaction[Any], current: str):
        return await self._to_choices(interaction, current)

    @move.autocomplete("remove")
    async def _move_remove(self, interaction: discord.Interaction[Any], current: str):
        return await self._removal_choices(interaction, current, "move")

    @app_commands.command(name="place", description="Nine Men's Morris: place a man from your hand")
    @app_commands.describe(
        point="An empty point: a1..g7 (or a letter A..X)",
        remove="The man to remove if this placement closes a mill",
    )
    async def place(
        self,
        interaction: discord.Interaction[Any],
        point: Range[str, 1, 20],
        remove: Range[str, 1, 20] | None = None,
    ) -> None:
        await self._act(interaction, f"place {point}" + (f" x {remove}" if remove else ""), "place")

    @place.autocomplete("point")
    async def _place_point(self, interaction: discord.Interaction[Any], current: str):
        return await self._point_choices(interaction, "place", current)

    @place.autocomplete("remove")
    async def _place_remove(self, interaction: discord.Interaction[Any], current: str):
        return await self._removal_choices(interaction, current, "place")

    @app_commands.command(name="remove", description="Nine Men's Morris: remove a man after a mill")
    @app_commands.describe(point="The opposing man to remove: a1..g7 (or a letter A..X)")
    async def remove(self, interaction: discord.Interaction[Any], point: Range[str, 1, 20]) -> None:
        await self._act(interaction, f"remove {point}", "remove")

    @remove.autocomplete("point")
    async def _remove_point(self, interaction: discord.Interaction[Any], current: str):
        return await self._removal_choices(interaction, current, "remove")

    @app_commands.command(name="push", description="Abalone: push a line of your marbles")
    @app_commands.describe(
        marbles="One marble (c3) or the two ends of a line (a1 c3)",
        direction="The direction of the step",
    )
    @app_commands.choices(direction=[Choice(name=d.upper(), value=d) for d in DIRECTIONS])
    async def push(
        self,
        interaction: discord.Interaction[Any],
        marbles: Range[str, 1, 20],
        direction: str,
    ) -> None:
        ends = " ".join(marbles.replace("-", " ").replace(",", " ").split())
        await self._act(interaction, f"push {ends} {direction}", "push")

    @push.autocomplete("marbles")
    async def _push_marbles(self, interaction: discord.Interaction[Any], current: str):
        typed = self._typed(current.replace("-", " "))
        return await self._suggest(
            interaction, (f"push {typed}",), lambda n: " ".join(n.split()[1:-1]), current, "push"
        )

    @app_commands.command(name="play", description="Play any command in the game's notation")
    @app_commands.describe(command="e.g. drop row 4, move d6 d7 x b6, push a1 c3 ne")
    async def play(
        self, interaction: discord.Interaction[Any], command: Range[str, 1, 200]
    ) -> None:
        await self._act(interaction, command)

    @play.autocomplete("command")
    async def _play_command(self, interaction: discord.Interaction[Any], current: str):
        return await self._suggest(interaction, (self._typed(current),), lambda n: n, current)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Play(bot))
