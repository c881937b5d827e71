"""The console's hints under a reply: its buttons as the lines a player types instead.

"(to answer, type `bob: accept` or `bob: decline`)": a button at the table is a command, so
the hint names who types it. The players are those who have spoken at this table, or, in a
table opened again on an old challenge, the names its sentences hold (console ids are made
from names, so a name can be matched to the id a reply mentions).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import msg, say
from bot.referee.names import BOT_NAME, console_actor, name_key, name_problem
from bot.referee.replies import Actor, ButtonKind, Reply

TYPED = {
    ButtonKind.ACCEPT: "accept",
    ButtonKind.DECLINE: "decline",
    ButtonKind.DRAW_ACCEPT: "draw accept",
    ButtonKind.DRAW_DECLINE: "draw decline",
    ButtonKind.TAKEBACK_ACCEPT: "takeback accept",
    ButtonKind.TAKEBACK_DECLINE: "takeback decline",
    ButtonKind.REMATCH: "rematch",
}
"""What a button under a reply does, typed at the table instead."""


def answer_hint(reply: Reply, people: Mapping[str, Actor], current: Actor | None, lang: str) -> str:
    """The reply's buttons as lines to type: "(to answer, type `bob: accept` or ...)".
    ``people``: the table's players by name key; ``current``: who typed the command."""
    if all(b.kind is ButtonKind.REMATCH for b in reply.buttons):
        return rematch_hint(reply, lang)
    kinds = {b.kind for b in reply.buttons}
    if reply.challenge_id is not None and not reply.mentions and ButtonKind.ACCEPT in kinds:
        return open_hint(current, lang)
    names = {a.id: a.name for a in people.values()} | _named_in_lines(reply)
    asked = [names[i] for i in reply.mentions if i in names]
    if reply.ephemeral and current is not None:  # a private question: its asker's
        asked = [current.name]
    whom = asked[0] if len(asked) == 1 else say(msg("console.name_placeholder"), lang)
    lines = [b.typed or TYPED.get(b.kind) for b in reply.buttons]
    typed = [f"`{whom}: {line}`" for line in lines if line]
    if len(typed) == 1:
        return say(msg("console.answer_one", command=typed[0]), lang)
    said = msg("console.answer_two", first=", ".join(typed[:-1]), second=typed[-1])
    return say(said, lang)


def open_hint(challenger: Actor | None, lang: str) -> str:
    """An open challenge: anyone accepts it, only its challenger declines (withdraws) it, so
    "type `name: accept` or `name: decline`" invited a decline nobody else may make."""
    someone = say(msg("console.name_placeholder"), lang)
    who = challenger.name if challenger is not None and not challenger.is_moderator else someone
    said = msg("console.answer_open", command=f"`{someone}: accept`", withdraw=f"`{who}: decline`")
    return say(said, lang)


def rematch_hint(reply: Reply, lang: str) -> str:
    """A finished game's Rematch button as the line its players type: nothing is asked,
    so "to answer" would be wrong; the game's players are named (not the bot), also those
    who have not spoken since the table opened again."""
    players = reply.board.players if reply.board is not None else None
    typed = [f"`{name}: rematch`" for name in players or () if name_key(name) != BOT_NAME] or [
        f"`{say(msg('console.name_placeholder'), lang)}: rematch`"
    ]
    if len(typed) == 1:
        return say(msg("console.rematch_one", command=typed[0]), lang)
    said = msg("console.rematch_two", first=typed[0], second=typed[1])
    return say(said, lang)


def _named_in_lines(reply: Reply) -> dict[int, str]:
    """The console ids of the names a reply's sentences hold: a table opened again on an old
    challenge has not heard its players speak, yet its hint must name who answers."""
    found: dict[int, str] = {}
    for line in reply.lines:
        for value in line.params.values():
            if isinstance(value, str) and name_problem(value) is None:
                found[console_actor(value).id] = value
    return found
