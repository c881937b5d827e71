"""The words of a picture that is not a game's board (the ladder, the rating chart) and of an
imported record's board speak the server's language, as a game's board does: the image's alt
text (the file's description, what a screen reader reads) as well as the words drawn in it."""

from __future__ import annotations

import pytest

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import Exchange, Harness, Upload
from tests.discord.play import PNG, rated_win
from tests.discord.test_disputes import morris_game
from tests.languages import english_in
from translations import words

LANGUAGES = ("en", "hu", "eo", "is")


def picture_alt(exchange: Exchange, prefix: str) -> str:
    """The description of the one PNG whose file name starts with ``prefix``."""
    (alt,) = [d for name, d, data in exchange.files if name.startswith(prefix) and data[:8] == PNG]
    assert alt, f"{prefix}: no alt text"
    return alt


async def server_in(h: Harness, lang: str) -> None:
    await h.slash(MODERATOR, "referee settings", language=lang)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_ladder_images_alt_text_is_the_ladder_in_the_servers_language(
    harness: Harness, lang: str
) -> None:
    await server_in(harness, lang)
    await rated_win(harness, ALICE, BOB)
    board = await harness.slash(CAROL, "ladder", game="morris", show_provisional=True)
    alt = picture_alt(board, "ladder-morris")
    assert english_in(alt, lang) == [], alt
    assert alt.splitlines()[0] in board.text  # the title the public message says
    assert "1. Alice 1662?" in alt and "2. Bob 1338?" in alt


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_rating_charts_alt_text_is_in_the_servers_language(
    harness: Harness, lang: str
) -> None:
    await server_in(harness, lang)
    await rated_win(harness, ALICE, BOB)
    stats = await harness.slash(CAROL, "stats", player=ALICE)
    alt = picture_alt(stats, f"rating-{ALICE.id}")
    w = words(lang)
    assert alt == w.t("stats.chart_alt", name="Alice", ladders=w.t("game.morris"))


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_an_imported_records_board_speaks_the_servers_language(
    harness: Harness, lang: str
) -> None:
    await server_in(harness, lang)
    await morris_game(harness)
    await harness.slash(BOB, "resign")
    exported = await harness.slash(ALICE, "record")
    (data,) = [d for name, _, d in exported.files if name.endswith(".json")]
    imported = await harness.slash(CAROL, "import", record=Upload("game-1.json", data))
    alt = picture_alt(imported, "import-1")
    assert english_in(alt, lang) == [], alt
    assert alt.startswith(words(lang).t("game.morris")), alt
