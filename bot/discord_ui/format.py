"""A referee ``Reply`` as a Discord message: content, embed, board file, buttons, allowed mentions.

The rules of the translation, so every command looks alike:
- a private reply (a refusal: the referee's reason, nothing else) is plain ephemeral text;
- a public reply goes to the channel even when the command did not land (a fallen flag);
- a public reply is an embed saying what happened, the board image attached with its alt text and
  shown inside the embed, and the players to ping named in ``content`` (mentions in embeds do
  not notify anyone), with ``allowed_mentions`` limited to exactly those players;
- ``reply.buttons`` become persistent buttons (see ``bot.discord_ui.views``);
- the footer names the game and the chain head ("log #3fa9c01b2e"): the referee never puts it
  in the text, each front end shows it its own way.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_ui.views import buttons_view
from bot.i18n import Msg, msg, reply_words, say
from bot.referee.replies import Reply

EMBED_DESCRIPTION_LIMIT = 4096
CONTENT_LIMIT = 2000
ALT_TEXT_LIMIT = 1024
COLOUR_OK = discord.Colour(0x2F7D4F)
COLOUR_FINISHED = discord.Colour(0xC9A227)
COLOUR_INFO = discord.Colour(0x4F6D9A)


BRACKET = re.compile(r"(?<!\\)((?:\\\\)*)([\[\]])")  # not escaped: after an even run of \\


def escaped(text: str) -> str:
    """Someone's text as Discord shows it literally: no markdown (a name like
    ``[free nitro](https://…)`` would be a link in the bot's own message, ``**x**`` bold) and no
    mention (``@everyone`` pings nobody anyway: ``allowed_mentions``; it is not even styled).
    Every bracket is escaped, not only a whole ``[text](url)`` as discord.py does: each value is
    escaped alone, so "[Free Nitro" and "](https://…)" in two names made one link between."""
    plain = discord.utils.escape_markdown(discord.utils.escape_mentions(text))
    return BRACKET.sub(r"\1\\\2", plain)


def clip(text: str, limit: int) -> str:
    """Text cut to Discord's limit, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Outgoing:
    """Keyword arguments for ``send_message`` / ``followup.send`` / ``channel.send``."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    ephemeral: bool = False
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    def kwargs(self, *, for_channel: bool = False) -> dict[str, Any]:
        """Only the keys that are set (discord.py treats an explicit None differently)."""
        out: dict[str, Any] = {"allowed_mentions": self.allowed_mentions}
        if self.content:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.files:
            out["files"] = self.files
        if self.view is not None:
            out["view"] = self.view
        if self.ephemeral and not for_channel:
            out["ephemeral"] = True
        return out


def mentions_of(user_ids: list[int]) -> discord.AllowedMentions:
    """Pings allowed for these users only: never everyone, roles, or a replied-to author."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=uid) for uid in user_ids],
    )


def board_file(reply: Reply) -> discord.File | None:
    """The board PNG as an attachment whose description is the alt text screen readers use."""
    if reply.image is None:
        return None
    alt = reply.alt_text  # made from the board when read: read once
    return discord.File(
        io.BytesIO(reply.image),
        filename=reply.image_name,
        description=clip(alt, ALT_TEXT_LIMIT) if alt else None,
    )


def attached_file(reply: Reply) -> discord.File | None:
    """A file the reply carries (the record JSON, a replay GIF)."""
    if reply.file is None:
        return None
    return discord.File(io.BytesIO(reply.file), filename=reply.file_name or "record.json")


def to_message(
    reply: Reply, *, title: Msg | None = None, lang: str = "en", board: bool = True
) -> Outgoing:
    """The Discord message for a reply (see the module's rules), said in ``lang``: the server's
    language for a public reply, the person's own for a private one (the caller chooses).
    ``board=False``: a public reply without its board picture (the practice opponent's answer
    shows the board after both moves: ``bot.discord_ui.turns``)."""
    if not reply.public:
        files = [f for f in (board_file(reply), attached_file(reply)) if f is not None]
        return Outgoing(
            content=clip(reply_words(reply, lang, escaped), CONTENT_LIMIT),
            files=files,
            view=buttons_view(reply.buttons, lang),  # a private question (a hopeless drop)
            ephemeral=True,
        )
    colour = COLOUR_FINISHED if reply.finished else COLOUR_OK
    if reply.game_id is None and reply.image is None:
        colour = COLOUR_INFO
    text = reply_words(reply, lang, escaped).strip()
    embed = discord.Embed(
        title=say(title, lang) if title is not None else None,
        description=clip(text, EMBED_DESCRIPTION_LIMIT) or None,
        colour=colour,
    )
    footer = []
    if reply.game_id is not None:
        footer.append(say(msg("footer.game", id=reply.game_id), lang))
    if reply.chain:  # the chain head: what a dispute checks
        footer.append(say(msg("footer.log", head=reply.chain[:10]), lang))
    if footer:
        embed.set_footer(text=" · ".join(footer))
    picture = board_file(reply) if board else None
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    files = [f for f in (picture, attached_file(reply)) if f is not None]
    mentions = list(dict.fromkeys(reply.mentions))
    content = " ".join(f"<@{uid}>" for uid in mentions) or None
    return Outgoing(
        content=content,
        embed=embed,
        files=files,
        view=buttons_view(reply.buttons, lang),
        allowed_mentions=mentions_of(mentions),
    )


def private(text: str) -> Outgoing:
    """An ephemeral note from the Discord layer itself."""
    return Outgoing(content=clip(text, CONTENT_LIMIT), ephemeral=True)
