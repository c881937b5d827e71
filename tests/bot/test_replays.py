"""One replay drawing for /replay, /import and the console (bot.referee.replays): in the
server's language, also for an imported record."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replays import MAX_GIF_BYTES, replay_gif
from bot.referee.replies import Actor
from bot.store import Store
from engine.record import Record
from tests.bot.conftest import ALICE, BOB, HERE, play, start

MOD = Actor(id=11, name="Mod", is_moderator=True)


async def test_replay_and_an_imports_replay_are_said_in_the_servers_language(
    store: Store, clock: ManualClock
) -> None:
    referee = Referee(store, clock)  # drawing: an import's replay needs the renderer
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await referee.resign(HERE, BOB)).ok  # a result, whose words the last frame says
    assert (await referee.set_setting(HERE, MOD, "language", "hu")).ok
    record = (await referee.record(HERE)).file
    assert record is not None
    said = {lang: replay_gif(Record.from_json(record), "dark", MAX_GIF_BYTES, lang)
            for lang in ("en", "hu")}  # fmt: skip
    assert said["en"] != said["hu"]
    shown = await referee.replay(HERE)
    assert shown.ok and shown.file == said["hu"] and shown.file_name == "replay-1.gif"
    imported = await referee.import_record(HERE, record, gif=True)
    assert imported.file == said["hu"]


async def test_one_action_is_counted_in_the_singular(store: Store, clock: ManualClock) -> None:
    referee = Referee(store, clock, render=False)
    await start(referee, "morris")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    said = (await referee.verify(HERE)).text
    assert "1 action, " in said and "1 actions" not in said, said
