"""What the referee is told (where, who) and what it answers (a Reply), free of any chat platform.

Front ends (the Discord layer, the console table) turn their own events into ``Where`` and
``Actor`` and turn a ``Reply`` into a message: text, an optional board image and file, buttons.
Every refusal is ``Reply(ok=False, ephemeral=True, text=<reason>)`` with its ``reason`` code
and changes nothing (services raise ``bot.errors.Refusal``; the referee's wrapper makes the reply).
Two independent facts are carried apart: ``ok`` says whether the command landed, ``ephemeral``
whether the answer is private (only the person who acted sees it) or public (the channel sees
it). A command that did not land may still have made something public happen (a fallen flag).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.errors import RefereeError
from bot.i18n import Msg
from bot.referee import boards
from bot.referee.boards import BoardView

CUSTOM_ID_PREFIX = "ref"
MAX_ID = 2**63 - 1  # the largest id SQLite stores


@dataclass(frozen=True, slots=True)
class Where:
    """A place games are played: a channel, or a thread (a channel whose parent is ``parent_id``).

    ``guild_id`` is None in direct messages and at the console.
    """

    guild_id: int | None
    channel_id: int
    parent_id: int | None = None


@dataclass(frozen=True, slots=True)
class Actor:
    """The person behind a command; the front end decides ``is_moderator`` (role/permission)."""

    id: int
    name: str
    is_moderator: bool = False
    is_bot: bool = False


class ButtonKind(StrEnum):
    """What a button does; the front end puts it in the custom_id (see ``ButtonSpec.custom_id``)."""

    ACCEPT = "accept"  # accept a challenge (target: challenge id)
    DECLINE = "decline"  # decline / withdraw a challenge (target: challenge id)
    DRAW_ACCEPT = "draw-accept"  # target: game id
    DRAW_DECLINE = "draw-decline"
    TAKEBACK_ACCEPT = "takeback-accept"
    TAKEBACK_DECLINE = "takeback-decline"
    REMATCH = "rematch"  # target: the finished game's id
    DROP_CONFIRM = "drop-confirm"  # target: game id; arg: the line ("row4", "col12")
    DROP_CANCEL = "drop-cancel"  # target: game id; nothing is announced


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button to offer under a reply. ``version`` makes a click on an old message stale.

    ``style`` is one of "primary", "secondary", "success", "danger". ``arg``: a short word the
    click needs besides the ids (``ARG`` letters and digits, e.g. the line "row4" of a drop to
    confirm). ``seq``: with an ``arg``, the game's move count when the question was asked (a
    drop to confirm would be move ``seq`` + 1), so that a click after the drop was made is told
    so rather than to try again. ``typed``: the same answer as a console line ("drop row 4
    confirm"), when the kind alone does not say it.
    """

    label: str
    kind: ButtonKind
    target_id: int
    version: int
    style: str = "secondary"
    arg: str = ""
    typed: str = ""
    seq: int | None = None

    @property
    def custom_id(self) -> str:
        """``ref:<kind>:<target id>:<version>[:<arg>[:<seq>]]``, at most 100 characters as
        Discord requires."""
        parts = [CUSTOM_ID_PREFIX, self.kind.value, str(self.target_id), str(self.version)]
        if self.arg:
            parts.append(self.arg)
            if self.seq is not None:
                parts.append(str(self.seq))
        return ":".join(parts)


ARG = re.compile(r"[a-z0-9]{1,12}")
SEQ = re.compile(r"[0-9]{1,10}")


@dataclass(frozen=True, slots=True)
class Pressed:
    """What a click's custom_id says (``ButtonSpec.custom_id`` read back): the kind, the
    target's id, the version the button was made at, its ``arg`` ("" if none) and ``seq``
    (None if none)."""

    kind: ButtonKind
    target_id: int
    version: int
    arg: str = ""
    seq: int | None = None


def parse_button(custom_id: str) -> Pressed | None:
    """The click a custom_id made by ``ButtonSpec`` stands for; None if not ours (a button
    from before ``seq`` existed has none)."""
    parts = custom_id.split(":")
    if len(parts) not in (4, 5, 6) or parts[0] != CUSTOM_ID_PREFIX:
        return None
    arg = parts[4] if len(parts) >= 5 else ""
    if len(parts) >= 5 and not ARG.fullmatch(arg):
        return None
    if len(parts) == 6 and not SEQ.fullmatch(parts[5]):
        return None
    try:
        kind, target, version = ButtonKind(parts[1]), int(parts[2]), int(parts[3])
    except ValueError:
        return None
    if not (0 <= target <= MAX_ID and 0 <= version <= MAX_ID):
        return None  # a forged id SQLite cannot even look up
    return Pressed(kind, target, version, arg, int(parts[5]) if len(parts) == 6 else None)


class ReplyKind(StrEnum):
    """What a reply is, for a front end (and a language) to choose its words and where to show
    it; see ``Reply.kind``."""

    REFUSAL = "refusal"  # a private "no": nothing changed (``reason``, ``params`` say why)
    PRIVATE = "private"  # a private notice or question (help, a hopeless drop to confirm)
    MOVE = "move"  # public: a move landed (``events``: the move, a lost turn), with the board
    GAME_END = "game-end"  # public: the game is over (``events`` end with its ``Result``)
    BOARD = "board"  # public: a game's board shown again, or a game that starts
    NOTICE = "notice"  # public: anything else (a challenge, an offer, a setting)


@dataclass(frozen=True, slots=True)
class Moved:
    """An action that landed: ``side`` (0 or 1) played ``action`` (its notation), with the
    die's ``roll`` for an Atmalof drop."""

    side: int
    action: str
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class LostTurn:
    """A rolled drop that landed on a taken square: ``side``'s piece stayed in hand."""

    side: int
    roll: int


@dataclass(frozen=True, slots=True)
class Result:
    """How the game ended: ``termination`` (``engine.Termination`` value), ``winner`` (0, 1,
    or None for a draw or an abort) and the engine's or the referee's ``reason``."""

    termination: str
    winner: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class Rated:
    """What a rated game did to the players' ratings on ``ladder``: seat by seat, the rating
    before and after, and whether each was provisional (shown with "?") before and after."""

    ladder: str
    players: tuple[int, int]
    before: tuple[float, float]
    after: tuple[float, float]
    provisional_before: tuple[bool, bool]
    provisional_after: tuple[bool, bool]


Event = Moved | LostTurn | Result | Rated


@dataclass(slots=True)
class Reply:
    """The referee's answer to one command.

    - ``text``: what happened, in plain words (player names, not mentions); the front end may
      prefix ``mentions`` (user ids to ping, e.g. the player now to move).
    - ``to_move``: in a board of a running game, the user id whose turn it is, as data (a
      board only looked at, or the bot's turn, pings nobody).
    - ``image``/``image_name``: the board PNG (None when rendering is off or the reply has no
      board); ``board``: the position it shows, as data (``BoardView``). ``alt_text`` (the
      picture in words, for screen readers) and ``board_text`` (the board as text, which the
      console shows) are made from it when a front end asks: each front end wants one of them,
      and making both for every move cost ~0.13 ms (issue 17). ``image_alt``: the words of
      another picture (a chart). ``draw_later``: a board the front end asked to draw only
      when shown (``Referee.hold_boards``: a practice move the bot's answer follows, whose
      board is usually never shown), so ``image`` is None until ``Referee.draw``.
    - ``file``/``file_name``: an attachment such as the record JSON.
    - ``game_id``/``version``: the game this reply is about and its version after the command.
    - ``pending_roll``: an Atmalof announcement was stored; the front end shows this reply, then
      calls ``Referee.roll_pending`` (it is also completed by the next command in that channel).
    - ``chain``: the hash of the latest log row, shown on board messages (disputes); never in
      ``text``: each front end shows it its own way (the console as "Log #3fa9c01b2e", with
      ``chain_label``; Discord in the footer).
    - ``events``: what happened, as data (``Moved``, ``LostTurn``, ``Result``, ``Rated``);
      ``kind`` and ``addressed`` say what the reply is and whom it concerns.
    - ``notice``/``params``: for a notice (an offer, a declined challenge...), what happened as
      a code of ``bot.texts.NOTICES`` and what fills its sentence.
    - ``reason``/``params``: for a refusal, why, as data (``bot.errors.Refusal``: a code of
      ``bot.texts.REFUSALS`` and what fills its sentence).
    - ``lines``: the reply's sentences as data (``Msg``), which a front end says in its
      language (``bot.i18n``); ``text`` is the same in English, for logs and tests. A reply
      with a ``reason`` (a refusal) is said from its code alone.
    - ``ok``: the command landed; ``ephemeral``: the answer is for the actor alone. A front end
      decides where to show a reply by ``ephemeral`` only (see ``public``).
    """

    text: str
    ok: bool = True
    ephemeral: bool = False
    image: bytes | None = None
    image_name: str = "board.png"
    image_alt: str = ""
    draw_later: bool = False
    board: BoardView | None = None
    buttons: list[ButtonSpec] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)
    to_move: int | None = None
    game_id: int | None = None
    challenge_id: int | None = None
    version: int | None = None
    pending_roll: bool = False
    finished: bool = False
    chain: str | None = None
    file: bytes | None = None
    file_name: str | None = None
    chain_label: str = "Log"
    notice: str | None = None
    reason: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    public_kind: ReplyKind | None = None
    lines: list[Msg] = field(default_factory=list)

    @property
    def alt_text(self) -> str:
        """The picture in words: the board's, or ``image_alt`` for another picture; "" when
        there is no picture."""
        if self.image is None:
            return ""
        if self.board is not None:
            return boards.alt_text(self.board)
        return self.image_alt

    @property
    def board_text(self) -> str | None:
        """The board as text, or None when the reply shows none."""
        return None if self.board is None else boards.text_board(self.board)

    @property
    def kind(self) -> ReplyKind:
        """What this reply is (``ReplyKind``): a refusal or a private notice by where it goes,
        a public one by what happened (a result among its events, a move) or as it was made."""
        if self.ephemeral:
            return ReplyKind.REFUSAL if not self.ok else ReplyKind.PRIVATE
        if any(isinstance(e, Result) for e in self.events):
            return ReplyKind.GAME_END
        if any(isinstance(e, Moved) for e in self.events):
            return ReplyKind.MOVE
        return self.public_kind or ReplyKind.NOTICE

    @property
    def addressed(self) -> list[int]:
        """Who the reply is for besides the channel: the players to ping (e.g. the one to move),
        or, for a private reply, nobody but the person who acted."""
        return [] if self.ephemeral else list(dict.fromkeys(self.mentions))

    @property
    def public(self) -> bool:
        """The channel sees this answer (a board, a result), whether or not the command landed."""
        return not self.ephemeral

    @property
    def refused(self) -> bool:
        """A private "no": nothing changed and nobody else needs to know."""
        return not self.ok and self.ephemeral


@dataclass(frozen=True, slots=True)
class RulesHere:
    """The game a ``rules`` request finds being played here: its variant (``bot.rules_text.summary``
    says the standard summary for one it does not describe, a custom board, with examples legal
    in an Abalone layout's start) and the sentences to put after it: the variant the standard
    summary stands for, the options and clock its challenge changed, its dice where they are not
    the summary's."""

    variant: str
    notes: tuple[Msg, ...]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the sweeper did on its own (a flag fell, a challenge expired): post in where."""

    where: Where
    reply: Reply


class Preempted(RefereeError):
    """The command did not land, but the referee did something public on its way (the mover's
    flag had fallen): ``reply`` is what the channel sees. Raised by the services, answered by
    the wrapper (``bot.referee.wrapper``); it lives here, beside the Reply it carries, so that
    ``bot.errors`` reaches up to no layer."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.text)
        self.reply = reply
