"""Tampering with the stored log in SQLite itself (append-only triggers dropped first) is caught
by verify, at the right row: actions, rolls, times, order, deleted rows, events, the game row."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import pytest

from bot.i18n import msg, reply_words, say
from bot.referee import Referee
from bot.referee.records import check_stored
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, checks_out, play, start
from translations import words

# The log of the game below, by row: 1 start, 2..5 four drops, 6 bob's resignation.
DROPS = ((ALICE, "drop row 4"), (BOB, "drop col 2"), (ALICE, "drop row 3"), (BOB, "drop col 5"))
TRIGGERS = (
    "actions_are_never_updated",
    "actions_are_never_deleted",
    "events_are_never_updated",
    "events_are_never_deleted",
)


def flipped_winner(db: sqlite3.Connection) -> None:
    (note,) = db.execute("SELECT note FROM events WHERE kind = 'resign'").fetchone()
    data = json.loads(note)
    data["winner"] = 1 - data["winner"]
    db.execute("UPDATE events SET note = ? WHERE kind = 'resign'", (json.dumps(data),))


TAMPERING: dict[str, tuple[Callable[[sqlite3.Connection], object], int | None, str]] = {
    "action": (
        lambda db: db.execute("UPDATE actions SET action = 'drop row 5' WHERE link = 3"),
        3,
        "row 3 (action 2",
    ),
    "roll": (
        lambda db: db.execute("UPDATE actions SET roll = roll % 6 + 1 WHERE link = 4"),
        4,
        "does not match the seed",
    ),
    "time": (
        lambda db: db.execute("UPDATE actions SET at = '2020-01-01T00:00:00.000Z' WHERE link = 2"),
        2,
        "chain hash does not match",
    ),
    "order": (
        lambda db: db.executescript(
            "UPDATE actions SET link = -1 WHERE link = 3;"
            "UPDATE actions SET link = 3 WHERE link = 4;"
            "UPDATE actions SET link = 4 WHERE link = -1;"
        ),
        3,
        "its number is",
    ),
    "deleted action": (
        lambda db: db.execute("DELETE FROM actions WHERE link = 3"),
        3,
        "row 3 is missing",
    ),
    "deleted event": (
        lambda db: db.execute("DELETE FROM events WHERE link = 6"),
        None,
        "is not the logged one",
    ),
    "event winner": (flipped_winner, 6, "row 6 (event resign): its chain hash"),
    "event kind": (
        lambda db: db.execute("UPDATE events SET kind = 'award' WHERE link = 6"),
        6,
        "chain hash does not match",
    ),
    "event seat": (
        lambda db: db.execute("UPDATE events SET seat = 0 WHERE link = 6"),
        6,
        "chain hash does not match",
    ),
    "game winner": (
        lambda db: db.execute("UPDATE games SET winner = 1 - winner"),
        None,
        "is not the logged one",
    ),
    "commitment": (
        lambda db: db.execute("UPDATE games SET commitment = ?", ("ab" * 32,)),
        None,
        "does not match the dice commitment",
    ),
    "head": (
        lambda db: db.execute("UPDATE games SET last_hash = ?", ("cd" * 32,)),
        None,
        "not the published",
    ),
    # issue 13.10: record version 3 leaves no field outside the chain
    "result reason": (
        lambda db: db.execute("UPDATE games SET reason = 'Alice lost on time'"),
        None,
        "result reason is not the logged one",
    ),
    "created": (
        lambda db: db.execute("UPDATE games SET created_at = created_at - 3600"),
        1,
        "created time is not the start row's",
    ),
    "ended": (
        lambda db: db.execute("UPDATE games SET ended_at = ended_at + 3600"),
        None,
        "ended time is not the ending row's",
    ),
}


@pytest.fixture
async def finished(referee: Referee, store: Store) -> int:
    await start(referee, "atmalof")
    for actor, text in DROPS:
        assert (await play(referee, HERE, actor, text)).ok
    assert (await referee.resign(HERE, BOB)).ok
    g = await store.game(1)
    verdict = await check_stored(store, g)
    assert verdict.ok, verdict.reason
    return g.id


@pytest.mark.sqlite_only
@pytest.mark.parametrize("what", list(TAMPERING))
async def test_tampering_in_sqlite_is_caught_at_the_right_row(
    finished: int, store: Store, db_path: str, what: str
) -> None:
    edit, row, words = TAMPERING[what]
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        for trigger in TRIGGERS:
            db.execute(f"DROP TRIGGER {trigger}")
        edit(db)
    finally:
        db.close()
    g = await store.game(finished)
    verdict = await check_stored(store, g)
    assert not verdict.ok
    assert verdict.first_bad == row, verdict.reason
    assert words in verdict.reason, verdict.reason


async def test_verify_reports_the_head_and_the_store_agreeing(
    finished: int, referee: Referee, store: Store
) -> None:
    reply = await referee.verify(HERE)
    g = await store.game(finished)
    assert checks_out(reply) and reply.chain == g.last_hash
    assert f"head #{g.last_hash[:10]}" in reply.text
    assert "the game's row agrees with the log" in reply.text
    assert "coin toss" not in reply.text or "recomputed" in reply.text


UNREADABLE = {  # a stored value no record may hold: the verdict names it in the reader's language
    "row": (
        "UPDATE actions SET at = 'yesterday' WHERE link = 2",
        "at must be an ISO 8601 time",
        "Hiba: a napló 2. sora nem olvasható: a(z) at értéke ISO 8601 szerinti időpont lehet",
    ),
    "game": (
        "UPDATE games SET variant = ''",
        "variant must be 1 to 40 characters",
        "Hiba: a játszma sora nem olvasható: a(z) variant hossza 1 és 40 karakter között lehet",
    ),
}


@pytest.mark.sqlite_only
@pytest.mark.parametrize("what", list(UNREADABLE))
async def test_an_unreadable_stored_row_is_named_in_the_readers_language(
    finished: int, referee: Referee, db_path: str, what: str
) -> None:
    sql, english, hungarian = UNREADABLE[what]
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        for trigger in TRIGGERS:
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute(sql)
    finally:
        db.close()
    reply = await referee.verify(HERE)
    assert english in reply_words(reply, "en"), reply_words(reply, "en")
    for lang in ("hu", "eo", "is"):
        said = reply_words(reply, lang)
        assert english not in said and "cannot be read" not in said, (lang, said)
    hu = words("hu")  # the verdict a player reads, then what is wrong, for the moderators
    said = reply_words(reply, "hu").splitlines()
    assert said[:3] == [hu.t("verify.verdict_problem"), "", hu.t("verify.details_head")], said
    assert said[3].startswith(hungarian), said


@pytest.mark.sqlite_only
async def test_a_toss_the_log_does_not_hold_is_said_as_none_not_as_a_running_game(
    finished: int, referee: Referee, db_path: str
) -> None:
    """The start row of a game whose first mover was chosen has no toss: a toss written into
    the game's row later is named against the log's nothing, in every language (``logged``
    is the toss here, not a result, though a result problem has a param of that name)."""
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.execute("UPDATE games SET toss = 1")
    finally:
        db.close()
    reply = await referee.verify(HERE)
    english = reply_words(reply, "en")
    assert "the game shows coin toss 1, but the log has None" in english, english
    for lang in ("hu", "eo", "is"):
        said = reply_words(reply, lang)
        assert say(msg("verify.running"), lang) not in said, (lang, said)
        assert "None" in said, (lang, said)
