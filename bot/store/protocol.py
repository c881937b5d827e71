"""The store's public interface: the ``Store`` and its units of work, and the rows they carry.

Everything that reads or writes games, actions, events, challenges, settings, request ids and
ladders does it through a unit of work::

    async with store.transaction("a move in game 7") as tx:   # reads and writes, all or nothing
        g = await tx.change_game(g, changes, actions)
    async with store.reading() as rx:                        # reads of one snapshot
        view = await rx.game_view(7)

A ``transaction`` commits when its block ends and rolls everything back when the block raises;
of two transactions that change one game, the second's ``change_game`` raises ``GameMovedOn``
(every change to a game is guarded by its version). A ``reading`` sees one consistent snapshot
of the whole store and writes nothing. ``Store`` also gives the common single reads and
writes, each as its own unit of work (an implementation inherits them). SQLite
(``bot.store.sqlite``) implements it; PostgreSQL implements the same contract. Store faults
(read-only, full, locked, lost file) surface as ``StoreUnavailable`` when the unit of work
begins, runs or commits, with nothing changed; a bug in a statement propagates as the
driver's own error.

The row types are plain dataclasses named for their tables; ``ladder`` types come from the pure
``bot.ladder`` package (the store keeps rows, the ladder computes). The module is long because
it is the whole contract, a docstring per method, in one place for every implementation.

Why it is long: it is the store's whole public interface, every method with the docstring a
new store implements against, and every row type, in one place.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.errors import RefereeError, StoreUnavailable
from bot.ladder import FinishedGame, RatingChange, SeasonArchive, Table
from bot.ladder.ratings import RatingState
from bot.ladder.stats import CasualRecords

T = TypeVar("T")


# --- errors -------------------------------------------------------------------------------------


class StoreDamaged(StoreUnavailable):
    """The integrity check at start found the file damaged: the bot refuses to run on it."""


class FileLost(StoreUnavailable):
    """The database file was deleted or replaced under the running bot: nothing written from
    now on would survive a restart, so no write is acknowledged any more."""

    REASON = "the database file was deleted or replaced"


class SchemaTooNew(RefereeError):
    """The store was written by a newer version of the bot: this one refuses to open it (it
    never downgrades, and writing with an older schema could corrupt what the newer one keeps)."""


class ChannelBusy(RefereeError):
    """The channel already has an active game (or an open challenge)."""


# --- rows ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class GameRow:
    """One row of ``games`` plus the two players' names."""

    id: int
    guild_id: int | None
    channel_id: int
    parent_id: int | None
    game: str
    variant: str
    options: str
    rated: int
    clock: str
    player0: int
    player1: int
    status: str
    version: int
    position: str
    ply: int
    seq: int
    last_hash: str
    rolls: int
    seed: str = field(repr=False)  # secret until the game ends: never in a log line
    commitment: str
    toss: int | None
    created_at: float
    updated_at: float
    turn_started_at: float
    bank0: float
    bank1: float
    deadline: float | None
    pending: str | None
    pending_seat: int | None
    pending_at: float | None
    draw_offer: int | None
    takeback_offer: int | None
    moved: int
    winner: int | None
    termination: str | None
    reason: str | None
    ended_at: float | None
    rematch_of: int | None
    name0: str
    name1: str
    log_version: int = 1  # 2: actions and events form one chain (migration 4)
    links: int = 0  # rows in that chain
    frozen_at: float | None = None  # a dispute froze the clocks at this time
    dice_mix: str | None = field(default=None, repr=False)  # mixed into every roll (migration 5)
    checkpoint_text: str | None = None  # the position after move checkpoint_seq (migration 7)
    checkpoint_seq: int | None = None
    checkpoint_head: str | None = None  # that move's row hash: the checkpoint's proof
    practice: int | None = None  # the bot's level in a practice game (migration 9)
    bot_seat: int | None = None  # ... and its seat: a game against the bot itself

    @property
    def players(self) -> tuple[int, int]:
        return (self.player0, self.player1)

    @property
    def names(self) -> tuple[str, str]:
        return (self.name0, self.name1)

    @property
    def banks(self) -> tuple[float, float]:
        return (self.bank0, self.bank1)

    def seat_of(self, user_id: int) -> int | None:
        """0 or 1 for a player of this game (0 if they play themselves), None for others."""
        if user_id == self.player0:
            return 0
        if user_id == self.player1:
            return 1
        return None


@dataclass(slots=True)
class ChallengeRow:
    """One row of ``challenges`` plus the names."""

    id: int
    guild_id: int | None
    channel_id: int
    parent_id: int | None
    challenger_id: int
    opponent_id: int | None
    game: str
    variant: str
    options: str
    rated: int
    clock: str
    starter: str
    status: str
    created_at: float
    expires_at: float
    game_id: int | None
    rematch_of: int | None
    challenger_name: str
    opponent_name: str | None
    seed: str | None = field(default=None, repr=False)  # the game's seed, drawn at the challenge
    words: str | None = None  # the challenger's dice words (migration 5)


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One stored move: ``seq`` in the game's line, the side that moved, the actor's user id as
    text, the notation, the die's roll, the ISO time, and the chain hashes (engine.record)."""

    id: int
    game_id: int
    seq: int
    side: int
    actor: str
    action: str
    roll: int | None
    at: str
    announced_at: str | None
    prev_hash: str
    hash: str
    link: int | None = None  # its place in the game's log (log_version 2)


@dataclass(frozen=True, slots=True)
class EventRow:
    """What the referee decided: start, resign, draw, takeback, timeout, abandon, abort, award."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    user_id: int | None
    at: float
    note: str
    link: int | None = None  # its place in the game's log, and its chain hashes (log_version 2)
    prev_hash: str | None = None
    hash: str | None = None

    @property
    def details(self) -> dict[str, Any]:
        return json.loads(self.note)


@dataclass(frozen=True, slots=True)
class NewAction:
    """A move to append; seq and hashes are filled in by the store."""

    side: int
    actor: str
    action: str
    roll: int | None
    at: str
    announced_at: str | None = None


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append to the game's event log."""

    kind: str
    at: float
    seat: int | None = None
    user_id: int | None = None
    note: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameView:
    """A game's row and its live line of moves, read in one snapshot: ``actions`` are the live
    moves ``after``+1 .. ``game.seq``. ``after`` is the game's checkpoint seq when the checkpoint's
    move is still the live row with ``checkpoint_head`` (replay from the checkpoint), else 0
    (replay from the start). No command landing meanwhile can make the two disagree."""

    game: GameRow
    actions: tuple[ActionRow, ...]
    after: int = 0


@dataclass(frozen=True, slots=True)
class LoggedChange:
    """A game's entry in the rating log: its ladder and both players' states around it."""

    game_id: int
    guild: int
    season: int
    ladder: str
    players: tuple[int, int]
    ended_at: float
    before: tuple[RatingState, RatingState]
    after: tuple[RatingState, RatingState]


@dataclass(frozen=True, slots=True)
class ForgetCounts:
    """What forgetting a guild removes (or would remove): rows per kind (``bot.forget.SHOWN``),
    its game ids, and its players: ``removed`` appear nowhere else, ``kept`` also elsewhere."""

    counts: dict[str, int]
    game_ids: tuple[int, ...]
    removed: int
    kept: int


# --- units of work ------------------------------------------------------------------------------


class Reader(Protocol):
    """The reads of one unit of work; every read inside one unit sees the same snapshot."""

    async def game(self, game_id: int) -> GameRow | None:
        """The game's row, or None."""
        ...

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's active game, or None."""
        ...

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's active game, else its most recent one (cheap however many it held)."""
        ...

    async def game_view(self, game_id: int, *, from_start: bool = False) -> GameView | None:
        """The game's row and its live moves since its checkpoint (``from_start``: since move
        0), as one snapshot (see ``GameView``); None for no such game."""
        ...

    async def actions(
        self, game_id: int, upto: int | None = None, after: int = 0
    ) -> list[ActionRow]:
        """The game's live line of moves ``after``+1..``upto`` (default the game's seq): for each
        seq the newest row, so moves taken back are left out though never deleted."""
        ...

    async def live_hash(self, game_id: int, seq: int) -> str | None:
        """The hash of the live row at ``seq`` (the newest with that seq), or None."""
        ...

    async def all_actions(self, game_id: int) -> list[ActionRow]:
        """Every stored move row in insertion order, taken-back ones included."""
        ...

    async def log(self, game_id: int) -> list[ActionRow | EventRow]:
        """A log_version 2 game's whole chain in order: every action (taken back or not) and
        every event, by their place in the log."""
        ...

    async def events(self, game_id: int) -> list[EventRow]:
        """The game's events in the order they were written."""
        ...

    async def challenge(self, challenge_id: int) -> ChallengeRow | None: ...

    async def open_challenge(self, channel_id: int) -> ChallengeRow | None:
        """The channel's open challenge, or None."""
        ...

    async def overdue_games(self, now: float, limit: int = 100) -> list[GameRow]:
        """Active games whose player to move ran out of time by ``now``, earliest first."""
        ...

    async def stale_rolls(self, before: float, limit: int = 100) -> list[GameRow]:
        """Active games whose announced roll has waited since ``before`` (a crash between the
        announcement and the roll), oldest first."""
        ...

    async def practice_games(self, after_id: int, limit: int = 100) -> list[GameRow]:
        """Active practice games (against the bot itself) with an id above ``after_id``, not
        frozen and with no roll waiting, lowest id first: the sweeper pages through them."""
        ...

    async def clocked_turns(
        self, started_before: float, after_id: int, limit: int = 100
    ) -> list[GameRow]:
        """Active clocked games (not frozen) whose turn began before ``started_before``, with
        an id above ``after_id``, lowest id first: a process that starts pages through them to
        give back the time its outage ran (``bot.referee.upkeep``)."""
        ...

    async def expired_challenges(self, now: float, limit: int = 100) -> list[ChallengeRow]:
        """Open challenges whose time ran out by ``now``, earliest first."""
        ...

    async def request_reply(self, request_id: str) -> dict[str, Any] | None:
        """The stored answer to a request id already handled, or None."""
        ...

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """{"theme", "ladder", "takebacks", "language" (None: English)}; defaults if none."""
        ...

    async def user_language(self, user_id: int) -> str | None:
        """The language a user chose for their private replies (None: not chosen)."""
        ...

    async def languages(
        self, guild_id: int | None, user_id: int | None
    ) -> tuple[str | None, str | None]:
        """(the guild's language, the user's own choice), each None where unset or not asked:
        what every reply reads, in one statement."""
        ...

    async def mod_role(self, guild_id: int) -> int | None:
        """The role a dispute notifies in this guild (None: not set)."""
        ...

    async def room_game(self, room_id: int) -> GameRow | None:
        """The game whose dispute the private room ``room_id`` (a thread) was opened for, or
        None when no dispute opened it."""
        ...

    async def open_challenges(self, user_id: int, now: float) -> int:
        """Challenges ``user_id`` posted that still wait for an answer (unexpired)."""
        ...

    async def active_games(self, user_id: int) -> int:
        """Active games ``user_id`` plays in (a game against oneself counts once)."""
        ...

    async def running_games(self, shard_count: int = 1, shard_ids: Sequence[int] = (0,)) -> int:
        """Active games in the servers of these shards (a server's shard is ``(guild_id >> 22)
        % shard_count``, games outside any server are shard 0's): the active-games gauge."""
        ...

    async def recent_games(
        self, game: str, guild_id: int | None, player: int, limit: int
    ) -> list[int]:
        """Ids of the player's latest ``limit`` games of ``game`` in the guild (None: outside
        any), oldest first."""
        ...

    async def casual_records(
        self,
        guild_id: int | None,
        player: int,
        game: str | None = None,
        opponent: int | None = None,
    ) -> CasualRecords:
        """The player's finished unrated games in the guild (None: outside any), every season,
        of ``game`` (None: every game), against ``opponent`` (None: anyone): wins, losses and
        draws against people, and apart against the practice bot. A rated game that ended
        before both players had moved is counted here: it was not rated
        (``bot.ladder.counts``), and the rated record leaves it out. A game without a result
        (aborted, voided) and one against themselves count in neither."""
        ...

    # ladders (guild 0: games outside any server)

    async def season(self, guild: int) -> int:
        """The guild's open season: 1 until a moderator first closes one."""
        ...

    async def finished_game(self, game_id: int, season: int) -> FinishedGame | None:
        """The finished game as the ladder sees it, placed in ``season``; None if it has no end
        time (or no such game)."""
        ...

    async def rated_games(
        self, guild: int, season: int | None, ids: Sequence[int] | None = None
    ) -> list[tuple[int, FinishedGame]]:
        """(game id, game) for the guild's finished rated games, oldest first (ended_at, then
        id), in ``season`` (None: every season); ``ids``: only those. A game's season is the one
        it was rated in; one never rated belongs to the last season started before it ended."""
        ...

    async def rated_later(
        self, game_id: int, guild: int, season: int, ladder: str, players: tuple[int, int]
    ) -> bool:
        """Whether the game was rated already, or a game of one of ``players`` on that ladder
        and season that ended later than it (or at the same time with a higher id) was: then
        the live update would be out of order and the season must be recomputed instead."""
        ...

    async def ratings(
        self, guild: int, ladder: str, season: int, players: Sequence[int] | None = None
    ) -> dict[int, RatingState]:
        """One ladder's rows by player id (``players``: only those)."""
        ...

    async def table(self, guild: int, season: int | None) -> dict[int, Table]:
        """The guild's stored tables by season, every ladder (``season``: only that one)."""
        ...

    async def ladders(self, guild: int, season: int) -> list[str]:
        """The ladder keys with at least one rated player this season, busiest first."""
        ...

    async def rating_change(self, game_id: int) -> LoggedChange | None:
        """What the game did to the ratings, or None when it was not rated."""
        ...

    async def rating_log(self, guild: int) -> dict[int, set[LoggedChange]]:
        """The guild's rating log by season."""
        ...

    async def rated_season(self, game_id: int) -> tuple[int, int] | None:
        """(guild, season) the game was rated in, or None."""
        ...

    async def archive(self, guild: int, season: int) -> SeasonArchive | None:
        """A closed season's final table, or None if that season is not closed."""
        ...

    async def names(self, ids: Iterable[int]) -> dict[int, str]:
        """Players' last display names by id (unknown ids left out)."""
        ...

    async def ladder_mark(self, guild: int) -> tuple[Any, ...]:
        """The guild's seasons and ladder setting in a few comparable values: equal marks, equal
        rules (a rebuild checks that nothing changed them under it)."""
        ...

    async def finished_versions(self, guild: int) -> dict[int, int]:
        """id -> version of the guild's finished games: a version moves with any change."""
        ...

    async def rated_guilds(self) -> list[int]:
        """Every guild with a finished rated game or a rating row, ascending."""
        ...


class Transaction(Reader, Protocol):
    """One unit of work that may write: everything in it lands together or not at all."""

    async def create_challenge(
        self, fields: Mapping[str, Any], people: Sequence[tuple[int, str]], now: float
    ) -> int:
        """Insert an open challenge (and upsert ``people``: (id, name)); its id. Raises
        ChannelBusy if the channel has an active game or an open challenge."""
        ...

    async def close_challenge(self, challenge_id: int, status: str) -> bool:
        """Move an open challenge to declined/withdrawn/expired; False if it was not open."""
        ...

    async def start_game(
        self,
        challenge_id: int,
        people: Sequence[tuple[int, str]],
        build: Callable[[int], tuple[dict[str, Any], NewEvent]],
        now: float,
    ) -> GameRow:
        """Accept an open challenge and insert its game. ``build(game_id)`` returns the game's
        columns and its start event. Raises GameMovedOn if the challenge is no longer open,
        ChannelBusy if the channel has an active game."""
        ...

    async def change_game(
        self,
        game: GameRow,
        changes: Mapping[str, Any],
        actions: Sequence[NewAction] = (),
        events: Sequence[NewEvent] = (),
        *,
        request: tuple[str, dict[str, Any]] | None = None,
        checkpoint: str | None = None,
    ) -> GameRow:
        """Apply ``changes`` to the game's row and append ``actions`` and ``events`` (chained),
        if the game is still at ``game.version`` (raises GameMovedOn otherwise); the version goes
        up by one. ``request``: (request id, reply) kept with the change. ``checkpoint``: the
        position after ``actions``. Raises ValueError for columns a change may not set (id,
        version, links, unknown ones; seq and last_hash beside actions). Returns the new row."""
        ...

    async def keep_reply(
        self, request_id: str, game_id: int | None, reply: dict[str, Any], at: float
    ) -> None:
        """Store (or replace) the answer to ``request_id``."""
        ...

    async def prune_requests(self, before: float, limit: int) -> int:
        """Forget at most ``limit`` request ids answered before ``before``, oldest first; how
        many went."""
        ...

    async def set_guild_settings(
        self,
        guild_id: int,
        now: float,
        *,
        theme: str | None = None,
        ladder: Mapping[str, Any] | None = None,
    ) -> None:
        """Set the guild's theme (None: keep it) and ladder setting (None: keep it)."""
        ...

    async def set_takebacks(self, guild_id: int, allowed: bool, now: float) -> None:
        """Whether casual games on this server may take back a move by consent."""
        ...

    async def set_user_language(self, user_id: int, language: str | None, now: float) -> None:
        """Keep (or, with None, forget) a user's own language for private replies."""
        ...

    async def set_guild_language(self, guild_id: int, language: str, now: float) -> None:
        """The server's language: public messages and board images."""
        ...

    async def set_mod_role(self, guild_id: int, role_id: int | None, now: float) -> None:
        """The role a dispute notifies (None: none)."""
        ...

    async def open_room(self, room_id: int, game_id: int, now: float) -> None:
        """Remember that the private room ``room_id`` was opened for a dispute of game
        ``game_id``; a room already known keeps the game it was opened for."""
        ...

    async def forget_guild(self, guild_id: int, *, delete: bool) -> ForgetCounts:
        """Count (and with ``delete`` remove) everything kept about the guild: its games with
        their logs, challenges, request answers, ladders, settings, and players who appear
        nowhere else (``bot.forget`` says what and why)."""
        ...

    # ladders

    async def put_ratings(self, season: int, rows: Table) -> None:
        """Write (insert or replace) these rating rows of ``season``."""
        ...

    async def log_rating_change(
        self, game_id: int, season: int, game: FinishedGame, change: RatingChange
    ) -> None:
        """Write (or replace) the game's entry in the rating log."""
        ...

    async def replace_season(
        self,
        guild: int,
        season: int,
        table: Table,
        changes: Sequence[tuple[int, FinishedGame, RatingChange]],
    ) -> None:
        """Replace the guild's rating rows and rating log of ``season`` by these."""
        ...

    async def set_ladder_setting(self, guild: int, setting: Mapping[str, Any], now: float) -> None:
        """Store the guild's ladder setting."""
        ...

    async def close_season(
        self, guild: int, season: int, now: float, by: int | None, archive: SeasonArchive
    ) -> None:
        """Mark ``season`` closed (by user ``by``) with its archive, and open ``season + 1``."""
        ...

    async def guarded(self, what: str, work: Callable[[], Awaitable[T]]) -> T | None:
        """Run ``work`` (writes through this transaction) so that a bug in it cannot fail the
        transaction: any exception that is not the store's own is logged once (naming ``what``),
        its writes are undone (a savepoint) and None is returned; a store error propagates and
        fails the whole transaction as usual."""
        ...


Guard = Callable[[Reader], Awaitable[None]]
"""A check run first inside a write transaction: it raises to refuse the write, so what it read
cannot change before the write lands (``bot.limits``)."""


@runtime_checkable
class Store(Protocol):
    """A place where games live. ``transaction`` and ``reading`` are its units of work; an
    implementation subclasses this protocol to inherit the one-shot methods below."""

    def transaction(self, what: str = "a write") -> AbstractAsyncContextManager[Transaction]:
        """A unit of work that may write: commits when the block ends, rolls back (and re-raises)
        when it raises. ``what`` names it in the one log line a fault produces; a fault raises
        StoreUnavailable with nothing changed."""
        ...

    def reading(self) -> AbstractAsyncContextManager[Reader]:
        """A unit of work that only reads, all of it from one consistent snapshot."""
        ...

    async def close(self) -> None:
        """Release the store's connections; safe to call twice."""
        ...

    # Single reads and writes, each its own unit of work, for an implementation that inherits
    # this class (both do). Two of them are two snapshots: read what must agree in one
    # ``reading`` (``game_view``). Ending a game is never a one-shot: the referee rates it in
    # the same transaction (``change_game`` is only a ``Transaction`` method).

    async def game(self, game_id: int) -> GameRow | None:
        async with self.reading() as rx:
            return await rx.game(game_id)

    async def active_game(self, channel_id: int) -> GameRow | None:
        async with self.reading() as rx:
            return await rx.active_game(channel_id)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        async with self.reading() as rx:
            return await rx.latest_game(channel_id)

    async def game_view(self, game_id: int, *, from_start: bool = False) -> GameView | None:
        async with self.reading() as rx:
            return await rx.game_view(game_id, from_start=from_start)

    async def actions(
        self, game_id: int, upto: int | None = None, after: int = 0
    ) -> list[ActionRow]:
        async with self.reading() as rx:
            return await rx.actions(game_id, upto, after)

    async def live_hash(self, game_id: int, seq: int) -> str | None:
        async with self.reading() as rx:
            return await rx.live_hash(game_id, seq)

    async def all_actions(self, game_id: int) -> list[ActionRow]:
        async with self.reading() as rx:
            return await rx.all_actions(game_id)

    async def log(self, game_id: int) -> list[ActionRow | EventRow]:
        async with self.reading() as rx:
            return await rx.log(game_id)

    async def events(self, game_id: int) -> list[EventRow]:
        async with self.reading() as rx:
            return await rx.events(game_id)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        async with self.reading() as rx:
            return await rx.challenge(challenge_id)

    async def open_challenge(self, channel_id: int) -> ChallengeRow | None:
        async with self.reading() as rx:
            return await rx.open_challenge(channel_id)

    async def overdue_games(self, now: float, limit: int = 100) -> list[GameRow]:
        async with self.reading() as rx:
            return await rx.overdue_games(now, limit)

    async def stale_rolls(self, before: float, limit: int = 100) -> list[GameRow]:
        async with self.reading() as rx:
            return await rx.stale_rolls(before, limit)

    async def practice_games(self, after_id: int, limit: int = 100) -> list[GameRow]:
        async with self.reading() as rx:
            return await rx.practice_games(after_id, limit)

    async def clocked_turns(
        self, started_before: float, after_id: int, limit: int = 100
    ) -> list[GameRow]:
        async with self.reading() as rx:
            return await rx.clocked_turns(started_before, after_id, limit)

    async def expired_challenges(self, now: float, limit: int = 100) -> list[ChallengeRow]:
        async with self.reading() as rx:
            return await rx.expired_challenges(now, limit)

    async def running_games(self, shard_count: int = 1, shard_ids: Sequence[int] = (0,)) -> int:
        async with self.reading() as rx:
            return await rx.running_games(shard_count, shard_ids)

    async def request_reply(self, request_id: str) -> dict[str, Any] | None:
        async with self.reading() as rx:
            return await rx.request_reply(request_id)

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self.reading() as rx:
            return await rx.guild_settings(guild_id)

    async def mod_role(self, guild_id: int) -> int | None:
        async with self.reading() as rx:
            return await rx.mod_role(guild_id)

    async def create_challenge(
        self,
        fields: Mapping[str, Any],
        people: Sequence[tuple[int, str]],
        now: float,
        guard: Guard | None = None,
    ) -> int:
        """``Transaction.create_challenge`` after ``guard`` in the same transaction."""
        async with self.transaction(f"a challenge in channel {fields['channel_id']}") as tx:
            if guard is not None:
                await guard(tx)
            return await tx.create_challenge(fields, people, now)

    async def close_challenge(self, challenge_id: int, status: str) -> bool:
        async with self.transaction(f"closing challenge {challenge_id} as {status}") as tx:
            return await tx.close_challenge(challenge_id, status)

    async def start_game(
        self,
        challenge_id: int,
        people: Sequence[tuple[int, str]],
        build: Callable[[int], tuple[dict[str, Any], NewEvent]],
        now: float,
        guard: Guard | None = None,
    ) -> GameRow:
        """``Transaction.start_game`` after ``guard`` in the same transaction."""
        async with self.transaction(f"starting the game of challenge {challenge_id}") as tx:
            if guard is not None:
                await guard(tx)
            return await tx.start_game(challenge_id, people, build, now)

    async def start_practice(
        self,
        fields: Mapping[str, Any],
        people: Sequence[tuple[int, str]],
        build: Callable[[int, int], tuple[dict[str, Any], NewEvent]],
        now: float,
        guard: Guard | None = None,
    ) -> GameRow:
        """A game against the bot, at once: ``Transaction.create_challenge`` (``fields``) and
        ``Transaction.start_game`` of it in one transaction after ``guard``, so no challenge
        is ever left waiting for the bot. ``build(challenge_id, game_id)`` as in start_game."""
        async with self.transaction(f"a practice game in channel {fields['channel_id']}") as tx:
            if guard is not None:
                await guard(tx)
            cid = await tx.create_challenge(fields, people, now)
            return await tx.start_game(cid, people, lambda gid: build(cid, gid), now)

    async def keep_reply(
        self, request_id: str, game_id: int | None, reply: dict[str, Any], at: float
    ) -> None:
        async with self.transaction(f"keeping the answer to request {request_id}") as tx:
            await tx.keep_reply(request_id, game_id, reply, at)

    async def prune_requests(self, before: float, limit: int) -> int:
        async with self.transaction("pruning old request ids") as tx:
            return await tx.prune_requests(before, limit)

    async def set_guild_settings(
        self,
        guild_id: int,
        now: float,
        *,
        theme: str | None = None,
        ladder: Mapping[str, Any] | None = None,
    ) -> None:
        async with self.transaction(f"saving the settings of guild {guild_id}") as tx:
            await tx.set_guild_settings(guild_id, now, theme=theme, ladder=ladder)

    async def set_takebacks(self, guild_id: int, allowed: bool, now: float) -> None:
        async with self.transaction(f"saving the takeback setting of guild {guild_id}") as tx:
            await tx.set_takebacks(guild_id, allowed, now)

    async def user_language(self, user_id: int) -> str | None:
        async with self.reading() as rx:
            return await rx.user_language(user_id)

    async def languages(
        self, guild_id: int | None, user_id: int | None
    ) -> tuple[str | None, str | None]:
        async with self.reading() as rx:
            return await rx.languages(guild_id, user_id)

    async def set_user_language(self, user_id: int, language: str | None, now: float) -> None:
        async with self.transaction(f"saving the language of user {user_id}") as tx:
            await tx.set_user_language(user_id, language, now)

    async def set_guild_language(self, guild_id: int, language: str, now: float) -> None:
        async with self.transaction(f"saving the language of guild {guild_id}") as tx:
            await tx.set_guild_language(guild_id, language, now)

    async def set_mod_role(self, guild_id: int, role_id: int | None, now: float) -> None:
        async with self.transaction(f"saving the moderators' role of guild {guild_id}") as tx:
            await tx.set_mod_role(guild_id, role_id, now)

    async def room_game(self, room_id: int) -> GameRow | None:
        async with self.reading() as rx:
            return await rx.room_game(room_id)

    async def open_room(self, room_id: int, game_id: int, now: float) -> None:
        async with self.transaction(f"the dispute room {room_id} of game {game_id}") as tx:
            await tx.open_room(room_id, game_id, now)
