"""Steps the Discord tests share: start a game by slash command and button, play it to the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.discord_ui.choices import MORE
from bot.referee.move_words import HINT_WORD
from tests.discord.harness import CHANNEL_ID, Call, Exchange, Harness, Person

PNG = b"\x89PNG\r\n\x1a\n"


def button(call: Call, kind: str) -> str:
    """The custom_id of the button of this kind on a message (``ref:<kind>:...``)."""
    ids = [c for c in call.custom_ids if c.split(":")[1] == kind]
    assert ids, f"no {kind} button among {call.custom_ids}"
    return ids[0]


def message_with_buttons(exchange: Exchange) -> Call:
    calls = [c for c in exchange.messages if c.custom_ids]
    assert calls, f"no buttons in {[c.text for c in exchange.messages]}"
    return calls[-1]


async def start_game(
    h: Harness,
    challenger: Person,
    opponent: Person,
    game: str,
    *,
    channel: int = CHANNEL_ID,
    **options: Any,
) -> Exchange:
    """``/challenge`` with the challenger to move first, then the opponent presses Accept."""
    options.setdefault("starter", "me")
    posted = await h.slash(challenger, "challenge", channel=channel, game=game,
                           opponent=opponent, **options)  # fmt: skip
    assert posted.first.response_type == 4 and not posted.first.ephemeral, posted.text
    challenge = message_with_buttons(posted)
    accepted = await h.click(opponent, challenge.message, button(challenge, "accept"))
    assert not accepted.first.ephemeral, accepted.text
    return accepted


async def both_act(h: Harness, first: Person, second: Person, *, channel: int = CHANNEL_ID) -> None:
    """``first`` then ``second`` play their first legal action (autocomplete's first choice):
    a rated game can then be resigned by either (one who has not acted aborts instead)."""
    for person in (first, second):
        offered = moves_in(await h.autocomplete(person, "play", "command", channel=channel))
        assert offered, f"{person.name} has nothing to play"
        played = await h.slash(person, "play", channel=channel, command=offered[0])
        assert not played.first.ephemeral, played.text


async def rated_win(h: Harness, winner: Person, loser: Person, game: str = "morris") -> str:
    """A rated game ``loser`` resigns after one action each; the public result's text."""
    await start_game(h, winner, loser, game, rated=True)
    await both_act(h, winner, loser)
    resigned = await h.slash(loser, "resign")
    assert not resigned.first.ephemeral, resigned.text
    return resigned.text


async def to_move(
    h: Harness, players: tuple[Person, Person], channel: int
) -> tuple[Person | None, list[str]]:
    """Who may act now and their legal commands, as /play's autocomplete offers them."""
    for person in players:
        moves = moves_in(await h.autocomplete(person, "play", "command", channel=channel))
        if moves:
            return person, moves
    return None, []


def moves_in(choices: list[dict[str, Any]]) -> list[str]:
    """The moves among autocomplete choices: not the last one that only says how many more
    there are, nor the one that says why there are none (whose turn it is)."""
    return [
        c["value"] for c in choices if not c["name"].startswith(MORE) and c["value"] != HINT_WORD
    ]


@dataclass
class Played:
    """What a played-out game produced, for the assertions."""

    turns: int = 0
    exchanges: list[Exchange] = field(default_factory=list)
    last: Exchange | None = None


def assert_move_reply(exchange: Exchange, players: tuple[Person, Person]) -> None:
    """A public reply with the board (PNG, alt text) that may ping only the players."""
    assert not exchange.first.ephemeral, exchange.text
    boards = [f for f in exchange.files if f[2].startswith(PNG)]
    assert boards, f"no board image in {exchange.text!r}"
    for _, description, _ in boards:
        assert description, "the board image has no alt text"
    ids = {p.id for p in players}
    for call in exchange.messages:
        allowed = call.allowed_user_ids
        assert allowed is not None and allowed <= ids, call.data.get("allowed_mentions")
        assert "@everyone" not in call.content and "@here" not in call.content


async def play_out(
    h: Harness,
    players: tuple[Person, Person],
    *,
    channel: int = CHANNEL_ID,
    pick: Any = None,
    limit: int = 400,
) -> Played:
    """Play legal commands through ``/play`` until the game ends (or fail after ``limit``)."""
    played = Played()
    previous: Person | None = None
    while played.turns < limit:
        mover, commands = await to_move(h, players, channel)
        if mover is None:
            return played
        if played.last is not None:  # the reply to the previous turn pinged this player ...
            content = played.last.last.content
            if mover == previous:  # ... unless it was theirs (a mill's removal): they just typed
                assert mover.mention not in content, content
            else:
                assert mover.mention in content, content
        previous = mover
        command = pick(commands) if pick else commands[0]
        exchange = await h.slash(mover, "play", channel=channel, command=command)
        asked = exchange.messages[0] if exchange.all_ephemeral else None
        if asked is not None and any(":drop-confirm:" in c for c in asked.custom_ids):
            exchange = await h.click(mover, asked.message, button(asked, "drop-confirm"))
            exchange.calls = exchange.calls[1:]  # the private question's buttons retired first
        assert_move_reply(exchange, players)
        played.turns += 1
        played.last = exchange
        played.exchanges.append(exchange)
    raise AssertionError(f"the game did not end in {limit} turns")
