"""The store's schema as one numbered list of migrations, each with its SQL for SQLite and, where
PostgreSQL must differ, for PostgreSQL (identity ids, BIGINT Discord ids, ``timestamptz`` times,
append-only triggers in PL/pgSQL; ``bot.store.postgres_schema`` says why and runs them there).
SQLite's ``PRAGMA user_version`` and PostgreSQL's ``referee_schema`` count the same steps.

Append new migrations at the end, never edit an old one: a database made by any earlier version
of the bot is brought to the newest schema at start-up. Why it is long: it is the
whole schema's history, in both dialects, in one place.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step: its SQLite script, and PostgreSQL's where the dialects differ."""

    sqlite: str
    postgres: str | None = None  # None: the same script runs on PostgreSQL

    @property
    def on_postgres(self) -> str:
        return self.sqlite if self.postgres is None else self.postgres


# PostgreSQL's append-only logs: a trigger function that refuses UPDATE, DELETE and TRUNCATE, but
# lets a DELETE through inside a transaction that forgets a server (bot/store/postgres_forget.py).
_APPEND_ONLY = """
    CREATE FUNCTION referee_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' AND current_setting('referee.forgetting', true) = 'on' THEN
            RETURN OLD;  -- forgetting a server, inside its own transaction
        END IF;
        RAISE EXCEPTION 'the % log is append-only', TG_ARGV[0]
            USING ERRCODE = 'restrict_violation';
    END $$;
"""


STEPS: tuple[Migration, ...] = (
    # 1: players, challenges, games, the append-only action log and event log.
    # actions: the game's moves, each row hashed over the previous one exactly as
    # engine.record.log_row/row_hash define (seq, side, actor, action, roll, at). A takeback
    # never deletes: later rows reuse the seqs after it, and the live line is, for each seq up
    # to games.seq, the newest row with that seq. events: what the referee decided (start with
    # the dice commitment and toss, resign, draw, takeback, timeout, abort, award) with reasons.
    Migration(
        sqlite="""
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        parent_id INTEGER,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        rated INTEGER NOT NULL DEFAULT 0,
        clock TEXT NOT NULL DEFAULT 'none',
        player0 INTEGER NOT NULL REFERENCES players(id),
        player1 INTEGER NOT NULL REFERENCES players(id),
        status TEXT NOT NULL DEFAULT 'active'
            CHECK (status IN ('active', 'finished', 'aborted')),
        version INTEGER NOT NULL DEFAULT 0,
        position TEXT NOT NULL,
        ply INTEGER NOT NULL DEFAULT 0,
        seq INTEGER NOT NULL DEFAULT 0,
        last_hash TEXT NOT NULL,
        rolls INTEGER NOT NULL DEFAULT 0,
        seed TEXT NOT NULL,
        commitment TEXT NOT NULL,
        toss INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        turn_started_at REAL NOT NULL,
        bank0 REAL NOT NULL DEFAULT 0,
        bank1 REAL NOT NULL DEFAULT 0,
        deadline REAL,
        pending TEXT,
        pending_seat INTEGER,
        pending_at REAL,
        draw_offer INTEGER,
        takeback_offer INTEGER,
        moved INTEGER NOT NULL DEFAULT 0,
        winner INTEGER,
        termination TEXT,
        reason TEXT,
        ended_at REAL,
        rematch_of INTEGER REFERENCES games(id)
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id)
        WHERE status = 'active';
    CREATE INDEX games_by_channel ON games(channel_id, id);
    CREATE INDEX games_deadline ON games(deadline)
        WHERE status = 'active' AND deadline IS NOT NULL;
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        parent_id INTEGER,
        challenger_id INTEGER NOT NULL REFERENCES players(id),
        opponent_id INTEGER REFERENCES players(id),
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        rated INTEGER NOT NULL DEFAULT 0,
        clock TEXT NOT NULL DEFAULT 'none',
        starter TEXT NOT NULL CHECK (starter IN ('me', 'them', 'random')),
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        game_id INTEGER REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED,
        rematch_of INTEGER REFERENCES games(id)
    );
    CREATE UNIQUE INDEX challenges_one_open_per_channel ON challenges(channel_id)
        WHERE status = 'open';
    CREATE INDEX challenges_expiry ON challenges(expires_at) WHERE status = 'open';
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        side INTEGER NOT NULL CHECK (side IN (0, 1)),
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        roll INTEGER,
        at TEXT NOT NULL,
        announced_at TEXT,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    );
    CREATE INDEX actions_by_game ON actions(game_id, seq, id);
    CREATE TRIGGER actions_are_never_updated BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_are_never_deleted BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL,
        seat INTEGER,
        user_id INTEGER,
        at REAL NOT NULL,
        note TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX events_by_game ON events(game_id, id);
    CREATE TRIGGER events_are_never_updated BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    """,
        postgres=_APPEND_ONLY
        + """
    CREATE TABLE players (
        id BIGINT PRIMARY KEY,
        name TEXT NOT NULL,
        first_seen TIMESTAMPTZ NOT NULL,
        last_seen TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        parent_id BIGINT,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        rated INTEGER NOT NULL DEFAULT 0,
        clock TEXT NOT NULL DEFAULT 'none',
        player0 BIGINT NOT NULL REFERENCES players(id),
        player1 BIGINT NOT NULL REFERENCES players(id),
        status TEXT NOT NULL DEFAULT 'active'
            CHECK (status IN ('active', 'finished', 'aborted')),
        version INTEGER NOT NULL DEFAULT 0,
        position TEXT NOT NULL,
        ply INTEGER NOT NULL DEFAULT 0,
        seq INTEGER NOT NULL DEFAULT 0,
        last_hash TEXT NOT NULL,
        rolls INTEGER NOT NULL DEFAULT 0,
        seed TEXT NOT NULL,
        commitment TEXT NOT NULL,
        toss INTEGER,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL,
        turn_started_at TIMESTAMPTZ NOT NULL,
        bank0 DOUBLE PRECISION NOT NULL DEFAULT 0,
        bank1 DOUBLE PRECISION NOT NULL DEFAULT 0,
        deadline TIMESTAMPTZ,
        pending TEXT,
        pending_seat INTEGER,
        pending_at TIMESTAMPTZ,
        draw_offer INTEGER,
        takeback_offer INTEGER,
        moved INTEGER NOT NULL DEFAULT 0,
        winner INTEGER,
        termination TEXT,
        reason TEXT,
        ended_at TIMESTAMPTZ,
        rematch_of BIGINT REFERENCES games(id)
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id)
        WHERE status = 'active';
    CREATE INDEX games_by_channel ON games(channel_id, id);
    CREATE INDEX games_deadline ON games(deadline)
        WHERE status = 'active' AND deadline IS NOT NULL;
    CREATE TABLE challenges (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        parent_id BIGINT,
        challenger_id BIGINT NOT NULL REFERENCES players(id),
        opponent_id BIGINT REFERENCES players(id),
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        rated INTEGER NOT NULL DEFAULT 0,
        clock TEXT NOT NULL DEFAULT 'none',
        starter TEXT NOT NULL CHECK (starter IN ('me', 'them', 'random')),
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        game_id BIGINT REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED,
        rematch_of BIGINT REFERENCES games(id)
    );
    CREATE UNIQUE INDEX challenges_one_open_per_channel ON challenges(channel_id)
        WHERE status = 'open';
    CREATE INDEX challenges_expiry ON challenges(expires_at) WHERE status = 'open';
    CREATE TABLE actions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        side INTEGER NOT NULL CHECK (side IN (0, 1)),
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        roll INTEGER,
        at TEXT NOT NULL,
        announced_at TEXT,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    );
    CREATE INDEX actions_by_game ON actions(game_id, seq, id);
    CREATE TRIGGER actions_append_only BEFORE UPDATE OR DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION referee_append_only('action');
    CREATE TRIGGER actions_never_truncated BEFORE TRUNCATE ON actions
        FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only('action');
    CREATE TABLE events (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL,
        seat INTEGER,
        user_id BIGINT,
        at TIMESTAMPTZ NOT NULL,
        note TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX events_by_game ON events(game_id, id);
    CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION referee_append_only('event');
    CREATE TRIGGER events_never_truncated BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only('event');
    """,
    ),
    # 2: per-guild settings (board theme, ladder options) and answered request ids
    Migration(
        sqlite="""
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        theme TEXT,
        ladder TEXT NOT NULL DEFAULT '{}',
        updated_at REAL NOT NULL
    );
    CREATE TABLE request_ids (
        request_id TEXT PRIMARY KEY,
        game_id INTEGER REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED,
        reply TEXT NOT NULL,
        at REAL NOT NULL
    );
    """,
        postgres="""
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        theme TEXT,
        ladder TEXT NOT NULL DEFAULT '{}',
        updated_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE request_ids (
        request_id TEXT PRIMARY KEY,
        game_id BIGINT REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED,
        reply TEXT NOT NULL,
        at TIMESTAMPTZ NOT NULL
    );
    """,
    ),
    # 3: ladders. ratings: one row per (guild, season, ladder, player) with the
    # bot.ladder.ratings.RatingState fields (guild 0: games outside any server). seasons: per guild,
    # numbered from 1; a guild with no row is in season 1; closing stores the final table as
    # JSON in archive. rating_changes: what each counted game did (both players' states before
    # and after as JSON), for result messages and stats; its season is the game's season.
    Migration(
        sqlite="""
    CREATE TABLE seasons (
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        started_at REAL NOT NULL,
        closed_at REAL,
        closed_by INTEGER,
        archive TEXT,
        PRIMARY KEY (guild_id, number)
    );
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        ladder TEXT NOT NULL,
        player_id INTEGER NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        last_played REAL,
        wins INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, ladder, player_id)
    );
    CREATE INDEX ratings_by_rating ON ratings(guild_id, season, ladder, rating DESC);
    CREATE TABLE rating_changes (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        ladder TEXT NOT NULL,
        player0 INTEGER NOT NULL,
        player1 INTEGER NOT NULL,
        ended_at REAL NOT NULL,
        before0 TEXT NOT NULL,
        after0 TEXT NOT NULL,
        before1 TEXT NOT NULL,
        after1 TEXT NOT NULL
    );
    CREATE INDEX rating_changes_by_season ON rating_changes(guild_id, season, ended_at, game_id);
    """,
        postgres="""
    CREATE TABLE seasons (
        guild_id BIGINT NOT NULL,
        number INTEGER NOT NULL,
        started_at TIMESTAMPTZ NOT NULL,
        closed_at TIMESTAMPTZ,
        closed_by BIGINT,
        archive TEXT,
        PRIMARY KEY (guild_id, number)
    );
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        season INTEGER NOT NULL,
        ladder TEXT NOT NULL,
        player_id BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        last_played TIMESTAMPTZ,
        wins INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, ladder, player_id)
    );
    CREATE INDEX ratings_by_rating ON ratings(guild_id, season, ladder, rating DESC);
    CREATE TABLE rating_changes (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        guild_id BIGINT NOT NULL,
        season INTEGER NOT NULL,
        ladder TEXT NOT NULL,
        player0 BIGINT NOT NULL,
        player1 BIGINT NOT NULL,
        ended_at TIMESTAMPTZ NOT NULL,
        before0 TEXT NOT NULL,
        after0 TEXT NOT NULL,
        before1 TEXT NOT NULL,
        after1 TEXT NOT NULL
    );
    CREATE INDEX rating_changes_by_season ON rating_changes(guild_id, season, ended_at, game_id);
    """,
    ),
    # 4: disputes. Games from now on (log_version 2) chain ONE log: actions and events in the
    # order written, each row's hash over the previous row's (engine.record.log_row/event_row),
    # games.last_hash its head, games.links its length, actions.link/events.link each row's place
    # in it. Older games keep log_version 1 (only their actions chained). frozen_at: when a
    # dispute froze the game's clocks (NULL: running). mod_role: the role a dispute notifies.
    Migration(
        sqlite="""
    ALTER TABLE games ADD COLUMN log_version INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN links INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN frozen_at REAL;
    ALTER TABLE actions ADD COLUMN link INTEGER;
    ALTER TABLE events ADD COLUMN link INTEGER;
    ALTER TABLE events ADD COLUMN prev_hash TEXT;
    ALTER TABLE events ADD COLUMN hash TEXT;
    ALTER TABLE guild_settings ADD COLUMN mod_role INTEGER;
    """,
        postgres="""
    ALTER TABLE games ADD COLUMN log_version INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN links INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN frozen_at TIMESTAMPTZ;
    ALTER TABLE actions ADD COLUMN link INTEGER;
    ALTER TABLE events ADD COLUMN link INTEGER;
    ALTER TABLE events ADD COLUMN prev_hash TEXT;
    ALTER TABLE events ADD COLUMN hash TEXT;
    ALTER TABLE guild_settings ADD COLUMN mod_role BIGINT;
    """,
    ),
    # 5: takebacks: 1 lets casual games take back a move by consent (rated games never do),
    # 0 means a move once made stands, as the original rules of Atmalof and Abalone say.
    Migration(
        sqlite="""
    ALTER TABLE guild_settings ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;
    """,
    ),
    # 6: dice nobody can pick. A challenge draws its game's secret seed when it is made, so the
    # challenge message can publish the commitment; words: the challenger's own dice words.
    # games.dice_mix: engine.dice.mix(accept id, both players' words), fixed at the accept and
    # mixed into every roll (record version 3, whose start row logs its inputs).
    Migration(
        sqlite="""
    ALTER TABLE challenges ADD COLUMN seed TEXT;
    ALTER TABLE challenges ADD COLUMN words TEXT;
    ALTER TABLE games ADD COLUMN dice_mix TEXT;
    """,
    ),
    # 7: costs that grow with the store (issue 17). Indexes for the sweeper's pending rolls, the
    # per-user limits (active games by either seat, open challenges by challenger) and the
    # pruning of answered request ids by age. checkpoint_*: the position after the live move
    # checkpoint_seq (the game's engine state, bot.checkpoint's text) and that move's row hash,
    # so a restart restores it instead of replaying the whole log; NULL: replay from the start.
    Migration(
        sqlite="""
    CREATE INDEX games_pending_roll ON games(pending_at)
        WHERE status = 'active' AND pending IS NOT NULL;
    CREATE INDEX games_active_by_player0 ON games(player0) WHERE status = 'active';
    CREATE INDEX games_active_by_player1 ON games(player1) WHERE status = 'active';
    CREATE INDEX challenges_open_by_challenger ON challenges(challenger_id, expires_at)
        WHERE status = 'open';
    CREATE INDEX request_ids_by_time ON request_ids(at);
    ALTER TABLE games ADD COLUMN checkpoint_text TEXT;
    ALTER TABLE games ADD COLUMN checkpoint_seq INTEGER;
    ALTER TABLE games ADD COLUMN checkpoint_head TEXT;
    """,
    ),
    # 8: languages (issue 15). guild_settings.language: the server's (public messages, boards;
    # NULL: English); user_languages: a user's own choice (/language) for private replies, in
    # every server (a person reads one language), removed when they clear it.
    Migration(
        sqlite="""
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    CREATE TABLE user_languages (
        user_id INTEGER PRIMARY KEY,
        language TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
        postgres="""
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    CREATE TABLE user_languages (
        user_id BIGINT PRIMARY KEY,
        language TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL
    );
    """,
    ),
    # 9: the practice opponent (issue 18). practice: the bot's level (1-5) in a game against the
    # bot itself, NULL in a game between people; bot_seat: the bot's seat (0 or 1) there. Not in
    # ``options``: those are the engine's rule options, which records carry and verifiers pass
    # to ``game.new``. The index lets the sweeper page through the active practice games.
    Migration(
        sqlite="""
    ALTER TABLE games ADD COLUMN practice INTEGER;
    ALTER TABLE games ADD COLUMN bot_seat INTEGER;
    CREATE INDEX games_active_practice ON games(id)
        WHERE status = 'active' AND practice IS NOT NULL;
    """,
    ),
    # 10: dispute rooms. room_id: the private thread a front end opened for a dispute of
    # game_id (a thread is a channel: its id), so the commands read in it (/board, /history,
    # the moderators') find that game, not whatever the channel plays next. A table, not a
    # games column: a game disputed twice has two rooms. Forgetting a server removes its
    # games' rooms (the index finds them); the copy to PostgreSQL copies them.
    Migration(
        sqlite="""
    CREATE TABLE dispute_rooms (
        room_id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        opened_at REAL NOT NULL
    );
    CREATE INDEX dispute_rooms_by_game ON dispute_rooms(game_id);
    """,
        postgres="""
    CREATE TABLE dispute_rooms (
        room_id BIGINT PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        opened_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX dispute_rooms_by_game ON dispute_rooms(game_id);
    """,
    ),
)

MIGRATIONS: tuple[str, ...] = tuple(step.sqlite for step in STEPS)  # SQLite's, in order
LATEST = len(STEPS)


def statements(script: str) -> Iterator[str]:
    """The script's statements one by one (a trigger's body stays whole), so a migration can run
    inside a transaction the store opened: ``executescript`` would commit it first."""
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                yield pending.strip()
            pending = ""
    if pending.strip(" \n;"):
        raise ValueError(f"an incomplete statement at the end of a migration: {pending!r}")
