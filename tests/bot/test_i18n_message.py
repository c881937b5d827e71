"""Sentences as data survive the store: a kept answer is said again in any language."""

from __future__ import annotations

import json

from bot.i18n import from_data, msg, one_line, person_name, plain, say, to_data


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


def test_one_line_keeps_what_a_name_is_written_with_and_drops_what_hides_or_turns_it() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined by zero-width joiners
    assert one_line(f"Nas\u200crin {family}", 32) == f"Nas\u200crin {family}"
    assert one_line("Zoe\u0308", 32) == "Zoë"  # an accent typed apart is composed
    assert one_line("a\u202eb\u2066c\u200bd\ne\t f", 32) == "abcd e f"
    assert one_line("x" + "\u0301" * 40, 32) == "x" + "\u0301" * 4
    assert one_line("abcdef", 4) == "abc…"
    assert person_name(" \u200b\u2060 ", "alice") == "alice"


def test_a_name_of_letters_that_draw_nothing_is_shown_as_the_fallback() -> None:
    """The Hangul fillers and the blank Braille pattern are letters (not format characters) that
    draw nothing: a nickname of them looked empty in every message ("  challenges Bob")."""
    for blank in ("\u3164", "\u115f\u1160", "\uffa0", "\u2800\u2800"):
        assert person_name(f" {blank} ", "alice") == "alice"
    assert one_line("Kim\u3164Ji", 32) == "Kim Ji"
    assert one_line("김지민", 32) == "김지민"  # Korean as written keeps every syllable
