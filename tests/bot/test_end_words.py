"""How a game's end reads in every language: the catalog's words for how it ended (``end.*``),
never the engine's English reason, which for an Atmalof move limit already said "a draw" and
read "Game over: a draw (50 actions each without a piece landing: a draw)"."""

from __future__ import annotations

import pytest

import engine
from bot import texts
from bot.i18n import say
from bot.referee import Referee
from bot.referee.replies import Reply
from engine import Outcome, Termination
from tests.bot.conftest import ALICE, BOB, HERE, play, start

LANGUAGES = ("en", "eo", "hu", "is")


def said(reply: Reply, lang: str) -> str:
    return "\n".join(say(line, lang) for line in reply.lines)


async def moving_game(referee: Referee) -> Reply:
    """Play until the game ends, moving a piece on the board whenever one can (no piece
    lands), else the first legal action: a short move limit ends it."""
    reply = await referee.board(HERE)
    while not reply.finished:
        mover = ALICE if reply.to_move == ALICE.id else BOB
        moves = await referee.legal_for(HERE, mover)
        moving = [m for m in moves if m.startswith("move")]
        reply = await play(referee, HERE, mover, (moving or moves)[0])
        assert reply.ok, reply.text
    return reply


async def test_an_atmalof_move_limit_says_draw_once_on_history_and_verify(
    referee: Referee,
) -> None:
    options = {"move_limit": 1, "repetition": False}
    await start(referee, "atmalof", options=options)
    ended = await moving_game(referee)
    history, verified = await referee.history(HERE), await referee.verify(HERE)
    assert "Game over: a draw (1 action each without a piece landing)." in said(history, "en")
    assert "a draw (1 action each without a piece landing)" in said(verified, "en")
    reason = "1 actions each without a piece landing: a draw"  # the engine's English
    for reply in (ended, history, verified):
        for lang in LANGUAGES:
            text = said(reply, lang)
            assert reason not in text, (lang, text)
    assert "1 ludvico de ĉiu flanko sen meti pecon sur la tabulon" in said(history, "eo")
    assert "1 kört játszott úgy, hogy egyetlen bábu sem került a táblára" in said(history, "hu")
    assert "1 umferð hvors án þess að steinn lendi á borðinu" in said(verified, "is")


# Every end the engine decides, with the engine's own English reason (engine/*/game.py,
# engine/morris/rules.py) and the game's full options.
ENGINE_ENDS = [
    (
        "atmalof",
        Outcome(Termination.LINE, 0, "Red made five in a row"),
        "alice (Red) wins (5 in a row)",
    ),
    (
        "atmalof",
        Outcome(Termination.REPETITION, None, "the same position occurred three times"),
        "a draw (the same position a third time)",
    ),
    (
        "atmalof",
        Outcome(Termination.MOVE_LIMIT, None, "50 actions each without a piece landing: a draw"),
        "a draw (50 actions each without a piece landing)",
    ),
    (
        "morris",
        Outcome(Termination.FULL_BOARD, None, "the board is full after placing"),
        "a draw (the board is full)",
    ),
    (
        "morris",
        Outcome(Termination.REPETITION, None, "the same position occurred three times"),
        "a draw (the same position a third time)",
    ),
    (
        "morris",
        Outcome(Termination.MOVE_LIMIT, None, "50 moves each without a removal"),
        "a draw (50 moves each without a removal)",
    ),
    (
        "abalone",
        Outcome(Termination.SIX_OFF, 1, "White pushed six Black marbles off the board"),
        "bob (White) wins (six marbles pushed off)",
    ),
    (
        "abalone",
        Outcome(
            Termination.REPETITION,
            None,
            "the same position occurred for the third time with Black to move",
        ),
        "a draw (the same position a third time)",
    ),
    (
        "abalone",
        Outcome(
            Termination.MOVE_LIMIT,
            0,
            "the limit of 200 moves in all was reached: "
            "Black has 12 marbles on the board, White 10",
        ),
        "alice (Black) wins (200 moves in all, more marbles on the board)",
    ),
    (
        "abalone",
        Outcome(
            Termination.MOVE_LIMIT,
            None,
            "the limit of 200 moves in all was reached with 11 marbles each on the board",
        ),
        "a draw (200 moves in all, as many marbles each)",
    ),
]


@pytest.mark.parametrize(("game", "outcome", "english"), ENGINE_ENDS)
def test_every_engine_end_is_said_from_the_catalog_in_every_language(
    game: str, outcome: Outcome, english: str
) -> None:
    """The catalog's words in English too (one "a draw"), and no language shows the engine's
    English reason."""
    rules = engine.get_game(game)
    options = rules.options(
        rules.new("standard", **({"move_limit": 200} if game == "abalone" else {}))
    )
    said = texts.outcome_msg(game, ("alice", "bob"), rules.side_names, outcome, options)
    assert say(said, "en") == english
    for lang in LANGUAGES:
        text = say(said, lang)
        assert text.count("draw") <= 1, (lang, text)
        assert lang == "en" or outcome.reason not in text, (lang, text)


@pytest.mark.parametrize("lang", ["eo", "is"])
def test_a_tie_break_without_its_counts_names_no_line_length(lang: str) -> None:
    """/history and /verify say a tie-break without the final position: eo and is said "the
    count of fours", wrong where the line is 4 (threes are counted) or 7 (sixes)."""
    outcome = Outcome(Termination.TIEBREAK, None, "the tie-break count of lines of three: ...")
    said = say(texts.outcome_msg("atmalof", ("alice", "bob"), ("Red", "Blue"), outcome), lang)
    assert "kvar" not in said and "fjór" not in said, said
