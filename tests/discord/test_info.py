"""Looking back and learning: history, record, replay, verify, rules, help, the theme setting."""

from __future__ import annotations

import json
import re

import pytest

import engine
from bot.clock import ManualClock
from bot.i18n import msg, say
from bot.referee.context import HISTORY_PAGE
from bot.referee.replies import Where
from bot.rules_text import ATMALOF_LICENCE
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import CHANNEL_ID, GUILD_ID, Harness, shown
from tests.discord.play import start_game, to_move
from translations import words as catalog

DEFERRED = 5


async def test_atmalof_rules_credit_the_author_and_link_the_licence(harness: Harness) -> None:
    rules = await harness.slash(CAROL, "rules", game="atmalof")
    assert rules.all_ephemeral
    assert "Richard Sandes Forsyth" in rules.text
    assert ATMALOF_LICENCE == "https://creativecommons.org/licenses/by-sa/3.0/"
    assert ATMALOF_LICENCE in rules.text and "CC BY-SA 3.0" in rules.text


async def test_rules_say_how_the_game_being_played_here_differs(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris", options="flying=off")
    rules = await harness.slash(CAROL, "rules", game="morris")
    assert rules.all_ephemeral
    assert rules.text.endswith(
        "switch takebacks off (`/referee settings`).\n\nNot the defaults: flying=off."
    ), rules.text[-300:]
    assert "Not the defaults" not in (await harness.slash(CAROL, "rules", game="abalone")).text


async def test_rules_during_a_six_mens_morris_game_describe_six_mens_morris(
    harness: Harness,
) -> None:
    """Its own board and men, not Nine Men's Morris's followed by "its six variant"."""
    await start_game(harness, ALICE, BOB, "morris", variant="six")
    rules = await harness.slash(CAROL, "rules", game="morris")
    assert rules.all_ephemeral
    assert "Six Men's Morris: the rules" in rules.text
    assert "16 points on two nested squares joined by four lines; six men each" in rules.text
    assert "Men never fly unless the challenge says `flying=on`" in rules.text
    assert "24 points" not in rules.text and "variant" not in rules.text
    standard = await harness.slash(CAROL, "rules", game="abalone")  # another game: its own
    assert "Abalone: the rules" in standard.text and "Six" not in standard.text


async def test_rules_without_a_game_explain_the_one_played_here(harness: Harness) -> None:
    alone = await harness.slash(CAROL, "rules")
    assert alone.all_ephemeral
    assert alone.text == (
        "rules of which game? Nothing is being played here: choose one in the `game` option"
    )
    await start_game(harness, ALICE, BOB, "morris", options="flying=off")
    rules = await harness.slash(CAROL, "rules")
    assert rules.all_ephemeral and "mill" in rules.text.lower()
    assert rules.text.endswith("Not the defaults: flying=off."), rules.text[-300:]


async def test_every_game_has_a_rules_summary(harness: Harness) -> None:
    for game, words in (("morris", "mill"), ("abalone", "sumito"), ("atmalof", "die")):
        assert words in (await harness.slash(ALICE, "rules", game=game)).text.lower()


async def test_help_names_every_top_level_command(harness: Harness) -> None:
    text = (await harness.slash(ALICE, "help")).text
    for command in harness.bot.tree.get_commands():
        assert f"/{command.name}" in text, command.name


async def test_the_record_is_a_json_file(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    record = await harness.slash(CAROL, "record")
    files = record.files
    assert files, record.text
    name, _, data = files[0]
    assert name.endswith(".json")
    assert json.loads(data)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Check it here with `/import` and this file, or on a computer with: "
               "`referee-verify game-1.json`"),
        ("hu", "Ellenőrzés itt: `/import` ezzel a fájllal; vagy számítógépen: "
               "`referee-verify game-1.json`"),
        ("eo", "Kontrolu ĝin ĉi tie per `/import` kun ĉi tiu dosiero, aŭ en komputilo per: "
               "`referee-verify game-1.json`"),
        ("is", "Yfirfarðu hana hér með `/import` og þessari skrá, eða í tölvu með: "
               "`referee-verify game-1.json`"),
    ],
)  # fmt: skip
async def test_the_record_says_how_to_check_the_file_it_sends(
    harness: Harness, lang: str, said: str
) -> None:
    """It said "referee-verify FILE", with an English word in every language: the command now
    names the file sent with it. On Discord the file is checked here too, by /import (the
    console's words name its own `import <path>`)."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "morris")
    record = await harness.slash(CAROL, "record")
    assert said in record.text, record.text
    assert [name for name, _, _ in record.files] == ["game-1.json"]
    assert "FILE" not in record.text


async def test_history_and_verify_answer_about_the_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    history = await harness.slash(CAROL, "history")
    assert "d7" in history.text.lower()
    verified = await harness.slash(CAROL, "verify")
    assert verified.text.strip() and not verified.first.ephemeral


LOCALES = {"en": "en-US", "hu": "hu"}  # Discord has no Esperanto or Icelandic client
ONE_PAGE = {  # a short game's /history head, with no "(page 1 of 1)", and a move out of turn
    "en": ("Game 1: Alice (White) vs Bob (Black)", "Bob (Black) is to move, not you"),
    "eo": ("Ludo 1: Alice (Blanko) kontraŭ Bob (Nigro)", "estas la ludvico de Bob (Nigro), ne via"),
    "hu": ("Játszma: 1 · Alice (Fehér) – Bob (Fekete)", "most Bob (Fekete) következik, nem te"),
    "is": ("Viðureign 1: Alice (Hvítur) gegn Bob (Svartur)", "Bob (Svartur) á leik, ekki þú"),
}


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
async def test_a_short_history_and_a_move_out_of_turn_read_right(
    harness: Harness, lang: str
) -> None:
    """A player's review: "Game 5: Alice (White) vs Carol (Black) (page 1 of 1)" (brackets
    twice, and a page count of one page) and "it is Bob (Black)'s turn, not yours" (a
    possessive after a bracket). The head of a one-page history names the game and its
    players alone, and the refusal puts nothing after the seat: in the server's language, and
    privately in the client's (Discord has no Esperanto or Icelandic client: the
    catalog's own check)."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    head, refusal = ONE_PAGE[lang]
    assert head in (await harness.slash(CAROL, "history")).text.splitlines()
    if lang in LOCALES:
        out_of_turn = await harness.slash(ALICE, "place", point="a7", locale=LOCALES[lang])
        assert out_of_turn.text == refusal
    else:  # Black's seat as the head names it
        black = head.rsplit(" ", 2)[-2:]
        assert say(msg("refusal.not_your_turn", player=" ".join(black)), lang) == refusal


@pytest.mark.parametrize("lang", ["en", "is"])
async def test_verify_posts_a_verdict_then_the_details_under_a_heading(
    harness: Harness, lang: str
) -> None:
    """/verify posted a public wall of jargon ("1 rows link"). It stays public, one message (the
    proof is for both players and onlookers, and a dispute's moderators read it where the game
    is), in the server's language: a verdict every player reads first, the details below."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    await harness.slash(BOB, "resign")
    verified = await harness.slash(CAROL, "verify")
    (call,) = verified.messages
    (embed,) = call.embeds
    assert not call.ephemeral and embed["title"] == catalog(lang).t("title.verification")
    w = catalog(lang)
    said = shown(embed["description"]).splitlines()
    assert said[:3] == [w.t("verify.verdict_ok_no_dice"), "", w.t("verify.details_head")], said
    counted = {"en": "1 action, 3 log rows", "is": "1 aðgerð, 3 línur í skránni"}[lang]
    assert said[3].startswith(w.t("verify.ok", reason="")) and counted in said[3], said


async def test_the_revealed_seed_names_verify_as_discord_types_it(harness: Harness) -> None:
    """The seed line at a game's end names the slash command, `/verify` (it said a bare
    "verify", the console's word, on Discord too)."""
    await start_game(harness, ALICE, BOB, "morris", starter="random")  # a coin toss to check
    ended = await harness.slash(ALICE, "resign")
    assert "check the coin toss, this game's only roll, with `/verify`)" in ended.text, ended.text


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
async def test_the_coin_toss_says_it_is_the_games_first_roll_and_how_to_check_it(
    harness: Harness, lang: str
) -> None:
    """ "Coin toss (verifiable roll 0 of this game): alice moves first." read as jargon (a
    player's review): it says the toss is the game's first roll, which `/verify` checks."""
    if lang != "en":
        await harness.slash(MODERATOR, "referee settings", language=lang)
    started = await start_game(harness, ALICE, BOB, "morris", starter="random")
    (line,) = [x for x in started.text.splitlines() if "`/verify`" in x]
    first = ALICE if ALICE.name.title() in line else BOB
    assert line == catalog(lang).t("start.toss", player=first.name.title()), line
    assert "0" not in line, line  # no roll number to puzzle over
    if lang == "en":
        said = f"Coin toss: {first.name.title()} moves first (the game's first roll, which"
        assert line == f"{said} `/verify` checks).", line


def listed(text: str) -> list[int]:
    """The numbers of the moves a /history message lists."""
    return [int(n) for n in re.findall(r"(?m)^(\d+)\. ", text)]


async def test_history_pages_count_back_from_the_latest_moves(harness: Harness) -> None:
    """What the player saw: "the latest 20 of 26 moves, pages 1–2; `/history page: 1` for the
    first page", and page 1 repeated 14 of the moves shown. Now the latest moves are page 1,
    its head points to page 2 for the moves before, and no move is on two pages."""
    await start_game(harness, ALICE, BOB, "morris")
    morris = engine.get_game("morris")
    moves = 0
    while moves < HISTORY_PAGE + 2:  # two pages of the history (a mill's removal: no move)
        mover, commands = await to_move(harness, (ALICE, BOB), CHANNEL_ID)
        assert mover is not None, "the game ended"
        await harness.slash(mover, "play", command=commands[0])
        g = await harness.bot.referee.store.latest_game(CHANNEL_ID)
        assert g is not None
        moves = morris.turns(morris.from_text(g.position))
    latest = await harness.slash(CAROL, "history")
    said = f": moves 3–{moves} of {moves}, page 1 of 2; `/history page: 2` for the moves before"
    assert said in latest.text, latest.text
    assert listed(latest.text) == list(range(3, moves + 1))
    assert (await harness.slash(CAROL, "history", page=1)).text == latest.text
    before = await harness.slash(CAROL, "history", page=2)
    assert f": moves 1–2 of {moves}, page 2 of 2\n" in before.text, before.text
    assert listed(before.text) == [1, 2] and "for the moves before" not in before.text
    assert "there is no page" not in before.text
    past = await harness.slash(CAROL, "history", page=7)
    assert "page 2 of 2\n(there is no page 7: this is the last)" in past.text, past.text
    assert listed(past.text) == [1, 2]


@pytest.mark.parametrize(
    ("lang", "row", "after"),
    [
        ("en", "5. White: place g7 x b6", "after 6 moves."),
        ("hu", "5. Fehér: place g7 x b6", "6 lépés után."),
    ],
)
async def test_a_mill_typed_apart_or_joined_reads_alike_in_history(
    harness: Harness, lang: str, row: str, after: str
) -> None:
    """/place g7 then /remove b6 (two log actions) and /place g7 remove:b6 (one) are the same
    numbered move in /history and on the board's picture; the moves after it number on alike."""
    seen = []
    for channel in (CHANNEL_ID, CHANNEL_ID + 1):
        await harness.slash(MODERATOR, "referee settings", channel=channel, language=lang)
        await start_game(harness, ALICE, BOB, "morris", channel=channel)
        for person, point in ((ALICE, "a7"), (BOB, "b6"), (ALICE, "d7"), (BOB, "d6")):
            await harness.slash(person, "place", channel=channel, point=point)
        if channel == CHANNEL_ID:
            await harness.slash(ALICE, "place", channel=channel, point="g7")  # the mill
            await harness.slash(ALICE, "remove", channel=channel, point="b6")
        else:
            await harness.slash(ALICE, "place", channel=channel, point="g7", remove="b6")
        board = await harness.slash(BOB, "place", channel=channel, point="f4")
        alt = [d for _, d, data in board.files if d and data.startswith(b"\x89PNG")]
        assert len(alt) == 1 and after in alt[0], alt
        history = await harness.slash(CAROL, "history", channel=channel)
        seen.append(re.findall(r"(?m)^\d+\. .*$", history.text))
    apart, joined = seen
    assert apart == joined and listed("\n".join(apart)) == [1, 2, 3, 4, 5, 6]
    assert apart[4].startswith(row + " ("), apart


async def test_replay_defers_then_sends_the_animation(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    await harness.slash(BOB, "place", point="a1")
    replay = await harness.slash(CAROL, "replay")
    assert replay.first.response_type == DEFERRED  # thinking, before any drawing
    (animation,) = [f for f in replay.files if f[0].endswith(".gif")]
    assert animation[2][:6] in (b"GIF87a", b"GIF89a")


async def test_a_moderator_sets_the_servers_theme(harness: Harness) -> None:
    changed = await harness.slash(MODERATOR, "referee theme", theme="light")
    assert changed.text.strip() and "light" in changed.text.lower()
    where = Where(guild_id=GUILD_ID, channel_id=CHANNEL_ID)
    assert (await harness.bot.referee.settings(where))["theme"] == "light"


async def test_the_sweeper_posts_an_expired_challenge_in_its_channel(
    harness: Harness, clock: ManualClock
) -> None:
    await harness.slash(ALICE, "challenge", game="abalone", opponent=BOB)
    clock.advance(3600)
    assert await harness.bot.post_notices() == 1
    notice = harness.rest_calls[-1]
    assert notice.path == "/channels/{channel_id}/messages"
    assert int(notice.message["channel_id"]) == CHANNEL_ID
    assert "expired" in notice.text.lower()
    assert await harness.bot.post_notices() == 0  # said once


@pytest.mark.parametrize(
    ("locale", "examples"),
    [
        (
            "en-US",
            "From the start, `/push b1 d3 ne` moves b1, c2 and d3 one step along their line, "
            "`/push d2 d3 nw` moves the line from d2 to d3 sideways, and `/push d3 e` moves one "
            "marble.",
        ),
        (
            "hu",
            "A kezdőállásból a `/push b1 d3 ne` három golyót léptet egyet a vonaluk mentén "
            "(b1, c2, d3), a `/push d2 d3 nw` oldalra léptet egy sort (d2–d3), a `/push d3 e` "
            "pedig egyetlen golyót.",
        ),
    ],
)
async def test_rules_during_a_german_daisy_game_show_moves_legal_in_it(
    harness: Harness, locale: str, examples: str
) -> None:
    """The standard's ``/push a1 c3 ne`` is refused there ("there is no marble on a1"): the
    examples are the German daisy's, and the first one plays."""
    await start_game(harness, ALICE, BOB, "abalone", variant="german-daisy")
    rules = await harness.slash(CAROL, "rules", locale=locale)
    assert rules.all_ephemeral
    assert examples in rules.text, rules.text
    assert "a1 c3" not in rules.text
    played = await harness.slash(ALICE, "push", marbles="b1 d3", direction="ne")
    assert not played.first.ephemeral, played.text
