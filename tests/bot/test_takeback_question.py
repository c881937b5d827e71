"""A takeback request says the undone moves as what happened (a mill closed, its removal if
made), never the instruction a mill's own reply gave, and asks in its buttons' words."""

from __future__ import annotations

from bot.discord_ui.format import to_message
from bot.i18n import button_label
from bot.referee import Referee
from tests.bot.conftest import ALICE, BOB, HERE, play, start

OPENING = [(ALICE, "place a7"), (BOB, "place a1"), (ALICE, "place b6"), (BOB, "place d1"),
           (ALICE, "place d7"), (BOB, "place g1")]  # fmt: skip
"""bob (Black) closes a1-d1-g1 with his last placement, naming no man to remove."""


async def test_the_question_says_the_mill_and_the_buttons_words(referee: Referee) -> None:
    await start(referee, "morris")
    for actor, text in OPENING:
        assert (await play(referee, HERE, actor, text)).ok
    asked = await referee.request_takeback(HERE, ALICE)
    assert asked.ok
    assert asked.text == (
        "alice asks for a takeback, which would undo: alice (White) places d7; "
        "bob (Black) places g1 and closes a mill. bob, allow or refuse?"
    )
    labels = [button_label(b.kind.value) for b in asked.buttons]
    assert labels == ["Allow takeback", "Refuse"]
    for lang in ("eo", "hu", "is"):
        shown = to_message(asked, lang=lang)
        words = (shown.embed.description if shown.embed else shown.content) or ""
        for b in asked.buttons:  # the question's verbs are its buttons' (lower case, stem)
            label = button_label(b.kind.value, lang).split()[0].lower()
            assert label[:4] in words.lower(), (lang, label, words)


async def test_a_made_removal_is_said_as_made(referee: Referee) -> None:
    await start(referee, "morris")
    for actor, text in [*OPENING, (BOB, "remove a7")]:
        assert (await play(referee, HERE, actor, text)).ok
    asked = await referee.request_takeback(HERE, ALICE)
    assert asked.ok and "remove a" not in asked.text
    assert "bob (Black) places g1 and closes a mill; bob (Black) removes a7" in asked.text


MILL_WORDS = {
    "en": "closed a mill",
    "eo": "faris muelejon",
    "hu": "malmot csinált",
    "is": "myndaði myllu",
}


async def test_every_language_says_the_mill_a_move_closed(referee: Referee) -> None:
    """The engine's English sentence said "and closes a mill"; every other language's said
    only "bob placed g1", so its takeback question and its move hid the mill. A move that
    closes no mill says none."""
    await start(referee, "morris")
    for actor, text in OPENING[:-1]:
        assert (await play(referee, HERE, actor, text)).ok
    milled = await play(referee, HERE, BOB, "place g1")
    asked = await referee.request_takeback(HERE, ALICE)
    for lang, words in MILL_WORDS.items():
        if lang != "en":  # English keeps the engine's own sentence ("closes a mill")
            shown = to_message(milled, lang=lang)
            said = (shown.embed.description if shown.embed else shown.content) or ""
            assert words in said, (lang, said)
        question = to_message(asked, lang=lang)
        text = (question.embed.description if question.embed else question.content) or ""
        assert text.count(words if lang != "en" else "closes a mill") == 1, (lang, text)
