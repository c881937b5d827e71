"""Whole games through the referee on a real SQLite file, each to its end."""

from __future__ import annotations

import json
import random

import engine
from bot.console.format import reply_text
from bot.i18n import say
from bot.referee import Referee
from bot.referee.records import stored_record
from bot.store import SqliteStore, Store
from engine import Termination
from engine.record import verify
from tests.bot.conftest import (
    ALICE,
    BOB,
    HERE,
    checks_out,
    morris_mill,
    play,
    random_game,
    start,
)

PLAYERS = {ALICE.id: ALICE, BOB.id: BOB}


async def assert_cache_matches_log(store: Store, game_id: int) -> None:
    """The position kept on the game row is the replay of its stored log."""
    g = await store.game(game_id)
    assert g is not None
    rules = engine.get_game(g.game)
    state = rules.new(g.variant, **json.loads(g.options))
    for row in await store.actions(game_id):
        state = rules.apply(state, rules.parse(state, row.action), row.roll)
    assert rules.to_text(state) == g.position
    assert state.ply == g.ply


async def test_atmalof_random_games_end_and_verify(referee: Referee, store: Store) -> None:
    for seed in range(2):
        reply = await start(referee, "atmalof")
        end = await random_game(referee, HERE, PLAYERS, seed)
        g = await store.game(end.game_id)
        assert g.status == "finished"
        assert g.termination in (
            Termination.LINE,
            Termination.TIEBREAK,
            Termination.REPETITION,  # the referee's draws (issue 13.8)
            Termination.MOVE_LIMIT,
        )
        assert reply.game_id == g.id
        await assert_cache_matches_log(store, g.id)
        verdict = verify(await stored_record(store, g), head=g.last_hash)
        assert verdict.ok and verdict.rolls_checked, verdict.reason
        assert g.seed in end.text  # the seed is revealed at the end


async def test_atmalof_tiebreak_when_pieces_run_out(referee: Referee, store: Store) -> None:
    small = {"rows": 4, "cols": 4, "beyond_rows": 0, "beyond_cols": 0, "pieces": 4, "line": 4}
    terminations = set()
    for seed in range(6):
        await start(referee, "atmalof", variant="custom", options=small)
        end = await random_game(referee, HERE, PLAYERS, seed)
        terminations.add((await store.game(end.game_id)).termination)
    assert Termination.TIEBREAK in terminations


async def test_a_tiebreak_ending_says_what_each_side_counted(
    referee: Referee, store: Store
) -> None:
    small = {"rows": 4, "cols": 4, "beyond_rows": 0, "beyond_cols": 0, "pieces": 4, "line": 4}
    for seed in range(12):
        await start(referee, "atmalof", variant="custom", options=small)
        end = await random_game(referee, HERE, PLAYERS, seed)
        g = await store.game(end.game_id)
        if g.termination == Termination.TIEBREAK:
            break
    else:
        raise AssertionError("no random game ended by the tie-break")
    rules = engine.get_game("atmalof")
    state = rules.from_text(g.position)
    red, blue = (len(engine.atmalof.fours(state, side)) for side in (0, 1))
    counted = f"the tie-break count of lines of three: Red {red}, Blue {blue}"
    assert counted in end.text, end.text
    [result] = [line for line in end.lines if line.key == "board.game_over"]
    assert f"3 bábus sorok összeszámolása: Piros {red}, Kék {blue}" in say(result, "hu")
    # and why the counting began: the side that placed its last piece (it said only the count)
    (full,) = [side for side in (0, 1) if not state.hands[side]]
    side = ("Red", "Blue")[full]
    assert f"({side} has every piece on the board; {counted})" in end.text, end.text
    hu = ("Piros", "Kék")[full]
    assert f"{hu} minden bábuja a táblán van; 3 bábus" in say(result, "hu")


async def test_morris_and_abalone_random_games_reach_an_end(referee: Referee, store: Store) -> None:
    for game in ("morris", "abalone"):
        await start(referee, game, options={"move_limit": 30} if game == "abalone" else None)
        end = await random_game(referee, HERE, PLAYERS, seed=7)
        g = await store.game(end.game_id)
        assert g.status == "finished" and g.termination is not None
        await assert_cache_matches_log(store, g.id)
        assert checks_out(await referee.verify(HERE))


async def test_a_drop_is_announced_first_then_rolled(referee: Referee, store: Store) -> None:
    await start(referee)
    announced = await referee.act(HERE, ALICE, "drop row 4")
    assert announced.ok and announced.pending_roll
    g = await store.active_game(HERE.channel_id)
    assert g.pending == "drop row 4" and await store.actions(g.id) == []
    rolled = await referee.roll_pending(HERE)
    assert rolled.ok and "rolls" in rolled.text
    (row,) = await store.actions(g.id)
    assert row.action == "drop row 4" and 1 <= row.roll <= 6 and row.announced_at is not None


async def test_a_pending_roll_survives_a_restart(db_path: str, clock) -> None:
    store = await SqliteStore.open(db_path)
    referee = Referee(store, clock, render=False)
    await start(referee)
    assert (await referee.act(HERE, ALICE, "drop col 2")).pending_roll
    await store.close()  # the process "dies" before rolling
    store = await SqliteStore.open(db_path)
    try:
        referee = Referee(store, clock, render=False)
        shown = await referee.board(HERE)
        assert "rolls" in shown.text and shown.mentions == [BOB.id]
        assert len(await store.actions(shown.game_id)) == 1
    finally:
        await store.close()


async def test_morris_mill_asks_for_a_removal(referee: Referee) -> None:
    mill = await morris_mill(referee)
    assert "alice (White) to remove one of Black's men with `/remove`: a1, d1." in mill.text
    assert mill.mentions == [ALICE.id]
    refused = await play(referee, HERE, BOB, "place b6")
    assert not refused.ok and refused.ephemeral
    done = await play(referee, HERE, ALICE, "remove a1")
    assert done.ok and done.mentions == [BOB.id]


async def test_morris_mill_and_removal_in_one_command(referee: Referee) -> None:
    await start(referee, "morris")
    for actor, text in [(ALICE, "place a7"), (BOB, "place a1"), (ALICE, "place d7"),
                        (BOB, "place d1")]:  # fmt: skip
        await play(referee, HERE, actor, text)
    both = await play(referee, HERE, ALICE, "place g7 x a1")
    assert both.ok and both.mentions == [BOB.id]


def _until_a_side_may_fly(seed: int = 0) -> list[str]:
    """Random Morris actions, each the engine's notation, up to the first after which a side
    is down to three men and may fly (the engine's ``Effect.flies``)."""
    rules = engine.get_game("morris")
    for attempt in range(seed, seed + 500):
        rng = random.Random(attempt)
        state, said = rules.new("standard"), []
        while rules.result(state) is None:
            action = rng.choice(rules.legal(state))
            after = rules.apply(state, action)
            said.append(rules.notation(state, action))
            if rules.effect(state, action, None, after).flies is not None:
                return said
            state = after
    raise AssertionError("no random game left a side three men")


async def test_a_morris_side_down_to_three_men_is_told_it_may_fly(referee: Referee) -> None:
    await start(referee, "morris")
    rules = engine.get_game("morris")
    state = rules.new("standard")
    actions = _until_a_side_may_fly()
    for n, text in enumerate(actions, 1):
        mover = state.to_move
        reply = await play(referee, HERE, (ALICE, BOB)[mover], text)
        assert reply.ok, reply.text
        state = rules.apply(state, rules.parse(state, text))
        flying = [line for line in reply.lines if line.key == "notice.may_fly"]
        assert bool(flying) == (n == len(actions)), (text, reply.text)
    three = 1 - mover  # the last action took the man that left the other side three
    name = ("alice (White)", "bob (Black)")[three]
    assert f"{name} is down to three men and may now fly" in reply.text, reply.text
    assert bin(state.men[three]).count("1") == 3 and not state.hand[three]


async def test_no_flying_notice_where_flying_is_off(referee: Referee) -> None:
    await start(referee, "morris", options={"flying": "off"})
    rules = engine.get_game("morris")
    state = rules.new("standard", flying="off")
    for text in _until_a_side_may_fly():  # the same actions: nobody had three men before
        reply = await play(referee, HERE, (ALICE, BOB)[state.to_move], text)
        assert reply.ok and "may now fly" not in reply.text, reply.text
        state = rules.apply(state, rules.parse(state, text))
    assert 3 in (bin(state.men[0]).count("1"), bin(state.men[1]).count("1"))


async def test_a_position_standing_for_the_second_time_is_told_before_it_draws(
    referee: Referee,
) -> None:
    """Both sides step a marble out and back: from the fourth move each position stands for
    the second time, and the replies say a third time draws; the eighth draws."""
    await start(referee, "abalone")  # alice is Black and moves first
    shuffle = ("push b1 ne", "push g5 se", "push c2 sw", "push f5 nw")
    said = []
    for n, text in enumerate(shuffle * 2):
        reply = await play(referee, HERE, (ALICE, BOB)[n % 2], text)
        assert reply.ok, reply.text
        said.append(any(line.key == "notice.repeated" for line in reply.lines))
    assert said == [False] * 3 + [True] * 4 + [False], said
    assert "a draw" in reply.text.lower(), reply.text  # the eighth: the third time
    again = (await referee.history(HERE)).text
    assert "stood twice" not in again  # a warning, not part of the record's lines


async def test_restart_in_the_middle_of_a_game(db_path: str, clock) -> None:
    store = await SqliteStore.open(db_path)
    referee = Referee(store, clock, render=False)
    await start(referee, "abalone")
    first = (await referee.legal_for(HERE, ALICE))[0]
    assert (await play(referee, HERE, ALICE, first)).ok
    await store.close()
    store = await SqliteStore.open(db_path)
    try:
        referee = Referee(store, clock, render=False)  # a new process: empty caches
        assert not (await play(referee, HERE, ALICE, first)).ok  # not her turn any more
        reply = await play(referee, HERE, BOB, (await referee.legal_for(HERE, BOB))[0])
        assert reply.ok and reply.mentions == [ALICE.id]
        await assert_cache_matches_log(store, reply.game_id)
    finally:
        await store.close()


async def test_the_record_names_the_installed_verify_command(referee: Referee) -> None:
    """Issue 12.26: the hint works wherever the package is installed, not only in the repo;
    it names the file sent with it, so it has no English word in it ("FILE"). The reply says
    how to check it as data (the checker and the file); each front end words it: Discord's
    /import with the file sent, the console's own `import <path>` with the path it prints."""
    started = await start(referee)
    reply = await referee.record(HERE)
    name = f"game-{started.game_id}.json"
    assert reply.file_name == name
    (line,) = reply.lines
    assert line.params == {"id": started.game_id, "program": "referee-verify", "file": name}
    assert reply.text.endswith(
        f"Check it here with `/import` and this file, or on a computer with: "
        f"`referee-verify {name}`"
    )
    typed = await referee.handle(HERE, ALICE, "record")  # the console's own words
    assert reply_text(typed).startswith(
        f"The record of game {started.game_id} (the dice seed is added when the game ends), in "
        "the file below. Check it at this table with `import <path>`, or in a shell with: "
        "`referee-verify <path>`"
    )
    assert "/import" not in reply_text(typed)
