"""Languages mixed in one Discord game (issue 15): public messages and buttons in the server's
language, each private reply in the reader's own; nothing falls back to English."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import Call, Harness
from tests.discord.play import button, message_with_buttons
from tests.languages import english_in
from translations import words


def labels(call: Call) -> list[str]:
    return [
        comp.get("label") or ""
        for row in call.data.get("components") or []
        for comp in row.get("components") or []
    ]


async def test_server_hungarian_and_a_player_in_esperanto(harness: Harness) -> None:
    assert "Magyar" in (await harness.slash(MODERATOR, "referee settings", language="hu")).text
    chosen = await harness.slash(BOB, "language", language="eo")
    assert chosen.all_ephemeral and not english_in(chosen.text, "eo")

    posted = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB, starter="me")
    challenge = message_with_buttons(posted)
    assert not challenge.ephemeral
    assert labels(challenge) == [words("hu").t("button.accept"), words("hu").t("button.decline")]
    accepted = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    moved = await harness.slash(ALICE, "play", command="place d7")
    public = [posted, accepted, moved]
    for exchange in public:
        assert not exchange.first.ephemeral
        assert exchange.text and english_in(exchange.text, "hu") == [], exchange.text
    assert words("hu").t("side.morris.0") in moved.text  # "alice (Fehér) ..."

    out_of_turn = await harness.slash(ALICE, "play", command="place d6")
    assert out_of_turn.all_ephemeral  # Alice has no language of her own: the server's
    assert english_in(out_of_turn.text, "hu") == [] and "alice" not in out_of_turn.text.lower()
    illegal = await harness.slash(BOB, "play", command="place d7")
    assert illegal.all_ephemeral  # Bob reads Esperanto, in private only
    said = words("eo").t("engine.morris.occupied", point="d7")
    assert illegal.text == said and english_in(illegal.text, "eo") == []

    offered = await harness.slash(BOB, "draw offer")
    offer = message_with_buttons(offered)
    assert not offer.ephemeral and english_in(offered.text, "hu") == []  # public: Hungarian
    assert labels(offer) == [
        words("hu").t("button.draw-accept"),
        words("hu").t("button.draw-decline"),
    ]


async def test_a_hungarian_server_reads_its_ladder_stats_settings_and_proof_in_hungarian(
    harness: Harness,
) -> None:
    """What a server looks at besides moves: titles, settings, the ladder, a player's stats,
    a finished game's history and verification, the moderators' 'nothing changed' notes."""
    await harness.slash(MODERATOR, "referee settings", language="hu")
    english = await harness.slash(MODERATOR, "referee settings")  # a client in English
    assert "Language: Magyar" in english.text
    posted = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB, starter="me")
    challenge = message_with_buttons(posted)
    await harness.click(BOB, challenge.message, button(challenge, "accept"))
    await harness.slash(ALICE, "play", command="place d7")
    await harness.slash(BOB, "resign")
    hu = words("hu")
    seen = {
        "settings": (
            await harness.slash(MODERATOR, "referee settings", locale="hu"),  # private: theirs
            hu.t("title.settings"),
        ),
        "ladder": (await harness.slash(ALICE, "ladder"), hu.t("title.ladder")),
        "stats": (await harness.slash(ALICE, "stats"), hu.t("title.stats")),
        "history": (await harness.slash(ALICE, "history"), hu.t("title.history")),
        "verify": (await harness.slash(ALICE, "verify"), hu.t("title.verification")),
    }
    for name, (exchange, title) in seen.items():
        assert exchange.text, name
        assert english_in(exchange.text, "hu") == [], (name, exchange.text)
        if name != "settings":  # settings are an ephemeral note without a title
            assert title in exchange.text, (name, exchange.text)
    assert hu.t("settings.language", language="Magyar") in seen["settings"][0].text
    assert hu.t("verify.ok", reason="").strip() in seen["verify"][0].text
    kept = await harness.slash(MODERATOR, "referee season-close", confirm=False, locale="hu")
    assert kept.all_ephemeral and kept.text == hu.t("settings.season_stays")
