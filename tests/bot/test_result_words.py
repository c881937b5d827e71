"""How a result names the players, in every language: the winner and the one who lost, each
with their colour ("alice (White) wins (bob (Black) resigned)"). English named only the
loser's colour ("... wins (Black resigned)") where the other three languages named the player."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import texts
from bot.clock import ManualClock
from bot.i18n import say
from bot.referee import Referee
from bot.referee.boards import alt_text, text_board
from bot.referee.replies import Reply
from engine import Outcome, Termination
from tests.bot.conftest import ALICE, BOB, HERE, both_act, start

LANGUAGES = ("en", "eo", "hu", "is")


def over_line(reply: Reply, lang: str) -> str:
    """The reply's "Game over: ..." line in ``lang``."""
    (line,) = [m for m in reply.lines if m.key == "board.game_over"]
    return say(line, lang)


async def test_a_resignation_names_who_resigned_on_every_reply_that_says_the_result(
    referee: Referee,
) -> None:
    await start(referee, "morris")
    await both_act(referee, HERE, ALICE, BOB)
    ended = await referee.resign(HERE, BOB)
    assert "Game over: alice (White) wins (bob (Black) resigned)." in ended.text
    board = await referee.board(HERE)
    history = await referee.history(HERE)
    late = await referee.act(HERE, BOB, "place d1")  # told how the game ended, privately
    assert late.refused and "bob (Black) resigned" in late.text, late.text
    for reply in (ended, board, history):
        for lang in LANGUAGES:
            line = over_line(reply, lang)
            assert "alice" in line and "bob" in line, (lang, line)
    assert board.board is not None
    for lang in LANGUAGES:
        view = replace(board.board, lang=lang)
        assert "bob" in text_board(view).splitlines()[-1], lang  # the console's board
        assert "bob" in alt_text(view), lang  # the picture's description


async def test_a_fallen_flag_names_the_player_whose_time_ran_out(
    referee: Referee, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    clock.advance(61)  # alice, to move, has run out of time
    late = await referee.act(HERE, ALICE, "place d7")
    assert "Game over: bob (Black) wins (alice (White) ran out of time)." in late.text
    for lang in LANGUAGES:
        line = over_line(late, lang)
        assert "alice" in line and "bob" in line, (lang, line)


@pytest.mark.parametrize(
    ("termination", "english"),
    [
        (Termination.TWO_PIECES, "alice (White) wins (bob (Black) has two men left)"),
        (Termination.BLOCKED, "alice (White) wins (bob (Black) cannot move)"),
        (Termination.RESIGNATION, "alice (White) wins (bob (Black) resigned)"),
        (Termination.TIMEOUT, "alice (White) wins (bob (Black) ran out of time)"),
        (Termination.ABANDONMENT, "alice (White) wins (bob (Black) left the game)"),
    ],
)
def test_every_end_that_names_the_loser_names_the_player_in_every_language(
    termination: Termination, english: str
) -> None:
    """The engine's and the referee's English reason ("Black is down to two men") names the
    side only; the result says the catalog's sentence, which names the player, in English too."""
    outcome = Outcome(termination, 0, "Black is down to two men")
    said = texts.outcome_msg("morris", ("alice", "bob"), ("White", "Black"), outcome)
    assert say(said, "en") == english
    for lang in LANGUAGES:
        assert say(said, lang).count("bob") == 1, lang


def test_a_record_without_names_says_the_sides_alone() -> None:
    """/verify and a record without players' names say the sides: "White wins (Black
    resigned)", in English as in the others."""
    outcome = Outcome(Termination.RESIGNATION, 0, "Black resigned")
    sides = ("White", "Black")
    said = texts.outcome_msg("morris", sides, sides, outcome)
    assert say(said, "en") == "White wins (Black resigned)"
    assert say(said, "hu") == "Fehér nyert (Fekete feladta)"
