"""Server settings (moderators): the board theme, ladders, takebacks; and removing a server's
data (``bot.forget``; docs/privacy.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import translations
from bot import ladder_store, texts
from bot.errors import Refusal
from bot.forget import forget_guild
from bot.i18n import say_all
from bot.referee.context import (
    Context,
    known_themes,
)
from bot.referee.ladder_words import ladder_setting_msg
from bot.referee.ladders import ladder_setting_problem
from bot.referee.replies import (
    Actor,
    Reply,
    Where,
)


class ServerSettings:
    """A server's settings and its data: theme, ladders, takebacks; forgetting a server."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def set_setting(self, where: Where, actor: Actor, key: str, value: Any) -> Reply:
        """Moderators only; keys: "theme" (a name render knows), "ladder" (a dict),
        "takebacks" (a bool: casual games may take back a move by consent)."""
        if not actor.is_moderator:
            raise Refusal("settings_moderators_only")
        if where.guild_id is None:
            raise Refusal("settings_need_server")
        if key == "theme":
            themes = known_themes()
            if themes and value not in themes:
                raise Refusal("unknown_theme", {"theme": value, "themes": ", ".join(themes)})
            await self.ctx.store.set_guild_settings(
                where.guild_id, self.ctx.now(), theme=str(value)
            )
        elif key == "ladder" and isinstance(value, Mapping):
            problem = ladder_setting_problem(value)
            if problem:
                raise Refusal("bad_ladder_setting", {"message": problem})
            await ladder_store.set_ladder_setting(
                self.ctx.store, where.guild_id, value, self.ctx.now()
            )
            return notice("ladders_set", {"ladders": ladder_setting_msg(value)})
        elif key == "takebacks" and isinstance(value, bool):
            await self.ctx.store.set_takebacks(where.guild_id, value, self.ctx.now())
            return notice("takebacks_on" if value else "takebacks_off", {})
        elif key == "language":
            try:
                lang = translations.language(str(value))
            except translations.UnknownLanguage as exc:
                raise Refusal("unknown_language", {"message": str(exc)}) from exc
            await self.ctx.store.set_guild_language(where.guild_id, lang, self.ctx.now())
            return notice("language_set", {"language": translations.NAMES[lang]})
        else:
            raise Refusal("unknown_setting", {"key": key})
        return notice("setting_set", {"key": key, "value": str(value)})

    async def language(self, where: Where, user_id: int | None, locale: str | None) -> str:
        """The language of a private reply to ``user_id`` (``translations.choose``): their own
        choice, else their client's ``locale`` where we have it, else the server's."""
        server, user = await self.ctx.store.languages(where.guild_id, user_id)
        return translations.choose(user=user, locale=locale, server=server)

    async def languages(
        self, where: Where, user_id: int | None, locale: str | None
    ) -> tuple[str, str]:
        """(public, private): the server's language for what the channel sees, and the
        language of a private reply to ``user_id`` (as ``language``)."""
        server, user = await self.ctx.store.languages(where.guild_id, user_id)
        return (
            translations.choose(server=server),
            translations.choose(user=user, locale=locale, server=server),
        )

    async def set_language(self, actor: Actor, code: str | None) -> Reply:
        """A user's own language for private replies; None forgets it."""
        try:
            lang = None if code is None else translations.language(code)
        except translations.UnknownLanguage as exc:
            raise Refusal("unknown_language", {"message": str(exc)}) from exc
        await self.ctx.store.set_user_language(actor.id, lang, self.ctx.now())
        if lang is None:
            return notice("user_language_auto", {}, ephemeral=True)
        return notice("user_language_set", {"language": translations.NAMES[lang]}, ephemeral=True)

    async def forget_server(self, where: Where, actor: Actor) -> Reply:
        """Moderators: remove this server's data (``bot.forget``; docs/privacy.md)."""
        if not actor.is_moderator:
            raise Refusal("forget_moderators_only")
        if where.guild_id is None:
            raise Refusal("forget_needs_server")
        report = await forget_guild(self.ctx.store, where.guild_id)
        for game_id in report.game_ids:
            self.ctx.states.pop(game_id, None)
        lines = report.said()
        return Reply(text=say_all(lines), lines=lines, ephemeral=True)


def notice(code: str, params: dict[str, Any], *, ephemeral: bool = False) -> Reply:
    """A reply that tells what was set, by its code in ``bot.texts.NOTICES``."""
    text = texts.notice_text(code, params)
    return Reply(text=text, notice=code, params=params, ephemeral=ephemeral)
