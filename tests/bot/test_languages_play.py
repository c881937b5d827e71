"""Whole games at the console in each language (issue 15): nothing a player reads falls back to
English. Every line the table prints is checked against the English catalog: no sentence part
of an English message (a run of words between its placeholders) may appear unless the
language's own catalog has the same words (notation, command syntax)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.console.table import UNEXPECTED, play
from bot.i18n import msg, say
from tests.languages import english_in

LANGUAGES = ("hu", "eo", "is")

# Each game: a challenge, a move that lands whoever starts (both try), a command out of turn,
# an illegal action and one that is not a command, a draw offer declined, a takeback asked
# (casual) and refused, a dispute and a moderator's resume, then a resignation: the result,
# the seed, the rematch question.
SCRIPTS = {
    "morris": [
        "alice: challenge bob morris",
        "bob: accept",
        "alice: place d7",
        "bob: place d7",
        "bob: place a1",
        "alice: place g1",
        "alice: place zz",
        "bob: flap",
    ],
    "atmalof": [
        "alice: challenge bob atmalof",
        "bob: accept",
        "alice: drop row 4",
        "bob: drop row 4",
        "bob: drop col 2",
        "alice: drop col 2",
        "alice: drop row 99",
        "bob: move 9,9 1,1",
    ],
    "abalone": [
        "alice: challenge bob abalone",
        "bob: accept",
        "alice: push a1 ne",
        "bob: push a1 ne",
        "alice: push a1 a3 ne",
        "bob: push i5 i7 sw",
        "alice: push zz ne",
        "bob: push c3 c5 e",
    ],
}
ENDING = [
    "alice: draw",
    "bob: draw decline",
    "bob: draw",
    "alice: draw decline",
    "alice: takeback",
    "bob: takeback decline",
    "bob: takeback",
    "alice: takeback decline",
    "bob: resign",
    "alice: ladder",
    "alice: ladder all",
    "bob: stats",
    "alice: stats bob",
    "alice: verify",
    "alice: settings",
    "quit",
]


async def transcript(tmp_path: Path, lang: str, game: str) -> str:
    script = "\n".join([*SCRIPTS[game], *ENDING]) + "\n"
    out = io.StringIO()
    db = str(tmp_path / f"{game}-{lang}.db")
    status = await play(db, io.StringIO(script), out, tmp_path, render=True, echo=True, lang=lang)
    text = out.getvalue()
    apology = say(msg("console.unexpected"), lang)
    assert status == 0 and UNEXPECTED not in text and apology not in text, text
    return text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(SCRIPTS))
async def test_a_whole_game_reads_in_the_language(tmp_path: Path, lang: str, game: str) -> None:
    text = await transcript(tmp_path, lang, game)
    said = [line for line in text.splitlines() if not line.startswith("> ")]  # not the echo
    assert len(said) > 30  # the game was played: boards, refusals, the result
    leaks = {line: english_in(line, lang) for line in said if english_in(line, lang)}
    assert leaks == {}


async def test_the_same_game_in_english_is_caught_by_the_check(tmp_path: Path) -> None:
    """The check itself: an English table is full of English sentence parts."""
    text = await transcript(tmp_path, "en", "morris")
    assert len(english_in(text, "hu")) > 10
