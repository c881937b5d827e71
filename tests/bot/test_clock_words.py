"""How a clock is said (a reviewer's finding: "(standard, casual, clock none)" and "Not the
defaults: clock 5+3."): in words, by one function, the same on the challenge, the start, the
board and the record, in every language."""

from __future__ import annotations

import pytest

from bot.i18n import reply_words
from bot.referee import Referee
from tests.bot.conftest import ALICE, BOB, HERE

EN = {
    "none": "no clock",
    "5+3": "5 min each + 3 s a move",
    "10": "10 min each",
    "24h": "24 h a move",
}
CHALLENGE = {  # the challenge's terms, with a 5+3 clock and with none
    "en": (
        "Nine Men's Morris, casual, 5 min each + 3 s a move;",
        "Nine Men's Morris, casual, no clock;",
    ),
    "hu": (
        "Malom, barátságos, 5 perc fejenként + 3 mp lépésenként;",
        "Malom, barátságos, óra nélkül;",
    ),
    "eo": (
        "Muelejo, amika, 5 min por ĉiu ludanto + 3 s por ĉiu movo;",
        "Muelejo, amika, sen horloĝo;",
    ),
    "is": (
        "Mylla, vináttuleikur, 5 mín. á mann + 3 sek. á leik;",
        "Mylla, vináttuleikur, engin klukka;",
    ),
}
STARTED = {
    "en": "Clock: 5 min each + 3 s a move.",
    "hu": "Óra: 5 perc fejenként + 3 mp lépésenként.",
    "eo": "Horloĝo: 5 min por ĉiu ludanto + 3 s por ĉiu movo.",
    "is": "Klukka: 5 mín. á mann + 3 sek. á leik.",
}


@pytest.mark.parametrize(("typed", "said"), list(EN.items()))
async def test_a_clock_is_said_in_words_wherever_it_is_shown(
    referee: Referee, typed: str, said: str
) -> None:
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB, clock=typed)
    assert f"Nine Men's Morris, casual, {said}; " in made.text, made.text
    started = await referee.accept(HERE, BOB)
    shown = [started.text, (await referee.board(HERE)).text, (await referee.record(HERE)).text]
    for text in shown:
        if typed == "none":  # nothing to say: the challenge said it
            assert "Clock:" not in text, text
        else:
            assert f"\nClock: {said}.\n" in f"\n{text}\n", text
        assert "Not the defaults" not in text, text  # a clock is no default to differ from


@pytest.mark.parametrize("lang", list(CHALLENGE))
async def test_every_language_says_the_clock_in_its_words(referee: Referee, lang: str) -> None:
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB, clock="5+3")
    timed, untimed = CHALLENGE[lang]
    assert timed in reply_words(made, lang), reply_words(made, lang)
    started = await referee.accept(HERE, BOB)
    assert STARTED[lang] in reply_words(started, lang).splitlines(), reply_words(started, lang)
    assert (await referee.resign(HERE, BOB)).ok
    again = await referee.challenge(HERE, ALICE, "morris", opponent=BOB)
    assert untimed in reply_words(again, lang), reply_words(again, lang)


async def test_changed_options_and_a_clock_share_a_line(referee: Referee) -> None:
    options = {"flying": False}
    await referee.challenge(HERE, ALICE, "morris", opponent=BOB, options=options, clock="3+2")
    started = await referee.accept(HERE, BOB)
    said = "Not the defaults: flying=off. Clock: 3 min each + 2 s a move."
    assert said in started.text.splitlines(), started.text
    hungarian = (
        "Eltérés az alapbeállításoktól: flying=off. Óra: 3 perc fejenként + 2 mp lépésenként."
    )
    assert hungarian in reply_words(started, "hu").splitlines(), reply_words(started, "hu")
