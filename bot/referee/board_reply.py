"""The public reply that shows a game: its board (picture and text), whose turn it is or the
result, the clocks, a frozen game's note, the rating changes and the seed once it is over, the
Rematch button. Every service that changes a game answers with it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot import ladder_store, texts
from bot.ending import NOT_TOLD
from bot.i18n import Msg, msg, plain, say, say_all
from bot.ladder.ratings import is_provisional
from bot.ladder.tables import both_acted
from bot.ladder_store import LoggedChange
from bot.referee import boards
from bot.referee.boards import BoardView
from bot.referee.records import ending, outcome_of
from bot.referee.replies import ButtonKind, ButtonSpec, Event, Rated, Reply, ReplyKind
from bot.store import GameRow
from engine import Termination

if TYPE_CHECKING:
    from bot.referee.context import Context


async def board_reply(
    ctx: Context,
    g: GameRow,
    state: Any,
    text: str | Msg | list[Msg],
    *,
    last: Any = None,
    ok: bool = True,
    ping: bool = True,
) -> Reply:
    """A public reply with the board, whose turn (or the result), clocks and buttons; ``text``
    is what happened, as sentences (``Msg``; a ``str`` is English not yet made data).

    The player to move is pinged (``mentions``) when something happened that hands them the
    turn; ``ping=False`` for a board only looked at (``/board``, which anyone may ask for, so
    a ping there would let a bystander ping a player at will). The bot is never pinged."""
    rules = engine.get_game(g.game)
    sides = rules.side_names
    now = ctx.now()
    lines: list[Msg] = as_lines(text)
    mentions: list[int] = []
    mover: int | None = None
    held = False  # the bot moves next, and the front end draws such a board when it shows it
    events: list[Event] = []
    buttons: list[ButtonSpec] = []
    outcome = outcome_of(g)
    ended = NOT_TOLD if outcome is None else await ending(ctx.store, g)
    if g.status == "active" and state is not None:
        to_move = state.to_move
        lines.append(turn_msg(g, state))
        clocks = texts.clocks_line(g, sides, to_move, now)
        if clocks:
            lines.append(clocks)
        if g.frozen_at is not None and clocks:  # the turn line said it is frozen
            lines.append(msg("board.clocks_stopped"))
        mover = g.players[to_move]
        if ping and to_move != g.bot_seat:
            mentions.append(mover)
        held = ping and to_move == g.bot_seat and ctx.hold_boards
    elif outcome is not None:
        lines.append(texts.result_line(g, sides, outcome, ended=ended, state=state))
        change = await ladder_store.rating_change(ctx.store, g.id)
        if change is not None:
            rated = rated_event(change)
            events.append(rated)
            lines += texts.rating_lines(rated, g.names)
        elif g.rated and not both_acted(g.moved) and outcome.termination != Termination.ABORTED:
            lines.append(msg("rating.unplayed"))  # a result, but nothing to rate (counts)
        if texts.seed_matters(g):
            lines.append(texts.seed_line(g))
        buttons.append(ButtonSpec("Rematch", ButtonKind.REMATCH, g.id, g.version, "primary"))
    theme, lang = await ctx.look(g.guild_id)  # the server's, for the picture
    view = (
        None
        if state is None
        else BoardView(
            g.game,
            state,
            last,
            theme,
            g.names,
            outcome,
            lang=lang,
            ended=ended,
        )
    )
    later = held and view is not None and ctx.renderer is not None
    image = None if view is None or later else await boards.png(ctx.renderer, view)
    return Reply(
        text=say_all(lines),
        lines=lines,
        ok=ok,
        image=image,
        image_name=f"game-{g.id}-v{g.version}.png",
        draw_later=later,
        board=view,
        buttons=buttons,
        mentions=mentions,
        to_move=mover,
        game_id=g.id,
        version=g.version,
        finished=g.status != "active",
        chain=g.last_hash,
        public_kind=ReplyKind.BOARD,
        events=events,
    )


def turn_msg(g: GameRow, state: Any) -> Msg:
    """Whose turn it is, as a board's reply says it ("Bob (Black) to move."), or the removal a
    Morris mill owes and its points: also said by replies that keep the turn without a board
    (a draw declined), so nobody is left wondering who is to move. A frozen game invites no
    move: it says who moves once a moderator resumes it."""
    rules = engine.get_game(g.game)
    to_move = state.to_move
    if g.frozen_at is not None:
        player = texts.seat_msg(g, to_move)
        if g.moved and removal_pending(rules, state):
            side = texts.side_msg(g.game, 1 - to_move)
            return msg("board.frozen_remove", player=player, side=side)
        return msg("board.frozen_turn", player=player)
    # The legal actions only when they are a removal's points (listing them costs an Abalone
    # position ~25 us).
    legal = rules.legal(state) if g.moved and removal_pending(rules, state) else []
    if not legal:
        return texts.turn_line(g, rules.side_names, to_move)
    points = ", ".join(rules.notation(state, a).split()[-1] for a in legal)
    return msg(
        "board.remove",
        player=texts.seat_msg(g, to_move),
        side=texts.side_msg(g.game, 1 - to_move),
        points=points,
    )


def told_of_end(g: GameRow, acted: int | None) -> list[int]:
    """Whom a game's end is news to, to ping: its players but the person whose command ended
    it (a resignation, a claim, a winning move, a draw accepted: they know), never the bot.
    ``acted`` None (a flag the sweeper or a look found: nobody's command) or a moderator: both
    players, who may have walked away. A practice game its person ended (or the bot's answer
    to their move) pings nobody: they caused it, or are watching."""
    if acted is not None and g.bot_seat is not None and acted in g.players:
        return []
    return [p for seat, p in enumerate(g.players) if seat != g.bot_seat and p != acted]


class Said(str):
    """English text that also carries its sentences as data (``msgs``): what a command did on
    its way (a roll it completed, a flag that fell) and is put before its own reply."""

    msgs: tuple[Msg, ...] = ()

    def __new__(cls, text: str, msgs: tuple[Msg, ...] | list[Msg]) -> Said:
        said = super().__new__(cls, text)
        said.msgs = tuple(msgs)
        return said


def as_lines(text: str | Msg | list[Msg]) -> list[Msg]:
    """Sentences as data; a ``Said`` gives its own, and a plain ``str`` (English a service
    still composes) is kept as it is."""
    if isinstance(text, Msg):
        return [text]
    if isinstance(text, Said):
        return list(text.msgs)
    if isinstance(text, str):
        return [plain(text.rstrip())] if text.strip() else []
    return list(text)


def said_after(prefix: str, sentence: Msg) -> Said:
    """``prefix`` then ``sentence`` on a line of its own, as English and as data: a thing that
    happened on a command's way (a flag that fell, the bot's answer), put before its reply."""
    return Said(f"{prefix}{say(sentence)}\n", [*as_lines(prefix), sentence])


def prefixed(prefix: str, notice: str, params: dict[str, Any]) -> tuple[str, list[Msg]]:
    """A notice after what a command did on its way (a roll it completed): the English text
    and the sentences as data."""
    said = Msg(f"notice.{notice}", params)
    return prefix + say(said), [*as_lines(prefix), said]


def removal_pending(rules: Any, state: Any) -> bool:
    """Whether the side to move owes a removal (a Morris mill): then every legal action is one.
    Asked of the engine (its ``pending_removal``), never by reading the notation of the legal
    moves."""
    return bool(rules.pending_removal(state))


def rated_event(change: LoggedChange) -> Rated:
    """The rating log's entry for a game as a reply's event."""
    return Rated(
        ladder=change.ladder,
        players=change.players,
        before=(change.before[0].rating, change.before[1].rating),
        after=(change.after[0].rating, change.after[1].rating),
        provisional_before=(is_provisional(change.before[0]), is_provisional(change.before[1])),
        provisional_after=(is_provisional(change.after[0]), is_provisional(change.after[1])),
    )
