"""Someone's text in the bot's messages is shown as text, never as Discord's markdown: a member
named ``[free nitro](https://…)`` (or a forged record whose players are named so) made the bot's
own public message carry a masked link, and ``**x**`` bold; ``@everyone`` pinged nobody but was
styled as a ping. The catalog's own markdown (a command in backticks) is kept, and a value
inside backticks is not escaped (a backslash would show there)."""

from __future__ import annotations

import json
import re

import discord

from bot.discord_ui.format import escaped
from bot.i18n import msg, say
from tests.discord.conftest import BOB, CAROL, MODERATOR
from tests.discord.harness import Exchange, Harness, Person, Upload
from tests.discord.play import button, message_with_buttons, start_game
from tests.discord.test_disputes import PRIVATE_THREADS, finished_record

LURE = "[free nitro](https://evil.example) **win** @everyone"
MALLORY = Person(900_000_000_000_000_077, LURE)  # Discord shows her name title-cased
SHOWN = LURE.title()  # "[Free Nitro](Https://Evil.Example) **Win** @Everyone"


def markdown_in(raw: str) -> list[str]:
    """What Discord would render of the lure: a masked link, bold, a styled @everyone."""
    found = []
    if re.search(r"(?<!\\)\[free nitro\]\(", raw, re.IGNORECASE):
        found.append("masked link")
    if re.search(r"(?<!\\)\*\*win", raw, re.IGNORECASE):
        found.append("bold")
    if "@everyone" in raw:
        found.append("@everyone")
    return found


def public(exchange: Exchange) -> str:
    shown = [m for m in exchange.messages if not m.ephemeral]
    assert shown, exchange.text
    return "\n".join(m.raw for m in shown)


async def test_a_members_name_is_text_in_every_public_message(harness: Harness) -> None:
    posted = await harness.slash(MALLORY, "challenge", game="morris", opponent=BOB)
    raw = public(posted)
    assert "Free Nitro" in raw and markdown_in(raw) == []
    assert SHOWN in posted.text  # what a reader sees: her name as she wrote it
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    assert markdown_in(public(started)) == [] and SHOWN in started.text
    resigned = await harness.slash(MALLORY, "resign")
    assert markdown_in(public(resigned)) == []


async def test_a_forged_records_player_names_are_text_in_the_import_verdict(
    harness: Harness,
) -> None:
    record = json.loads(await finished_record(harness))
    record["players"][1]["name"] = LURE  # a record's names are anything: @everyone too
    data = json.dumps(record).encode()
    imported = await harness.slash(CAROL, "import", record=Upload("forged.json", data))
    raw = public(imported)
    assert "does not verify" in imported.text and LURE in imported.text
    assert markdown_in(raw) == []


async def test_the_dispute_note_names_its_member_as_text_in_the_servers_language(
    harness: Harness,
) -> None:
    await harness.slash(MODERATOR, "referee settings", language="hu")
    await start_game(harness, MALLORY, BOB, "morris")
    opened = await harness.slash(MALLORY, "dispute", reason="lag", app_permissions=PRIVATE_THREADS)
    note = opened.messages[-1]
    assert "vitát nyitott" in note.text and SHOWN in note.text
    assert markdown_in(note.raw) == []


def test_a_value_inside_backticks_is_not_escaped_and_one_outside_is() -> None:
    said = say(
        msg("refusal.term_twice", term="first_mover", first="a_b", second="**c**"),
        "en",
        discord.utils.escape_markdown,
    )
    assert said == "`first_mover` is given twice (a\\_b and \\*\\*c\\*\\*): give it once"


async def test_two_names_cannot_make_one_link_between_them(harness: Harness) -> None:
    """Each name is escaped alone, and discord.py escapes a bracket only inside a whole
    ``[text](url)``: "[Free Nitro" and "](https://evil.example)" passed, and the bot's "first vs
    second" joined them into a masked link to the second player's address."""
    opener = Person(900_000_000_000_000_078, "[free nitro")
    closer = Person(900_000_000_000_000_079, "](https://evil.example)")
    await start_game(harness, opener, closer, "morris")
    board = await harness.slash(opener, "history")
    raw = public(board)
    assert "[Free Nitro (White) vs ](Https://Evil.Example)" in board.text
    assert re.findall(r"(?<!\\)[\[\]]", raw) == []


def test_a_bracket_after_an_escaped_backslash_is_escaped_too() -> None:
    """discord.py turns a name's ``\\`` into ``\\\\`` (a backslash shown): a ``[`` after it is
    markup again unless escaped itself."""
    assert escaped("x\\[") == "x\\\\\\["
