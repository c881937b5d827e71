"""Both player cards on a board say the same facts with the same label (a reviewer's finding:
Hungarian Atmalof's "Kék · kézben: 22 · táblán: 0" beside "Piros · kézben: 21", Abalone's
"kint" beside "lelökve", English's vague "took"). Checked on the texts drawn, at the sizes
boards and replays are drawn, with long native names."""

from __future__ import annotations

import re

import pytest

import engine
import render
from render.frame import card_text
from render.gallery import NATIVE_PLAYERS, PLAYERS, scenes
from translations import LANGUAGES, words

SIZES = (300, 400, 480, 800)


def label(text: str, side: str) -> str:
    """A hand line with its side's name and its counts taken out: what must be the same."""
    return re.sub(r"\d+", "#", text.replace(side, "<side>"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_both_cards_draw_the_same_form_of_their_hand_line(lang: str) -> None:
    """Each card's forms say the same facts form by form; both draw the same one, whole."""
    w = words(lang)
    players = NATIVE_PLAYERS.get(lang, PLAYERS)
    for scene in scenes():
        sides = [w.t(f"side.{scene.game}.{side}") for side in (0, 1)]
        terms = {"players": players, "outcome": scene.options.get("outcome"), "words": w}
        every = render.player_cards(scene.game, scene.state, **terms)
        forms = [(card.hand.text, *card.hand.shorter) for card in every]
        for size in SIZES:
            cards = render.player_cards(scene.game, scene.state, size=size, **terms)
            drawn = [card_text(size, card).detail for card in cards]
            assert drawn == [card.hand.text for card in cards], (scene.name, size)  # not cut
            same = [i for i, pair in enumerate(zip(*forms, strict=True)) if list(pair) == drawn]
            assert same, (scene.name, size, drawn)
            if scene.name != "atmalof-junior-tiebreak":  # "1 line of 4", "0 lines of 4"
                said = [label(text, side) for text, side in zip(drawn, sides, strict=True)]
                assert said[0] == said[1], (scene.name, size, drawn)


def test_hungarian_atmalof_cards_no_longer_differ() -> None:
    """The reviewer's picture: the longer card had lost its on-board count, the other not."""
    state = engine.get_game("atmalof").new()
    w = words("hu")
    cards = render.player_cards("atmalof", state, players=("Alice", "Bob"), words=w, size=800)
    assert [card.hand.text for card in cards] == ["Piros · kézben: 22", "Kék · kézben: 22"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["pushed off 4", "pushed off 0"]),
        ("hu", ["lelökve: 4", "lelökve: 0"]),
        ("is", ["4 úr leik", "0 úr leik"]),
        ("eo", ["elpuŝitaj: 4", "elpuŝitaj: 0"]),
    ],
)
def test_abalone_cards_count_the_marbles_pushed_off_in_words(
    lang: str, expected: list[str]
) -> None:
    """English said "took" (the long label with the side's name never fit beside the six
    slots); now the side's name goes first (the card's marble shows the side) and the label
    says what the count is, on both cards alike."""
    (scene,) = [s for s in scenes() if s.name == "abalone-standard-sumito"]
    players = NATIVE_PLAYERS.get(lang, PLAYERS)
    cards = render.player_cards(
        "abalone", scene.state, players=players, words=words(lang), size=800
    )
    assert [card.hand.text for card in cards] == expected


def test_morris_cards_both_count_men_in_hand_until_both_hands_are_empty() -> None:
    """After White's last placing, Black still has a man in hand: White's card says "0 in
    hand" rather than switching to "on board" alone while Black's says "in hand"."""
    morris = engine.get_game("morris")
    state = morris.new()
    points = iter(["a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4"])
    for point in [*points, "e4", "f4", "g4", "c5", "d5"]:
        state = morris.apply(state, morris.parse(state, f"place {point}"))
        assert not morris.pending_removal(state), point
    cards = render.player_cards("morris", state, players=("Alice", "Bob"), size=800)
    assert [card.hand.text for card in cards] == ["White · 0 in hand", "Black · 1 in hand"]
