"""``/referee forget-server``: moderators only, nothing without confirm, the answer private."""

from __future__ import annotations

from bot.store import Store
from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import CHANNEL_ID, GUILD_ID, Harness
from tests.discord.play import start_game


async def games_here(store: Store) -> int:
    return len(
        list(
            await store.db.execute_fetchall("SELECT id FROM games WHERE guild_id = ?", (GUILD_ID,))
        )
    )


async def test_a_moderator_confirms_and_the_server_is_forgotten(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    store: Store = harness.bot.referee.store  # type: ignore[attr-defined]
    assert await games_here(store) == 1

    refused = await harness.slash(ALICE, "referee forget-server", confirm=True)
    assert refused.all_ephemeral and "moderators" in refused.text.lower()
    kept = await harness.slash(MODERATOR, "referee forget-server", confirm=False)
    assert kept.all_ephemeral and "Nothing changed" in kept.text
    assert await games_here(store) == 1

    done = await harness.slash(MODERATOR, "referee forget-server", confirm=True)
    assert done.all_ephemeral
    assert "Removed from this server: games: 1, " in done.text
    assert await games_here(store) == 0
    board = await harness.slash(ALICE, "board")
    assert board.all_ephemeral and (await store.latest_game(CHANNEL_ID)) is None
