"""A player's own words quoted in a reply get the reader's quotation marks (English '…',
Hungarian „…”, Esperanto and Icelandic „…“): the code passes the words as they were typed and
each catalog quotes them, never ``repr`` or ASCII quotes made in code (play-test S16)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from discord import AppCommandOptionType, app_commands
from discord.app_commands.transformers import MemberTransformer

from bot.console.table import play
from bot.discord_ui.cogs.play import parse_options
from bot.discord_ui.tree import UserFacingError, message_for
from bot.i18n import say

QUOTES = {"en": ("'", "'"), "hu": ("„", "”"), "eo": ("„", "“"), "is": ("„", "“")}


def quoted(text: str, lang: str) -> str:
    before, after = QUOTES[lang]
    return f"{before}{text}{after}"


@pytest.mark.parametrize("lang", sorted(QUOTES))
async def test_the_console_quotes_a_legal_prefix_in_the_tables_language(
    tmp_path: Path, lang: str
) -> None:
    script = "alice: challenge bob morris first me\nbob: accept\nalice: legal place b\n"
    out = io.StringIO()
    await play(str(tmp_path / "q.db"), io.StringIO(script), out, None, render=False, lang=lang)
    (line,) = [x for x in out.getvalue().splitlines() if "place b" in x and x.endswith(":")]
    assert quoted("place b", lang) in line, line
    assert lang == "en" or "'" not in line, line


@pytest.mark.parametrize("lang", sorted(QUOTES))
def test_discord_quotes_an_unreadable_value_and_options(lang: str) -> None:
    error = app_commands.TransformerError("d9", AppCommandOptionType.string, MemberTransformer())
    assert quoted("d9", lang) in say(message_for(error), lang)
    with pytest.raises(UserFacingError) as caught:
        parse_options("fly!")
    said = say(caught.value.said, lang)
    assert quoted("fly!", lang) in said and (lang == "en" or "'" not in said), said


def test_a_quoted_value_is_shown_printable_and_cut_short() -> None:
    error = app_commands.TransformerError(
        "a\nb" + "x" * 300, AppCommandOptionType.string, MemberTransformer()
    )
    said = say(message_for(error), "hu")
    assert "„a?bxx" in said and "\n" not in said and len(said) < 160, said
