"""Secrets stay secret: the Discord token never appears in a log line, an error or a message, and
the dice seed of a running game never leaves the store (not in logs, errors, replies, /record
or /history) until the game ends, when it is revealed in the result and the record.

Whole games of each game run through the Discord harness with logging at DEBUG; everything
logged and every HTTP call the bot made (JSON bodies and attached files) is searched.
"""

from __future__ import annotations

import json
import logging
import random
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.http import HTTPClient

from bot.config import Config
from bot.discord_ui.app import CannotStart, serve
from bot.store import Store
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import CHANNEL_ID, Call, Harness
from tests.discord.play import start_game, to_move

FAKE_TOKEN = "MTAxNzQ0.fake-token.DO-NOT-LEAK-5f3a9c"
PLAYERS = (ALICE, BOB)
SMALL_ATMALOF = "rows=4 cols=4 beyond_rows=0 beyond_cols=0 pieces=5 line=3"


def carried(call: Call) -> list[bytes]:
    """Everything one HTTP call carried: its JSON body and each file's bytes and description."""
    out = [json.dumps(call.payload, ensure_ascii=False).encode()]
    for name, description, data in call.files:
        out += [name.encode(), (description or "").encode(), data]
    return out


def leaks(secret: str, sent: list[Call], logged: str) -> list[str]:
    """Where ``secret`` shows (as text, either case, or as the raw bytes of a hex seed)."""
    forms = {secret.encode(), secret.lower().encode(), secret.upper().encode()}
    if all(c in "0123456789abcdef" for c in secret.lower()):
        forms.add(bytes.fromhex(secret))
    found = [f"log: {secret[:8]}..." for form in forms if form.decode("latin-1") in logged]
    for call in sent:
        for blob in carried(call):
            if any(form in blob for form in forms):
                found.append(f"{call.kind} {call.path}")
    return found


def log_text(caplog: pytest.LogCaptureFixture, upto: int | None = None) -> str:
    records = caplog.records[:upto]
    handler = logging.Formatter("%(name)s %(message)s")
    return "\n".join(handler.format(r) for r in records)


async def test_the_token_is_never_in_the_config_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    config = Config.from_env()
    assert config.token == FAKE_TOKEN
    assert FAKE_TOKEN not in repr(config) and FAKE_TOKEN not in str(config)
    assert FAKE_TOKEN not in f"{config!r} {config!s} {vars(type(config))}"


async def test_a_rejected_token_is_not_echoed_in_logs_or_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def discord_says_401(self: HTTPClient, route: Any, **kwargs: Any) -> Any:
        response = SimpleNamespace(status=401, reason="Unauthorized")
        raise discord.HTTPException(response, {"message": "401: Unauthorized", "code": 0})  # type: ignore[arg-type]

    monkeypatch.setattr(HTTPClient, "request", discord_says_401)
    caplog.set_level(logging.DEBUG)
    config = Config(token=FAKE_TOKEN, db_path=str(tmp_path / "login.db"))
    with pytest.raises(CannotStart) as failed:  # run() logs it as one line and exits 1
        await serve(config)
    shown = "".join(traceback.format_exception(failed.value))
    assert "Discord refused DISCORD_TOKEN" in shown
    assert FAKE_TOKEN not in shown
    assert FAKE_TOKEN not in log_text(caplog) and FAKE_TOKEN not in caplog.text


def pick_for(game: str) -> Any:
    if game == "atmalof":  # drops into random lines fill the small board: a line or the tie-break
        rng = random.Random(5)
        return lambda commands: rng.choice(
            [c for c in commands if c.startswith("drop")] or commands
        )
    return lambda commands: commands[0]


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("atmalof", {"variant": "custom", "options": SMALL_ATMALOF}),
        ("morris", {}),
        ("abalone", {}),
    ],
)
async def test_the_seed_stays_in_the_store_until_the_game_ends(
    harness: Harness,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    game: str,
    options: dict[str, Any],
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    harness.bot.http.token = FAKE_TOKEN  # as after a login
    sent: list[Call] = []
    recorder = harness._record

    def record(call: Call) -> None:
        sent.append(call)
        recorder(call)

    harness._record = record  # type: ignore[method-assign]
    await start_game(harness, ALICE, BOB, game, starter="random", **options)
    store: Store = harness.bot.referee.store  # type: ignore[attr-defined]
    g = await store.latest_game(CHANNEL_ID)
    seed = g.seed
    assert seed and seed not in repr(g)
    pick = pick_for(game)
    end_call = end_log = None
    for turn in range(400):
        mover, commands = await to_move(harness, PLAYERS, CHANNEL_ID)
        assert mover is not None, "the game stopped without a result"
        if turn == 2:  # everything a player or spectator can ask for mid-game
            for path in ("board", "history", "record", "verify", "replay"):
                await harness.slash(CAROL, path)
            await harness.slash(mover, "play", command="nonsense that is no move")
            await harness.slash(CAROL, "play", command=commands[0])  # a stranger's move
        calls, logs = len(sent), len(caplog.records)
        await harness.slash(mover, "play", command=pick(commands))
        if (await store.game(g.id)).status != "active":
            end_call, end_log = calls, logs
            break
    assert end_call is not None, "the game did not end"
    assert leaks(seed, sent[:end_call], log_text(caplog, end_log)) == []
    final = sent[end_call:]
    assert any(seed in call.text for call in final), "the result does not reveal the seed"
    recorded = await harness.slash(CAROL, "record")
    (file,) = recorded.files
    assert seed in file[2].decode()  # revealed in the record once the game is over
    assert leaks(FAKE_TOKEN, sent, log_text(caplog)) == []
