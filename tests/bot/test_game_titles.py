"""A game is named as it is played, everywhere, by one function (a reviewer's finding: a Six
Men's Morris game was "Nine Men's Morris (six)" and "Malom (six)" but for /rules), and a game
is typed by its name in any language ("/ladder game:Malom" was refused in Hungarian)."""

from __future__ import annotations

from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.grammar import rules_reply
from tests.bot.conftest import ALICE, BOB, HERE, both_act


async def test_a_variant_with_a_name_of_its_own_is_called_by_it(referee: Referee) -> None:
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB, variant="six")
    assert "alice challenges bob to Six Men's Morris, casual, no clock;" in made.text, made.text
    hu = reply_words(made, "hu")
    assert "alice kihívása: Hatos malom, barátságos, óra nélkül; ellenfél: bob;" in hu, hu
    started = await referee.accept(HERE, BOB)
    assert "Six Men's Morris: " in started.text and "(six" not in started.text, started.text
    assert "Hatos malom: " in reply_words(started, "hu")
    assert "Nine Men's Morris" not in made.text + started.text


async def test_another_variant_is_the_game_and_the_variants_own_words(referee: Referee) -> None:
    made = await referee.challenge(HERE, ALICE, "abalone", opponent=BOB, variant="belgian-daisy")
    assert "to Abalone (Belgian daisy), casual, no clock;" in made.text, made.text
    assert "Abalone (belga százszorszép), barátságos" in reply_words(made, "hu")
    started = await referee.accept(HERE, BOB)
    assert "Abalone (Belgian daisy): " in started.text, started.text
    assert "Abalone (belga százszorszép): " in reply_words(started, "hu")
    assert "belgian-daisy" not in made.text + started.text


async def test_the_standard_game_is_the_games_name_alone(referee: Referee) -> None:
    made = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, starter="me")
    assert "to Atmalof, casual, no clock;" in made.text and "standard" not in made.text
    started = await referee.accept(HERE, BOB)
    assert "Atmalof: alice (Red) vs bob (Blue)." in started.text, started.text


async def test_a_game_is_typed_by_its_name_in_any_language(referee: Referee) -> None:
    made = await referee.challenge(
        HERE, ALICE, "Hatos malom", opponent=BOB, rated=True, starter="me"
    )
    assert made.ok and "Six Men's Morris, rated" in made.text, made.text
    await referee.accept(HERE, BOB)
    game = await referee.ctx.store.active_game(HERE.channel_id)
    assert game is not None and (game.game, game.variant) == ("morris", "six")
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, BOB)).ok
    for typed in ("Malom", "MALOM", "mylla", "Muelejo", "nine men's morris"):
        ladder = await referee.ladder(HERE, ALICE, typed, include_provisional=True)
        assert ladder.ok, (typed, ladder.text)
        assert "Malom – ranglista" in reply_words(ladder, "hu"), reply_words(ladder, "hu")
        stats = await referee.stats(HERE, ALICE, None, typed)
        assert stats.ok and "Nine Men's Morris" in stats.text, (typed, stats.text)
    refused = await referee.ladder(HERE, ALICE, "malmo")
    assert not refused.ok and "malmo" in reply_words(refused, "hu")
    practice = await referee.challenge(HERE, BOB, "Junior Atmalof", opponent=ALICE)
    assert practice.ok and "to Junior Atmalof, casual" in practice.text, practice.text


def test_rules_are_found_by_a_variants_own_name() -> None:
    assert rules_reply(["Hatos", "malom"], "hu").text.startswith("Hatos malom: a szabályok\n16")
    assert rules_reply(["malom"], "en").text.startswith("Nine Men's Morris: the rules\n")
