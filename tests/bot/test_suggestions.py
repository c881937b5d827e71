"""What a newcomer's input gets back when it cannot be played: why there is nothing to suggest
(as a code, for a front end to say), "did you mean" for a typo or a move without its word, a
clock typed without `clock`, and a game called by its whole name at the console."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import engine
from bot.console.table import play
from bot.errors import Refusal
from bot.i18n import msg, say
from bot.referee import Referee
from bot.referee.grammar import COMMAND_WORDS, dispatch
from bot.referee.move_words import GAME_VERBS, HINT_WORD, VERBS
from bot.referee.suggest import close_word, reading
from engine import ParseError
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, start
from tests.bot.conftest import play as played

PEOPLE = {"alice": ALICE, "bob": BOB, "carol": CAROL}


# ---- the pure parts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "known", "meant"),
    [
        ("mvoe", VERBS, "move"),
        ("plcae", VERBS, "place"),
        ("psuh", VERBS, "push"),
        ("mov", COMMAND_WORDS | set(VERBS), "move"),  # "moves" is close, "move" closer
        ("resing", COMMAND_WORDS, "resign"),
        ("hello", COMMAND_WORDS | set(VERBS), None),  # "help" is not close enough
        ("castle", COMMAND_WORDS | set(VERBS), None),
        ("drwa", ("draw", "drop", "dwra"), None),  # as close to two: no guess
    ],
)
def test_a_typo_is_read_as_the_one_word_it_is_close_to(
    typed: str, known: set[str], meant: str | None
) -> None:
    assert close_word(typed, known) == meant


def test_a_bare_argument_is_read_with_the_one_verb_that_makes_it_legal() -> None:
    morris = engine.get_game("morris")
    placing = morris.new()
    assert reading("morris", placing, "d7") == "place d7"  # a point while placing: place
    atmalof = engine.get_game("atmalof")
    start_ = atmalof.new()
    assert reading("atmalof", start_, "row 4") == "drop row 4"
    assert reading("atmalof", start_, "3,4 4,5") is None  # no piece there: no guess
    piece = atmalof.apply(start_, atmalof.parse(start_, "drop row 4"), roll=3)
    piece = atmalof.apply(piece, atmalof.parse(piece, "drop row 1"), roll=1)
    assert reading("atmalof", piece, "4,3 3,3") == "move 4,3 3,3"


@pytest.mark.parametrize("game", engine.GAME_NAMES)
def test_each_games_verbs_are_its_commands_and_no_others_are(game: str) -> None:
    """``GAME_VERBS`` is what refusals name as a game's commands: each is one its parser knows
    (a verb with no arguments is 'expected ...', not an unknown command)."""
    rules = engine.get_game(game)
    fresh = rules.new()
    for verb in VERBS:
        try:
            rules.parse(fresh, verb)
            code = None
        except ParseError as exc:
            code = exc.code
        except engine.EngineError:
            code = None
        if verb in GAME_VERBS[game]:
            assert code != "unknown_command", verb
        elif verb != "move":  # Abalone reads move as push
            assert code == "unknown_command", verb


# ---- the referee: why nothing is offered ------------------------------------------------------


async def test_why_nothing_is_offered_is_the_one_reason_that_holds(referee: Referee) -> None:
    why = await referee.why_no_choices(HERE, ALICE)
    assert why is not None and why.code == "no_game"
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="me")
    assert made.ok
    why = await referee.why_no_choices(HERE, ALICE)
    assert why is not None and why.code == "challenge_not_accepted"
    await referee.accept(HERE, BOB)
    assert await referee.why_no_choices(HERE, ALICE) is None  # alice is to move
    why = await referee.why_no_choices(HERE, BOB)
    assert why is not None and why.code == "not_your_turn"
    assert say(why.params["player"]) == "alice (White)"
    why = await referee.why_no_choices(HERE, CAROL)
    assert why is not None and why.code == "not_a_player"
    assert (await referee.dispute(HERE, ALICE, "a wrong roll")).ok
    why = await referee.why_no_choices(HERE, BOB)
    assert why is not None and why.code == "frozen"


async def test_a_morris_command_with_nothing_to_do_yet_says_why(referee: Referee) -> None:
    """The mover's /move (or fly) while men are to be placed, and /remove with no mill just
    closed, had an empty list: the reason is a code; a command that has moves has none."""
    await start(referee, "morris")
    for verb, code in (
        ("move", "place_first"),
        ("fly", "place_first"),
        ("remove", "no_mill_to_finish"),
    ):
        why = await referee.why_no_choices(HERE, ALICE, verb)
        assert why is not None and why.code == code, verb
    assert await referee.why_no_choices(HERE, ALICE, "place") is None
    assert (await referee.why_no_choices(HERE, BOB, "move")).code == "not_your_turn"  # type: ignore[union-attr]
    picked = await referee.act(HERE, ALICE, f"move {HINT_WORD} {HINT_WORD}")
    assert picked.reason == "place_first", picked.text
    assert say(msg("refusal.place_first"), "hu") == (
        "még van letehető bábud: lépni csak akkor lehet, ha már mindet letetted, ezért előbb "
        "tegyél le egyet"
    )
    picked = await referee.act(HERE, ALICE, f"remove {HINT_WORD}")
    assert picked.reason == "no_mill_to_finish", picked.text
    assert picked.text == (
        "no mill was just closed, so there is nothing to remove: place or move a man"
    )
    assert say(msg("refusal.no_mill_to_finish"), "hu") == (
        "most nem csináltál malmot, így nincs mit levenni: tegyél le egy bábut, vagy lépj eggyel"
    )


async def test_a_picked_hint_is_answered_with_the_reason_never_a_move(referee: Referee) -> None:
    """The value of a choice that only says why (``?``) is answered with that reason: no game,
    the other's turn (not the syntax of ``?``), a stranger's; the mover is told the syntax."""
    nothing = await referee.act(HERE, ALICE, HINT_WORD)
    assert nothing.reason == "no_game", nothing.text
    version = (await start(referee, "morris")).version
    early = await referee.act(HERE, BOB, HINT_WORD)
    assert early.reason == "not_your_turn", early.text
    early = await referee.act(HERE, BOB, f"move {HINT_WORD} d6")  # /move from:? to:d6
    assert early.reason == "not_your_turn", early.text
    stranger = await referee.act(HERE, CAROL, HINT_WORD)
    assert stranger.reason == "not_a_player", stranger.text
    mover = await referee.act(HERE, ALICE, HINT_WORD)
    assert mover.reason == "engine" and "expected: place <point>" in mover.text, mover.text
    assert (await referee.board(HERE)).version == version  # nothing was played


async def test_a_move_without_its_word_or_with_a_typo_is_suggested(referee: Referee) -> None:
    await start(referee, "morris")
    bare = await referee.act(HERE, ALICE, "d7")
    assert bare.reason == "did_you_mean" and bare.params["near"] == "place d7", bare.text
    assert bare.text == "unknown command 'd7': did you mean `place d7`?"
    typo = await referee.act(HERE, ALICE, "plcae d7")  # the whole command, not only `place`
    assert typo.text == "unknown command 'plcae': did you mean `place d7`?"
    other = await referee.act(HERE, ALICE, "drop row 4")  # another game's command: its syntax
    assert other.reason == "engine" and other.params["commands"] == list(GAME_VERBS["morris"])
    assert other.text.startswith("'drop' is not a Nine Men's Morris command: expected:")
    unknown = await referee.act(HERE, ALICE, "frobnicate")
    assert unknown.reason == "unknown_command", unknown.text
    assert say(msg("refusal.did_you_mean", word="d7", near="place d7"), "hu") == (
        "ismeretlen parancs: „d7”; erre gondoltál: `place d7`?"
    )


async def test_a_typo_of_a_keyword_suggests_the_whole_command(referee: Referee) -> None:
    """ "drop rwo 3" got the generic drop syntax (a player's finding): a typo of any word of
    a game's commands is mended when exactly one legal command comes of it, and the refusal
    names the mistyped word; nothing is played."""
    version = (await start(referee, "atmalof")).version
    for text, word, near in (
        ("drop rwo 3", "rwo", "drop row 3"),
        ("drop clo 3", "clo", "drop col 3"),
        ("drop colunm 2", "colunm", "drop col 2"),
        ("drop Rwo 3", "Rwo", "drop row 3"),
    ):
        said = await referee.act(HERE, ALICE, text)
        assert said.reason == "did_you_mean_word", (text, said.text)
        assert said.params == {"word": word, "near": near}, said.params
    said = await referee.act(HERE, ALICE, "drop rwo 3")
    assert said.text == "'rwo' is not part of any command here: did you mean `drop row 3`?"
    assert say(msg("refusal.did_you_mean_word", word="rwo", near="drop row 3"), "hu") == (
        "„rwo” egyik itteni parancsnak sem része; erre gondoltál: `drop row 3`?"
    )
    verb = await referee.act(HERE, ALICE, "dorp rwo 3")  # the verb too: the whole command
    assert verb.text == "unknown command 'dorp': did you mean `drop row 3`?", verb.text
    assert (await referee.board(HERE)).version == version  # nothing was played


@pytest.mark.parametrize(
    "text",
    [
        "drop cow 3",  # a row or a column: two guesses are none
        "drop rwo 9",  # no row 9: the mended command would be illegal
        "drop rwo",  # no line named
        "drop bowl 3",  # too far from any word
    ],
)
async def test_no_guess_is_offered_when_none_is_clear_and_legal(
    referee: Referee, text: str
) -> None:
    await start(referee, "atmalof")
    said = await referee.act(HERE, ALICE, text)
    assert said.refused and not said.reason.startswith("did_you_mean"), (text, said.text)


async def test_morris_keywords_and_points_as_letters_are_mended(referee: Referee) -> None:
    await start(referee, "morris")
    plain = await referee.act(HERE, ALICE, "plcae b")  # B, the letter of d7, is kept
    assert plain.params["near"] == "place d7", plain.text
    for alice, bob in (("place a7", "place b2"), ("place d7", "place d2")):
        assert (await played(referee, HERE, ALICE, alice)).ok
        assert (await played(referee, HERE, BOB, bob)).ok
    mill = await referee.act(HERE, ALICE, "place g7 xx b2")  # the mill and its removal
    assert mill.reason == "did_you_mean_word", mill.text
    assert mill.params == {"word": "xx", "near": "place g7 x b2"}, mill.params
    illegal = await referee.act(HERE, ALICE, "place g7 xx a7")  # alice's own man: no guess
    assert not illegal.reason.startswith("did_you_mean"), illegal.text
    assert (await played(referee, HERE, ALICE, "place g7")).ok
    removal = await referee.act(HERE, ALICE, "remvoe b2")
    assert removal.params["near"] == "remove b2", removal.text


async def test_abalone_directions_are_mended_only_into_legal_pushes(referee: Referee) -> None:
    await start(referee, "abalone")
    said = await referee.act(HERE, ALICE, "push a1 c3 nee")
    assert said.reason == "did_you_mean_word" and said.params["near"] == "push a1 c3 ne", said.text
    verb = await referee.act(HERE, ALICE, "psuh a1 c3 ne")
    assert verb.params["near"] == "push a1 c3 ne", verb.text
    off = await referee.act(HERE, ALICE, "push a1 c3 wst")  # west: off the board, no guess
    assert not off.reason.startswith("did_you_mean"), off.text


# ---- the console ------------------------------------------------------------------------------


async def refusal(referee: Referee, line: str) -> Refusal:
    with pytest.raises(Refusal) as refused:
        await dispatch(referee, HERE, ALICE, line, PEOPLE)
    return refused.value


async def test_console_typos_are_met_with_the_command_meant(referee: Referee) -> None:
    typo = await refusal(referee, "mvoe 3,4 4,5")
    assert typo.text == "unknown command 'mvoe': did you mean `move`?"
    typo = await refusal(referee, "chalenge bob morris")
    assert typo.text == "unknown command 'chalenge': did you mean `challenge`?"
    unknown = await refusal(referee, "hello")
    assert unknown.code == "console_unknown_command", unknown.text
    for wrapped, meant in [
        ("offer draw", "draw"),
        ("propose a draw", "draw"),
        ("request takeback", "takeback"),
        ("ask for rematch", "rematch"),
    ]:  # the command is the word they wrapped: `draw` (it was "unknown command 'offer'")
        said = await refusal(referee, wrapped)
        assert said.code == "did_you_mean" and said.params["near"] == meant, said.text
    for other in ("offer bob", "please resign", "offer draw now please"):  # no guess
        said = await refusal(referee, other)
        assert said.code == "console_unknown_command", said.text
    await start(referee, "atmalof")
    await played(referee, HERE, ALICE, "drop row 4")
    await played(referee, HERE, BOB, "drop row 1")
    piece = next(m for m in await referee.legal_for(HERE, ALICE, "move ")).split()[1]
    bare = await refusal(referee, f"{piece} 9,9")  # no such square: no guess
    assert bare.code == "console_unknown_command", bare.text
    moves = await referee.legal_for(HERE, ALICE, f"move {piece} ")
    target = moves[0].split()[2]
    bare = await refusal(referee, f"{piece} {target}")  # a move without its word
    assert bare.text == f"unknown command '{piece}': did you mean `move {piece} {target}`?"


async def test_a_clock_typed_without_its_word_is_pointed_at_clock(referee: Referee) -> None:
    """It was "unknown Morris variant '10+5'", and still for 10+1000, a clock too long."""
    said = await refusal(referee, "challenge bob morris 10+5")
    assert said.text == "'10+5' looks like a clock: write `clock 10+5`", said.text
    said = await refusal(referee, "practice morris 2 24h")
    assert said.text == "'24h' looks like a clock: write `clock 24h`", said.text
    for spelled, limit in [
        ("10+1000", "an increment is at most 600 seconds"),
        ("12345+5", "a time bank is 1 to 1440 minutes, not 12345"),
        ("1234h", "correspondence is 1 to 336 hours per move"),
    ]:  # one past its limits is refused with them, as Discord's clock option is
        said = await refusal(referee, f"challenge bob morris {spelled}")
        assert said.text == limit, said.text
    twice = await refusal(referee, "challenge bob morris clock 5+3 10+5")
    assert twice.code == "term_twice", twice.text
    assert await referee.game_here(HERE) is None  # nothing was posted


@pytest.mark.parametrize(
    "name", ["nine men's morris", "Nine Men's Morris", "nine mens morris", "Nine Men’s Morris"]
)
async def test_the_console_takes_a_game_by_its_whole_name(referee: Referee, name: str) -> None:
    """It was "`variant` is given twice (men's and morris)"."""
    made = await dispatch(referee, HERE, ALICE, f"challenge bob {name} rated", PEOPLE)
    assert made.ok and "Nine Men's Morris, rated" in made.text, made.text
    assert await referee.game_here(HERE) == "morris"


async def test_console_suggestions_read_in_the_tables_language(tmp_path: Path) -> None:
    out = io.StringIO()
    script = "alice: mvoe 3,4 4,5\nalice: challenge bob morris 10+5\n"
    await play(str(tmp_path / "hu.db"), io.StringIO(script), out, None, lang="hu", render=False)
    text = out.getvalue()
    assert "ismeretlen parancs: „mvoe”; erre gondoltál: `move`?" in text, text
    assert "„10+5” időbeállításnak tűnik: írd így: `clock 10+5`" in text, text
