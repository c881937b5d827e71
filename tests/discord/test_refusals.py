"""Every "no" is private: the referee's reason as an ephemeral message, and nothing changes."""

from __future__ import annotations

import pytest

import translations
from bot import texts
from bot.discord_ui.cogs.referee_mod import NOT_A_MODERATOR
from bot.discord_ui.tree import UNEXPECTED
from bot.i18n import say
from tests.bot.test_faults import snapshot
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR, Person
from tests.discord.harness import Harness
from tests.discord.play import start_game

BUSY = (
    "this channel is busy: a game is being played here (Alice vs Bob): wait for it to end; or "
    "play in another channel or a thread"
)


def private(exchange, *, bug: bool = False) -> str:
    """The whole answer was ephemeral (and, unless a bug is injected, a reason, not an apology)."""
    assert exchange.calls, "no answer at all"
    assert exchange.all_ephemeral, [c.payload for c in exchange.messages]
    assert bug or exchange.text != UNEXPECTED, "an unexpected error, not a refusal"
    assert not exchange.files or all(not d.startswith(b"\x89PNG") for _, _, d in exchange.files)
    return exchange.text


async def refused(harness: Harness, person: Person, path: str, **options: object) -> str:
    """``/path`` answered privately and left every row of every table as it was; its reason."""
    store = harness.bot.referee.store
    before = await snapshot(store)
    text = private(await harness.slash(person, path, **options))
    assert await snapshot(store) == before, f"/{path} was refused ({text!r}) but changed data"
    return text


async def test_commands_without_a_game_are_refused_privately(harness: Harness) -> None:
    for path in ("board", "resign", "abort", "claim", "draw offer", "takeback request", "verify"):
        assert await refused(harness, ALICE, path) == texts.NO_GAME, path


async def test_a_move_out_of_turn_is_refused_privately(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    text = await refused(harness, BOB, "drop row", k=3)
    assert text == "Alice (Red) is to move, not you"


async def test_a_stranger_cannot_move_in_someone_elses_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    stranger = texts.NOT_A_PLAYER.format(players="Alice vs Bob")
    assert await refused(harness, CAROL, "drop column", k=3) == stranger
    for path in ("draw offer", "resign", "takeback request", "abort"):
        assert await refused(harness, CAROL, path) == stranger, path


async def test_offers_and_answers_out_of_place_change_nothing(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    no_offer = "there is no draw offer for you to answer"
    assert await refused(harness, BOB, "draw accept") == no_offer
    assert await refused(harness, BOB, "draw decline") == no_offer
    no_request = "there is no takeback request for you to answer"
    assert await refused(harness, BOB, "takeback accept") == no_request
    assert await refused(harness, ALICE, "takeback request") == "you have no move to take back"
    offered = await harness.slash(ALICE, "draw offer")
    assert not offered.first.ephemeral and "offers a draw" in offered.text
    assert await refused(harness, ALICE, "draw offer") == "you have already offered a draw"
    own = "that draw offer is your own: it stands until Bob answers it"
    assert await refused(harness, ALICE, "draw accept") == own
    assert await refused(harness, ALICE, "draw decline") == own


async def test_an_illegal_move_gets_the_engines_reason_privately(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    text = await refused(harness, BOB, "place", point="d7")
    assert "d7 is occupied" in text


async def test_nonsense_in_play_is_refused_privately(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "abalone")
    text = await refused(harness, ALICE, "play", command="castle kingside")
    assert text == "unknown command 'castle': type /help for the commands", text
    text = await refused(harness, ALICE, "play", command="push castle kingside")
    assert text.startswith("expected: "), text  # a move word: the game's syntax


async def test_a_busy_channel_refuses_a_second_challenge(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    assert await refused(harness, CAROL, "challenge", game="morris", opponent=ALICE) == BUSY
    own = await refused(harness, ALICE, "challenge", game="morris", opponent=CAROL)
    unmoved = "this channel is busy: your game here is still being played, and you have not moved"
    assert own.startswith(f"{unmoved} yet: `/abort` ends it with no result"), own


async def test_a_waiting_challenge_tells_its_challenger_how_to_withdraw_it(
    harness: Harness,
) -> None:
    posted = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB)
    assert not posted.first.ephemeral, posted.text
    again = await refused(harness, ALICE, "challenge", game="abalone", opponent=CAROL)
    # Discord's words: a slash command that exists, or the challenge's own button (the
    # console's `decline` is no slash command here)
    assert "your challenge is waiting here for its answer: press Decline / Withdraw on it" in again
    other = await refused(harness, CAROL, "challenge", game="abalone", opponent=BOB)
    assert "Alice's challenge is waiting here for its answer" in other
    own = await refused(harness, ALICE, "accept")
    assert own == "you cannot accept your own challenge: press Decline / Withdraw on it", own
    to_bob = await refused(harness, BOB, "practice", game="abalone")
    said = (
        "Alice's challenge to you is waiting here: `/accept` it, or press Decline / Withdraw on it"
    )
    assert said in to_bob, to_bob
    hu = await refused(harness, BOB, "practice", game="abalone", locale="hu")
    assert "`/accept` paranccsal" in hu and "„Elutasítás / Visszavonás”" in hu, hu


async def test_unreadable_options_are_refused_before_the_referee(harness: Harness) -> None:
    text = await refused(harness, ALICE, "challenge", game="morris", opponent=BOB, options="fly!")
    assert text.startswith("cannot read the options 'fly!': write them as name=value pairs")


async def test_challenging_yourself_is_refused(harness: Harness) -> None:
    text = await refused(harness, ALICE, "challenge", game="morris", opponent=ALICE)
    assert text == "you can't challenge yourself: leave opponent empty for anyone"


async def test_members_cannot_use_moderator_commands(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    only = say(NOT_A_MODERATOR)
    assert await refused(harness, ALICE, "referee abort", reason="no") == only
    assert await refused(harness, BOB, "referee theme", theme="light") == only
    assert await refused(harness, BOB, "referee award", reason="x", winner=BOB) == only


async def test_a_moderator_can_abort_a_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    ended = await harness.slash(MODERATOR, "referee abort", reason="players left")
    assert not ended.first.ephemeral, ended.text
    told = await refused(harness, ALICE, "drop row", k=2)  # nothing to play: how it ended
    assert told.startswith("your game here has ended: no result (aborted by moderator"), told
    assert await refused(harness, CAROL, "drop row", k=2) == texts.NO_GAME


async def test_a_moderator_can_award_a_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    awarded = await harness.slash(MODERATOR, "referee award", reason="dispute", winner=BOB)
    assert not awarded.first.ephemeral, awarded.text
    assert "bob" in awarded.text.lower()


async def test_an_unexpected_error_is_an_ephemeral_apology(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(harness.bot.referee, "board", broken)  # fault injection, not a fake
    exchange = await harness.slash(ALICE, "board")
    assert private(exchange, bug=True) == UNEXPECTED
    assert "the disk is on fire" in caplog.text


async def test_an_error_after_the_response_goes_out_as_a_followup(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")

    async def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the die fell off the table")

    monkeypatch.setattr(harness.bot.referee, "roll_pending", broken)
    exchange = await harness.slash(ALICE, "drop row", k=4)
    announcement, apology = exchange.messages
    assert not announcement.ephemeral
    assert apology.kind == "followup" and apology.ephemeral and apology.content == UNEXPECTED


async def test_play_with_a_word_that_is_no_move_is_called_unknown(harness: Harness) -> None:
    """/play hello: not a move word of any game, so an unknown command (see /help), with or
    without a game; a move word of another game keeps this game's syntax hint."""
    assert "unknown command 'hello'" in await refused(harness, ALICE, "play", command="hello")
    await start_game(harness, ALICE, BOB, "morris")
    text = await refused(harness, ALICE, "play", command="language xx")
    assert text == "unknown command 'language': type /help for the commands", text
    hint = await refused(harness, ALICE, "play", command="drop row 4")
    assert hint.startswith("'drop' is not a Nine Men's Morris command: expected: place <point>")


NOT_REFUSALS = {  # a note, a thread's title, a public sentence
    "discord.posting_note",
    "discord.dispute_thread",
    "discord.dispute_opened",
}


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_every_private_answer_reads_like_the_referees_refusals(lang: str) -> None:
    """The Discord layer's own answers said "I can't use that: level must be between 1 and 5."
    and "You can't challenge yourself; …" where the referee says "there is no game running
    here…": every one starts in lower case and ends without a full stop, in every language."""
    odd = []
    for message in translations.read_catalog(lang):
        key = str(message.id[0] if message.pluralizable else message.id)
        if key.split(".")[0] not in ("refusal", "discord", "option") or key in NOT_REFUSALS:
            continue
        forms = message.string if message.pluralizable else [message.string]
        odd += [(key, t) for t in forms if t[:1].isupper() or t.rstrip().endswith(".")]
    assert odd == []


async def test_an_option_out_of_range_is_refused_as_the_referee_would(harness: Harness) -> None:
    """What the player read: "I can't use that: level must be between 1 and 5." """
    text = await refused(harness, ALICE, "practice", game="morris", level=6)
    assert text == "level must be between 1 and 5"
    await harness.slash(ALICE, "language", language="hu")
    text = await refused(harness, ALICE, "practice", game="morris", level=0)
    assert text == "level: a megadott érték 1 és 5 között lehet", text


async def test_a_member_reads_in_their_own_language_that_referee_commands_are_for_moderators(
    harness: Harness,
) -> None:
    """It was an English sentence on every server, with a capital and a full stop."""
    await start_game(harness, ALICE, BOB, "atmalof")
    await harness.slash(ALICE, "language", language="hu")
    text = await refused(harness, ALICE, "referee abort", reason="no")
    assert text == say(NOT_A_MODERATOR, "hu") and text.startswith("a /referee parancsokat"), text


async def test_a_clock_that_cannot_be_used_is_refused_in_the_readers_language(
    harness: Harness,
) -> None:
    """The clock's reasons were English sentences on every server; they are catalog messages
    now, said like any refusal."""
    text = await refused(harness, ALICE, "challenge", game="morris", opponent=BOB, clock="0+5")
    assert text == "a time bank is 1 to 1440 minutes, not 0", text
    hu = await refused(
        harness, ALICE, "challenge", game="morris", opponent=BOB, clock="tea", locale="hu"
    )
    assert hu.startswith("„tea” nem értelmezhető időbeállításként"), hu


@pytest.mark.parametrize(("spelled", "says"), [
    ("3+1000", "an increment is at most 600 seconds"),
    ("12345", "a time bank is 1 to 1440 minutes, not 12345"),
])  # fmt: skip
async def test_a_clock_too_long_is_refused_with_its_limit(
    harness: Harness, spelled: str, says: str
) -> None:
    """A player who asked for 3+1000 was told the bot "cannot read the clock '3+1000'", as if
    the spelling were wrong: it is read, and refused for being longer than a clock may be."""
    text = await refused(harness, ALICE, "challenge", game="morris", opponent=BOB, clock=spelled)
    assert text == says, text


async def test_a_typo_in_a_variant_or_an_option_is_refused_in_the_readers_language(
    harness: Harness,
) -> None:
    """The engine's reasons for an unknown variant or option were English on every server;
    they are said from their codes (engine.<game>.unknown_variant / unknown_option)."""
    english = await refused(harness, ALICE, "practice", game="atmalof", variant="juniour")
    assert english.startswith("unknown Atmalof variant 'juniour': choose one of standard"), english
    hu = await refused(harness, ALICE, "practice", game="morris", variant="lasker", locale="hu")
    assert hu.startswith("ismeretlen Malom-változat: „lasker”; válassz ezek közül: "), hu
    eo = await refused(
        harness, ALICE, "challenge", game="abalone", opponent=BOB, options="flying=on", locale="eo"
    )
    assert eo == "nekonata opcio de Abalone: „flying“; la opcioj estas repetition, move_limit", eo
    hu_value = await refused(
        harness, ALICE, "practice", game="morris", options="flying=maybe", locale="hu"
    )
    assert hu_value == "a flying értéke csak on vagy off lehet, nem „maybe”", hu_value
    fixed = await refused(
        harness, ALICE, "practice", game="atmalof", variant="junior", options="rows=9", locale="is"
    )
    said = "afbrigðið junior hefur alltaf rows=6; notaðu afbrigðið custom til að breyta rows"
    assert fixed == said, fixed
    board = "rows=7 cols=7 line=9"  # a custom board that cannot work
    english = await refused(harness, ALICE, "practice", game="atmalof", variant="custom",
                            options=board)  # fmt: skip
    assert english == "a line of 9 cannot fit on a 7x7 board", english
    hu_board = await refused(harness, ALICE, "practice", game="atmalof", variant="custom",
                             options=board, locale="hu")  # fmt: skip
    assert hu_board == "9 bábuból álló sor nem fér el egy 7x7 mezős táblán", hu_board


@pytest.mark.parametrize("rows", ["1000", "12345678", "9" * 30])
async def test_a_board_size_too_large_is_refused_with_its_range(
    harness: Harness, rows: str
) -> None:
    """rows=12345678 was "rows must be a whole number, not '12345678'": a whole number it is,
    only larger than a board may be; every size past the largest says the range."""
    text = await refused(
        harness, ALICE, "challenge", game="atmalof", opponent=BOB, variant="custom",
        options=f"rows={rows}",
    )  # fmt: skip
    assert text == f"rows must be between 3 and 12, not {rows}", text
