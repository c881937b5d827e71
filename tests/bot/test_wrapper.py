"""Every public command goes through one wrapper: refusals come back with their reason as data,
"moved on" and request ids are answered there, and each command makes one log line."""

from __future__ import annotations

import json
import logging

import pytest

from bot.i18n import say
from bot.referee import Referee
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, play, start


def command_lines(caplog: pytest.LogCaptureFixture) -> list[dict]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "bot.referee"]


async def test_a_refusal_carries_its_reason_code_and_parameters(referee: Referee) -> None:
    await start(referee, "morris")
    stranger = await referee.act(HERE, CAROL, "place d7")
    assert not stranger.ok and stranger.ephemeral
    assert stranger.reason == "not_a_player"
    assert say(stranger.params["players"]) == "alice vs bob"  # the pair, said per language
    assert say(stranger.params["players"], "hu") == "alice – bob"
    assert stranger.text == "you are not playing in this game (alice vs bob)"
    out_of_turn = await referee.act(HERE, BOB, "place d7")
    assert out_of_turn.reason == "not_your_turn"
    assert say(out_of_turn.params["player"]) == "alice (White)"  # the seat, said per language
    assert say(out_of_turn.params["player"], "hu").startswith("alice")
    illegal = await referee.act(HERE, ALICE, "place z9")
    assert illegal.reason == "engine" and illegal.text == illegal.params["message"]


async def test_a_dispute_in_a_frozen_game_is_refused_by_its_code_not_its_words(
    referee: Referee,
) -> None:
    await start(referee, "morris")
    assert (await referee.dispute(HERE, ALICE, "a misclick")).ok
    again = await referee.dispute(HERE, BOB, "me too")
    assert again.reason == "dispute_open" and again.ephemeral
    assert (await referee.act(HERE, ALICE, "place d7")).reason == "frozen"


async def test_each_command_logs_one_line_even_when_it_calls_another(
    referee: Referee, caplog: pytest.LogCaptureFixture
) -> None:
    await start(referee, "morris")
    offered = await referee.offer_draw(HERE, ALICE)
    (button,) = [b for b in offered.buttons if b.kind.value == "draw-decline"]
    caplog.set_level(logging.INFO, logger="bot.referee")
    caplog.clear()
    pressed = await referee.press(HERE, BOB, button.custom_id, request_id="click-1")
    assert pressed.ok, pressed.text
    (line,) = command_lines(caplog)  # press called answer_draw: still one line
    assert line["op"] == "press" and line["request"] == "click-1" and line["user"] == BOB.id
    assert line["ok"] is True and line["game"] == pressed.game_id and line["ms"] >= 0
    caplog.clear()
    refused = await referee.act(HERE, BOB, "place d7")
    (line,) = command_lines(caplog)
    assert line["op"] == "act" and line["ok"] is False and line["reason"] == refused.reason


async def test_a_repeated_request_gets_the_first_answer_and_changes_nothing(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    first = await referee.act(HERE, ALICE, "place d7", request_id="interaction-7")
    again = await referee.act(HERE, ALICE, "place d7", request_id="interaction-7")
    assert first.ok and again.ok and again.text.startswith(first.text.split("\n")[0])
    assert [a.action for a in await store.actions(1)] == ["place d7"]
    assert (await play(referee, HERE, BOB, "place d1")).ok


def test_a_kept_reply_whose_sentence_changed_its_params_is_said_as_kept(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A reply kept under a request id before a deploy changed a sentence's parameters (the
    record's "{command}" became "{program} {file}") is said in its kept words, with a warning,
    in every language: the repeat of a request must not fail with a KeyError."""
    from bot.i18n import Msg
    from bot.i18n.replies import reply_words
    from bot.referee.replies import Reply
    from bot.referee.wrapper import reply_dict, reply_from

    old = Reply(text="The record of game 1 ... `referee-verify game-1.json`")
    old.lines = [Msg("record.running", {"id": 1, "command": "referee-verify game-1.json"})]
    kept = reply_from(json.loads(json.dumps(reply_dict(old))))
    with caplog.at_level(logging.WARNING, logger="bot.i18n.replies"):
        for lang in ("en", "eo", "hu", "is"):
            assert reply_words(kept, lang) == old.text
    assert any("no longer fit" in r.getMessage() for r in caplog.records)
    fresh = Reply(text="x")
    fresh.lines = [Msg("record.running", {"id": 1, "program": "referee-verify", "file": "g.json"})]
    assert "`referee-verify g.json`" in reply_words(fresh, "en")  # a fitting one is said anew
