"""A Nine Men's Morris mill in words: once, saying who removes which men and by which command
of the front end showing it (``/remove`` on Discord, ``remove <point>`` at the console)."""

from __future__ import annotations

from bot.console.format import reply_text
from bot.discord_ui.format import to_message
from bot.i18n import say
from bot.referee import Referee
from bot.texts import duration
from tests.bot.conftest import ALICE, BOB, HERE, morris_mill, play, start

LANGS = ("en", "eo", "hu", "is")


async def test_a_mill_is_said_once_with_the_men_and_the_slash_command(referee: Referee) -> None:
    mill = await morris_mill(referee)
    embed = to_message(mill, lang="en").embed
    assert embed is not None and embed.description is not None
    assert embed.description.splitlines() == [
        "alice (White) places g7 and closes a mill.",
        "alice (White) to remove one of Black's men with `/remove`: a1, d1.",
    ]
    for lang in LANGS:
        text = to_message(mill, lang=lang).embed.description  # type: ignore[union-attr]
        assert "`/remove`" in text and "a1, d1" in text and "remove <" not in text, lang


async def test_the_console_names_its_own_remove_line(referee: Referee) -> None:
    mill = await morris_mill(referee)
    assert "alice (White) to remove one of Black's men with `remove <point>`: a1, d1." in (
        reply_text(mill)
    )
    for lang in LANGS:
        text = reply_text(mill, lang)
        assert "`remove <" in text and "a1, d1" in text and "/remove" not in text, lang


async def test_placing_before_removing_tells_the_miller_which_men_and_how(
    referee: Referee,
) -> None:
    await start(referee, "morris")
    for actor, text in [(ALICE, "place a7"), (BOB, "place a1"), (ALICE, "place b6"),
                        (BOB, "place d1"), (ALICE, "place f4"), (BOB, "place g1")]:  # fmt: skip
        assert (await play(referee, HERE, actor, text)).ok  # bob: a1 d1 g1, a mill
    refused = await play(referee, HERE, BOB, "place b4")
    assert not refused.ok and refused.ephemeral and refused.reason == "removal_first"
    assert to_message(refused).content == (
        "you closed a mill: first remove one of White's men with `/remove`: a7, b6, f4"
    )
    assert reply_text(refused) == (
        "[private] (refused) you closed a mill: first remove one of White's men with "
        "`remove <point>`: a7, b6, f4"
    )
    for lang in LANGS:
        discord_words = to_message(refused, lang=lang).content or ""
        console_words = reply_text(refused, lang)
        assert "`/remove`" in discord_words and "a7, b6, f4" in discord_words, lang
        assert "`remove <" in console_words and "/remove" not in console_words, lang
        assert "Black" not in discord_words and "(remove <" not in discord_words, lang
    moved = await play(referee, HERE, BOB, "move d1 d2")  # a move too, not only a placement
    assert moved.reason == "removal_first"


MILL_WORDS = {
    "en": "closes a mill",
    "hu": "malmot csinált",
    "eo": "faris muelejon",
    "is": "myndaði myllu",
}


async def test_the_mill_is_not_said_again_in_the_line_that_asks_for_the_removal(
    referee: Referee,
) -> None:
    """Hungarian, Esperanto and Icelandic said it twice: "alice (Fehér) lerakott egy bábut:
    g7, és malmot csinált" then "alice (Fehér) malmot csinált: levehet egyet..."; the second
    line now says, as English does, who is to remove, and the mill stays in the move's own
    line."""
    mill = await morris_mill(referee)
    for lang, words in MILL_WORDS.items():
        text = to_message(mill, lang=lang).embed.description  # type: ignore[union-attr]
        assert text.count(words) == 1, (lang, text)
        assert reply_text(mill, lang).count(words) == 1, lang
    hu = to_message(mill, lang="hu").embed.description  # type: ignore[union-attr]
    assert "alice (Fehér) következik, és le kell vennie egyet Fekete bábui közül (a1, d1)" in hu
    assert "ellenséges" not in hu  # "enemy": the opponent is "az ellenfél" everywhere else


async def test_esperanto_removes_the_man_on_a_point_not_the_point(referee: Referee) -> None:
    """ "forprenis a1" took a point away; a man is taken off a point, as "metis pecon sur d7"
    puts one on."""
    await morris_mill(referee)
    removed = await play(referee, HERE, ALICE, "remove a1")
    assert removed.ok
    assert "alice (Blanko) forprenis la pecon sur a1" in reply_text(removed, "eo")
    assert "alice (Fehér) levett egy bábut: a1" in reply_text(removed, "hu")


def test_a_long_wait_in_esperanto_has_no_plural_the_number_could_contradict() -> None:
    """ "1 tagoj 1 horoj": one message holds two numbers, so no plural form can follow both;
    the units are abbreviated, as English's "1d 1h" is."""
    assert say(duration(2 * 86_400 + 3_600), "eo") == "2 tag. 1 h"
    assert say(duration(2 * 86_400 + 5 * 3_600), "hu") == "2 nap 5 óra"
