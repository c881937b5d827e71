"""Fuzzing the referee: random sequences of commands from random people with random text.

Each example is a fresh SQLite file, a game (any of the three, a random variant), and a list of
steps: the player to move, the other player, a stranger, a moderator or a bot, doing anything the
referee offers (moves legal and not, offers, answers, endings, buttons with forged ids, console
text, new challenges). The property, after every step: no exception; a refusal is private, has a
specific reason and leaves every row of the database as it was. At the end every game's record,
as the referee exports it, replays and verifies with ``engine.record.verify``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Reply, Where
from bot.store import SqliteStore, Store
from engine.record import Record, verify
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, MOD, THERE

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ROBOT = Actor(404, "robot", is_bot=True)
BOT_MOD = Actor(405, "modbot", is_moderator=True, is_bot=True)
GAMES = {
    "atmalof": ("standard", "junior", "atmalos", "custom"),
    "morris": ("standard", "six", "twelve"),
    "abalone": ("standard", "belgian-daisy", "german-daisy"),
}
WHO = ("mover", "mover", "mover", "other", "stranger", "moderator", "bot", "bot moderator")
VERBS = (
    *["legal"] * 25,
    "text",
    "resign",
    "offer_draw",
    "answer_draw",
    "request_takeback",
    "answer_takeback",
    "abort",
    "claim",
    "moderator_abort",
    "award",
    "rematch",
    "board",
    "history",
    "record",
    "verify",
    "press",
    "challenge",
    "accept",
    "decline",
    "handle",
)
TEXTS = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "drop row 4",
            "drop col 9",
            "move 3,4 4,5",
            "place d7",
            "remove b6",
            "push a1 a3 ne",
            "push i5 i9 w",
            "fly a1 g7",
            "move d7 d6 x b6",
            "",
            "x" * 3000,
            "drop row ٣",
            "resign",
            "accept",
            "help",
            "challenge carol morris",
            "draw accept",
            "takeback",
        ]
    ),
)
CUSTOM_IDS = st.one_of(
    st.builds(
        lambda k, a, b: f"ref:{k}:{a}:{b}",
        st.sampled_from(
            [
                "accept",
                "decline",
                "draw-accept",
                "draw-decline",
                "takeback-accept",
                "takeback-decline",
                "rematch",
                "bogus",
            ]
        ),
        st.one_of(st.integers(0, 4), st.integers(-(2**70), 2**70)),
        st.one_of(st.integers(0, 30), st.integers(-(2**70), 2**70)),
    ),
    st.text(max_size=40),
)
STEP = st.tuples(
    st.sampled_from(WHO), st.sampled_from(VERBS), st.integers(0, 10**6), TEXTS, CUSTOM_IDS
)


async def snapshot(store: Store) -> list[Any]:
    tables = await store.db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    out = []
    for name in sorted(r[0] for r in tables):
        rows = await store.db.execute_fetchall(f'SELECT * FROM "{name}" ORDER BY rowid')
        out.append((name, [tuple(r) for r in rows]))
    return out


class Run:
    """One example: a referee on a fresh file and what the steps did."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.players = (ALICE, BOB)

    async def mover(self) -> tuple[Actor, Actor]:
        g = await self.referee.store.latest_game(HERE.channel_id)
        if g is None or g.status != "active":
            return self.players
        state = await self.referee.ctx.state(g)
        first = ALICE if g.players[state.to_move] == ALICE.id else BOB
        return first, (BOB if first is ALICE else ALICE)

    async def actor(self, who: str) -> Actor:
        mover, other = await self.mover()
        return {
            "mover": mover,
            "other": other,
            "stranger": CAROL,
            "moderator": MOD,
            "bot": ROBOT,
            "bot moderator": BOT_MOD,
        }[who]

    async def step(self, who: str, verb: str, n: int, text: str, custom_id: str) -> Reply:
        r, actor = self.referee, await self.actor(who)
        where = THERE if n % 17 == 0 else HERE  # now and then from the wrong channel
        if verb == "legal":
            moves = await r.legal_for(where, actor)
            return await self.play(where, actor, moves[n % len(moves)] if moves else text)
        if verb == "text":
            return await self.play(where, actor, text)
        if verb in ("answer_draw", "answer_takeback"):
            return await getattr(r, verb)(where, actor, n % 2 == 0, version=n % 7 or None)
        if verb in ("moderator_abort",):
            return await r.moderator_abort(where, actor, text)
        if verb == "award":
            winner = (ALICE, BOB, CAROL, None)[n % 4]
            return await r.award(where, actor, winner, text)
        if verb == "history":
            return await r.history(where, page=n - 500_000)
        if verb == "press":
            return await r.press(where, actor, custom_id)
        if verb == "challenge":
            game = list(GAMES)[n % 3] if n % 5 else text
            variants = GAMES.get(game, ("standard",))
            return await r.challenge(
                where,
                actor,
                game,
                opponent=(ALICE, BOB, CAROL, ROBOT, None)[n % 5],
                variant=variants[n % len(variants)] if n % 7 else text,
                options={"rows": n % 20, "pieces": n % 40} if n % 11 == 0 else None,
                clock=("none", "10+5", "24h", text)[n % 4],
                starter=("me", "them", "random", text)[n % 4],
            )
        if verb in ("accept", "decline"):
            return await getattr(r, verb)(where, actor, n % 5 or None)
        if verb == "rematch":
            return await r.rematch(where, actor, n % 4 or None)
        if verb == "handle":
            return await r.handle(where, actor, text)
        if verb in ("board", "record", "verify"):
            return await getattr(r, verb)(where)
        return await getattr(r, verb)(where, actor)

    async def play(self, where: Where, actor: Actor, text: str) -> Reply:
        reply = await self.referee.act(where, actor, text)
        if reply.ok and reply.pending_roll:  # as the front ends do: show it, then roll
            reply = await self.referee.roll_pending(where, game_id=reply.game_id)
        return reply


async def run_example(steps: list[tuple[str, str, int, str, str]], game: str, variant: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "fuzz.db")
        try:
            referee = Referee(store, ManualClock(), render=False)
            made = await referee.challenge(HERE, ALICE, game, opponent=BOB, variant=variant)
            assert made.ok, made.text
            assert (await referee.accept(HERE, BOB)).ok
            run = Run(referee)
            for number, step in enumerate(steps):
                before = await snapshot(store)
                reply = await run.step(*step)
                what = f"step {number} {step[:2]} -> {reply.text!r}"
                assert isinstance(reply, Reply), what
                if not reply.ok and reply.ephemeral:
                    assert reply.text.strip() and "Traceback" not in reply.text, what
                    assert await snapshot(store) == before, f"{what}: the refusal changed data"
            await verify_all(referee)
        finally:
            await store.close()


async def verify_all(referee: Referee) -> None:
    """Every stored game's exported record replays and verifies, ending on its stored head."""
    rows = await referee.store.db.execute_fetchall("SELECT id FROM games")
    assert rows
    for (gid,) in [tuple(r) for r in rows]:
        g = await referee.store.game(gid)
        assert g is not None
        exported = await referee.record(HERE, game_id=gid)
        assert exported.file is not None, exported.text
        verdict = verify(Record.from_json(exported.file))
        assert verdict.ok, f"game {gid}: {verdict} {verdict.details}"


@FUZZ
@given(
    game=st.sampled_from(sorted(GAMES)),
    pick=st.integers(0, 3),
    steps=st.lists(STEP, min_size=10, max_size=60),
)
def test_random_commands_from_anyone_refuse_cleanly_and_every_log_verifies(
    game: str, pick: int, steps: list[tuple[str, str, int, str, str]]
) -> None:
    variants = GAMES[game]
    asyncio.run(run_example(steps, game, variants[pick % len(variants)]))
