"""Sentences as data survive the store: a kept answer is said again in any language."""

from __future__ import annotations

import json

from bot.i18n import from_data, msg, plain, say, to_data


def test_a_sentence_with_sentences_inside_comes_back_equal_through_json() -> None:
    side = msg("side.morris.0")
    said = msg("turn.to_move", player=msg("seat.named", name="alice", side=side))
    nested = msg("list.test", items=[plain("a"), side], n=2, rate=1.5, none=None)
    for original in (said, nested, plain("d7 → d6")):
        back = from_data(json.loads(json.dumps(to_data(original))))
        assert back == original


def test_a_kept_sentence_is_said_in_the_readers_language() -> None:
    said = msg("notice.draw_declined", actor="bob")
    back = from_data(json.loads(json.dumps(to_data(said))))
    assert say(back, "hu") == say(said, "hu") != say(said, "en")
