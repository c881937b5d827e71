"""What players read in the referee's replies: options, flag falls, takebacks, words."""

from __future__ import annotations

import io
import json
import random

import engine
import engine.ai
from bot import texts
from bot.clock import ManualClock
from bot.console.table import ConsoleTable
from bot.i18n import say
from bot.ladder.ratings import PROVISIONAL_NOTE
from bot.referee import Referee
from bot.referee.boards import BoardView
from bot.referee.replies import Actor, ButtonKind, Reply
from bot.store import Store
from engine.abalone import marble_at
from tests.bot.conftest import ALICE, BOB, HERE, MOD, THERE, start


async def test_options_changed_from_the_defaults_are_shown_before_and_during_the_game(
    referee: Referee,
) -> None:
    options = {"no_remill": True, "flying": False}
    made = await referee.challenge(
        HERE, ALICE, "morris", opponent=BOB, options=options, clock="10+5"
    )
    assert "Not the defaults: flying=off, no_remill=on." in made.text
    assert "to Nine Men's Morris, casual, 10 min each + 5 s a move;" in made.text, made.text
    started = await referee.accept(HERE, BOB)
    shown = "Not the defaults: flying=off, no_remill=on. Clock: 10 min each + 5 s a move."
    assert shown in started.text
    assert shown in (await referee.board(HERE)).text
    assert shown in (await referee.record(HERE)).text


async def test_a_game_on_the_defaults_says_nothing_about_options(referee: Referee) -> None:
    started = await start(referee, "abalone")
    assert "Not the defaults" not in started.text
    assert "Not the defaults" not in (await referee.board(HERE)).text


async def test_a_custom_atmalof_board_is_named_with_its_sizes(referee: Referee) -> None:
    options = {"rows": 5, "cols": 5, "beyond_rows": 0, "beyond_cols": 0, "pieces": 8, "line": 4}
    started = await start(referee, "atmalof", variant="custom", options=options)
    assert "rows=5" in started.text and "line=4" in started.text and "pieces=8" in started.text


async def test_the_picture_counts_a_morris_move_with_its_removal_once_as_history_does(
    store: Store, clock: ManualClock
) -> None:
    seen: list[BoardView] = []

    def capture(view: BoardView) -> bytes:
        seen.append(view)
        return b"png"

    referee = Referee(store, clock, render=capture)
    await start(referee, "morris")
    for who, command in ((ALICE, "place a7"), (BOB, "place b6"), (ALICE, "place d7"),
                         (BOB, "place d6"), (ALICE, "place g7 x b6")):  # fmt: skip
        assert (await referee.act(HERE, who, command)).ok
    reply = await referee.act(HERE, BOB, "place b6")
    history = (await referee.history(HERE)).text.splitlines()
    listed = [line for line in history if line[:1].isdigit()]
    assert len(listed) == 6 and seen[-1].state.ply == 7  # the engine's ply counts the removal
    assert "after 6 moves" in reply.alt_text


async def test_rated_games_never_take_back_a_move(referee: Referee) -> None:
    await start(referee, "morris", rated=True)
    assert (await referee.act(HERE, ALICE, "place d7")).ok
    refused = await referee.request_takeback(HERE, ALICE)
    assert refused.refused and refused.text == texts.NO_TAKEBACK_RATED


async def test_a_server_setting_turns_takebacks_off_even_for_a_request_already_made(
    referee: Referee,
) -> None:
    await start(referee, "morris")
    assert (await referee.act(HERE, ALICE, "place d7")).ok
    asked = await referee.request_takeback(HERE, ALICE)
    assert asked.ok and asked.buttons
    assert not (await referee.set_setting(HERE, ALICE, "takebacks", False)).ok  # not a mod
    assert (await referee.set_setting(HERE, MOD, "takebacks", False)).ok
    late = await referee.answer_takeback(HERE, BOB, True)
    assert late.refused and late.text == texts.NO_TAKEBACK_HERE
    refused = await referee.request_takeback(HERE, ALICE)
    assert refused.refused and refused.text == texts.NO_TAKEBACK_HERE
    assert (await referee.set_setting(HERE, MOD, "takebacks", True)).ok
    assert (await referee.answer_takeback(HERE, BOB, True)).ok  # casual, by consent


NARROW = {"rows": 5, "cols": 3, "beyond_rows": 0, "beyond_cols": 0, "pieces": 6, "line": 4}


async def fill_row_one(referee: Referee) -> tuple[Actor, Reply]:
    """Both players drop into row 1 until it is full; (the player to move, the question)."""
    players = (ALICE, BOB)
    for turn in range(60):
        mover = players[turn % 2]
        reply = await referee.act(HERE, mover, "drop row 1")
        if reply.buttons:
            return mover, reply
        assert reply.ok and reply.pending_roll, reply.text
        assert (await referee.roll_pending(HERE)).ok
    raise AssertionError("row 1 never filled")


async def test_a_drop_into_a_full_line_asks_first_and_stores_nothing(
    referee: Referee, store: Store
) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, asked = await fill_row_one(referee)
    assert asked.refused and not asked.pending_roll  # private; nothing changed
    assert "can only lose your turn" in asked.text
    kinds = [b.kind for b in asked.buttons]
    assert kinds == [ButtonKind.DROP_CONFIRM, ButtonKind.DROP_CANCEL]
    assert asked.buttons[0].typed == "drop row 1 confirm"
    g = await store.game(asked.game_id)
    assert g.pending is None and g.version == asked.version
    cancel = await referee.press(HERE, mover, asked.buttons[1].custom_id)
    assert cancel.ok and cancel.ephemeral
    assert (await store.game(g.id)).version == g.version
    confirmed = await referee.press(HERE, mover, asked.buttons[0].custom_id)
    assert confirmed.ok and confirmed.pending_roll and not confirmed.ephemeral
    assert "loses the turn" in confirmed.text
    rolled = await referee.roll_pending(HERE)
    assert rolled.ok and "loses the turn" in rolled.text


async def test_moves_marks_the_drops_that_can_only_lose_the_turn(referee: Referee) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, _ = await fill_row_one(referee)
    listed = await referee.handle(HERE, mover, "moves")
    listing = listed.lines[1].params["text"]
    assert listed.ok and "drop row 1" in listing  # still legal
    if "move " in listing:  # moves hold commas ("move 1,2 2,2"): semicolons between them
        assert "; move " in listing and ", move " not in listing
    else:  # the dice gave the other side all of row 1: no piece to step, only drops
        assert ";" not in listing and ", drop " in listing
    marked = listed.lines[-1]
    assert marked.key == "console.moves_futile" and marked.params["moves"] == "drop row 1"
    assert listed.text.endswith(
        "These can only lose the turn, as every square their die reaches is taken: drop row 1"
    )
    drops = await referee.handle(HERE, mover, "legal drop row")
    assert drops.lines[-1].params["moves"] == "drop row 1"
    columns = await referee.handle(HERE, mover, "legal drop col")
    assert columns.ok, columns.text
    assert columns.lines[-1].key != "console.moves_futile"  # none of these is hopeless


async def test_the_console_confirms_a_hopeless_drop_by_typing_confirm(referee: Referee) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, asked = await fill_row_one(referee)
    stale = asked.buttons[0].custom_id
    typed = await referee.handle(HERE, mover, "drop row 1 confirm")
    assert typed.ok and typed.pending_roll
    assert (await referee.roll_pending(HERE)).ok
    assert (await referee.press(HERE, mover, stale)).refused  # the game has moved on


async def test_an_imported_forged_record_shows_the_verdict_first_and_says_what_is_drawn(
    store: Store, clock: ManualClock
) -> None:
    seen: list[BoardView] = []

    def capture(view: BoardView) -> bytes:
        seen.append(view)
        return b"png"

    referee = Referee(store, clock, render=capture)
    await start(referee, "morris")
    assert (await referee.act(HERE, ALICE, "place d7")).ok
    assert (await referee.resign(HERE, BOB)).ok
    data = (await referee.record(HERE)).file
    good = await referee.import_record(HERE, data, name="good.json")
    # the verdict, whether the file is the game stored here, then the details
    first, here, blank, head, summary = good.text.splitlines()[:5]
    assert (first, blank, head) == (
        "Every move checks out. No dice were rolled in this game, not even a coin toss; its "
        "revealed seed matches its commitment.",
        "",
        "Details, for moderators:",
    )
    assert here.startswith("This is game 1 of this server: its dice commitment"), here
    assert summary.startswith("Verified: Nine Men's Morris, 1 action, 3 log rows"), summary
    assert "Imported good.json: Nine Men's Morris, " in good.text
    assert "Shown: the position after the record's 1 action: alice (White) wins" in good.text
    assert seen[-1].outcome is not None and seen[-1].outcome.winner == 0
    record = json.loads(data)
    record["log"][-1]["note"]["winner"] = 1  # bob resigned, yet bob wins
    record["result"]["winner"] = 1
    forged = await referee.import_record(HERE, json.dumps(record).encode(), name="forged.json")
    first, here, _, _, problem = forged.text.splitlines()[:5]
    assert (
        first
        == "Something in this game's record does not check out: a moderator should look at it."
    )
    assert problem.startswith("Problem:"), forged.text
    assert here.startswith("This is not this server's game 1"), here
    assert "Read forged.json, which does not verify: Nine Men's Morris, " in forged.text
    assert "Imported" not in forged.text  # not a word of success after the problem
    assert "stated result (bob (Black) wins" in forged.text and "not drawn" in forged.text
    assert seen[-1].outcome is None  # the picture claims no winner the check did not confirm


async def test_a_takeback_names_the_turn_in_the_words_its_reply_used(referee: Referee) -> None:
    await start(referee, "abalone")
    moved = await referee.act(HERE, ALICE, "push c3 a1 ne")  # typed front end first
    said = moved.text.splitlines()[0].rstrip(".")
    assert said == "alice (Black) moves a1-c3 north-east"
    asked = await referee.request_takeback(HERE, ALICE)
    assert f"asks for a takeback, which would undo: {said}." in asked.text
    assert "push a1 c3 ne" not in asked.text  # not the canonical notation, in another order
    done = await referee.answer_takeback(HERE, BOB, True)
    assert done.text.startswith(f"bob allows the takeback. Undone: {said}."), done.text


async def test_history_marks_the_drops_that_lost_the_turn(referee: Referee) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, _ = await fill_row_one(referee)
    assert (await referee.act(HERE, mover, "drop row 1 confirm")).pending_roll
    assert (await referee.roll_pending(HERE)).ok  # a full line: this drop surely lost the turn
    lines: list[str] = []
    for page in range(9, 0, -1):  # every page, the first moves first (page 1: the latest)
        lines += (await referee.history(HERE, page)).text.splitlines()
    drops = list(dict.fromkeys(line for line in lines if ", rolled " in line))
    lost = [line for line in drops if "the square was taken, the turn lost" in line]
    assert len(drops) - len(lost) == 3  # three pieces filled row 1's three squares
    assert lost[-1] == drops[-1]


async def test_a_result_line_says_who_won_once(referee: Referee) -> None:
    """ "Game over: bob (Black) wins (alice (White) has two men left)", not "... wins (...: Black
    wins)"; a draw's reason does not end in "a draw" again."""
    rng = random.Random(3)
    for game in ("morris", "morris", "abalone"):
        await start(referee, game, options={"move_limit": 20} if game == "abalone" else None)
        players = {ALICE.id: ALICE, BOB.id: BOB}
        for _ in range(600):
            g = await referee.store.active_game(HERE.channel_id)
            if g is None:
                break
            state = await referee.ctx.state(g)
            mover = players[g.players[state.to_move]]
            reply = await referee.act(HERE, mover, rng.choice(await referee.legal_for(HERE, mover)))
            assert reply.ok, reply.text
        (line,) = [x for x in reply.text.splitlines() if x.startswith("Game over")]
        assert line.count(" wins") + line.count("a draw") == 1, line


async def test_the_question_mark_of_a_provisional_rating_is_explained(referee: Referee) -> None:
    await start(referee, "morris", rated=True)
    assert (await referee.act(HERE, ALICE, "place d7")).ok
    assert (await referee.act(HERE, BOB, "place d1")).ok
    ended = await referee.resign(HERE, BOB)
    # the result says it short: on a small server every result for weeks repeated the note
    assert ended.text.endswith("bob 1500? → 1338? (-162)\n(? = provisional)"), ended.text
    assert PROVISIONAL_NOTE not in ended.text
    ladder = await referee.ladder(HERE, ALICE, "morris", include_provisional=True)
    assert "?" in ladder.text and '"?" marks a provisional rating' in ladder.text
    stats = await referee.stats(HERE, ALICE)
    assert "?" in stats.text and PROVISIONAL_NOTE in stats.text


async def test_only_atmalof_speaks_of_checking_every_roll(referee: Referee) -> None:
    for game in ("morris", "abalone"):
        made = await referee.challenge(HERE, ALICE, game, opponent=BOB)  # a coin toss
        assert made.ok
        started = await referee.accept(HERE, BOB)
        assert "to check the coin toss." in started.text and "every roll" not in started.text
        ended = await referee.resign(HERE, ALICE)
        assert "check the coin toss, this game's only roll" in ended.text
        assert "every roll" not in ended.text
    started = await start(referee, "atmalof")
    assert "to check every roll." in started.text
    await start(referee, "atmalof", where=THERE)
    assert "nothing was rolled" in (await referee.resign(THERE, ALICE)).text  # dice unused


async def test_a_game_that_never_rolls_shows_no_dice_commitment(referee: Referee) -> None:
    """Morris with a chosen starter rolls nothing, not even a coin: no commitment is shown
    at the challenge or the start, and no seed at the end (the record still has both)."""
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="me")
    started = await referee.accept(HERE, BOB)
    ended = await referee.resign(HERE, ALICE)
    for reply in (made, started, ended):
        assert reply.ok and "Dice" not in reply.text and "seed" not in reply.text, reply.text
    g = await referee.store.game(ended.game_id)
    assert g is not None and g.commitment and g.rolls == 0 and g.toss is None
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB)  # a coin toss
    assert "Dice commitment" in made.text


async def test_the_console_shows_a_fallen_flag_as_news_not_as_a_refusal(
    referee: Referee, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    clock.advance(61)
    late = await referee.act(HERE, ALICE, "place d7")
    assert not late.ok and late.public and not late.refused
    out = io.StringIO()
    ConsoleTable(referee, out, None).show(late)
    shown = out.getvalue()
    assert "(refused)" not in shown and "[private]" not in shown
    assert "alice's command came after White's flag fell" in shown and "Game over" in shown


async def test_an_agreed_draw_is_not_called_a_draw_twice(referee: Referee) -> None:
    """ "Game over: a draw (drawn by agreement)" said it twice; the reason says who agreed."""
    await start(referee, "morris")
    assert (await referee.offer_draw(HERE, ALICE)).ok
    done = await referee.answer_draw(HERE, BOB, True)
    (over,) = [line for line in done.text.splitlines() if line.startswith("Game over:")]
    assert over.lower().count("draw") == 1 and "agreed" in over, over


async def test_nonsense_out_of_turn_is_called_nonsense_not_the_wrong_turn(
    referee: Referee,
) -> None:
    """ "bob: frobnicate" while alice is to move: the command is the problem, not the turn."""
    await start(referee, "morris")
    nonsense = await referee.act(HERE, BOB, "frobnicate")  # no game's move word
    assert nonsense.refused and nonsense.reason == "unknown_command", nonsense.text
    assert "turn" not in nonsense.text
    misread = await referee.act(HERE, BOB, "place")  # a move word of this game, incomplete
    assert misread.refused and "expected: place <point>" in misread.text, misread.text
    assert "turn" not in misread.text
    early = await referee.act(HERE, BOB, "place d7")  # a real move, only not bob's turn
    assert early.refused and "alice (White) is to move, not you" in early.text


async def test_history_marks_a_push_that_puts_marbles_off(referee: Referee) -> None:
    """Each side plays the push that puts a marble off when it has one, else the practice
    bot's choice, until one does: history names it, with how many and whose."""
    await start(referee, "abalone")
    rules = engine.get_game("abalone")
    people = {ALICE.id: ALICE, BOB.id: BOB}
    for _ in range(400):
        g = await referee.store.active_game(HERE.channel_id)
        assert g is not None
        state = await referee.ctx.state(g)
        mover = people[g.players[state.to_move]]
        actions = rules.legal(state)
        off = [a for a in actions if rules.effect(state, a, None, rules.apply(state, a)).pushed_off]
        action = off[0] if off else engine.ai.choose("abalone", state, 2, g.seq, nodes=150)
        assert (await referee.act(HERE, mover, rules.notation(state, action))).ok
        if off:
            break
    else:
        raise AssertionError("no marble was pushed off")
    latest = (await referee.history(HERE)).lines[-1]
    side, other = rules.side_names[state.to_move], rules.side_names[1 - state.to_move]
    time = latest.params["time"]
    gone = rules.effect(state, action, None, rules.apply(state, action)).off_from
    assert gone is not None and marble_at(state, gone) == 1 - state.to_move  # theirs stood there
    named = f"pushing the {other} marble on {gone} off"
    said = f"{g.seq + 1}. {side}: {rules.notation(state, action)}, {named}"
    assert latest.key == "history.pushed_off" and say(latest) == f"{said} ({time} UTC)"
