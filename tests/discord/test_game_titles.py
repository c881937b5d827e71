"""A game named as it is played, through the real bot (a reviewer's finding: "Malom (six)" in
the challenge, the start and the board's alt text, "Nine Men's Morris (six)" in English), and
a game's Hungarian name typed into /ladder and /stats ("Malom" was refused)."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import Harness
from tests.discord.play import button, message_with_buttons, rated_win


async def test_a_six_mens_morris_game_is_called_so_in_english_and_hungarian(
    harness: Harness,
) -> None:
    posted = await harness.slash(
        ALICE, "challenge", game="morris", variant="six", opponent=BOB, starter="me"
    )
    assert "Alice challenges Bob to Six Men's Morris, casual, no clock;" in posted.text, posted.text
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    assert "Six Men's Morris: Alice (White) vs Bob (Black)." in started.text, started.text
    alt = [description for _, description, _ in started.files if description]
    assert alt and alt[0].startswith("Six Men's Morris, after 0 moves."), alt
    assert "Nine Men's Morris" not in posted.text + started.text + "".join(alt)
    await harness.slash(ALICE, "resign")

    await harness.slash(MODERATOR, "referee settings", language="hu")
    posted = await harness.slash(
        ALICE, "challenge", game="abalone", variant="belgian-daisy", opponent=BOB, starter="me"
    )
    assert "Abalone (belga százszorszép), barátságos, óra nélkül;" in posted.text, posted.text
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    assert "Abalone (belga százszorszép): Alice (Fekete) – Bob (Fehér)." in started.text
    alt = [description for _, description, _ in started.files if description]
    assert alt and alt[0].startswith("Abalone (belga százszorszép), 0 lépés után."), alt
    assert "belgian-daisy" not in posted.text + started.text + "".join(alt)


async def test_a_game_is_typed_by_its_hungarian_name(harness: Harness) -> None:
    await rated_win(harness, ALICE, BOB, "morris")
    await harness.slash(MODERATOR, "referee settings", language="hu")
    for typed in ("Malom", "malom", "Nine Men's Morris"):
        ladder = await harness.slash(ALICE, "ladder", game=typed)
        assert "Malom – ranglista, 1. idény" in ladder.text, (typed, ladder.text)
    stats = await harness.slash(ALICE, "stats", game="Malom", locale="hu")
    assert "nincs ranglista" not in stats.text and "Malom" in stats.text, stats.text
