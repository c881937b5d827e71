"""Challenges, refusals, endings, clocks and moderators, as issue 4 lists them."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.records import check_stored, stored_record
from bot.referee.replies import ButtonKind, Where
from bot.store import Store
from engine import Termination, dice
from engine.record import verify
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    HERE,
    MOD,
    THERE,
    both_act,
    checks_out,
    play,
    start,
    swept,
)

THREAD = Where(guild_id=1, channel_id=12, parent_id=10)


# --- challenges ---------------------------------------------------------------------------


async def test_a_challenge_offers_accept_and_decline_buttons(referee: Referee) -> None:
    reply = await referee.challenge(HERE, ALICE, "morris", opponent=BOB)
    assert reply.ok and reply.mentions == [BOB.id]
    kinds = [b.kind for b in reply.buttons]
    assert kinds == [ButtonKind.ACCEPT, ButtonKind.DECLINE]
    assert reply.buttons[0].custom_id == f"ref:accept:{reply.challenge_id}:0"


async def test_an_open_challenge_is_accepted_by_anyone(referee: Referee, store: Store) -> None:
    await referee.challenge(HERE, ALICE, "abalone", starter="them")
    reply = await referee.accept(HERE, CAROL)
    assert reply.ok
    g = await store.game(reply.game_id)
    assert g.players == (CAROL.id, ALICE.id)  # "them" moves first


async def test_only_the_challenged_player_may_accept(referee: Referee) -> None:
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)
    for actor, reason in [(CAROL, "for bob"), (ALICE, "your own")]:
        reply = await referee.accept(HERE, actor)
        assert not reply.ok and reply.ephemeral and reason in reply.text


async def test_decline_and_withdraw(referee: Referee) -> None:
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)
    assert "declined" in (await referee.decline(HERE, BOB)).text
    assert not (await referee.accept(HERE, BOB)).ok
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)
    assert "withdrew" in (await referee.decline(HERE, ALICE)).text


async def test_a_challenge_expires_after_ten_minutes(referee: Referee, clock: ManualClock) -> None:
    made = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)
    clock.advance(601)
    reply = await referee.accept(HERE, BOB)
    assert not reply.ok and "expired" in reply.text
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)
    clock.advance(601)
    notices = await swept(referee)
    assert [n.where.channel_id for n in notices] == [HERE.channel_id]
    assert "expired" in notices[0].reply.text and notices[0].reply.challenge_id != made.challenge_id


async def test_one_game_per_channel_but_threads_run_side_by_side(referee: Referee) -> None:
    await start(referee)
    busy = await referee.challenge(HERE, CAROL, "morris", opponent=BOB)
    assert not busy.ok and busy.ephemeral and "busy" in busy.text
    assert (await start(referee, "morris", where=THREAD)).ok
    assert (await start(referee, "abalone", where=THERE, first=CAROL, second=ALICE)).ok


async def test_a_thread_shows_its_channels_game_but_nobody_plays_it_there(
    referee: Referee, store: Store
) -> None:
    """A thread with no game of its own reads its channel's game (/board, /history: a dispute's
    thread shows the disputed game), but its players' moves, offers and resignations there
    never reach that game: they are refused and the game is as it was."""
    started = await start(referee, "morris")
    before = await store.game(started.game_id)
    shown = await referee.board(THREAD)
    assert shown.ok and shown.game_id == started.game_id, shown.text
    for attempt in (
        referee.act(THREAD, ALICE, "place d7"),
        referee.resign(THREAD, ALICE),
        referee.offer_draw(THREAD, ALICE),
        referee.abort(THREAD, BOB),
    ):
        refused = await attempt
        assert not refused.ok and refused.game_id != started.game_id, refused.text
    after = await store.game(started.game_id)
    assert (after.status, after.seq, after.version, after.draw_offer) == (
        "active",
        before.seq,
        before.version,
        None,
    )
    assert (await play(referee, HERE, ALICE, "place d7")).ok  # in its channel, it is played


async def test_bad_challenges_are_refused_with_reasons(referee: Referee) -> None:
    cases = [
        dict(game="chess", opponent=BOB),
        dict(game="atmalof", opponent=ALICE),
        dict(game="atmalof", opponent=BOB, variant="huge"),
        dict(game="atmalof", opponent=BOB, clock="forever"),
        dict(game="morris", opponent=BOB, options={"wings": True}),
    ]
    for case in cases:
        game = case.pop("game")
        reply = await referee.challenge(HERE, ALICE, game, **case)
        assert not reply.ok and reply.ephemeral and reply.text


async def test_the_coin_toss_is_a_verifiable_roll(referee: Referee, store: Store) -> None:
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)  # starter: random
    reply = await referee.accept(HERE, BOB)
    g = await store.game(reply.game_id)
    assert "Coin toss" in reply.text and g.toss in (1, 2)
    assert dice.roll(g.seed, str(g.id), 0, "coin toss", 2, g.dice_mix) == g.toss  # mixed: v3
    assert g.players[0] == (ALICE.id if g.toss == 1 else BOB.id)
    await referee.resign(HERE, ALICE)
    assert "coin toss: recomputed" in (await referee.verify(HERE)).text


async def test_a_rated_game_says_so_as_it_starts(referee: Referee) -> None:
    rated = await start(referee, "morris", rated=True)
    before = await referee.resign(HERE, ALICE)  # nothing played yet: /abort, not a result
    assert before.reason == "resign_before_moving" and not before.finished
    await both_act(referee, HERE, ALICE, BOB)
    assert "Rated: the result counts on this server's ladder." in rated.text
    await referee.resign(HERE, ALICE)
    casual = await start(referee, "morris")
    assert "Rated" not in casual.text


async def test_a_rated_games_second_player_cannot_resign_before_acting_either(
    referee: Referee, store: Store
) -> None:
    """Each player's own first action counts, not the game's: after alice's move bob, who has
    not acted, is refused (a result would move two ratings for a game he never played) and
    may abort it, unrated."""
    started = await start(referee, "morris", rated=True)
    moves = await referee.legal_for(HERE, ALICE)
    assert (await play(referee, HERE, ALICE, moves[0])).ok
    refused = await referee.resign(HERE, BOB)
    assert refused.reason == "resign_before_moving" and not refused.finished, refused.text
    g = await store.game(started.game_id)
    assert g.status == "active" and g.draw_offer is None
    aborted = await referee.abort(HERE, BOB)
    assert aborted.finished, aborted.text
    assert (await store.game(started.game_id)).termination == Termination.ABORTED.value


async def test_a_rematch_swaps_who_starts(referee: Referee, store: Store) -> None:
    await start(referee)
    ended = await referee.resign(HERE, BOB)
    assert [b.kind for b in ended.buttons] == [ButtonKind.REMATCH]
    asked = await referee.press(HERE, BOB, ended.buttons[0].custom_id)
    assert asked.ok and asked.mentions == [ALICE.id]
    again = await referee.rematch(HERE, ALICE)  # the other player's rematch accepts
    g = await store.game(again.game_id)
    assert g.players == (BOB.id, ALICE.id) and g.rematch_of == ended.game_id


async def test_the_challengers_abort_withdraws_the_waiting_challenge(
    referee: Referee, store: Store
) -> None:
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB)
    assert made.ok, made.text
    other = await referee.abort(HERE, BOB)  # the challenged player answers with decline
    assert other.refused and other.reason == "challenge_not_accepted", other.text
    assert await store.open_challenge(HERE.channel_id) is not None
    withdrawn = await referee.abort(HERE, ALICE)
    assert withdrawn.ok and withdrawn.notice == "challenge_withdrawn", withdrawn.text
    assert await store.open_challenge(HERE.channel_id) is None


async def test_only_the_last_games_players_can_ask_for_its_rematch(
    referee: Referee, store: Store
) -> None:
    await start(referee)
    during = await referee.rematch(HERE, CAROL)  # not "finish it first, or resign"
    assert during.refused and during.reason == "channel_busy", during.text
    assert during.text.startswith("this channel is busy: a game is being played here (alice vs")
    await referee.resign(HERE, BOB)
    refused = await referee.rematch(HERE, CAROL)
    assert refused.refused and refused.ephemeral and refused.reason == "rematch_not_player"
    assert refused.text.startswith("only the players of the last game here (alice vs bob)")
    assert await store.open_challenge(HERE.channel_id) is None


# --- turns ----------------------------------------------------------------------------------


async def test_strangers_and_players_out_of_turn_are_refused_privately(
    referee: Referee, store: Store
) -> None:
    await start(referee)
    before = await store.active_game(HERE.channel_id)
    for actor, words in [(CAROL, "not playing"), (BOB, "alice (Red) is to move")]:
        reply = await referee.act(HERE, actor, "drop row 1")
        assert not reply.ok and reply.ephemeral and words in reply.text
    illegal = await referee.act(HERE, ALICE, "move 1,1 1,2")
    assert not illegal.ok and illegal.ephemeral and "(1,1)" in illegal.text
    garbage = await referee.act(HERE, ALICE, "fly to the moon")
    assert not garbage.ok and garbage.ephemeral
    polite = await referee.act(HERE, ALICE, "drop row 1 please")
    assert polite.refused and polite.ephemeral
    assert polite.text == "'please' is not part of a drop: type drop row 1", polite.text
    after = await store.active_game(HERE.channel_id)
    assert after.version == before.version and after.seq == 0


async def test_no_game_here(referee: Referee) -> None:
    for reply in [await referee.act(HERE, ALICE, "drop row 1"), await referee.resign(HERE, ALICE)]:
        assert not reply.ok and reply.ephemeral and "no game" in reply.text


async def test_a_players_command_after_their_game_ended_says_how_it_ended(
    referee: Referee, clock: ManualClock
) -> None:
    """A move typed just as the game ended (the opponent resigned, a flag fell) is answered
    with the ending, not with "no game running"; a stranger, or an hour later, hears that."""
    await start(referee, "morris")
    await referee.resign(HERE, BOB)
    late = await referee.act(HERE, ALICE, "place d7")
    assert late.refused and late.ephemeral and late.reason == "game_over", late.text
    assert late.text == (
        "your game here has ended: alice (White) wins (bob (Black) resigned); ask for a rematch, "
        "or challenge someone"
    )
    assert (await referee.resign(HERE, BOB)).reason == "game_over"
    assert (await referee.act(HERE, CAROL, "place d7")).reason == "no_game"
    clock.advance(3601)
    assert (await referee.act(HERE, ALICE, "place d7")).reason == "no_game"


async def test_a_game_a_moderator_stopped_is_told_so_to_its_late_player(referee: Referee) -> None:
    await start(referee, "morris")
    await referee.moderator_abort(HERE, MOD, "wrong channel")
    late = await referee.act(HERE, ALICE, "place d7")
    assert late.reason == "game_over"
    assert "ended: no result (aborted by moderator mod: wrong channel);" in late.text


async def test_legal_for_lists_the_movers_actions_only(referee: Referee) -> None:
    await start(referee, "morris")
    assert await referee.legal_for(HERE, BOB) == []
    assert await referee.legal_for(HERE, CAROL) == []
    places = await referee.legal_for(HERE, ALICE, "place a")
    assert sorted(places) == ["place a1", "place a4", "place a7"]
    assert len(await referee.legal_for(HERE, ALICE)) <= 25


async def test_a_repeated_request_id_is_answered_once(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    first = await referee.act(HERE, ALICE, "place d7", request_id="i-1")
    again = await referee.act(HERE, ALICE, "place d7", request_id="i-1")
    assert first.ok and again.ok and again.version == first.version
    assert again.text in first.text
    assert len(await store.actions(first.game_id)) == 1


# --- endings --------------------------------------------------------------------------------


async def test_resignation_wins_for_the_opponent(referee: Referee, store: Store) -> None:
    await start(referee, "abalone")
    reply = await referee.resign(HERE, BOB)  # even when it is not your turn
    g = await store.game(reply.game_id)
    assert (g.status, g.winner, g.termination) == ("finished", 0, "resignation")
    assert reply.finished and "alice (Black) wins" in reply.text


async def test_draw_offer_and_acceptance(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    offer = await referee.offer_draw(HERE, ALICE)
    assert offer.ok and offer.mentions == [BOB.id]
    assert not (await referee.answer_draw(HERE, ALICE, True)).ok  # not your own offer
    accept = next(b for b in offer.buttons if b.kind is ButtonKind.DRAW_ACCEPT)
    reply = await referee.press(HERE, BOB, accept.custom_id)
    g = await store.game(reply.game_id)
    assert (g.winner, g.termination) == (None, "agreement") and "draw" in reply.text


async def test_a_draw_offer_stands_when_its_offerer_moves(referee: Referee, store: Store) -> None:
    """An offer made on one's own turn goes with the move (FIDE Laws 9.1.2.3, as lichess does):
    it stands for the opponent to answer on their turn, and its button still answers it."""
    await start(referee, "morris")
    offer = await referee.offer_draw(HERE, ALICE)
    moved = await play(referee, HERE, ALICE, "place d7")
    assert moved.ok and moved.notice is None, moved.text
    assert [line.key for line in moved.lines if line.key.startswith("notice.")] == []
    assert (await store.game(moved.game_id)).draw_offer == 0
    own = await referee.answer_draw(HERE, ALICE, True)  # not hers to answer, and it stands
    assert (own.reason, own.params) == ("own_draw_offer", {"other": "bob"}), own.text
    assert own.text == "that draw offer is your own: it stands until bob answers it"
    accept = next(b for b in offer.buttons if b.kind is ButtonKind.DRAW_ACCEPT)
    agreed = await referee.press(HERE, BOB, accept.custom_id)  # made before alice's move
    g = await store.game(agreed.game_id)
    assert (g.status, g.termination) == ("finished", "agreement"), agreed.text
    events = await store.events(g.id)
    assert (events[-1].kind, events[-1].seat) == ("draw", 1)  # agreed by bob, who answered
    verdict = await check_stored(store, g)
    assert verdict.ok, verdict.reason
    assert verify(await stored_record(store, g)).ok


async def test_the_receivers_move_declines_a_draw_offer(referee: Referee, store: Store) -> None:
    """Playing on instead of answering declines the offer, and the move's reply says so (a code
    and its params, and a line in every language); the offer cannot be accepted afterwards."""
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    offer = await referee.offer_draw(HERE, ALICE)  # on bob's turn
    moved = await play(referee, HERE, BOB, "place a1")
    assert moved.ok and moved.events and moved.notice == "draw_declined_by_play", moved.text
    assert moved.params == {"actor": "bob", "other": "alice"}
    assert "notice.draw_declined_by_play" in [line.key for line in moved.lines]
    assert "bob declines alice's draw offer by playing on." in moved.text.splitlines()
    g = await store.game(moved.game_id)
    assert (g.status, g.draw_offer) == ("active", None)
    late = await referee.answer_draw(HERE, BOB, True)
    assert (late.ok, late.reason) == (False, "no_draw_offer"), late.text
    accept = next(b for b in offer.buttons if b.kind is ButtonKind.DRAW_ACCEPT)
    stale = await referee.press(HERE, BOB, accept.custom_id)
    assert not stale.ok and stale.reason == "no_draw_offer", stale.text  # declined: no retry
    again = await play(referee, HERE, ALICE, "place a4")  # the next move declines nothing
    assert again.ok and again.notice is None, again.text
    await referee.resign(HERE, BOB)
    g = await store.game(g.id)
    assert verify(await stored_record(store, g)).ok


async def test_an_announcement_declines_the_offer_before_the_die_rolls(
    referee: Referee, store: Store
) -> None:
    """Announcing a drop is playing on: it declines the opponent's offer, said after the
    announcement as a move's reply says it after the move (it came first, in Atmalof alone),
    before the roll itself."""
    await start(referee, "atmalof")
    await referee.offer_draw(HERE, BOB)
    announced = await referee.act(HERE, ALICE, "drop row 3")
    assert announced.ok and announced.pending_roll
    assert announced.notice == "draw_declined_by_play", announced.text
    keys = [line.key for line in announced.lines]
    assert keys == ["move.announces", "notice.draw_declined_by_play"], keys
    assert announced.text.splitlines() == [
        "alice (Red) announces row 3. Rolling the die...",
        "alice declines bob's draw offer by playing on.",
    ], announced.text
    rolled = await referee.roll_pending(HERE)
    assert rolled.ok and rolled.notice is None, rolled.text  # declined once, by the announcement
    assert (await store.game(announced.game_id)).draw_offer is None


@pytest.mark.parametrize(
    ("game", "action", "said"),
    [
        ("atmalof", "drop row 3", "alice (Red) announces row 3. Rolling the die..."),
        ("atmalof", "drop col 2", "alice (Red) announces column 2. Rolling the die..."),
        ("morris", "place d7", "alice (White) places d7."),
        ("abalone", "push a1 c3 ne", "alice (Black) moves a1-c3 north-east."),
    ],
)
async def test_every_game_says_the_action_first_then_the_offer_it_declined(
    referee: Referee, game: str, action: str, said: str
) -> None:
    """The player's action, then the draw offer it declined: an Atmalof announcement said the
    decline first, a Morris or Abalone move after."""
    await start(referee, game)
    await referee.offer_draw(HERE, BOB)  # on alice's turn
    reply = await referee.act(HERE, ALICE, action)
    assert reply.ok and reply.notice == "draw_declined_by_play", reply.text
    assert reply.text.splitlines()[:2] == [
        said,
        "alice declines bob's draw offer by playing on.",
    ], reply.text


async def test_an_announcement_keeps_the_announcers_own_offer(
    referee: Referee, store: Store
) -> None:
    await start(referee, "atmalof")
    await referee.offer_draw(HERE, ALICE)
    announced = await referee.act(HERE, ALICE, "drop row 3")
    assert announced.ok and announced.notice is None, announced.text
    assert [line.key for line in announced.lines] == ["move.announces"]
    rolled = await referee.roll_pending(HERE)
    assert rolled.ok and (await store.game(rolled.game_id)).draw_offer == 0
    agreed = await referee.answer_draw(HERE, BOB, True)
    assert agreed.ok and "agreed by both players" in agreed.text, agreed.text


async def test_an_offers_old_button_accepts_it_after_the_offerers_announcement(
    referee: Referee, store: Store
) -> None:
    """The roll the announcement waits for is made and said first, then the draw agreed."""
    await start(referee, "atmalof")
    offer = await referee.offer_draw(HERE, ALICE)
    assert (await referee.act(HERE, ALICE, "drop row 3")).pending_roll
    accept = next(b for b in offer.buttons if b.kind is ButtonKind.DRAW_ACCEPT)
    agreed = await referee.press(HERE, BOB, accept.custom_id)
    assert agreed.ok, agreed.text
    said = agreed.text.splitlines()
    assert said[0].startswith("alice (Red) announces row 3 and rolls "), agreed.text
    assert said[1] == "Game over: a draw (agreed by both players).", agreed.text
    (drop,) = await store.actions(agreed.game_id)
    assert drop.action == "drop row 3" and drop.roll is not None
    g = await store.game(agreed.game_id)
    assert (g.status, g.termination) == ("finished", "agreement")
    assert verify(await stored_record(store, g)).ok


async def test_an_offers_own_buttons_tell_its_offerer_it_stands(referee: Referee) -> None:
    await start(referee, "morris")
    offer = await referee.offer_draw(HERE, ALICE)
    for button in offer.buttons:
        own = await referee.press(HERE, ALICE, button.custom_id)
        assert (own.ok, own.reason) == (False, "own_draw_offer"), own.text
    await play(referee, HERE, ALICE, "place d7")  # the buttons' version is gone; the offer not
    for button in offer.buttons:
        own = await referee.press(HERE, ALICE, button.custom_id)
        assert (own.ok, own.reason) == (False, "own_draw_offer"), own.text


async def test_a_draw_offer_is_withdrawn_by_its_offerer_only(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    offer = await referee.offer_draw(HERE, ALICE)
    for who in (BOB, ALICE):  # alice once her offer is gone, bob never: it is not his
        if who is ALICE:
            gone = await referee.withdraw_draw(HERE, ALICE)
            assert gone.ok and not gone.ephemeral, gone.text
            assert (gone.notice, gone.params) == (
                "draw_withdrawn",
                {"actor": "alice", "other": "bob"},
            )
            assert gone.text == "alice withdraws the draw offer to bob.\nalice (White) to move."
            assert (await store.game(gone.game_id)).draw_offer is None
        refused = await referee.withdraw_draw(HERE, who)
        assert (refused.ok, refused.reason) == (False, "no_own_draw_offer"), refused.text
    accept = next(b for b in offer.buttons if b.kind is ButtonKind.DRAW_ACCEPT)
    late = await referee.press(HERE, BOB, accept.custom_id)
    assert (late.ok, late.reason) == (False, "no_draw_offer"), late.text
    typed = await referee.handle(HERE, ALICE, "draw")  # offered again, and withdrawn as typed
    assert typed.ok and typed.notice == "draw_offered", typed.text
    typed = await referee.handle(HERE, ALICE, "draw withdraw")
    assert typed.ok and typed.notice == "draw_withdrawn", typed.text


async def test_an_accepted_takeback_says_it_takes_a_waiting_draw_offer_with_it(
    referee: Referee,
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    await referee.offer_draw(HERE, ALICE)
    await referee.request_takeback(HERE, ALICE)
    done = await referee.answer_takeback(HERE, BOB, True)
    assert done.ok and "alice's draw offer goes with the takeback" in done.text, done.text
    assert not (await referee.answer_draw(HERE, BOB, True)).ok  # gone, as it said


async def test_takeback_accepted_by_the_opponent(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    asked = await referee.request_takeback(HERE, ALICE)
    assert asked.ok and "places d7" in asked.text
    assert not (await referee.answer_takeback(HERE, ALICE, True)).ok
    done = await referee.answer_takeback(HERE, BOB, True)
    assert done.ok and done.mentions == [ALICE.id]
    # who allowed it, in the button's word ("Takeback accepted, undone" said neither)
    assert done.text.startswith("bob allows the takeback. Undone: alice (White) places d7")
    g = await store.game(done.game_id)
    assert g.seq == 0 and await store.actions(g.id) == []
    assert len(await store.all_actions(g.id)) == 1  # the log keeps what was taken back
    assert (await play(referee, HERE, ALICE, "place a1")).ok
    assert checks_out(await referee.verify(HERE))


async def test_a_turn_taken_back_returns_its_increment(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """Played again, a turn taken back must not earn its increment twice: asking for takebacks
    would buy time. The time spent thinking stays spent."""
    await start(referee, "morris", clock="1+10")
    clock.advance(5)
    await play(referee, HERE, ALICE, "place d7")  # alice: 60 - 5 + 10
    clock.advance(7)
    await play(referee, HERE, BOB, "place a1")  # bob: 60 - 7 + 10
    clock.advance(2)
    await referee.request_takeback(HERE, ALICE)  # alice's turn: hers and bob's reply go
    done = await referee.answer_takeback(HERE, BOB, True)
    g = await store.game(done.game_id)
    assert g.seq == 0 and (g.bank0, g.bank1) == (55, 53), (g.bank0, g.bank1)
    assert g.deadline == clock.now() + 55
    await play(referee, HERE, ALICE, "place d7")  # no time passed: 55 + 10, once
    assert (await store.game(done.game_id)).bank0 == 65


async def test_a_mill_waiting_for_its_removal_earned_no_increment_to_return(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+10")
    for who, point in ((ALICE, "a1"), (BOB, "b2"), (ALICE, "a4"), (BOB, "b4")):
        await play(referee, HERE, who, f"place {point}")
    before = await store.game(1)
    await play(referee, HERE, ALICE, "place a7")  # a mill: alice still to move, to remove
    await referee.request_takeback(HERE, ALICE)
    done = await referee.answer_takeback(HERE, BOB, True)
    g = await store.game(done.game_id)
    assert (g.bank0, g.bank1) == (before.bank0, before.bank1)


async def test_asking_for_a_takeback_while_the_other_asks_agrees_to_theirs(
    referee: Referee, store: Store
) -> None:
    """As with draw offers: both asking is agreement, not a second request."""
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    await referee.request_takeback(HERE, ALICE)
    done = await referee.request_takeback(HERE, BOB)
    assert done.ok and not done.ephemeral
    g = await store.game(done.game_id)
    assert g.seq == 0 and g.takeback_offer is None


async def test_a_move_while_a_takeback_request_waits_says_that_it_lapsed(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    await referee.request_takeback(HERE, ALICE)
    moved = await play(referee, HERE, BOB, "place a1")
    assert moved.ok and "alice's takeback request lapsed" in moved.text
    assert (await store.game(moved.game_id)).takeback_offer is None
    again = await play(referee, HERE, ALICE, "place g1")
    assert again.ok and "lapsed" not in again.text  # said once, with the move that answered


async def test_a_move_before_the_challenge_is_accepted_says_so(referee: Referee) -> None:
    assert (await referee.challenge(HERE, ALICE, "morris", opponent=BOB)).ok
    early = await referee.act(HERE, ALICE, "place d7")
    assert not early.ok and early.ephemeral and early.reason == "challenge_not_accepted"
    assert (await referee.board(HERE)).reason == "challenge_not_accepted"
    assert (await referee.act(THERE, ALICE, "place d7")).reason == "no_game"  # nothing there


async def test_a_drop_cannot_be_taken_back(referee: Referee) -> None:
    await start(referee)
    await play(referee, HERE, ALICE, "drop row 2")
    reply = await referee.request_takeback(HERE, ALICE)
    assert not reply.ok and reply.ephemeral and "die" in reply.text


async def test_abort_only_before_both_sides_have_moved(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    reply = await referee.abort(HERE, BOB)
    g = await store.game(reply.game_id)
    assert g.status == "aborted" and g.termination == "aborted"
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    await play(referee, HERE, BOB, "place d1")
    late = await referee.abort(HERE, ALICE)
    assert not late.ok and "too late" in late.text


async def test_a_player_who_has_rolled_can_no_longer_abort(referee: Referee, store: Store) -> None:
    """Aborting after seeing your own roll would escape a bad one (issue 13.3): once you have
    acted (a drop with its roll counts) you cannot abort; the one who has not may."""
    await start(referee, "atmalof", rated=True)
    rolled = await play(referee, HERE, ALICE, "drop row 2")
    assert rolled.ok and not rolled.pending_roll, rolled.text
    escape = await referee.abort(HERE, ALICE)
    assert not escape.ok and escape.ephemeral and "too late" in escape.text
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.status == "active"
    assert (await referee.abort(HERE, BOB)).ok  # Bob has not moved: he still may


async def test_an_announced_roll_is_rolled_before_the_abort_is_judged(
    referee: Referee, store: Store
) -> None:
    """The announcement stored, the roll not yet shown (the bot rolls right after): the abort
    completes the roll first, which counts as Alice's action."""
    await start(referee, "atmalof", rated=True)
    announced = await referee.act(HERE, ALICE, "drop col 3")
    assert announced.ok and announced.pending_roll
    late = await referee.abort(HERE, ALICE)
    assert not late.ok and "too late" in late.text
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.pending is None and g.rolls == 1


async def test_flag_fall_ends_the_game_from_stored_times(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    clock.advance(20)
    await play(referee, HERE, ALICE, "place d7")  # alice used 20 s
    clock.advance(30)
    await play(referee, HERE, BOB, "place d1")  # bob used 30 s
    clock.advance(39)
    assert (await play(referee, HERE, ALICE, "place a1")).ok  # 59 s: still in time
    clock.advance(31)  # bob: 61 s
    notices = await swept(referee)
    assert len(notices) == 1 and "ran out of time" in notices[0].reply.text
    g = await store.game(notices[0].reply.game_id)
    assert (g.winner, g.termination) == (0, Termination.TIMEOUT)


async def test_a_look_at_the_board_after_a_flag_fell_ends_the_game(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """Between two sweeps (5 s on Discord) /board showed "Black to move, Black 0:00" as if
    the game went on (a player's finding): the look judges the flag, as a command does, and
    tells the players; a frozen game's flag does not fall."""
    await start(referee, "morris", clock="1+0")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    clock.advance(61)  # bob's flag fell a second ago
    looked = await referee.board(HERE)
    assert looked.finished and "alice (White) wins (bob (Black) ran out of time)" in looked.text
    assert looked.mentions == [ALICE.id, BOB.id]  # nobody's command ended it
    g = await store.game(looked.game_id)
    assert (g.status, g.winner, g.termination) == ("finished", 0, Termination.TIMEOUT)
    assert not await swept(referee)  # told once
    assert "ran out of time" in (await referee.board(HERE)).text  # the ended game's board
    await start(referee, "morris", clock="1+0")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await referee.dispute(HERE, BOB, "lag")).ok
    clock.advance(120)
    frozen = await referee.board(HERE)
    assert not frozen.finished and "Frozen for a dispute" in frozen.text


async def test_a_restart_gives_the_turn_it_interrupted_its_time_again(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """The clocks ran while no referee was there to take a move: a flag that fell in the
    outage does not end the game, and the turn begins again with the time it began with."""
    await start(referee, "morris", clock="1+0")
    clock.advance(20)
    await play(referee, HERE, ALICE, "place d7")  # alice: 40 s left
    clock.advance(50)  # bob thinks 50 s of his 60, then the referee stops...
    clock.advance(600)  # ...for ten minutes: his flag fell meanwhile
    again = Referee(store, clock, render=False)
    notices = await swept(again)
    assert [n.reply.game_id for n in notices] == [(await store.active_game(HERE.channel_id)).id]
    said = notices[0].reply.text
    assert (
        "The bot was offline for a while: that time does not count, and bob (Black) "
        "starts the turn " in said
    )
    assert "again with 1:00 on the clock." in said
    assert "Clocks: White 0:40, Black 1:00" in said, said
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.deadline == clock.now() + 60
    assert not await swept(again)  # said once
    clock.advance(30)
    assert (await play(again, HERE, BOB, "place d1")).ok
    clock.advance(41)  # alice's 40 s run out as usual
    (fell,) = await swept(again)
    assert "ran out of time" in fell.reply.text


async def test_a_restart_leaves_a_long_clock_a_quarter_of_an_hour_at_most(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """A correspondence turn is not given a new day at every restart: a deadline still far
    off is kept, and one that passed in the outage gets a quarter of an hour."""
    await start(referee, "morris", clock="24h")
    await start(referee, "abalone", THERE, clock="24h")
    clock.advance(3600)
    assert not await swept(Referee(store, clock, render=False))  # 23 h left: nothing said
    here = await store.active_game(HERE.channel_id)
    assert here is not None and here.deadline == clock.now() + 23 * 3600
    clock.advance(24 * 3600)  # the bot was away for a day: both flags fell
    notices = await swept(Referee(store, clock, render=False))
    assert len(notices) == 2 and all("with 15:00 on the clock" in n.reply.text for n in notices)
    for where in (HERE, THERE):
        g = await store.active_game(where.channel_id)
        assert g is not None and g.deadline == clock.now() + 15 * 60
        assert g.turn_started_at == g.deadline - 24 * 3600  # the clock's arithmetic holds


async def test_a_quick_restart_keeps_the_clocks_and_new_games_are_untouched(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    clock.advance(5)
    before = await store.active_game(HERE.channel_id)
    again = Referee(store, clock, render=False)
    assert not await swept(again)  # a turn begun 5 s ago: nothing worth giving back
    await start(again, "abalone", THERE, clock="1+0")
    clock.advance(30)
    third = Referee(store, clock, render=False)
    clock.advance(30)
    notices = await swept(third)  # both turns began before the third process
    assert {n.reply.game_id for n in notices} == {
        before.id,
        (await store.active_game(THERE.channel_id)).id,
    }
    assert not await swept(Referee(store, clock, render=False))  # begun again just now


async def test_a_move_after_the_flag_fell_loses(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "abalone", clock="1+5")
    clock.advance(61)
    reply = await play(referee, HERE, ALICE, (await referee.legal_for(HERE, ALICE))[0])
    assert not reply.ok and not reply.ephemeral and reply.finished


async def test_correspondence_claim_after_the_deadline(referee: Referee, clock: ManualClock):
    await start(referee, "morris", clock="24h")
    await play(referee, HERE, ALICE, "place d7")
    early = await referee.claim(HERE, ALICE)
    assert not early.ok and "still has" in early.text
    clock.advance(24 * 3600 + 1)
    reply = await referee.claim(HERE, ALICE)
    assert reply.ok and reply.finished and "ran out of time" in reply.text


async def test_abandonment_claim_without_a_clock(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    assert not (await referee.claim(HERE, BOB)).ok  # it is bob's own turn
    assert not (await referee.claim(HERE, ALICE)).ok
    clock.advance(72 * 3600)
    reply = await referee.claim(HERE, ALICE)
    assert reply.ok and "wins (bob (Black) left the game)" in reply.text


# --- moderators ---------------------------------------------------------------------------


async def test_moderators_abort_and_award_with_a_logged_reason(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    assert not (await referee.award(HERE, ALICE, ALICE, "I say so")).ok
    assert not (await referee.award(HERE, MOD, BOB, "  ")).ok
    reply = await referee.award(HERE, MOD, BOB, "alice left the server")
    g = await store.game(reply.game_id)
    assert (g.winner, g.termination) == (1, "awarded")
    events = await store.events(g.id)
    assert events[-1].kind == "award" and events[-1].user_id == MOD.id
    assert events[-1].details["reason"] == "alice left the server"
    await start(referee, "morris")
    aborted = await referee.moderator_abort(HERE, MOD, "wrong channel")
    assert (await store.game(aborted.game_id)).status == "aborted"


async def test_theme_setting_is_for_moderators(referee: Referee) -> None:
    assert not (await referee.set_setting(HERE, ALICE, "theme", "dark")).ok
    assert (await referee.set_setting(HERE, MOD, "theme", "dark")).ok
    assert (await referee.settings(HERE))["theme"] == "dark"
    assert not (await referee.set_setting(HERE, MOD, "theme", "no-such-theme")).ok


async def test_history_and_record(referee: Referee) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    history = await referee.history(HERE)
    assert "1. White: place d7" in history.text
    record = await referee.record(HERE)
    assert (
        record.file and b'"notation": "place d7"' in record.file and b'"seed": null' in record.file
    )


async def test_a_flag_the_sweeper_finds_pings_both_players(
    referee: Referee, clock: ManualClock
) -> None:
    """Nobody's command ended the game, and its players may have walked away: the notice pings
    them both (a game over said after someone's own command pings nobody)."""
    await start(referee, "morris", clock="1+0")
    await play(referee, HERE, ALICE, "place d7")
    clock.advance(61)
    (notice,) = await swept(referee)
    assert "ran out of time" in notice.reply.text
    assert sorted(notice.reply.mentions) == sorted([ALICE.id, BOB.id])
