"""Command input on Discord as a newcomer meets it: autocomplete that says why it offers no
moves (in the reader's language), a challenge's variants and clocks with what they mean,
ladders by their games' names, "did you mean", and another game's slash command answered
with this game's."""

from __future__ import annotations

import pytest

import translations
from bot.i18n import msg, say
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import Harness
from tests.discord.play import rated_win, start_game
from tests.discord.test_refusals import refused
from tests.languages import english_in

NO_GAME = "No game here: /challenge or /practice"
MOVE_OPTIONS = [("play", "command"), ("move", "from_"), ("push", "marbles"), ("place", "point")]


@pytest.mark.parametrize(("path", "option"), MOVE_OPTIONS)
async def test_with_no_game_here_the_one_choice_says_how_to_start(
    harness: Harness, path: str, option: str
) -> None:
    """Discord showed "no options match": nothing told a newcomer there is no game here."""
    choices = await harness.autocomplete(ALICE, path, option)
    assert choices == [{"name": NO_GAME, "value": "?"}], choices
    values = {"direction": "ne"} if path == "push" else {"to": "d6"} if path == "move" else {}
    picked = await refused(harness, ALICE, path, **{option: choices[0]["value"]}, **values)
    assert picked.startswith("there is no game running here: challenge someone"), picked


async def test_the_player_not_to_move_is_told_whose_turn_it_is(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    for path, option in MOVE_OPTIONS:
        choices = await harness.autocomplete(BOB, path, option)
        assert choices == [{"name": "Alice (White) is to move", "value": "?"}], (path, choices)
    picked = await refused(harness, BOB, "play", command="?")  # the turn, not the syntax of ?
    assert picked == "Alice (White) is to move, not you", picked
    picked = await refused(harness, BOB, "move", from_="?", to="d6")
    assert picked == "Alice (White) is to move, not you", picked
    # the mover's own list: only what is typed matches nothing, and nothing is said
    assert await harness.autocomplete(ALICE, "play", "command", command="zz") == []
    assert [c["value"] for c in await harness.autocomplete(ALICE, "place", "point")][:2] == [
        "a7",
        "d7",
    ]


async def test_a_waiting_challenge_and_a_stranger_are_told_so(harness: Harness) -> None:
    await harness.slash(ALICE, "challenge", game="abalone", opponent=BOB, starter="me")
    (waiting,) = await harness.autocomplete(BOB, "push", "marbles")
    assert waiting["name"] == "The challenge here is not accepted yet", waiting
    await harness.slash(BOB, "accept")
    (stranger,) = await harness.autocomplete(CAROL, "push", "marbles")
    assert stranger["name"] == "You are not playing in this game (Alice vs Bob)", stranger


@pytest.mark.parametrize("lang", ["hu", "eo", "is"])
async def test_the_reason_is_said_in_the_readers_language(harness: Harness, lang: str) -> None:
    """By their /language, else their Discord client's (Hungarian is one Discord has)."""
    if lang == "hu":
        (choice,) = await harness.autocomplete(ALICE, "play", "command", locale="hu")
    else:
        await harness.slash(ALICE, "language", language=lang)
        (choice,) = await harness.autocomplete(ALICE, "play", "command")
    assert choice["name"] == say(msg("choice.no_game"), lang) != NO_GAME, choice
    await start_game(harness, ALICE, BOB, "atmalof")
    await harness.slash(BOB, "language", language=lang)
    (turn,) = await harness.autocomplete(BOB, "play", "command")
    assert "Alice" in turn["name"] and english_in(turn["name"], lang) == [], turn


async def test_another_games_slash_command_names_this_games(harness: Harness) -> None:
    """It answered in notation: "'drop' is not a Nine Men's Morris command: expected: place
    <point>, move <from> <to> ..."; /play keeps the notation (it is typed in notation)."""
    await start_game(harness, ALICE, BOB, "morris")
    text = await refused(harness, ALICE, "drop row", k=4)
    assert text == "/drop is for Atmalof; in Nine Men's Morris use /place, /move, /remove", text
    text = await refused(harness, BOB, "push", marbles="a1", direction="ne")  # not his turn too
    assert text == "/push is for Abalone; in Nine Men's Morris use /place, /move, /remove", text
    (hint,) = await harness.autocomplete(ALICE, "push", "marbles")
    assert hint["name"] == "/push is for Abalone; in Nine Men's Morris use /place, /move, /remove"
    played = await refused(harness, ALICE, "play", command="drop row 4")
    assert played.startswith("'drop' is not a Nine Men's Morris command: expected: place")
    await start_game(harness, ALICE, BOB, "atmalof", channel=7)
    text = await refused(harness, ALICE, "place", point="d7", channel=7)
    assert text == "/place is for Nine Men's Morris; in Atmalof use /drop, /move", text
    await harness.slash(ALICE, "language", language="hu")
    text = await refused(harness, ALICE, "remove", point="d7", channel=7)
    assert text == "a /remove parancs más játékhoz tartozik (Malom); ebben a játékban (Atmalof) " \
        "ezeket használd: /drop, /move", text  # fmt: skip


async def test_a_bare_point_or_a_typo_in_play_gets_the_command_meant(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    text = await refused(harness, ALICE, "play", command="d7")
    assert text == "unknown command 'd7': did you mean `place d7`?", text
    text = await refused(harness, ALICE, "play", command="mvoe d7 d6")
    assert text == "unknown command 'mvoe': did you mean `move`?", text
    text = await refused(harness, ALICE, "play", command="hello")  # no close word: no guess
    assert text == "unknown command 'hello': type /help for the commands", text


async def test_variants_before_a_game_is_picked_are_named_with_their_game(
    harness: Harness,
) -> None:
    """It offered Atmalof's four (standard, junior, atmalos, custom) to a Morris challenger;
    each is named as the game is then called, not "Nine Men's Morris: six"."""
    offered = await harness.autocomplete(ALICE, "challenge", "variant")
    named = {c["name"]: c["value"] for c in offered}
    assert named["standard (every game)"] == "standard"
    assert named["Six Men's Morris"] == "six" and named["Junior Atmalof"] == "junior"
    assert named["Atmalos"] == "atmalos" and named["Atmalof (custom)"] == "custom"
    assert named["Abalone (Belgian daisy)"] == "belgian-daisy"
    assert [c["value"] for c in offered].count("standard") == 1
    morris = await harness.autocomplete(ALICE, "practice", "variant", variant="morris")
    assert [c["value"] for c in morris] == ["six", "twelve"]  # typing the game narrows it
    picked = await harness.autocomplete(ALICE, "challenge", "variant", game="morris")
    assert picked == [  # a game picked: its own, each by the name the game then has
        {"name": "Nine Men's Morris", "value": "standard"},
        {"name": "Six Men's Morris", "value": "six"},
        {"name": "Twelve Men's Morris", "value": "twelve"},
    ], picked
    hu = await harness.autocomplete(ALICE, "challenge", "variant", game="abalone", locale="hu")
    assert {c["value"]: c["name"] for c in hu} == {
        "standard": "Abalone",
        "belgian-daisy": "Abalone (belga százszorszép)",
        "german-daisy": "Abalone (német százszorszép)",
    }, hu
    hatos = await harness.autocomplete(ALICE, "practice", "variant", variant="malom", locale="hu")
    assert hatos == [
        {"name": "Hatos malom", "value": "six"},
        {"name": "Tizenkettes malom", "value": "twelve"},
    ], hatos
    wrong = await refused(harness, ALICE, "challenge", game="morris", variant="junior")
    assert "unknown Morris variant 'junior': choose one of standard, six, twelve" in wrong


async def test_clock_choices_say_what_they_mean(harness: Harness) -> None:
    """In the words a challenge says its clock in (texts.clock_msg): "10+0: 10 min each", not
    "10 min each + 0 s a move"."""
    offered = await harness.autocomplete(ALICE, "challenge", "clock")
    assert {c["value"]: c["name"] for c in offered} == {
        "none": "none: no clock",
        "5+3": "5+3: 5 min each + 3 s a move",
        "10+0": "10+0: 10 min each",
        "15+5": "15+5: 15 min each + 5 s a move",
        "30+0": "30+0: 30 min each",
        "24h": "24h: 24 h a move",
        "72h": "72h: 72 h a move",
    }
    typed = await harness.autocomplete(ALICE, "practice", "clock", clock="1h")
    assert typed == [{"name": "1h: 1 h a move", "value": "1h"}], typed
    await harness.slash(ALICE, "language", language="hu")
    magyar = await harness.autocomplete(ALICE, "challenge", "clock", clock="10")
    assert magyar == [{"name": "10+0: 10 perc fejenként", "value": "10+0"}], magyar
    magyar = await harness.autocomplete(ALICE, "challenge", "clock", clock="5")
    assert magyar == [{"name": "5+3: 5 perc fejenként + 3 mp lépésenként", "value": "5+3"}]


@pytest.mark.parametrize("lang", ["hu", "eo", "is"])
async def test_clock_and_variant_words_are_in_the_readers_language(
    harness: Harness, lang: str
) -> None:
    await harness.slash(ALICE, "language", language=lang)
    clocks = await harness.autocomplete(ALICE, "challenge", "clock")
    variants = await harness.autocomplete(ALICE, "challenge", "variant")
    names = [c["name"] for c in clocks + variants]
    assert all(c["name"].startswith(f"{c['value']}: ") for c in clocks), clocks
    assert [n for n in names if english_in(n, lang)] == [], names
    assert "72h: 72 hours a move" not in names and "standard (every game)" not in names
    six = translations.words(lang).t("game.morris.six")
    assert six in names and f"{translations.words(lang).t('game.morris')}: six" not in names, names


async def test_ladders_are_offered_by_their_games_names(harness: Harness) -> None:
    """/ladder's and /stats' game showed "morris" where /challenge shows "Nine Men's Morris"."""
    await rated_win(harness, ALICE, BOB, "morris")
    for path in ("ladder", "stats"):
        choices = await harness.autocomplete(CAROL, path, "game")
        assert {c["value"]: c["name"] for c in choices} == {
            "morris": "Nine Men's Morris",
            "atmalof": "Atmalof",
            "abalone": "Abalone",
        }, choices
    typed = await harness.autocomplete(CAROL, "ladder", "game", game="nine")
    assert typed == [{"name": "Nine Men's Morris", "value": "morris"}], typed
    (hungarian,) = await harness.autocomplete(CAROL, "stats", "game", game="morris", locale="hu")
    assert hungarian == {"name": "Malom", "value": "morris"}, hungarian


@pytest.mark.parametrize(
    ("locale", "place_first", "no_mill"),
    [
        ("en-US", "Place your men first: /place", "No mill to finish: /place or /move"),
        ("hu", "Előbb tedd le a bábuidat: /place", "Nem zártál be malmot: /place vagy /move"),
    ],
)
async def test_the_mover_is_told_why_a_morris_command_offers_nothing_yet(
    harness: Harness, locale: str, place_first: str, no_mill: str
) -> None:
    """While men are to be placed /move's ``from`` offered 0 choices, and so did /remove's
    ``point`` with no mill to finish: each says why, and picked it is refused with the reason
    (not "'?' is not a point"), changing nothing."""
    await start_game(harness, ALICE, BOB, "morris")
    for option in ("from_", "to"):
        moving = await harness.autocomplete(ALICE, "move", option, locale=locale)
        assert moving == [{"name": place_first, "value": "?"}], moving
    removing = await harness.autocomplete(ALICE, "remove", "point", locale=locale)
    assert removing == [{"name": no_mill, "value": "?"}], removing
    picked = await refused(harness, ALICE, "move", from_="?", to="d6")
    assert picked == (
        "you still have men to place: men move only once all are placed, so place one first"
    ), picked
    picked = await refused(harness, ALICE, "remove", point="?")
    assert picked == "no mill was just closed, so there is nothing to remove: place or move a man"
    placing = [c["value"] for c in await harness.autocomplete(ALICE, "place", "point")]
    assert placing[:2] == ["a7", "d7"] and "?" not in placing  # the moves are still offered
    await harness.slash(ALICE, "place", point="a7")
    (turn,) = await harness.autocomplete(ALICE, "move", "from_")  # bob's turn: that comes first
    assert turn["name"] == "Bob (Black) is to move", turn
