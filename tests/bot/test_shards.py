"""Shards: which process serves which server, read from the environment, and sweeps that touch
only a process's own servers (every flag falls once, none is missed)."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.config import Config, ConfigError, redacted
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.shards import ShardError, Shards, parse_shard_ids, shard_of
from bot.store import Store, StoreUnavailable, open_store
from tests.bot.conftest import ALICE, BOB, play, start, swept


def guild_on(shard: int, count: int = 4, n: int = 0) -> int:
    """A realistic guild id (a snowflake) that Discord sends to ``shard`` of ``count``."""
    base = 1_100_000_000_000_000_000 + n * count * (1 << 22)
    guild = base - (base >> 22) % count * (1 << 22) + shard * (1 << 22)
    assert shard_of(guild, count) == shard
    return guild


def test_a_guilds_shard_is_discords_formula() -> None:
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    assert shard_of(None, 8) == 0  # direct messages and the console
    assert shard_of(123 << 22, 1) == 0
    assert [shard_of(guild_on(s, 16), 16) for s in range(16)] == list(range(16))


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("4,6,7", (4, 6, 7)), ("0-1, 5", (0, 1, 5)), ("7", (7,))],
)
def test_shard_ranges(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text, 8) == ids


@pytest.mark.parametrize("text", ["3-1", "0-8", "a-b", "-1", "1-", ",", "0;1", "²", "1,1", "0-3,2"])
def test_bad_shard_ranges_are_refused(text: str) -> None:
    with pytest.raises(ShardError):
        parse_shard_ids(text, 8)


def test_shards_from_the_environment() -> None:
    assert Shards.from_text(None, None) == Shards()  # Discord chooses; this process serves all
    assert Shards.from_text("4", "") == Shards(4, (0, 1, 2, 3))
    half = Shards.from_text("4", "2-3")
    assert not half.serves_all
    assert [half.owns(guild_on(s)) for s in range(4)] == [False, False, True, True]
    assert not half.owns(None)  # direct messages are shard 0's
    assert Shards.from_text("4", "0").owns(None)
    with pytest.raises(ShardError, match="SHARD_COUNT"):
        Shards.from_text("", "0-1")
    with pytest.raises(ShardError, match="SHARD_COUNT"):
        Shards.from_text("0", None)


def test_config_reads_shards_metrics_address_and_log_format() -> None:
    config = Config.from_env(
        {"SHARD_COUNT": "8", "SHARD_IDS": "4-7", "METRICS_PORT": "9100", "LOG_FORMAT": "JSON"}
    )
    assert config.shards == Shards(8, (4, 5, 6, 7))
    assert (config.metrics_port, config.log_format) == (9100, "json")
    plain = Config.from_env({})
    assert (plain.shards, plain.metrics_port, plain.log_format) == (Shards(), None, "text")
    assert plain.metrics_host == "127.0.0.1"  # loopback: never a host's public interface unasked
    for host in ("0.0.0.0", " ::1 ", "::", "10.1.2.3"):
        assert Config.from_env({"METRICS_HOST": host}).metrics_host == host.strip()
    for env, name in [
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-9"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "many"}, "SHARD_COUNT"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT"),
        ({"METRICS_HOST": "localhost"}, "METRICS_HOST"),
        ({"METRICS_HOST": "256.0.0.1"}, "METRICS_HOST"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"PRACTICE_WORKERS": "0"}, "PRACTICE_WORKERS"),
        ({"PRACTICE_WORKERS": "two"}, "PRACTICE_WORKERS"),
        ({"PRACTICE_WORKERS": "65"}, "PRACTICE_WORKERS"),
    ]:
        with pytest.raises(ConfigError, match=name):
            Config.from_env(env)


def test_config_reads_how_many_practice_games_are_searched_at_once() -> None:
    assert Config.from_env({}).practice_workers == 1
    assert Config.from_env({"PRACTICE_WORKERS": " 3 "}).practice_workers == 3


async def test_each_process_sweeps_only_its_own_shards_and_together_all(
    store: Store, clock: ManualClock
) -> None:
    low = Referee(store, clock, render=False)  # two processes on one database
    high = Referee(store, clock, render=False)
    games = {}
    for shard in range(4):
        where = Where(guild_id=guild_on(shard), channel_id=100 + shard)
        await start(low, "morris", where=where, clock="1+0")
        await play(low, where, ALICE, "place d7")
        games[shard] = where
    challenged = Where(guild_id=guild_on(3, n=1), channel_id=200)
    made = await low.challenge(challenged, ALICE, "morris", opponent=BOB, starter="me")
    assert made.ok
    clock.advance(low.challenge_ttl + 61)
    first = await swept(low, shards=Shards(4, (0, 1)))
    second = await swept(high, shards=Shards(4, (2, 3)))
    assert {n.where.guild_id for n in first} == {games[0].guild_id, games[1].guild_id}
    assert {n.where.guild_id for n in second} == {
        games[2].guild_id,
        games[3].guild_id,
        challenged.guild_id,
    }
    assert all("ran out of time" in n.reply.text for n in first)
    assert await swept(low, shards=Shards(4, (0, 1))) == []
    assert await swept(high, shards=Shards(4, (2, 3))) == []  # nothing is done twice


async def test_running_games_are_counted_per_shard(store: Store, clock: ManualClock) -> None:
    referee = Referee(store, clock, render=False)
    for shard, channel in ((1, 301), (2, 302), (2, 303)):
        where = Where(guild_id=guild_on(shard), channel_id=channel)
        await start(referee, "morris", where=where)
    await start(referee, "morris", where=Where(guild_id=None, channel_id=304))  # shard 0's
    assert await referee.running_games() == 4
    assert await referee.running_games(Shards(4, (2,))) == 2
    assert await referee.running_games(Shards(4, (0, 1))) == 2
    assert await referee.running_games(Shards(4, (3,))) == 0
    assert await referee.running_games(Shards(4, (0, 1, 2, 3))) == 4


async def test_a_restarted_process_finds_what_fell_while_it_was_down(
    store: Store, clock: ManualClock
) -> None:
    where = Where(guild_id=guild_on(2), channel_id=300)
    carol, dave = Actor(303, "carol"), Actor(404, "dave")
    await start(Referee(store, clock, render=False), "morris", where=where, first=carol,
                second=dave, clock="1+0")  # fmt: skip
    clock.advance(3600)  # the process for shard 2 was down meanwhile; shards 0-1 swept
    assert await swept(Referee(store, clock, render=False), shards=Shards(4, (0, 1))) == []
    (notice,) = await swept(Referee(store, clock, render=False), shards=Shards(4, (2, 3)))
    assert notice.where == where


async def test_a_postgresql_url_is_taken_and_its_password_never_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = "postgresql://referee:s3cret-pw@127.0.0.1:1/referee"  # nothing listens on port 1
    assert Config.from_env({"REFEREE_DB": url}).db_path == url
    with pytest.raises(StoreUnavailable) as refused:
        await open_store(url)
    assert "s3cret-pw" not in str(refused.value) + caplog.text
    assert "postgresql://referee:***@127.0.0.1:1/referee" in caplog.text
    assert "cannot be reached" in caplog.text
    assert redacted("postgresql://db/x") == "postgresql://db/x"
    assert redacted("data/referee.db") == "data/referee.db"
