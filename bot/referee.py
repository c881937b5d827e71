"""The referee: every game command, transport-agnostic. Front ends call it and show its Reply.

Contract for front ends:
- Every method is ``async`` and returns a ``Reply`` (``legal_for`` a list, ``sweep`` notices,
  ``record`` a Reply with ``file``). A refusal is ``Reply(ok=False, ephemeral=True, text=reason)``
  and changes nothing. Mistakes a user can make never raise; anything that does raise is a bug:
  log it with context and answer "something went wrong".
- ``where`` picks the game: one active game per channel (a thread is a channel).
- Atmalof drops: ``act`` stores the announcement and answers with ``pending_roll=True``; show that
  reply, then call ``roll_pending(where)`` to roll and show the die. If the process dies in
  between, the next command in that channel completes the roll first.
- Buttons: show ``reply.buttons``; on a click call ``press(where, actor, custom_id)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.clock import Clock, SystemClock
from bot.replies import Actor, Notice, Reply, Where
from bot.store import Store

Renderer = Callable[..., bytes]


class Referee:
    """Runs games for front ends over a ``Store``.

    ``render``: True renders board PNGs with ``render.board_png`` in a worker thread, False
    never renders (benchmarks, tests), or a callable ``(game_name, state, last_action, theme)
    -> bytes``. ``challenge_ttl``: seconds a challenge waits (default 10 minutes).
    ``abandon_after``: seconds without a move, in a game without a clock, after which the
    opponent may ``claim`` the win (default 72 hours).
    """

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        render: bool | Renderer = True,
        *,
        challenge_ttl: float = 600.0,
        abandon_after: float = 72 * 3600.0,
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.render = render
        self.challenge_ttl = challenge_ttl
        self.abandon_after = abandon_after

    # --- challenges -------------------------------------------------------------------------

    async def challenge(
        self,
        where: Where,
        actor: Actor,
        game: str,
        *,
        opponent: Actor | None = None,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        rated: bool = False,
        clock: str = "none",
        starter: str = "random",
    ) -> Reply:
        """Challenge ``opponent`` (None: an open challenge anyone may accept) in this channel.

        ``starter``: "me" (the challenger moves first), "them", or "random" (a coin toss with the
        game's verifiable dice, shown when the game starts). ``clock``: "none", "10+0", "15+5",
        "24h". The reply carries Accept/Decline buttons and ``challenge_id``.
        """
        raise NotImplementedError

    async def accept(self, where: Where, actor: Actor, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (None: the one waiting in this channel); starts the game."""
        raise NotImplementedError

    async def decline(self, where: Where, actor: Actor, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to you, or withdraw your own."""
        raise NotImplementedError

    async def rematch(self, where: Where, actor: Actor, game_id: int | None = None) -> Reply:
        """Challenge the last opponent of the channel's latest finished game, starter swapped."""
        raise NotImplementedError

    # --- play -------------------------------------------------------------------------------

    async def act(
        self, where: Where, actor: Actor, text: str, *, request_id: str | None = None
    ) -> Reply:
        """Play ``text`` in the game's notation ("drop row 4", "move d7 d6 x b6", "push a1 a3 ne").

        A repeated ``request_id`` gets the first answer again and changes nothing.
        """
        raise NotImplementedError

    async def roll_pending(self, where: Where, *, game_id: int | None = None) -> Reply:
        """Roll the die for a stored Atmalof announcement and apply the drop."""
        raise NotImplementedError

    async def board(self, where: Where) -> Reply:
        """The current position of the channel's game (or its latest finished game)."""
        raise NotImplementedError

    async def legal_for(self, where: Where, actor: Actor, prefix: str = "") -> list[str]:
        """Autocomplete: notations of the legal actions, if ``actor`` is to move; at most 25."""
        raise NotImplementedError

    # --- endings ----------------------------------------------------------------------------

    async def resign(self, where: Where, actor: Actor) -> Reply:
        raise NotImplementedError

    async def offer_draw(self, where: Where, actor: Actor) -> Reply:
        """Offer a draw; accepting ends the game. The offer lapses when the offerer moves."""
        raise NotImplementedError

    async def answer_draw(
        self, where: Where, actor: Actor, accept: bool, *, version: int | None = None
    ) -> Reply:
        raise NotImplementedError

    async def request_takeback(self, where: Where, actor: Actor) -> Reply:
        """Ask to take back your last turn; never across a die roll."""
        raise NotImplementedError

    async def answer_takeback(
        self, where: Where, actor: Actor, accept: bool, *, version: int | None = None
    ) -> Reply:
        raise NotImplementedError

    async def abort(self, where: Where, actor: Actor) -> Reply:
        """End the game unrated, allowed until both sides have moved."""
        raise NotImplementedError

    async def claim(self, where: Where, actor: Actor) -> Reply:
        """Claim the win when the opponent's time ran out or they abandoned the game."""
        raise NotImplementedError

    # --- moderators -------------------------------------------------------------------------

    async def moderator_abort(self, where: Where, actor: Actor, reason: str) -> Reply:
        raise NotImplementedError

    async def award(self, where: Where, actor: Actor, winner: Actor | None, reason: str) -> Reply:
        """A moderator decides the game: ``winner`` a player of it, or None for a draw."""
        raise NotImplementedError

    # --- proof ------------------------------------------------------------------------------

    async def history(self, where: Where, page: int = 1, *, game_id: int | None = None) -> Reply:
        raise NotImplementedError

    async def record(self, where: Where, *, game_id: int | None = None) -> Reply:
        """The game's record as JSON in ``reply.file`` (seed included once the game is over)."""
        raise NotImplementedError

    async def verify(self, where: Where, *, game_id: int | None = None) -> Reply:
        """Replay the stored log with the engine, recheck rolls (after the end) and the chain."""
        raise NotImplementedError

    # --- settings, buttons, upkeep ----------------------------------------------------------

    async def settings(self, where: Where) -> dict[str, Any]:
        """This guild's settings: {"theme": ..., "ladder": {...}}."""
        raise NotImplementedError

    async def set_setting(self, where: Where, actor: Actor, key: str, value: Any) -> Reply:
        """Moderators only; keys: "theme"."""
        raise NotImplementedError

    async def press(self, where: Where, actor: Actor, custom_id: str) -> Reply:
        """A button click (custom_id from ``ButtonSpec``); stale versions are refused politely."""
        raise NotImplementedError

    async def sweep(self, now: float | None = None) -> list[Notice]:
        """End games whose flag fell and expire old challenges; notices to post. Call every ~5 s."""
        raise NotImplementedError

    async def handle(
        self, where: Where, actor: Actor, text: str, *, people: Mapping[str, Actor] | None = None
    ) -> Reply:
        """Console-style text: "challenge bob atmalof", "accept", "drop row 4", "resign", "help".

        ``people`` maps names to actors for "challenge <name>".
        """
        raise NotImplementedError
