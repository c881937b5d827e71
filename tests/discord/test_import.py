"""/import: every refusal is private and comes before any public answer (the file's size and
kind from its metadata, the cooldown, an unreadable file); a record that can be checked gets a
public defer and then one message with the verdict, the final position and the replay."""

from __future__ import annotations

import pytest

from bot.discord_ui.guards import COOLDOWNS
from bot.referee.imports import MAX_IMPORT_BYTES
from tests.discord.conftest import ALICE, CAROL
from tests.discord.harness import Exchange, Harness, Upload
from tests.discord.play import PNG
from tests.discord.test_disputes import finished_record
from tests.engine.test_record_input import _hostile


def refused_privately(exchange: Exchange) -> str:
    """One ephemeral message as the interaction's first answer: nobody else saw anything."""
    assert exchange.first.response_type == 4 and exchange.first.ephemeral, exchange.first.payload
    assert exchange.all_ephemeral and not exchange.files
    return exchange.text


async def test_a_file_too_large_is_refused_before_it_is_downloaded(harness: Harness) -> None:
    huge = Upload("huge.json", b" " * (MAX_IMPORT_BYTES + 1))
    text = refused_privately(await harness.slash(CAROL, "import", record=huge))
    assert text == f"huge.json is larger than {MAX_IMPORT_BYTES:,} bytes: not a record"
    assert harness.downloads == []


async def test_an_image_or_an_empty_file_is_refused_before_it_is_downloaded(
    harness: Harness,
) -> None:
    picture = Upload("board.png", PNG + b"...", content_type="image/png")
    text = refused_privately(await harness.slash(CAROL, "import", record=picture))
    assert text == "board.png is not a record file: attach the JSON file /record gives"
    empty = refused_privately(await harness.slash(CAROL, "import", record=Upload("e.json", b"")))
    assert empty == "e.json is empty: attach the record file /record gives"
    assert harness.downloads == []


async def test_an_unreadable_record_is_refused_privately_without_a_public_defer(
    harness: Harness,
) -> None:
    junk = await harness.slash(CAROL, "import", record=Upload("junk.json", b"{not json"))
    assert "junk.json is not a readable record" in refused_privately(junk)
    assert len(harness.downloads) == 1


async def test_imports_have_a_per_user_cooldown_checked_before_the_download(
    harness: Harness,
) -> None:
    uses, _ = COOLDOWNS["import"]
    for _ in range(uses):
        await harness.slash(CAROL, "import", record=Upload("junk.json", b"{not json"))
    slow = await harness.slash(CAROL, "import", record=Upload("junk.json", b"{not json"))
    assert refused_privately(slow).startswith("slow down a little")
    assert len(harness.downloads) == uses
    other = await harness.slash(ALICE, "import", record=Upload("junk.json", b"{not json"))
    assert "not a readable record" in refused_privately(other)


async def test_a_checkable_record_gets_one_public_message_after_the_defer(
    harness: Harness,
) -> None:
    data = await finished_record(harness)
    imported = await harness.slash(CAROL, "import", record=Upload("game-1.json", data))
    defer = imported.first
    assert defer.response_type == 5 and not defer.ephemeral  # public: the replay takes a while
    (answer,) = imported.messages
    assert not answer.ephemeral and "Verified" in answer.text
    assert sorted(name for name, _, _ in answer.files) == ["import-1.png", "replay-1.gif"]


@pytest.mark.parametrize("name", list(_hostile()))
async def test_hostile_record_text_is_refused_privately_with_its_reason(
    harness: Harness, name: str
) -> None:
    """Issue 13.9: a huge integer, deep nesting, a lone surrogate or a repeated key each get a
    reason, not the generic apology."""
    text, message = _hostile()[name]
    upload = Upload("odd.json", text.encode("utf-8", "surrogatepass"))
    answer = refused_privately(await harness.slash(ALICE, "import", record=upload))
    assert "odd.json is not a readable record" in answer and message in answer
