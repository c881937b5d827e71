"""Whole games of each game through the Discord harness in each language (issue 15): with the
server and both players in one language, no string the bot sends (message text, embed title,
description and footer, button labels, the board's alt text, autocomplete choices) holds an
English sentence part the language's catalog lacks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.discord_ui.choices import MORE
from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import Call, Exchange, Harness
from tests.discord.play import play_out, start_game
from tests.languages import english_in

LANGUAGES = ("hu", "eo", "is")
GAMES = ("atmalof", "morris", "abalone")
NOT_WORDS = {"custom_id", "url", "filename", "proxy_url", "id", "content_type", "type"}


def sent_strings(call: Call) -> list[str]:
    """Every string a player can read in one outgoing call, and the files' descriptions."""
    found: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, str) and key not in NOT_WORDS:
            found.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)

    walk(call.payload)
    found += [description for _, description, _ in call.files if description]
    return found


def leaks(exchanges: list[Exchange], lang: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for exchange in exchanges:
        for call in exchange.calls:
            for text in sent_strings(call):
                if found := english_in(text, lang):
                    out[text[:120]] = found
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_on_discord_reads_in_the_language(
    harness: Harness, game: str, lang: str
) -> None:
    setup = [await harness.slash(MODERATOR, "referee settings", language=lang)]
    setup += [await harness.slash(p, "language", language=lang) for p in (ALICE, BOB)]
    started = await start_game(harness, ALICE, BOB, game)
    offered_moves = await harness.autocomplete(ALICE, "play", "command")  # alice moves first
    names = [c["name"] for c in offered_moves]
    if game == "abalone":  # more pushes than Discord shows: the last choice says how to narrow
        assert names[-1].startswith(MORE) and len(names) == 25, names
    assert [n for n in names if english_in(n, lang)] == []
    offered = await harness.slash(BOB, "draw offer")  # out of turn is fine for an offer
    declined = await harness.slash(ALICE, "draw decline")
    shown = await harness.slash(BOB, "board")
    rng = random.Random(f"{game}-{lang}")
    played = await play_out(harness, (ALICE, BOB), pick=rng.choice, limit=600)
    assert played.turns > 5 and played.last is not None
    after = [await harness.slash(ALICE, name) for name in ("history", "verify", "stats")]
    exchanges = [*setup[1:], started, offered, declined, shown, *played.exchanges, *after]
    assert leaks(exchanges, lang) == {}


async def test_the_check_itself_catches_an_english_game(harness: Harness) -> None:
    started = await start_game(harness, ALICE, BOB, "morris")
    assert leaks([started], "hu")
