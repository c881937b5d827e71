"""Who may do what: a table of actor kinds by commands, each cell the expected outcome.

Rows are kinds of people: the player to move, the player waiting, a spectator in the channel, a
moderator (Manage Messages) who is not playing, the player to move writing from another channel
of the same server, from another server, or in a direct message, a moderator of another server,
and a bot account in the channel. Columns are every slash command and button. Each cell runs on
a fresh game in a fresh channel (one SQLite file per column) and checks the outcome: allowed
(and public unless it is a private info card), or refused privately with a specific reason, in
which case nothing in the store changed. Every registered command has a column; a last test
refuses bots (and DMs for server commands) for every command, whatever its options.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

from bot import texts
from bot.clock import ManualClock
from bot.discord_ui.app import RefereeBot
from bot.discord_ui.cogs.referee_mod import NOT_A_MODERATOR
from bot.discord_ui.tree import BOTS_REFUSED, UNEXPECTED
from bot.i18n import msg, say
from bot.referee import Referee
from bot.referee.replies import Where
from bot.store import SqliteStore, Store
from tests.discord import crowd
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.crowd import snapshot
from tests.discord.harness import GUILD_ID, Call, Exchange, Harness, Person, Role, Upload
from tests.discord.play import button, message_with_buttons

ROBOT = Person(900_000_000_000_000_009, "botty")
DM_TEXT = "games are played in a server channel"
NOT_PLAYER = "you are not playing in this game"
REMATCH_STRANGER = "only the players of the last game here (Alice vs Bob) can ask for its rematch"
NOT_TURN = "is to move, not you"
_channels = itertools.count(710_000_000_000_000_000)


@dataclass(frozen=True)
class Ok:
    """Allowed: the answer says ``text``; public unless ``private`` (an info card)."""

    text: str = ""
    private: bool = False


@dataclass(frozen=True)
class No:
    """Refused privately with a reason containing ``text``; nothing changes."""

    text: str


@dataclass
class Scene:
    """A fresh situation in ``channel``: who is to move, who waits, a message to click on."""

    channel: int
    mover: Person = ALICE
    waiting: Person = BOB
    message: dict[str, Any] | None = None
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Row:
    """An actor kind: who (a role in the scene or a fixed person), from where, a bot or not."""

    name: str
    who: str  # "mover", "waiting" or "fixed"
    place: str = "here"
    person: Person | None = None
    bot: bool = False

    def actor(self, scene: Scene) -> Person:
        if self.who == "fixed":
            assert self.person is not None
            return self.person
        return scene.mover if self.who == "mover" else scene.waiting


ROWS = (
    Row("mover", "mover"),
    Row("waiting", "waiting"),
    Row("spectator", "fixed", person=CAROL),
    Row("moderator", "fixed", person=MODERATOR),
    Row("other_channel", "mover", place="neighbour"),
    Row("other_server", "mover", place="foreign"),
    Row("foreign_moderator", "fixed", place="foreign", person=MODERATOR),
    Row("dm", "mover", place="dm"),
    Row("bot", "fixed", person=ROBOT, bot=True),
)
ROW_NAMES = [r.name for r in ROWS]


# ---- scenes ------------------------------------------------------------------------------
Setup = Callable[[Harness, ManualClock, int], Awaitable[Scene]]


async def game(h: Harness, channel: int, name: str) -> Exchange:
    posted = await h.slash(
        ALICE, "challenge", channel=channel, game=name, opponent=BOB, starter="me"
    )
    challenge = message_with_buttons(posted)
    accepted = await h.click(BOB, challenge.message, button(challenge, "accept"))
    assert not accepted.first.ephemeral, accepted.text
    return accepted


async def legal(h: Harness, channel: int, person: Person, prefix: str) -> str:
    moves = await h.bot.referee.legal_for(Where(GUILD_ID, channel), _actor(person), prefix)
    assert moves, f"no legal {prefix!r} for {person.name}"
    return moves[0]


def _actor(person: Person) -> Any:
    from bot.referee.replies import Actor

    return Actor(person.id, person.name)


def fresh(name: str, **values: Any) -> Setup:
    async def setup(h: Harness, clock: ManualClock, channel: int) -> Scene:
        await game(h, channel, name)
        return Scene(channel, values=dict(values))

    return setup


async def empty_channel(h: Harness, clock: ManualClock, channel: int) -> Scene:
    return Scene(channel)


async def challenged(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Alice challenged Bob: Bob, who must answer, is the "mover"; Alice waits."""
    posted = await h.slash(
        ALICE, "challenge", channel=channel, game="morris", opponent=BOB, starter="me"
    )
    return Scene(channel, mover=BOB, waiting=ALICE, message=message_with_buttons(posted).message)


async def atmalof_with_pieces(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Both sides dropped once; Alice to move, and she can step a piece."""
    await game(h, channel, "atmalof")
    await h.slash(ALICE, "drop row", channel=channel, k=1)
    await h.slash(BOB, "drop row", channel=channel, k=5)
    move = (await legal(h, channel, ALICE, "move ")).split()
    return Scene(channel, values={"from_": move[1], "to": move[2]})


async def mill_pending(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """White (Alice) closed the mill a1-d1-g1 and must remove a black man."""
    await game(h, channel, "morris")
    for person, point in ((ALICE, "a1"), (BOB, "a7"), (ALICE, "d1"), (BOB, "d7"), (ALICE, "g1")):
        done = await h.slash(person, "place", channel=channel, point=point)
        assert not done.first.ephemeral, done.text
    return Scene(channel, values={"point": "a7"})


async def abalone_start(h: Harness, clock: ManualClock, channel: int) -> Scene:
    await game(h, channel, "abalone")
    words = (await legal(h, channel, ALICE, "push ")).split()
    return Scene(channel, values={"marbles": " ".join(words[1:-1]), "direction": words[-1]})


async def draw_offered(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Bob (waiting) offered a draw; Alice (to move) may answer."""
    await game(h, channel, "atmalof")
    offer = await h.slash(BOB, "draw offer", channel=channel)
    return Scene(channel, message=message_with_buttons(offer).message)


async def placed_once(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Alice placed d7: Bob is to move, Alice may ask for a takeback."""
    await game(h, channel, "morris")
    await h.slash(ALICE, "place", channel=channel, point="d7")
    return Scene(channel, mover=BOB, waiting=ALICE)


async def takeback_asked(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Alice placed d7 and asks to take it back; Bob (to move) answers."""
    scene = await placed_once(h, clock, channel)
    asked = await h.slash(ALICE, "takeback request", channel=channel)
    scene.message = message_with_buttons(asked).message
    return scene


async def finished(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Alice resigned; the board carries a Rematch button."""
    await game(h, channel, "morris")
    ended = await h.slash(ALICE, "resign", channel=channel)
    return Scene(channel, message=message_with_buttons(ended).message)


async def abandoned(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Alice has not moved for longer than the referee's abandonment time."""
    await game(h, channel, "morris")
    clock.advance(h.bot.referee.abandon_after + 60)  # type: ignore[attr-defined]
    return Scene(channel)


async def two_moves(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """Alice placed d7 and Bob a7: there is a position to rewind to."""
    await game(h, channel, "morris")
    for person, point in ((ALICE, "d7"), (BOB, "a7")):
        done = await h.slash(person, "place", channel=channel, point=point)
        assert not done.first.ephemeral, done.text
    return Scene(channel)


async def disputed(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """After two placements Bob opened a dispute: the game is frozen for the moderators."""
    scene = await two_moves(h, clock, channel)
    opened = await h.slash(BOB, "dispute", channel=channel, reason="wrong square")
    assert not opened.first.ephemeral, opened.text
    return scene


async def record_file(h: Harness, clock: ManualClock, channel: int) -> Scene:
    """A finished game's record file, as /record gives it, to attach to /import."""
    await game(h, channel, "morris")
    await h.slash(ALICE, "resign", channel=channel)
    exported = await h.slash(ALICE, "record", channel=channel)
    (data,) = [d for name, _, d in exported.files if name.endswith(".json")]
    return Scene(channel, values={"record": Upload("game.json", data)})


# ---- columns -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """A command (``/path``, or ``button:<kind>``), the scene it runs in, and the table row."""

    command: str
    setup: Setup
    cells: dict[str, Ok | No]
    values: dict[str, Any] = field(default_factory=dict)


def cells(default: Ok | No, **special: Ok | No) -> dict[str, Ok | No]:
    """Every row ``default`` except those named."""
    assert set(special) <= set(ROW_NAMES), set(special) - set(ROW_NAMES)
    return {r: special.get(r, default) for r in ROW_NAMES}


ELSEWHERE: dict[str, Ok | No] = dict.fromkeys(
    ("other_channel", "other_server", "foreign_moderator", "dm"), No(texts.NO_GAME)
)
NO_BOTS = {"bot": No(say(BOTS_REFUSED))}


def play_cells(mover: Ok | No, waiting: Ok | No) -> dict[str, Ok | No]:
    """A command of the players: strangers are told they do not play, elsewhere has no game."""
    return cells(No(NOT_PLAYER), mover=mover, waiting=waiting, **ELSEWHERE, **NO_BOTS)


def rematch_cells() -> dict[str, Ok | No]:
    """Either player of the finished game may ask; anyone else is told who can."""
    ok = Ok("challenges")
    return cells(No(REMATCH_STRANGER), mover=ok, waiting=ok, **ELSEWHERE, **NO_BOTS)


def read_cells(text: str = "") -> dict[str, Ok | No]:
    """Anyone in the channel may look; elsewhere there is nothing to see."""
    return cells(Ok(text), **ELSEWHERE, **NO_BOTS)


def moderator_cells(text: str) -> dict[str, Ok | No]:
    return cells(
        No(say(NOT_A_MODERATOR)),
        moderator=Ok(text),
        dm=No(DM_TEXT),
        **NO_BOTS,
        foreign_moderator=No(say(msg("refusal.moderation_no_game"))),  # a moderator's words
    )


def info_cells(text: str) -> dict[str, Ok | No]:
    return cells(Ok(text, private=True), **NO_BOTS)


BUTTON_ELSEWHERE = "that game is over or elsewhere"
NO_CHALLENGE = "there is no challenge waiting here"
FOR_BOB = "this challenge is for Bob"
CHALLENGE_ELSEWHERE: dict[str, Ok | No] = {k: No(NO_CHALLENGE) for k in ELSEWHERE}
REMATCH_ELSEWHERE = "a rematch follows a finished game"
BUTTONS_ELSEWHERE: dict[str, Ok | No] = {k: No(BUTTON_ELSEWHERE) for k in ELSEWHERE}
BUTTON_BOT: dict[str, Ok | No] = {"bot": No(NOT_PLAYER)}  # buttons reach the referee: not seated

COLUMNS = (
    Column(
        "challenge",
        empty_channel,
        cells(
            Ok("challenges anyone"),
            dm=No(DM_TEXT),
            foreign_moderator=No("this channel is busy"),  # "other_server" challenged there
            **NO_BOTS,
        ),
        values={"game": "morris"},
    ),
    Column(
        "practice",
        empty_channel,
        cells(
            Ok("plays the bot at level 3"),
            dm=No(DM_TEXT),
            foreign_moderator=No("this channel is busy"),  # "other_server" practises there
            **NO_BOTS,
        ),
        values={"game": "morris", "starter": "me"},
    ),
    Column(
        "button:accept",
        challenged,
        cells(
            No(FOR_BOB),
            mover=Ok("Alice (White) vs Bob (Black)"),
            waiting=No("your own challenge"),
            bot=No("bots cannot play"),
            **CHALLENGE_ELSEWHERE,
        ),
    ),
    Column(
        "accept",
        challenged,
        cells(
            No(FOR_BOB),
            mover=Ok("Alice (White) vs Bob (Black)"),
            waiting=No("your own challenge"),
            **CHALLENGE_ELSEWHERE,
            **NO_BOTS,
        ),
    ),
    Column(
        "button:decline",
        challenged,
        cells(No(FOR_BOB), mover=Ok("declined"), waiting=Ok("withdrew"), **CHALLENGE_ELSEWHERE),
    ),
    Column(
        "drop row",
        fresh("atmalof"),
        play_cells(Ok("announces row 3"), No(NOT_TURN)),
        values={"k": 3},
    ),
    Column(
        "drop column",
        fresh("atmalof"),
        play_cells(Ok("announces column 2"), No(NOT_TURN)),
        values={"k": 2},
    ),
    Column("move", atmalof_with_pieces, play_cells(Ok("moves"), No(NOT_TURN))),
    Column(
        "place", fresh("morris"), play_cells(Ok("places d7"), No(NOT_TURN)), values={"point": "d7"}
    ),
    Column("remove", mill_pending, play_cells(Ok("removes"), No(NOT_TURN))),
    Column("push", abalone_start, play_cells(Ok("moves"), No(NOT_TURN))),  # no sumito yet
    Column(
        "play",
        fresh("atmalof"),
        play_cells(Ok("announces row 4"), No(NOT_TURN)),
        values={"command": "drop row 4"},
    ),
    Column("board", fresh("morris"), read_cells("to move")),
    Column("resign", fresh("morris"), play_cells(Ok("resigned"), Ok("resigned"))),
    Column("draw offer", fresh("morris"), play_cells(Ok("offers a draw"), Ok("offers a draw"))),
    Column(
        "draw accept",
        draw_offered,
        play_cells(Ok("agreed by both players"), No("that draw offer is your own")),
    ),
    Column(
        "draw decline",
        draw_offered,
        play_cells(Ok("declines the draw"), No("that draw offer is your own")),
    ),
    Column(
        "draw withdraw",
        draw_offered,
        play_cells(No("no draw offer waiting to withdraw"), Ok("withdraws the draw offer")),
    ),
    Column(
        "button:draw-accept",
        draw_offered,
        play_cells(Ok("agreed by both players"), No("that draw offer is your own"))
        | BUTTONS_ELSEWHERE
        | BUTTON_BOT,
    ),
    Column(
        "button:draw-decline",
        draw_offered,
        play_cells(Ok("declines the draw"), No("that draw offer is your own"))
        | BUTTONS_ELSEWHERE
        | BUTTON_BOT,
    ),
    Column(
        "takeback request",
        placed_once,
        play_cells(No("no move to take back"), Ok("asks for a takeback")),
    ),
    Column(
        "takeback accept",
        takeback_asked,
        play_cells(Ok("allows the takeback. Undone: "), No("that takeback request is your own")),
    ),
    Column(
        "takeback decline",
        takeback_asked,
        play_cells(Ok("refuses the takeback"), No("that takeback request is your own")),
    ),
    Column(
        "button:takeback-accept",
        takeback_asked,
        play_cells(Ok("allows the takeback. Undone: "), No("that takeback request is your own"))
        | BUTTONS_ELSEWHERE
        | BUTTON_BOT,
    ),
    Column("abort", fresh("morris"), play_cells(Ok("aborted"), Ok("aborted"))),
    Column(
        "rematch",
        finished,
        rematch_cells() | {k: No(REMATCH_ELSEWHERE) for k in ELSEWHERE},
    ),
    Column(
        "button:rematch",
        finished,
        rematch_cells()
        | {k: No(REMATCH_ELSEWHERE) for k in ELSEWHERE}
        | {"bot": No(REMATCH_STRANGER)},
    ),
    Column("claim", abandoned, play_cells(No("it is your turn"), Ok("(Alice (White) left"))),
    Column("history", fresh("morris"), read_cells("Alice (White) vs Bob (Black)")),
    Column("record", fresh("morris"), read_cells("The record of game")),
    Column("replay", fresh("morris"), read_cells("Replay")),
    Column("verify", fresh("morris"), read_cells("Verified")),
    Column("rules", empty_channel, info_cells("the rules"), values={"game": "abalone"}),
    Column("help", empty_channel, info_cells("Board referee")),
    Column(
        # said in the language just chosen
        "language",
        empty_channel,
        info_cells("A nyelved mostantól"),
        values={"language": "hu"},
    ),
    Column(
        "referee abort",
        fresh("morris"),
        moderator_cells("aborted by moderator"),
        values={"reason": "players left"},
    ),
    Column(
        "referee award",
        fresh("morris"),
        moderator_cells("decided by moderator"),
        values={"reason": "dispute", "winner": BOB},
    ),
    Column(
        "referee theme",
        empty_channel,
        moderator_cells("theme is now light") | {"foreign_moderator": Ok("theme is now light")},
        values={"theme": "light"},
    ),
    Column(
        "ladder",
        empty_channel,
        cells(Ok("Nine Men's Morris ladder"), dm=No(DM_TEXT), **NO_BOTS),  # another server: its own
        values={"game": "morris"},
    ),
    Column(  # anyone may ask; nobody has played in this server yet, which is told privately
        "stats",
        empty_channel,
        cells(Ok("has not played here yet", private=True), dm=No(DM_TEXT), **NO_BOTS),
    ),
    Column(
        "dispute",
        fresh("morris"),
        play_cells(Ok("opened a dispute"), Ok("opened a dispute")) | {"dm": No(DM_TEXT)},
        values={"reason": "a wrong roll"},
    ),
    Column("import", record_file, cells(Ok("Verified"), **NO_BOTS)),  # anyone, anywhere
    Column(
        "referee rewind",
        two_moves,
        moderator_cells("the position after action 1"),
        values={"action": 1},
    ),
    Column("referee resume", disputed, moderator_cells("resumes the game")),
    Column(
        "referee restore",
        disputed,
        moderator_cells("restores the game to action 1"),
        values={"action": 1, "reason": "agreed"},
    ),
    Column(
        "referee void", disputed, moderator_cells("voided by moderator"), values={"reason": "both"}
    ),
    Column(
        "referee settings",
        empty_channel,
        moderator_cells("")
        | dict.fromkeys(("moderator", "foreign_moderator"), Ok("Board theme", private=True)),
    ),
    Column(
        "referee settings",
        empty_channel,
        moderator_cells("")
        | dict.fromkeys(("moderator", "foreign_moderator"), Ok("now notify", private=True)),
        values={"moderators": Role(700_000_000_000_000_555)},
    ),
    Column(
        "referee season-close",
        empty_channel,
        moderator_cells("Season 1 is closed") | {"foreign_moderator": Ok("Season 1 is closed")},
        values={"confirm": True},
    ),
    Column(
        "referee forget-server",
        empty_channel,
        moderator_cells("")
        | dict.fromkeys(("moderator", "foreign_moderator"), Ok("Removed from", private=True)),
        values={"confirm": True},
    ),
)


# ---- running the table -------------------------------------------------------------------
@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[Harness, Store, ManualClock]]:
    clock = ManualClock()
    store = await SqliteStore.open(str(tmp_path / "permissions.db"))
    referee = Referee(store, clock=clock, render=False, per_user_limits=False)  # many scenes
    bot = RefereeBot(referee, sweep_seconds=None)
    bot.cooldowns = None  # one person acts in many cells; the cooldowns have their own tests
    h = await Harness(bot).start()
    try:
        yield h, store, clock
    finally:
        await h.close()
        await store.close()
    assert not h.stray, f"stray requests: {[(c.method, c.path) for c in h.stray]}"


async def run(h: Harness, column: Column, row: Row, scene: Scene) -> Exchange:
    actor = row.actor(scene)
    values = {**scene.values, **column.values}
    if column.command.startswith("button:"):
        assert scene.message is not None
        custom_id = button(_call_of(scene.message), column.command.split(":", 1)[1])
        return await crowd.click(h, actor, scene.message, custom_id, place=row.place, bot=row.bot)
    return await crowd.slash(
        h, actor, column.command, place=row.place, bot=row.bot, channel=scene.channel, **values
    )


def _call_of(message: dict[str, Any]) -> Call:
    """The message as a ``Call`` so that ``play.button`` can read its custom_ids."""
    return Call("message", "GET", "", {"components": message["components"]})


def judge(exchange: Exchange, want: Ok | No, where: str) -> None:
    assert exchange.messages, f"{where}: no answer at all"
    text = exchange.text
    assert UNEXPECTED not in text and "Traceback" not in text, f"{where}: {text!r}"
    if isinstance(want, No):
        assert exchange.all_ephemeral, f"{where}: a public refusal {text!r}"
        assert want.text in text, f"{where}: expected {want.text!r}, got {text!r}"
        return
    assert want.text in text, f"{where}: expected {want.text!r}, got {text!r}"
    if want.private:
        assert exchange.all_ephemeral, f"{where}: {text!r} should be private"
    else:
        assert not exchange.first.ephemeral, f"{where}: refused: {text!r}"


@pytest.mark.parametrize("column", COLUMNS, ids=[c.command for c in COLUMNS])
async def test_permissions_matrix(
    table: tuple[Harness, Store, ManualClock], column: Column
) -> None:
    h, store, clock = table
    for row in ROWS:
        scene = await column.setup(h, clock, next(_channels))
        before = await snapshot(store)
        exchange = await run(h, column, row, scene)
        want = column.cells[row.name]
        judge(exchange, want, f"{row.name} /{column.command}")
        if isinstance(want, No):
            assert await snapshot(store) == before, f"{row.name} /{column.command} changed data"


def covered() -> set[str]:
    return {c.command for c in COLUMNS}


async def test_every_command_has_a_column(table: tuple[Harness, Store, ManualClock]) -> None:
    """A new command needs its column: who may use it is decided, not left to chance."""
    h, _, _ = table
    registered = {
        c.qualified_name for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)
    }
    assert covered() - {c for c in covered() if c.startswith("button:")} <= registered
    assert registered <= covered(), f"no column yet for {sorted(registered - covered())}"


def filler(h: Harness, path: str) -> dict[str, Any]:
    """Values for a command's required options: the first choice, or a plain value per type."""
    values: dict[str, Any] = {}
    for p in h.command(path).parameters:
        if not p.required:
            continue
        if p.choices:
            values[p.name] = p.choices[0].value
        elif p.type is AppCommandOptionType.user:
            values[p.name] = BOB
        elif p.type in (
            AppCommandOptionType.integer,
            AppCommandOptionType.number,
        ):
            values[p.name] = 1
        elif p.type is AppCommandOptionType.boolean:
            values[p.name] = False
        else:
            values[p.name] = "x"
    return values


async def test_every_command_refuses_bots_and_guild_commands_refuse_dms(
    table: tuple[Harness, Store, ManualClock],
) -> None:
    """Also for commands added after this table was written."""
    h, store, _ = table
    before = await snapshot(store)
    for command in h.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        path = command.qualified_name
        values = filler(h, path)
        bot = await crowd.slash(h, ROBOT, path, bot=True, **values)
        judge(bot, No(say(BOTS_REFUSED)), f"bot /{path}")
        root = command.root_parent or command
        if root.guild_only:
            dm = await crowd.slash(h, ALICE, path, place="dm", **values)
            judge(dm, No(DM_TEXT), f"dm /{path}")
    assert await snapshot(store) == before
