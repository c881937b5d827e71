"""/import: every refusal is private and comes before any public answer (the file's size and
kind from its metadata, the cooldown, an unreadable file); a record that can be checked gets a
public defer and then one message with the verdict, the final position and the replay."""

from __future__ import annotations

import pytest

from bot.discord_ui.guards import COOLDOWNS
from bot.referee.imports import MAX_IMPORT_BYTES
from engine import Outcome, Termination
from engine.record import Record, Recorder
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import Exchange, Harness, Upload
from tests.discord.play import PNG
from tests.discord.test_disputes import finished_record
from tests.engine.test_record import ticking_clock
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


def forged(real: Record, game_id: str) -> bytes:
    """A record of the real game's players that checks out on its own: the forger's own seed,
    commitment, moves and chain, under ``game_id``."""
    players = tuple((p.id, p.name) for p in real.players)
    rec = Recorder("morris", players=players, game_id=game_id, seed="ab" * 32,  # type: ignore[arg-type]
                   clock=ticking_clock(), accept=real.accept, words=real.words or {})  # fmt: skip
    rec.play("place a1")
    return rec.finish(Outcome(Termination.RESIGNATION, 1, "Alice resigned")).to_json().encode()


async def test_an_import_says_whether_the_record_is_this_servers_game_of_its_id(
    harness: Harness,
) -> None:
    """A dispute's finding: anyone can make a record that checks out on its own (a seed, its
    commitment, rolls and a chain of their own), and /import answered "Every move and every roll
    checks out" to a forged game 1 as to the real one, which a player posts as proof. The line
    under the verdict says which it is: the stored game (same commitment and log), another
    record under a stored game's id, or an id this server never played."""
    data = await finished_record(harness)
    real = Record.from_json(data)
    own = await harness.slash(CAROL, "import", record=Upload("game-1.json", data))
    (answer,) = own.messages
    head = real.head[:10]
    assert f"This is game 1 of this server: its dice commitment and its log up to #{head}" in (
        answer.text
    )
    faked = await harness.slash(ALICE, "import", record=Upload("game-1.json", forged(real, "1")))
    (answer,) = faked.messages
    assert answer.text.splitlines()[1].startswith("Every move checks out")  # of the file alone ...
    lines = answer.text.splitlines()
    assert lines[2].startswith("This is not this server's game 1: the referee stored another")
    assert f"(its log ends on #{head})" in lines[2]  # ... and said at once under the verdict
    other = await harness.slash(BOB, "import", record=Upload("game-42.json", forged(real, "42")))
    assert "No game 42 was played in this server, so nothing shows" in other.messages[0].text
