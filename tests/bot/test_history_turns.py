"""A Morris mill and its removal are one move for players, however they were typed: typed
apart ("place g7", then "remove b6": two log rows) or joined ("place g7 x b6": one), /history
lists one numbered row, and the board's "Move N" says the same number. The log and the record
keep what was typed (two actions or one), chained and verified as before."""

from __future__ import annotations

import re

from bot.clock import ManualClock
from bot.i18n import say
from bot.referee import Referee
from bot.referee.replies import Reply, Where
from bot.store import Store
from engine.record import Record, verify
from tests.bot.conftest import ALICE, BOB, HERE, MOD, THERE, start

OPENING = ((ALICE, "place a7"), (BOB, "place b6"), (ALICE, "place d7"), (BOB, "place d6"))
AFTER = ((BOB, "place f4"), (ALICE, "place a1"))  # a7 d7 g7: White's mill takes b6


async def played(referee: Referee, where: Where, *turns: tuple[object, str]) -> Reply:
    reply = None
    for who, command in turns:
        reply = await referee.act(where, who, command)  # type: ignore[arg-type]
        assert reply.ok, reply.text
    assert reply is not None
    return reply


def moves(reply: Reply, lang: str = "en") -> list[str]:
    """The numbered rows of a /history reply, said in ``lang``."""
    return [say(line, lang) for line in reply.lines if line.params.get("seq") is not None]


def numbers(reply: Reply) -> list[int]:
    return [line.params["seq"] for line in reply.lines if line.params.get("seq") is not None]


def footer_move(reply: Reply) -> int:
    """The move number the board's picture shows, as its alt text says it."""
    found = re.search(r"after (\d+) moves?\.", reply.alt_text or "")
    assert found, reply.alt_text
    return int(found.group(1))


async def test_a_mill_typed_apart_or_joined_is_one_row_of_the_history(
    store: Store, clock: ManualClock
) -> None:
    referee = Referee(store, clock, render=lambda view: b"png")
    await start(referee, "morris", HERE)
    await start(referee, "morris", THERE)
    await played(referee, HERE, *OPENING, (ALICE, "place g7"), (ALICE, "remove b6"))
    await played(referee, THERE, *OPENING, (ALICE, "place g7 x b6"))
    apart, joined = await referee.history(HERE), await referee.history(THERE)
    for lang in ("en", "eo", "hu", "is"):
        assert moves(apart, lang) == moves(joined, lang), lang
    said = moves(apart)
    assert [re.sub(r" \(.*", "", line) for line in said] == [
        "1. White: place a7",
        "2. Black: place b6",
        "3. White: place d7",
        "4. Black: place d6",
        "5. White: place g7 x b6",
    ]
    # the moves after it are numbered on from 6 alike, and the board counts as the history
    last_apart = await played(referee, HERE, *AFTER)
    last_joined = await played(referee, THERE, *AFTER)
    apart, joined = await referee.history(HERE), await referee.history(THERE)
    assert moves(apart) == moves(joined) and numbers(apart) == [1, 2, 3, 4, 5, 6, 7]
    assert "6. Black: place f4" in said_text(apart) and "7. White: place a1" in said_text(apart)
    assert footer_move(last_apart) == footer_move(last_joined) == 7
    # the log keeps what was typed: two actions apart, one joined, each record verified
    split = await referee.record(HERE)
    one = await referee.record(THERE)
    assert split.file is not None and one.file is not None
    split_record, one_record = Record.from_json(split.file), Record.from_json(one.file)
    assert [a.notation for a in split_record.actions][4:6] == ["place g7", "remove b6"]
    assert [a.notation for a in one_record.actions][4] == "place g7 x b6"
    assert (len(split_record.actions), len(one_record.actions)) == (8, 7)
    assert verify(split_record).ok and verify(one_record).ok


def said_text(reply: Reply) -> str:
    return "\n".join(moves(reply))


async def test_while_the_removal_is_owed_the_mill_is_the_latest_move(
    store: Store, clock: ManualClock
) -> None:
    """Between the mill and the removal the history already lists the mill's move, and the
    removal then completes that row: the numbering does not move on."""
    referee = Referee(store, clock, render=lambda view: b"png")
    await start(referee, "morris")
    owed = await played(referee, HERE, *OPENING, (ALICE, "place g7"))
    assert footer_move(owed) == 5
    waiting = await referee.history(HERE)
    assert numbers(waiting) == [1, 2, 3, 4, 5]
    assert moves(waiting)[-1].startswith("5. White: place g7 (")
    removed = await played(referee, HERE, (ALICE, "remove b6"))
    assert footer_move(removed) == 5
    assert moves(await referee.history(HERE))[-1].startswith("5. White: place g7 x b6 (")


async def test_a_takeback_undoes_the_whole_mill_and_the_numbering_goes_back(
    referee: Referee,
) -> None:
    """A takeback never leaves a mill without its removal in the history: after the removal
    it undoes the turn's two actions; before it, the mill's move alone (nothing else is
    there). Either way the next move is numbered 5 again."""
    await start(referee, "morris")
    await played(referee, HERE, *OPENING, (ALICE, "place g7"), (ALICE, "remove b6"))
    assert (await referee.request_takeback(HERE, ALICE)).ok
    undone = await referee.answer_takeback(HERE, BOB, True)
    assert undone.ok, undone.text
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.seq == 4  # both actions of the turn
    assert numbers(await referee.history(HERE)) == [1, 2, 3, 4]
    await played(referee, HERE, (ALICE, "place g7"))  # the mill again, its removal owed
    assert (await referee.request_takeback(HERE, ALICE)).ok
    assert (await referee.answer_takeback(HERE, BOB, True)).ok
    assert numbers(await referee.history(HERE)) == [1, 2, 3, 4]
    await played(referee, HERE, (ALICE, "place g7 x b6"), (BOB, "place f4"))
    said = moves(await referee.history(HERE))
    assert said[4].startswith("5. White: place g7 x b6 (") and said[5].startswith("6. Black")


async def test_a_restore_between_a_mill_and_its_removal_leaves_the_mill_owed(
    referee: Referee,
) -> None:
    """A moderator's restore counts log actions (the record's numbers): restored to the
    action before the removal, the history shows the mill's move with its removal owed, and
    the removal played again completes that row."""
    await start(referee, "morris")
    await played(referee, HERE, *OPENING, (ALICE, "place g7"), (ALICE, "remove b6"), *AFTER)
    restored = await referee.restore(HERE, MOD, 5, "agreed")
    assert restored.ok, restored.text
    assert moves(await referee.history(HERE))[-1].startswith("5. White: place g7 (")
    await played(referee, HERE, (ALICE, "remove d6"), (BOB, "place f4"))
    said = moves(await referee.history(HERE))
    assert said[4].startswith("5. White: place g7 x d6 (") and said[5].startswith("6. Black")
