"""The referee: every game command, transport-agnostic. Front ends call it and show its Reply.

Contract for front ends:
- Every method is ``async`` and returns a ``Reply`` (``legal_for`` a list, ``record`` a Reply
  with ``file``; ``sequence`` and ``sweep`` are async iterators, of replies and of notices).
  A refusal is ``Reply(ok=False, ephemeral=True, text=reason)`` and changes nothing. ``ok``
  (landed) and ``ephemeral`` (private) are separate: ``ok=False, ephemeral=False`` means the
  command did not land but something public happened instead (the mover's flag had fallen):
  show it to the channel. A refusal says why as data (``reason``, ``params``: a code of
  ``bot.texts.REFUSALS``). Every command goes through one wrapper (``bot.referee.wrapper``):
  mistakes a user can make never raise, and neither does a store that cannot write right now
  (read-only, full, locked: ``reason == "cant_save"``, nothing changed, the store logged it).
  Anything that does raise is a bug: log it with context, answer "something went wrong".
  (``sweep`` is no command: it raises ``StoreUnavailable``, after yielding the notices of
  what it had done.)
- ``where`` picks the game: one active game per channel (a thread is a channel).
- Show a command's answer with ``async for reply in referee.sequence(where, answer)``: most
  answers are one reply, an Atmalof announcement is two (the announcement, then, once it has
  been shown, the die's roll). If the process dies in between, the next command in that channel
  (or ``sweep``) completes the roll first.
- Buttons: show ``reply.buttons``; on a click call ``press(where, actor, custom_id)``.

This module is long only because it spells out each command's typed signature once (so that
front ends and mypy see them); every body is one line that hands the call to its service.

Why it is long: one short typed method per public command, each with the docstring front ends
read; the work itself is in the services.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Mapping
from contextlib import aclosing
from typing import Any

from bot.clock import Clock
from bot.errors import Refusal
from bot.referee import boards, suggest
from bot.referee import grammar as commands
from bot.referee.boards import Renderer
from bot.referee.buttons import Buttons
from bot.referee.challenges import Challenges
from bot.referee.choices import Choices
from bot.referee.context import MAX_CHOICES, POSITIONS_KEPT, Context
from bot.referee.endings import Endings
from bot.referee.imports import Imports
from bot.referee.ladders import Ladders
from bot.referee.moderation import Moderation
from bot.referee.play import Play
from bot.referee.practice import Practice
from bot.referee.practice_start import DEFAULT_LEVEL, PracticeStart
from bot.referee.proof import Proof
from bot.referee.replays import MAX_GIF_BYTES
from bot.referee.replies import (
    Actor,
    Notice,
    Reply,
    RulesHere,
    Where,
)
from bot.referee.server import ServerSettings
from bot.referee.upkeep import Upkeep
from bot.referee.views import Views
from bot.referee.wrapper import command, refused
from bot.shards import Shards
from bot.store import Store


class Referee:
    """Runs games for front ends over a ``Store``.

    ``render``: True renders board PNGs with ``render.board_png`` in a worker thread, False
    never renders (benchmarks, tests), or a callable ``(BoardView) -> bytes``.
    ``challenge_ttl``: seconds a challenge waits (default 10 minutes).
    ``abandon_after``: seconds without a move, in a game without a clock, after which the
    opponent may ``claim`` the win (default 72 hours).
    ``per_user_limits``: at most ``bot.limits`` challenges waiting and games running per user
    (default on; tests that stage many games for one person switch it off).
    ``positions_kept``: how many games' positions stay in memory (least recently used go first;
    any other is replayed from the store when needed).
    ``practice_nodes``: the practice opponent's node budget per move (None: its level's; tests
    lower it); ``practice_workers``: how many practice games it searches at once, each in a
    worker process of its own (default 1). ``close()`` shuts those processes down.

    A thin typed facade: each command goes through the one wrapper (``bot.referee.wrapper``)
    to the small service that holds it (challenges, play, endings, moderation, ladders, proof,
    imports, server settings, upkeep, practice), all sharing one explicit ``Context`` (store, clock,
    renderer, state cache). Button presses and the console grammar are routed here.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        render: bool | Renderer = True,
        *,
        challenge_ttl: float = 600.0,
        abandon_after: float = 72 * 3600.0,
        per_user_limits: bool = True,
        positions_kept: int = POSITIONS_KEPT,
        language: str | None = None,
        practice_nodes: int | None = None,
        practice_workers: int = 1,
    ) -> None:
        self.ctx = Context(
            store,
            clock,
            render,
            challenge_ttl=challenge_ttl,
            abandon_after=abandon_after,
            per_user_limits=per_user_limits,
            positions_kept=positions_kept,
            practice_nodes=practice_nodes,
            practice_workers=practice_workers,
        )
        self.ctx.language = language  # boards drawn outside any server (the console's table)
        self.store = store
        self.challenges = Challenges(self.ctx)
        self.play = Play(self.ctx)
        self.choices = Choices(self.ctx)
        self.views = Views(self.ctx)
        self.endings = Endings(self.ctx)
        self.moderation = Moderation(self.ctx)
        self.ladders = Ladders(self.ctx)
        self.proof = Proof(self.ctx)
        self.imports = Imports(self.ctx)
        self.server = ServerSettings(self.ctx)
        self.practice_games = Practice(self.ctx, self.play, self.endings)
        self.practice_starts = PracticeStart(self.ctx, self.challenges)
        self.upkeep = Upkeep(self.ctx, self.practice_games)
        self.buttons = Buttons(
            self.ctx, self.challenges, self.play, self.endings, self.practice_starts
        )

    async def close(self) -> None:
        """Release what the referee holds besides the store (the practice opponent's worker
        process); the caller closes the store."""
        self.practice_games.close()

    def hold_boards(self) -> None:
        """From now on, draw a board whose next move is the practice opponent's only when a
        front end shows it (``draw``): Discord holds such a board back, since the bot's answer
        shows the board after both moves, and drawing it cost every turn a picture nobody saw.
        The console writes every picture, so it leaves this off."""
        self.ctx.hold_boards = True

    async def draw(self, reply: Reply) -> Reply:
        """``reply`` with its board picture, drawn now if it was left for later
        (``Reply.draw_later``); else ``reply`` itself."""
        if not reply.draw_later or reply.board is None:
            return reply
        image = await boards.png(self.ctx.renderer, reply.board)
        return dataclasses.replace(reply, image=image, draw_later=False)

    async def held_board(self, reply: Reply) -> Reply | None:
        """A board held back for the bot's answer (``hold_boards``), drawn to be shown after
        all; None when its game has changed since (resigned, aborted, flagged, ended by a
        moderator, taken back, answered): shown then, it would still say the bot is to move
        (a player's finding: a move's board added after the game had ended)."""
        if reply.game_id is not None and reply.version is not None:
            g = await self.ctx.store.game(reply.game_id)
            if g is None or g.version != reply.version:
                return None
        return await self.draw(reply)

    def searching(self, game_id: int | None) -> bool:
        """Whether a worker is searching the practice opponent's move in this game now (not
        queued behind other games' searches): its answer is on its way."""
        return game_id is not None and self.practice_games.thinker.searching(game_id)

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    @property
    def challenge_ttl(self) -> float:
        """Seconds a challenge waits."""
        return self.ctx.challenge_ttl

    @property
    def abandon_after(self) -> float:
        """Seconds without a move after which the opponent may claim (no clock)."""
        return self.ctx.abandon_after

    async def settings(self, where: Where) -> dict[str, Any]:
        """This guild's settings: {"theme": name or None, "ladder": {...}}."""
        return await self.ctx.settings(where)

    # --- challenges ------------------------------------------------------------------------------

    @command()
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
        rematch_of: int | None = None,
        dice_words: str = "",
        request_id: str | None = None,
    ) -> Reply:
        """Challenge ``opponent`` (None: an open challenge anyone may accept) in this channel."""
        return await self.challenges.challenge(
            where,
            actor,
            game,
            opponent=opponent,
            variant=variant,
            options=options,
            rated=rated,
            clock=clock,
            starter=starter,
            rematch_of=rematch_of,
            dice_words=dice_words,
        )

    async def challenge_refusal(
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
        dice_words: str = "",
    ) -> Reply | None:
        """The refusal ``challenge`` would answer before writing anything, or None: asked
        first by a front end that makes something for the challenge (a thread), so a
        challenge that will be refused makes nothing. None is no promise: the write checks
        the limits again (and whether the channel is free), and the front end undoes what it
        made if refused."""
        return await self.challenges.challenge_refusal(
            where,
            actor,
            game,
            opponent=opponent,
            variant=variant,
            options=options,
            rated=rated,
            clock=clock,
            starter=starter,
            dice_words=dice_words,
        )

    @command()
    async def accept(
        self,
        where: Where,
        actor: Actor,
        challenge_id: int | None = None,
        *,
        dice_words: str = "",
        request_id: str | None = None,
    ) -> Reply:
        """Accept a challenge (None: the one waiting in this channel); starts the game here."""
        return await self.challenges.accept(where, actor, challenge_id, dice_words=dice_words)

    @command()
    async def decline(
        self,
        where: Where,
        actor: Actor,
        challenge_id: int | None = None,
        *,
        request_id: str | None = None,
    ) -> Reply:
        """Decline a challenge addressed to you, or withdraw your own."""
        return await self.challenges.decline(where, actor, challenge_id)

    @command()
    async def rematch(
        self,
        where: Where,
        actor: Actor,
        game_id: int | None = None,
        *,
        request_id: str | None = None,
    ) -> Reply:
        """Challenge the other player of the latest finished game here, starter swapped (after
        a practice game: a new one against the bot at once)."""
        return await self.practice_starts.rematch(where, actor, game_id)

    @command()
    async def practice(
        self,
        where: Where,
        actor: Actor,
        game: str,
        *,
        bot: Actor,
        level: int = DEFAULT_LEVEL,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        clock: str = "none",
        starter: str = "random",
        dice_words: str = "",
        rated: bool = False,
        request_id: str | None = None,
    ) -> Reply:
        """A casual game against ``bot`` (the front end's own user) at ``level`` 1-5, started
        at once; the bot answers in ``sequence``. Never rated (``rated=True`` is refused)."""
        return await self.practice_starts.start(
            where,
            actor,
            game,
            bot=bot,
            level=level,
            variant=variant,
            options=options,
            clock=clock,
            starter=starter,
            dice_words=dice_words,
            rated=rated,
        )

    # --- play ------------------------------------------------------------------------------------

    @command(keep=False)
    async def act(
        self,
        where: Where,
        actor: Actor,
        text: str,
        *,
        version: int | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """Play ``text`` in the game's notation ("drop row 4", "move d7 d6 x b6", "push a1
        a3 ne")."""
        return await self.play.act(where, actor, text, version=version)

    @command()
    async def roll_pending(
        self, where: Where, *, game_id: int | None = None, request_id: str | None = None
    ) -> Reply:
        """Roll the die for a stored Atmalof announcement and apply the drop."""
        return await self.play.roll_pending(where, game_id=game_id)

    async def legal_moves(self, where: Where, actor: Actor) -> list[str]:
        """Every legal action's notation, in the engine's order, if ``actor`` is to move now
        (else none); the console lists them a page at a time (``legal_for`` stops at 25)."""
        return await self.choices.legal_moves(where, actor)

    async def move_list(self, where: Where, actor: Actor) -> tuple[list[str], list[str]]:
        """``legal_moves``, and those of them that can only lose the turn (Atmalof's full
        lines), for a front end that lists them."""
        return await self.choices.move_list(where, actor)

    async def why_no_moves(self, where: Where, actor: Actor) -> Refusal:
        """The one reason ``legal_moves`` lists nothing for ``actor`` (a refusal to raise)."""
        return await self.choices.why_no_moves(where, actor)

    async def why_no_choices(
        self, where: Where, actor: Actor, verb: str | None = None
    ) -> Refusal | None:
        """Why ``legal_for`` has nothing for ``actor`` (no game here, another's turn, a Morris
        ``verb`` with nothing to do yet...), as a refusal's code and params for a front end to
        say; None when they are to move and ``verb`` (a command's first word) has moves."""
        return await self.choices.why_no_choices(where, actor, verb)

    async def did_you_mean(self, where: Where, text: str, known: Iterable[str]) -> str | None:
        """What ``text``, whose first word is no command, most likely meant: the word of
        ``known`` it is a typo of, else the one command of the game here a verb in front makes
        of it ("d7": "place d7"); None when no guess is clear."""
        return await suggest.did_you_mean(self.ctx, where, text, known)

    @command()
    async def board(self, where: Where, *, request_id: str | None = None) -> Reply:
        """The current position of the channel's game (or its latest finished game)."""
        return await self.views.board(where)

    async def game_here(self, where: Where) -> str | None:
        """The game being played here (else the one a waiting challenge is for), or None:
        ``rules`` without a game's name explains it."""
        return await self.views.game_here(where)

    async def terms_here(self, where: Where, game: str) -> RulesHere | None:
        """The game of ``game`` being played here, for ``rules``: the variant whose summary to
        say (Six Men's Morris is told as itself) and the sentences after it (changed options;
        a custom board's variant and dice), or None when none is being played here."""
        return await self.views.terms_here(where, game)

    async def ongoing(self, where: Where) -> Reply | None:
        """The board of the game still being played here, else the challenge waiting for its
        answer, or None: what a front end that starts again shows first (the console's table,
        reopened on the same database)."""
        return await self.views.ongoing(where) or await self.challenges.waiting(where)

    async def legal_for(
        self, where: Where, actor: Actor, prefix: str = "", *, limit: int | None = MAX_CHOICES
    ) -> list[str]:
        """Autocomplete: notations of the legal actions, if ``actor`` is to move; at most
        ``limit`` (None: all of them, for a front end that says how many more there are)."""
        return await self.choices.legal_for(where, actor, prefix, limit=limit)

    # --- endings ---------------------------------------------------------------------------------

    @command()
    async def resign(self, where: Where, actor: Actor, *, request_id: str | None = None) -> Reply:
        """Give up: the opponent wins. A repeated ``request_id`` is answered once."""
        return await self.endings.resign(where, actor)

    @command()
    async def offer_draw(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Offer a draw (accepts one already offered to you). It stands until the opponent
        accepts, declines, or plays on (which declines it); the offerer's own moves keep it."""
        return await self.endings.offer_draw(where, actor)

    @command()
    async def answer_draw(
        self,
        where: Where,
        actor: Actor,
        accept: bool,
        *,
        version: int | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """Accept or decline the draw your opponent offered (``version``: from the button)."""
        return await self.endings.answer_draw(where, actor, accept, version=version)

    @command()
    async def withdraw_draw(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Withdraw your own draw offer while your opponent has not answered it."""
        return await self.endings.withdraw_draw(where, actor)

    @command()
    async def request_takeback(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Ask to take back your last turn (and the reply to it); never across a die roll."""
        return await self.endings.request_takeback(where, actor)

    @command()
    async def answer_takeback(
        self,
        where: Where,
        actor: Actor,
        accept: bool,
        *,
        version: int | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """Allow or refuse the takeback your opponent asked for (``version``: from the button)."""
        return await self.endings.answer_takeback(where, actor, accept, version=version)

    @command()
    async def abort(self, where: Where, actor: Actor, *, request_id: str | None = None) -> Reply:
        """End the game unrated, allowed to a player who has not acted yet: a player who has
        moved (an Atmalof drop with its roll counts) could otherwise abort to escape a bad
        roll. An announced roll is rolled first (``_playing``), so it counts too. Before the
        game starts, the challenger's `abort` withdraws their challenge (as `decline` does)."""
        if await self.challenges.challenged_by(where, actor):
            return await self.challenges.decline(where, actor)
        return await self.endings.abort(where, actor)

    @command()
    async def claim(self, where: Where, actor: Actor, *, request_id: str | None = None) -> Reply:
        """Claim the win when the opponent's time ran out or they abandoned the game."""
        return await self.endings.claim(where, actor)

    @command()
    async def moderator_abort(
        self, where: Where, actor: Actor, reason: str, *, request_id: str | None = None
    ) -> Reply:
        """A moderator ends the channel's game unrated, with a reason that is logged."""
        return await self.endings.moderator_abort(where, actor, reason)

    @command()
    async def award(
        self,
        where: Where,
        actor: Actor,
        winner: Actor | None,
        reason: str,
        *,
        request_id: str | None = None,
    ) -> Reply:
        """A moderator decides the game: ``winner`` a player of it, or None for a draw."""
        return await self.endings.award(where, actor, winner, reason)

    # --- moderation ------------------------------------------------------------------------------

    @command()
    async def dispute(
        self, where: Where, actor: Actor, reason: str = "", *, request_id: str | None = None
    ) -> Reply:
        """A player of the channel's game freezes it and asks the moderators to look."""
        return await self.moderation.dispute(where, actor, reason)

    @command()
    async def dispute_room(
        self, where: Where, game_id: int, room_id: int, *, request_id: str | None = None
    ) -> Reply:
        """The front end opened the private room (thread) ``room_id`` of this channel for the
        dispute of game ``game_id``: commands in it find that game from now on, even after the
        channel starts another. Call it right after making the room; the reply says nothing
        (not ``ok``: the game is not this channel's, or the store could not save)."""
        return await self.moderation.dispute_room(where, game_id, room_id)

    @command()
    async def rewind(
        self,
        where: Where,
        actor: Actor,
        number: int,
        reason: str = "",
        *,
        request_id: str | None = None,
    ) -> Reply:
        """The position after action ``number`` (0: the start) as a picture; changes nothing
        but the log, which records that a moderator looked. Finished games too: their chain
        ends with the result, so that look goes to the bot's own log instead."""
        return await self.moderation.rewind(where, actor, number, reason)

    @command()
    async def resume(
        self, where: Where, actor: Actor, reason: str = "", *, request_id: str | None = None
    ) -> Reply:
        """Unfreeze: every clock goes on from what it showed when the dispute froze it."""
        return await self.moderation.resume(where, actor, reason)

    @command()
    async def restore(
        self, where: Where, actor: Actor, number: int, reason: str, *, request_id: str | None = None
    ) -> Reply:
        """By agreement: the game goes on from the position after action ``number``; the
        later actions leave the live line but stay in the log. The game is unfrozen; the
        clock banks stay as they are and the player to move starts a fresh turn."""
        return await self.moderation.restore(where, actor, number, reason)

    @command()
    async def void(
        self, where: Where, actor: Actor, reason: str, *, request_id: str | None = None
    ) -> Reply:
        """End the game without a result and unrated (frozen or not), the reason logged."""
        return await self.moderation.void(where, actor, reason)

    async def mod_role(self, where: Where) -> int | None:
        """The role a dispute notifies here (None: not set, or not in a server)."""
        return await self.moderation.mod_role(where)

    @command()
    async def set_mod_role(
        self, where: Where, actor: Actor, role_id: int | None, *, request_id: str | None = None
    ) -> Reply:
        return await self.moderation.set_mod_role(where, actor, role_id)

    # --- ladders ---------------------------------------------------------------------------------

    async def ladder_names(self, where: Where) -> list[str]:
        """Ladder keys for autocomplete: this season's ladders here, then every game."""
        return await self.ladders.ladder_names(where)

    @command()
    async def ladder(
        self,
        where: Where,
        actor: Actor,
        game: str | None = None,
        *,
        top: int = 10,
        include_provisional: bool = False,
        request_id: str | None = None,
    ) -> Reply:
        """The leaderboard of one ladder this season, with the caller's own rank."""
        return await self.ladders.ladder(
            where, actor, game, top=top, include_provisional=include_provisional
        )

    @command()
    async def stats(
        self,
        where: Where,
        actor: Actor,
        player: Actor | None = None,
        game: str | None = None,
        opponent: Actor | None = None,
        *,
        request_id: str | None = None,
    ) -> Reply:
        """A player's season: rating(s), record, streaks, head-to-head, history chart, and
        for Atmalof their dice luck."""
        return await self.ladders.stats(where, actor, player, game, opponent)

    @command()
    async def close_season(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Moderators: archive this server's ratings; a new season starts with everyone new."""
        return await self.ladders.close_season(where, actor)

    # --- proof -----------------------------------------------------------------------------------

    @command()
    async def history(
        self,
        where: Where,
        page: int | None = None,
        *,
        game_id: int | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """The game's moves with their times, ``HISTORY_PAGE`` to a page counted back from the
        end (1, the default, holds the latest moves; 2 the ones before). ``game_id`` (here and in
        ``record``, ``replay``, ``verify``): a game this server played, by the number its texts
        show (an earlier one after a rematch, another channel's); else the game here."""
        return await self.proof.history(where, page, game_id=game_id)

    @command()
    async def record(
        self, where: Where, *, game_id: int | None = None, request_id: str | None = None
    ) -> Reply:
        """The game's record as JSON in ``reply.file`` (seed included once the game is over)."""
        return await self.proof.record(where, game_id=game_id)

    @command()
    async def replay(
        self, where: Where, *, game_id: int | None = None, request_id: str | None = None
    ) -> Reply:
        """The game's animated replay (a GIF in ``reply.file``; the console's ``replay``)."""
        return await self.proof.replay(where, game_id=game_id)

    @command()
    async def verify(
        self, where: Where, *, game_id: int | None = None, request_id: str | None = None
    ) -> Reply:
        """Replay the stored log with the engine, recheck rolls (after the end) and the chain."""
        return await self.proof.verify(where, game_id=game_id)

    # --- imports ---------------------------------------------------------------------------------

    @command()
    async def import_record(
        self,
        where: Where,
        data: bytes,
        *,
        name: str = "record.json",
        gif: bool = False,
        max_gif_bytes: int = MAX_GIF_BYTES,
        request_id: str | None = None,
    ) -> Reply:
        """The verdict on a record file, its final position and (``gif``) its replay."""
        return await self.imports.import_record(
            where, data, name=name, gif=gif, max_gif_bytes=max_gif_bytes
        )

    # --- server ----------------------------------------------------------------------------------

    @command()
    async def set_setting(
        self, where: Where, actor: Actor, key: str, value: Any, *, request_id: str | None = None
    ) -> Reply:
        """Moderators only; keys: "theme" (a name render knows), "ladder" (a dict),
        "takebacks" (a bool: casual games may take back a move by consent)."""
        return await self.server.set_setting(where, actor, key, value)

    async def language(self, where: Where, user_id: int | None, locale: str | None = None) -> str:
        """The language of a private reply to ``user_id``: their own choice, else their
        client's ``locale`` where we have it, else the server's (``translations.choose``)."""
        return await self.server.language(where, user_id, locale)

    async def languages(
        self, where: Where, user_id: int | None, locale: str | None = None
    ) -> tuple[str, str]:
        """(public, private) languages: the server's, for the channel and board images, and
        the one a private reply to ``user_id`` is said in (see ``language``)."""
        return await self.server.languages(where, user_id, locale)

    @command()
    async def set_language(
        self, where: Where, actor: Actor, code: str | None, *, request_id: str | None = None
    ) -> Reply:
        """A user's own language for private replies (None: follow the client, else the
        server)."""
        return await self.server.set_language(actor, code)

    @command()
    async def forget_server(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Moderators: remove this server's data (``bot.forget``; docs/privacy.md)."""
        return await self.server.forget_server(where, actor)

    # --- upkeep ----------------------------------------------------------------------------------

    async def sweep(
        self, now: float | None = None, *, shards: Shards | None = None
    ) -> AsyncGenerator[Notice, None]:
        """End games whose flag fell, finish stale rolls, expire challenges, move for the bot
        where a practice game waits for it: ``async for notice in referee.sweep()``, each
        notice posted as it comes (a bot's move starts its player's clock; the next practice
        game's search takes a second or two). A store fault raises ``StoreUnavailable`` out of
        the loop after the notices already yielded: post those, and sweep again later.
        ``shards``: only those servers (a process serving some of the bot's shards)."""
        # closed with this one: a reader that stops closes the sweep's answers under way now
        async with aclosing(self.upkeep.sweep(now, shards=shards)) as notices:
            async for notice in notices:
                yield notice

    async def running_games(self, shards: Shards | None = None) -> int:
        """Active games in the servers of ``shards`` (None: all): the active-games gauge."""
        if shards is None or shards.serves_all:
            return await self.ctx.store.running_games()
        assert shards.count is not None and shards.ids is not None
        return await self.ctx.store.running_games(shards.count, shards.ids)

    async def sequence(self, where: Where, first: Reply) -> AsyncIterator[Reply]:
        """The replies a command's answer stands for, in the order to show them: ``first``,
        then, for an announcement, the die's roll, made only once the front end has shown the
        announcement (it asks for the next reply). A roll that cannot be saved yet is told as
        such; the sweeper rolls it later. In a practice game the bot's answers follow (its
        move, searched in a worker process, with its own announcement and roll)."""
        yield first
        last = first
        if first.ok and first.pending_roll:
            rolled = await self.roll_pending(where, game_id=first.game_id)
            if rolled.reason == "cant_save":  # logged by the store; the sweeper rolls it later
                rolled = refused(Refusal("roll_later"))
            yield rolled
            last = rolled
        # closed with this generator: a front end that stops asking (a shutdown) ends the
        # bot's answer there, which unmarks its game as being answered
        async with aclosing(self.practice_games.answers(last)) as answers:
            async for answer in answers:  # the bot's turn, if it is
                yield answer

    # --- routed here ------------------------------------------------------------------------

    @command()
    async def press(
        self, where: Where, actor: Actor, custom_id: str, *, request_id: str | None = None
    ) -> Reply:
        """A button click (custom_id from ``ButtonSpec``): the command it stands for. A click
        its game has moved past is told what became of what it asked (``bot.referee.buttons``).

        A repeated ``request_id`` (the interaction id) gets the first answer again.
        """
        return await self.buttons.press(where, actor, custom_id)

    @command()
    async def handle(
        self,
        where: Where,
        actor: Actor,
        text: str,
        *,
        people: Mapping[str, Actor] | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """Console-style text: "challenge bob atmalof", "accept", "drop row 4", "resign", "help".

        ``people`` maps names to actors for "challenge <name>".
        """
        return await commands.dispatch(self, where, actor, text, people or {})
