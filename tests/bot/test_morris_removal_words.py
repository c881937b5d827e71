"""A Nine Men's Morris mill in words: once, saying who removes which men and by which command
of the front end showing it (``/remove`` on Discord, ``remove <point>`` at the console)."""

from __future__ import annotations

from bot.console.format import reply_text
from bot.discord_ui.format import to_message
from bot.referee import Referee
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
