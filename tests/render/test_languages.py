"""Every letter of every language draws with the shipped fonts, and the longest words fit."""

from __future__ import annotations

import pytest

import engine
import render
from render.frame import card_text
from render.gallery import NATIVE_PLAYERS, scenes
from render.paint import font
from translations import LANGUAGES, read_catalog, words


def catalog_letters(lang: str) -> set[str]:
    out: set[str] = set()
    for message in read_catalog(lang):
        if message.id:
            texts = message.string if message.pluralizable else [message.string]
            out |= {ch for text in texts for ch in text if not ch.isspace()}
    return out


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_letter_of_the_catalog_draws_with_the_shipped_font(lang: str, bold: bool) -> None:
    missing = font(32, bold).getmask("\U0010fffd").getbbox()
    letters = catalog_letters(lang) | set("őűíéþðæöĉĝĥĵŝŭŐŰÍÉÞÐÆÖĈĜĤĴŜŬ")
    for ch in sorted(letters):
        box = font(32, bold).getmask(ch).getbbox()
        assert box is None or box != missing, (lang, ch)
        if ch.isalnum():
            assert box is not None, (lang, ch)


@pytest.mark.parametrize("lang", ["hu", "eo", "is"])
def test_the_cards_keep_their_side_and_count_at_400_px(lang: str) -> None:
    """At 400 px (a phone) each card's hand line is one of its texts, never cut mid-word with an
    ellipsis, for every gallery scene drawn with long native names."""
    w = words(lang)
    for scene in scenes():
        game = engine.get_game(scene.game)
        outcome = scene.options.get("outcome")
        cards = render.player_cards(
            scene.game, scene.state, players=NATIVE_PLAYERS[lang], outcome=outcome, words=w
        )
        for card in cards:
            drawn = card_text(400, card).detail
            assert drawn in (card.hand.text, *card.hand.shorter), (game.name, drawn)
