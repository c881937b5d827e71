"""A move's sentence as data, in the words the board pictures already use in every language.

The engine says a move in English (``describe``); the pictures say it in each language from
the catalog (``render``'s ``said``). Here the picture's sentence is taken as data rather than
text, by handing ``said`` a stand-in for the words that returns each message as a ``Msg``;
the mover's side becomes the mover's name and side ("alice (Red)"). English keeps the engine's
sentence (``coded``), so English replies read as they always have.
"""

from __future__ import annotations

from typing import Any, cast

import render
from bot.i18n import Msg, coded
from bot.store import GameRow
from render import Last
from translations import Words


class _AsMessages:
    """Words whose ``t`` keeps the key and params instead of filling them in."""

    lang = "data"

    def t(self, key: str, /, **params: Any) -> Msg:
        return Msg(key, params)


def move_msg(g: GameRow, before: Any, action: Any, roll: int | None, english: str) -> Msg:
    """The move ``english`` says, as a message every language can say."""
    try:
        said = render.renderer(g.game).said(Last(before, action, roll), cast(Words, _AsMessages()))
    except Exception:  # a sentence is never worth losing a move over: English then
        return coded("move.english", english)
    if not isinstance(said, Msg):
        return coded("move.english", english)
    seat = before.to_move
    mover = Msg(f"side.{g.game}.{seat}")
    named = Msg("who.named", {"name": g.names[seat], "side": mover})
    return coded(said.key, english, **_renamed(said.params, mover, named))


def _renamed(params: dict[str, Any], mover: Msg, named: Msg) -> dict[str, Any]:
    """The params with the mover's bare side replaced by their name and side, also inside
    nested messages."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if value == mover:
            out[key] = named
        elif isinstance(value, Msg):
            out[key] = Msg(value.key, _renamed(value.params, mover, named))
        else:
            out[key] = value
    return out
