"""What a dispute and a frozen game say (a player's review): a frozen game invites no move,
games without dice say nothing of dice, a dispute's first line writes a square and an action
as the rest of the bot does."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import table as console
from bot.i18n import reply_words
from bot.referee import Referee
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, MOD, morris_mill, play, start
from tests.languages import english_in

LANGS = ("en", "eo", "hu", "is")


async def test_a_frozen_game_says_who_moves_once_a_moderator_resumes_it(referee: Referee) -> None:
    await start(referee, "atmalof", clock="10+0")
    assert (await play(referee, HERE, ALICE, "drop row 4")).ok
    dispute = await referee.dispute(HERE, ALICE, "lag")
    board = await referee.board(HERE)
    for reply in (dispute, board):
        text = reply.text
        assert "to move" not in text, text
        assert (
            "Frozen for a dispute: bob (Blue) moves when a moderator unfreezes the game with "
            "`/referee resume`." in text
        ), text
        assert text.count("Frozen for a dispute") == 1 and "The clocks are stopped." in text
        assert reply_words(reply, "hu").count("be van fagyasztva") == 1
    resumed = await referee.resume(HERE, MOD, "no fault")
    assert "bob (Blue) to move." in resumed.text and "Frozen" not in resumed.text


async def test_a_frozen_mill_says_the_removal_waits_for_a_moderator(referee: Referee) -> None:
    await morris_mill(referee)
    dispute = await referee.dispute(HERE, BOB, "that was no mill")
    board = await referee.board(HERE)
    for reply in (dispute, board):
        assert "to remove" not in reply.text and "`/remove`" not in reply.text, reply.text
        assert (
            "Frozen for a dispute: alice (White) removes one of Black's men when a moderator "
            "unfreezes the game with `/referee resume`." in reply.text
        ), reply.text
        for lang in LANGS:
            assert "/referee resume" in reply_words(reply, lang), lang


async def test_the_console_names_its_own_resume_for_a_frozen_game(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob morris first me\nbob: accept\nalice: place a7\n"
        "bob: dispute she was slow\nboard\nquit\n"
    )
    out = io.StringIO()
    await console.play(str(tmp_path / "c.db"), io.StringIO(script), out, tmp_path, render=False)
    text = out.getvalue()
    assert "bob (Black) moves when a moderator unfreezes the game with `referee: resume`." in text
    assert "/referee resume" not in text.split("opened a dispute")[1].split("Moderators:")[0]
    assert "Dice proof" not in text and "commitment" not in text  # Morris rolls nothing


async def _tossed_morris(referee: Referee) -> None:
    """A Morris game whose starter a coin toss picked, and its first placement."""
    assert (await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="random")).ok
    assert (await referee.accept(HERE, BOB)).ok
    mover = (await referee.board(HERE)).to_move
    assert (await play(referee, HERE, ALICE if mover == ALICE.id else BOB, "place d7")).ok


async def test_a_dispute_names_dice_only_where_the_game_rolls(
    referee: Referee, store: Store
) -> None:
    """A Morris dispute said "Dice proof: commitment ... every roll can be rechecked" of a game
    whose start showed no commitment: it rolls nothing. A tossed one names its coin toss, as
    its start did; Atmalof's dice stay."""
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    plain_morris = await referee.dispute(HERE, BOB, "x")
    g = await store.game(1)
    for lang in LANGS:
        said = reply_words(plain_morris, lang)
        assert g.commitment not in said, (lang, said)
    assert "dice" not in plain_morris.text.lower() and "roll" not in plain_morris.text
    await referee.void(HERE, MOD, "done")
    await _tossed_morris(referee)
    tossed = await referee.dispute(HERE, ALICE, "x")
    g = await store.game(2)
    assert (
        f"Coin toss proof: commitment {g.commitment} (the seed stays secret until the game ends; "
        "then the coin toss, this game's only roll, can be rechecked)." in tossed.text
    ), tossed.text
    assert "every roll" not in tossed.text and "Dice proof" not in tossed.text
    await referee.void(HERE, MOD, "done")
    await start(referee, "atmalof")
    assert (await play(referee, HERE, ALICE, "drop row 4")).ok
    rolled = await referee.dispute(HERE, BOB, "x")
    g = await store.game(3)
    assert f"Dice proof: commitment {g.commitment}" in rolled.text, rolled.text


async def test_verify_of_a_running_game_without_dice_says_nothing_rolls(referee: Referee) -> None:
    """/verify of a running Morris game said its rolls would be checked once its secret dice
    seed is revealed, "rolls: 0 in range" and "dice: every roll mixes ..."."""
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    verdict = await referee.verify(HERE)
    text = verdict.text
    assert text.startswith(
        "Every move so far checks out. This game rolls no dice, not even a coin toss."
    ), text
    for wrong in ("in range", "every roll", "secret dice seed", "rolls not checked", "rolls:"):
        assert wrong not in text, (wrong, text)
    assert "- dice: this game rolls nothing (no coin toss, no die), so its seed decides" in text
    for lang in LANGS[1:]:
        assert english_in(reply_words(verdict, lang), lang) == [], lang


async def test_verify_of_a_running_tossed_game_names_its_coin_toss(referee: Referee) -> None:
    await _tossed_morris(referee)
    verdict = await referee.verify(HERE)
    text = verdict.text
    assert text.startswith(
        "Every move so far checks out; the coin toss, this game's only roll, is checked once "
        "the game is over and its secret seed is revealed."
    ), text
    assert "(coin toss not checked: seed not revealed)" in text, text
    assert "dice: the coin toss mixes the id" in text, text
    assert "every roll" not in text and "in range" not in text, text
    for lang in LANGS[1:]:
        assert english_in(reply_words(verdict, lang), lang) == [], lang


async def test_verify_of_a_running_atmalof_game_still_waits_for_its_seed(referee: Referee) -> None:
    await start(referee, "atmalof")
    assert (await play(referee, HERE, ALICE, "drop row 4")).ok
    text = (await referee.verify(HERE)).text
    assert text.startswith("Every move so far checks out; the rolls are checked once"), text
    assert "rolls: 1 in range" in text and "dice: every roll mixes" in text, text
