"""Challenges: open or addressed, accepted or declined, expiring; who starts; rematches.

Why it is long: a challenge's whole life is one story (made, accepted with the coin toss and
the dice commitment, declined, expired, rematched); accepting alone is one transaction of about
a hundred lines.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Mapping
from typing import Any

import engine
from bot import limits, texts
from bot.clock import ClockSpec, ClockSpecError
from bot.errors import Refusal, engine_reason
from bot.game_names import game_named, game_title
from bot.i18n import Msg, msg, say_all
from bot.i18n.replies import engine_msg
from bot.referee.board_reply import board_reply
from bot.referee.context import STARTERS, Context, rematch_refused
from bot.referee.records import TOSS_ANNOUNCEMENT, TOSS_NUMBER
from bot.referee.replies import (
    Actor,
    ButtonKind,
    ButtonSpec,
    Reply,
    Where,
)
from bot.referee.wrapper import current_request_id, refused
from bot.store import (
    ChallengeRow,
    ChannelBusy,
    GameMovedOn,
    GameRow,
    NewEvent,
)
from engine import EngineError, dice
from engine.record import FULL_VERSION, stored_options


class Challenges:
    """challenge, accept, decline, rematch."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

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
    ) -> Reply:
        """Challenge ``opponent`` (None: an open challenge anyone may accept) in this channel.

        The game's secret dice seed is drawn now and its commitment published in the reply;
        ``dice_words`` are the challenger's own words mixed into every roll (``dice.mix``).

        ``starter``: "me" (the challenger moves first), "them", or "random" (a coin toss with the
        game's verifiable dice, shown when the game starts). ``clock``: "none", "10+0", "15+5",
        "24h". The reply carries Accept/Decline buttons and ``challenge_id``.
        """
        words = clean_dice_words(dice_words)
        rules, state, spec = await self._challenge_prepared(
            actor, game, opponent, variant, options, clock, starter
        )
        full_options = rules.options(state)
        seed = dice.new_seed()
        now = self.ctx.now()
        row = {
            "guild_id": where.guild_id,
            "channel_id": where.channel_id,
            "parent_id": where.parent_id,
            "challenger_id": actor.id,
            "opponent_id": opponent.id if opponent else None,
            "game": rules.name,
            "variant": state.variant,
            "options": json.dumps(full_options, sort_keys=True),
            "rated": int(bool(rated)),
            "clock": spec.text,
            "starter": starter,
            "created_at": now,
            "expires_at": now + self.ctx.challenge_ttl,
            "rematch_of": rematch_of,
            "seed": seed,
            "words": words,
        }
        people = [(actor.id, actor.name)] + ([(opponent.id, opponent.name)] if opponent else [])
        guard = limits.challenge_guard(actor.id, now) if self.ctx.per_user_limits else None
        try:
            cid = await self.ctx.store.create_challenge(row, people, now, guard)
        except limits.OverLimit as exc:  # the count inside the insert's transaction decides
            raise Refusal("over_limit", {"message": exc.said}) from exc
        except ChannelBusy as exc:
            raise Refusal("channel_busy", {"busy": await self.ctx.busy(where, actor)}) from exc
        issued = ChallengeRow(
            **{k: v for k, v in row.items() if k not in ("seed", "words")},
            id=cid,
            status="open",
            game_id=None,
            challenger_name=actor.name,
            opponent_name=opponent.name if opponent else None,
        )
        lines = [issued_line(issued, int(self.ctx.challenge_ttl // 60))]
        if starter == "random" or texts.rolls_dice(rules.name, state):  # the seed will count
            lines.append(msg("challenge.commitment", commitment=dice.commitment(seed)))
        changed = texts.options_line(rules.name, state.variant, full_options)
        lines.extend(m for m in (changed, texts.dice_line(state)) if m)
        text = say_all(lines)
        return Reply(
            text=text,
            lines=lines,
            challenge_id=cid,
            mentions=[opponent.id] if opponent else [],
            buttons=_answers(cid),
        )

    async def waiting(self, where: Where) -> Reply | None:
        """The challenge waiting here for its answer, said again with its buttons (the minutes
        it has left), or None: a front end that starts again shows it first."""
        c = await self.ctx.store.open_challenge(where.channel_id)
        left = 0.0 if c is None else c.expires_at - self.ctx.now()
        if c is None or left <= 0:
            return None
        lines = [issued_line(c, max(1, math.ceil(left / 60)))]
        return Reply(
            text=say_all(lines),
            lines=lines,
            challenge_id=c.id,
            mentions=[c.opponent_id] if c.opponent_id else [],
            buttons=_answers(c.id),
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
        """The refusal ``challenge`` would answer before writing anything, or None: asked first
        by a front end that makes something for the challenge (a thread), so a challenge that
        will be refused makes nothing. None is no promise: the write checks the limits again
        (and whether the channel is free), and the front end undoes what it made if refused."""
        try:
            clean_dice_words(dice_words)
            await self._challenge_prepared(actor, game, opponent, variant, options, clock, starter)
        except Refusal as exc:
            return refused(exc)
        return None

    async def _challenge_prepared(
        self,
        actor: Actor,
        game: str,
        opponent: Actor | None,
        variant: str,
        options: Mapping[str, Any] | None,
        clock: str,
        starter: str,
    ) -> tuple[Any, Any, ClockSpec]:
        """(rules, the starting position, the clock) for a challenge; refused otherwise."""
        if actor.is_bot:
            raise Refusal("bots_cannot_play")
        if opponent is not None and opponent.is_bot:
            raise Refusal("opponent_is_bot", {"opponent_name": opponent.name})
        if opponent is not None and opponent.id == actor.id:
            raise Refusal("challenge_yourself")
        if starter not in STARTERS:
            raise Refusal("bad_starter")
        if self.ctx.per_user_limits:
            busy = await limits.challenge_problem(self.ctx.store, actor.id, self.ctx.now())
            if busy:
                raise Refusal("over_limit", {"message": busy})
        return game_terms(game, variant, options, clock)

    async def accept(
        self,
        where: Where,
        actor: Actor,
        challenge_id: int | None = None,
        *,
        dice_words: str = "",
    ) -> Reply:
        """Accept a challenge (None: the one waiting in this channel); starts the game here.

        The accept's ``request_id`` (Discord's interaction id: neither player nor operator picks
        it) and both players' dice words are mixed into every roll, the coin toss first.
        """
        words = clean_dice_words(dice_words)
        now = self.ctx.now()
        c = await self._waiting_challenge(where, challenge_id, now)
        if actor.is_bot:
            raise Refusal("bots_cannot_play")
        if actor.id == c.challenger_id:
            raise Refusal("accept_own_challenge")
        if c.opponent_id is not None and actor.id != c.opponent_id:
            raise Refusal("challenge_for_other", {"opponent_name": c.opponent_name})
        if self.ctx.per_user_limits:
            busy = await limits.games_problem(self.ctx.store, actor.id)
            busy = busy or await limits.games_problem(
                self.ctx.store, c.challenger_id, c.challenger_name
            )
            if busy:
                raise Refusal("over_limit", {"message": busy})
        rules = engine.get_game(c.game)
        state = rules.new(c.variant, **stored_options(c.game, json.loads(c.options)))
        seed = c.seed or dice.new_seed()  # a challenge from before migration 5 has none
        # the front end's id of this accept (a button click's or /accept's interaction id)
        accept_id = current_request_id() or secrets.token_hex(8)  # none (console): random
        all_words = {str(c.challenger_id): c.words or "", str(actor.id): words}
        mixed = dice.mix(accept_id, all_words)
        toss: list[int | None] = [None]

        def build(game_id: int) -> tuple[dict[str, Any], NewEvent]:
            columns, start, toss[0] = opening(
                c, where, actor, state, seed, (accept_id, all_words, mixed), now, game_id
            )
            return columns, start

        guard = None
        if self.ctx.per_user_limits:
            guard = limits.games_guard([(actor.id, None), (c.challenger_id, c.challenger_name)])
        try:
            g = await self.ctx.store.start_game(
                c.id,
                [(c.challenger_id, c.challenger_name), (actor.id, actor.name)],
                build,
                now,
                guard,
            )
        except limits.OverLimit as exc:  # the count inside the insert's transaction decides
            raise Refusal("over_limit", {"message": exc.said}) from exc
        except GameMovedOn as exc:  # a twin click, or the other answer, landed first
            raise await self._answered(c.id) from exc
        except ChannelBusy as exc:
            raise Refusal("game_running_here") from exc
        self.ctx.states[g.id] = (g.last_hash, state)
        return await board_reply(self.ctx, g, state, start_lines(g, state, toss[0]), ok=True)

    async def decline(self, where: Where, actor: Actor, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to you, or withdraw your own."""
        c = await self._waiting_challenge(where, challenge_id, self.ctx.now())
        said = {"actor": actor.name, "challenger": c.challenger_name}
        if actor.id == c.challenger_id:  # the challenger's Decline / Withdraw: named to whom
            status = "withdrawn"
            if c.opponent_id is None:
                code = "challenge_withdrawn_open"
            else:
                code = "challenge_withdrawn"
                said["opponent"] = c.opponent_name or ""
        elif c.opponent_id is None or actor.id == c.opponent_id:
            if c.opponent_id is None:
                raise Refusal("open_challenge_decline")
            status, code = "declined", "challenge_declined"
        else:
            raise Refusal("challenge_for_other", {"opponent_name": c.opponent_name})
        if not await self.ctx.store.close_challenge(c.id, status):
            raise await self._answered(c.id)
        text = texts.notice_text(code, said)
        return Reply(text=text, notice=code, params=said, challenge_id=c.id)

    async def challenged_by(self, where: Where, actor: Actor) -> bool:
        """Whether the challenge waiting here is ``actor``'s own (their `abort` withdraws it)."""
        c = await self.ctx.store.open_challenge(where.channel_id)
        return c is not None and c.challenger_id == actor.id

    async def rematch(self, where: Where, actor: Actor, game_id: int | None = None) -> Reply:
        """Challenge the other player of the latest finished game here, starter swapped.

        If the other player already asked for the rematch, this accepts it.
        """
        g = await (
            self.ctx.store.game(game_id)
            if game_id
            else self.ctx.store.latest_game(where.channel_id)
        )
        if g is None or g.channel_id != where.channel_id:
            raise Refusal("no_finished_game")
        seat = g.seat_of(actor.id)
        rematch_refused(g, stranger=seat is None)
        assert seat is not None
        answered = await self._rematch_asked(where, actor, g)
        if answered is not None:
            return answered
        other = 1 - seat
        opponent = Actor(g.players[other], g.names[other])
        try:
            return await self.challenge(
                where,
                actor,
                g.game,
                opponent=opponent,
                variant=g.variant,
                options=json.loads(g.options),
                rated=bool(g.rated),
                clock=g.clock,
                starter="me" if seat == 1 else "them",  # the second player starts the rematch
                rematch_of=g.id,
            )
        except Refusal:  # a click racing this one (either player's) asked first: say what it did
            answered = await self._rematch_asked(where, actor, g)
            if answered is not None:
                return answered
            raise

    async def rematch_begun(self, where: Where, g: GameRow) -> Refusal | None:
        """The refusal of a rematch of ``g`` whose game already runs here (a click before this
        one started it: a double click, or both players'), or None."""
        running = await self.ctx.store.active_game(where.channel_id)
        if running is None or running.rematch_of != g.id:
            return None
        return Refusal(
            "rematch_started",
            {
                "game": game_title(running.game, running.variant),
                "players": texts.players_msg(running.names),
            },
            game_id=running.id,
            version=running.version,
        )

    async def _rematch_asked(self, where: Where, actor: Actor, g: GameRow) -> Reply | None:
        """What became of a rematch of ``g`` that was asked for already: refused when its game
        runs here or ``actor`` asked for it; the other player's request accepted; None when
        nobody has asked yet."""
        begun = await self.rematch_begun(where, g)
        if begun is not None:
            raise begun
        waiting = await self.ctx.store.open_challenge(where.channel_id)
        if waiting is None or waiting.rematch_of != g.id:
            return None
        if waiting.challenger_id == actor.id:
            raise Refusal("rematch_asked")
        try:
            return await self.accept(where, actor, waiting.id)
        except Refusal:  # a click racing this one accepted it first
            begun = await self.rematch_begun(where, g)
            if begun is not None:
                raise begun from None
            raise

    async def _waiting_challenge(
        self, where: Where, challenge_id: int | None, now: float
    ) -> ChallengeRow:
        """The challenge to answer (see ``_find_challenge``) while it is open; refused else."""
        c = await self._find_challenge(where, challenge_id)
        if c is None:
            raise Refusal("no_challenge")
        await self._challenge_open(c, now)
        return c

    async def _find_challenge(self, where: Where, challenge_id: int | None) -> ChallengeRow | None:
        if challenge_id is not None:  # from a button: it must be this channel's (or parent's)
            c = await self.ctx.store.challenge(challenge_id)
            here = (where.channel_id, where.parent_id)
            return c if c is not None and c.channel_id in here else None
        found = await self.ctx.store.open_challenge(where.channel_id)
        if found is None and where.parent_id is not None:
            found = await self.ctx.store.open_challenge(where.parent_id)
        return found

    async def _answered(self, challenge_id: int) -> Refusal:
        """Why an answer that lost the race to another one does nothing: what became of the
        challenge, read afresh (a double click is told "already declined", as a later click
        is, not only "already answered")."""
        c = await self.ctx.store.challenge(challenge_id)
        if c is None or c.status == "open":
            return Refusal("challenge_answered")
        return closed(c)

    async def _challenge_open(self, c: ChallengeRow, now: float) -> None:
        """Refuse an answer to a challenge that expired (closing it now) or was answered."""
        if c.status == "open" and now >= c.expires_at:
            await self.ctx.store.close_challenge(c.id, "expired")
            raise Refusal("challenge_expired")
        if c.status != "open":
            raise closed(c)


def closed(c: ChallengeRow) -> Refusal:
    """``challenge_closed``: the challenge was already accepted, declined, withdrawn or expired
    (said in the reader's language: ``challenge_status.*``)."""
    return Refusal("challenge_closed", {"status": msg(f"challenge_status.{c.status}")})


def option_msg(exc: EngineError, game: str) -> Msg:
    """An engine's refusal of a game's terms as a sentence: a language says an unknown variant
    or option from its code (``engine.<game>.unknown_variant``), the rest in English."""
    try:
        known: str | None = engine.get_game(game).name
    except EngineError:
        known = None
    return engine_msg(engine_reason(exc, known))


def game_terms(
    game: str, variant: str, options: Mapping[str, Any] | None, clock: str
) -> tuple[Any, Any, ClockSpec]:
    """(rules, the starting position, the clock) of a game to start; refused when the game,
    variant, options or clock cannot be read. The game may be named in any language, or by a
    variant's own name ("Six Men's Morris": that variant unless another is asked for)."""
    try:
        name, named = game_named(game)
        rules = engine.get_game(name)
        variant = named if named and variant == "standard" else variant
        state = rules.new(variant, **dict(options or {}))
        spec = ClockSpec.parse(clock)
    except ClockSpecError as exc:
        raise Refusal("bad_option", {"message": exc.said or str(exc)}) from exc
    except EngineError as exc:  # said from its code where a language has it (a typo'd variant)
        raise Refusal("bad_option", {"message": option_msg(exc, game)}) from exc
    except TypeError as exc:
        raise Refusal("options_do_not_fit", {"game": game, "exc": str(exc)}) from exc
    return rules, state, spec


def clean_dice_words(text: Any) -> str:
    """A player's dice words, stripped; refused when a record cannot hold them."""
    if not isinstance(text, str):
        raise Refusal("dice_words_text")
    text = " ".join(text.split())
    if len(text) > dice.MAX_WORDS:
        raise Refusal("dice_words_too_long", {"max_words": dice.MAX_WORDS})
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Refusal("dice_words_plain") from exc
    return text


def opening(
    c: ChallengeRow,
    where: Where,
    acceptor: Actor,
    state: Any,
    seed: str,
    dice_mix: tuple[str, dict[str, str], str],
    now: float,
    game_id: int,
) -> tuple[dict[str, Any], NewEvent, int | None]:
    """The columns and start event of the game ``acceptor`` starts by accepting ``c``, and the
    coin toss (None unless ``c.starter`` is "random"). ``dice_mix``: the accept's id, every
    player's dice words, and what they mix into the rolls (``dice.mix``)."""
    accept_id, all_words, mixed = dice_mix
    toss: int | None = None
    if c.starter == "random":
        toss = dice.roll(seed, str(game_id), TOSS_NUMBER, TOSS_ANNOUNCEMENT, 2, mixed)
        challenger_first = toss == 1
    else:
        challenger_first = c.starter == "me"
    seats = (c.challenger_id, acceptor.id) if challenger_first else (acceptor.id, c.challenger_id)
    spec = ClockSpec.parse(c.clock)
    bank0, bank1 = spec.start_banks()
    rules = engine.get_game(c.game)
    columns = {
        "guild_id": where.guild_id,
        "channel_id": where.channel_id,
        "parent_id": where.parent_id,
        "game": c.game,
        "variant": c.variant,
        "options": c.options,
        "rated": c.rated,
        "clock": c.clock,
        "player0": seats[0],
        "player1": seats[1],
        "position": rules.to_text(state),
        "seed": seed,
        "commitment": dice.commitment(seed),
        "toss": toss,
        "created_at": now,
        "updated_at": now,
        "turn_started_at": now,
        "bank0": bank0,
        "bank1": bank1,
        "deadline": spec.deadline(now, bank0),
        "rematch_of": c.rematch_of,
        "dice_mix": mixed,
    }
    names = {c.challenger_id: c.challenger_name, acceptor.id: acceptor.name}
    start = NewEvent(
        "start",
        now,
        user_id=acceptor.id,
        note={
            "challenge": c.id,
            "players": list(seats),
            "commitment": columns["commitment"],
            "toss": toss,
            # record version 3: what the chain covers through the start row
            "record": FULL_VERSION,
            "game": c.game,
            "variant": c.variant,
            "options": json.loads(c.options),
            "game_id": str(game_id),
            "names": [names[seats[0]], names[seats[1]]],
            "accept": accept_id,
            "words": all_words,
        },
    )
    return columns, start, toss


def issued_line(c: ChallengeRow, minutes: int) -> Msg:
    """ "alice challenges bob to Nine Men's Morris (...); alice moves first. The challenge
    expires in 10 minutes." """
    whom: Any = c.opponent_name if c.opponent_id else msg("who.anyone")
    if c.starter in ("me", "them"):
        first = msg("challenge.first", player=c.challenger_name if c.starter == "me" else whom)
    else:
        first = msg("challenge.first_toss")
    return msg(
        "challenge.issued_rated" if c.rated else "challenge.issued_casual",
        challenger=c.challenger_name,
        opponent=whom,
        game=game_title(c.game, c.variant),
        clock=texts.clock_msg(c.clock),
        first=first,
        n=minutes,
    )


def _answers(challenge_id: int) -> list[ButtonSpec]:
    return [
        ButtonSpec("Accept", ButtonKind.ACCEPT, challenge_id, 0, "success"),
        # one button for both: the challenged declines, the challenger withdraws
        ButtonSpec("Decline / Withdraw", ButtonKind.DECLINE, challenge_id, 0, "danger"),
    ]


def start_lines(g: GameRow, state: Any, toss: int | None) -> list[Msg]:
    """What a game's start says above its first board: the seats, changed options, the toss
    and the dice commitment (when dice or a toss use the seed: ``texts.seed_matters``)."""
    lines = [texts.start_players(g)]
    if g.rated:  # the challenge said so; the start, which more people read, says it again
        lines.append(msg("start.rated"))
    changed = texts.options_line(g.game, g.variant, g.options, g.clock)
    lines.extend(m for m in (changed, texts.dice_line(state)) if m)
    if toss is not None:
        lines.append(msg("start.toss", player=g.names[0]))
    if texts.rolls_dice(g.game, state):
        lines.append(msg("start.commitment_rolls", commitment=g.commitment))
    elif toss is not None:
        lines.append(msg("start.commitment_toss", commitment=g.commitment))
    return lines
