"""Languages are kept across restarts: the server's and each user's own (migration 8)."""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore
from bot.store.migrations import LATEST

HERE = Where(guild_id=1, channel_id=2)
ANNA = Actor(id=10, name="Anna")
MOD = Actor(id=11, name="Mod", is_moderator=True)


async def test_languages_survive_a_restart_and_a_bad_code_changes_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "r.db")
    store = await SqliteStore.open(path)
    referee = Referee(store, ManualClock())
    assert await store.schema_version() == LATEST
    assert await referee.language(HERE, ANNA.id) == "en"
    assert (await referee.set_setting(HERE, ANNA, "language", "hu")).refused  # not a moderator
    assert (await referee.set_setting(HERE, MOD, "language", "xx")).refused
    assert (await referee.set_language(HERE, ANNA, "klingon")).refused
    assert await referee.language(HERE, ANNA.id) == "en"
    assert (await referee.set_setting(HERE, MOD, "language", "hu")).ok
    assert (await referee.set_language(HERE, ANNA, "is")).ok
    await store.close()

    store = await SqliteStore.open(path)
    referee = Referee(store, ManualClock())
    try:
        assert await referee.language(HERE, ANNA.id, locale="eo") == "is"
        assert await referee.language(HERE, MOD.id, locale=None) == "hu"
        assert await referee.language(HERE, MOD.id, locale="eo") == "eo"
        assert (await referee.settings(HERE))["takebacks"] is True  # the other settings stand
        await referee.set_language(HERE, ANNA, None)
        assert await referee.language(HERE, ANNA.id) == "hu"
    finally:
        await store.close()
