"""Disputes and imports through the real discord.py bot: who may dispute, the private thread or
the channel post with the moderators' role, frozen clocks, the /referee decisions, /import."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import engine
import render
from bot.clock import ManualClock
from bot.discord_ui.guards import COOLDOWNS
from bot.referee.replies import Where
from engine.record import Record, replay_steps
from engine.record import start as start_record
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import CHANNEL_ID, GUILD_ID, Harness, Person, Role, Upload
from tests.discord.play import PNG, start_game
from translations import words

OTHER_CHANNEL = 700_000_000_000_000_301
PRIVATE_THREADS = (1 << 11) | (1 << 14) | (1 << 15) | (1 << 35) | (1 << 36) | (1 << 38)
MODS = Role(700_000_000_000_000_777)
GAME = engine.get_game("atmalof")


async def morris_game(h: Harness, **options: object) -> None:
    await start_game(h, ALICE, BOB, "morris", **options)
    for person, point in ((ALICE, "a1"), (BOB, "b2")):
        played = await h.slash(person, "place", point=point)
        assert not played.first.ephemeral, played.text


async def events(h: Harness) -> list[tuple[str, int | None, dict]]:
    store = h.bot.referee.store  # type: ignore[attr-defined]
    return [(e.kind, e.user_id, e.details) for e in await store.events(1)]


async def test_only_a_player_of_this_channels_game_may_dispute(harness: Harness) -> None:
    await morris_game(harness)
    spectator = await harness.slash(CAROL, "dispute", reason="I saw it")
    assert spectator.all_ephemeral and "not playing" in spectator.text
    elsewhere = await harness.slash(ALICE, "dispute", channel=OTHER_CHANNEL, reason="x")
    assert elsewhere.all_ephemeral and "no game" in elsewhere.text
    moderator = await harness.slash(MODERATOR, "dispute")
    assert moderator.all_ephemeral and "not playing" in moderator.text
    assert [k for k, _, _ in await events(harness)] == ["start"]
    player = await harness.slash(BOB, "dispute", reason="alice took two turns")
    assert not player.all_ephemeral and "alice took two turns" in player.text
    assert [k for k, _, _ in await events(harness)] == ["start", "dispute"]


async def test_a_dispute_posts_the_evidence_in_the_channel_for_the_moderators_role(
    harness: Harness,
) -> None:
    await morris_game(harness)
    role = await harness.slash(MODERATOR, "referee settings", moderators=MODS)
    assert "Disputes now notify" in role.text
    opened = await harness.slash(ALICE, "dispute", reason="lag")
    packet = opened.last
    assert packet.content.startswith(f"<@&{MODS.id}>")
    assert ALICE.mention in packet.content and BOB.mention in packet.content
    mentions = packet.data["allowed_mentions"]
    assert [int(r) for r in mentions["roles"]] == [MODS.id]
    assert {int(u) for u in mentions["users"]} == {ALICE.id, BOB.id}
    assert "@everyone" not in packet.content
    g = await harness.bot.referee.store.game(1)  # type: ignore[attr-defined]
    assert f"#{g.last_hash[:10]}" in packet.text
    # a Morris game with a chosen starter rolls nothing: no dice proof, as its start showed none
    assert g.commitment not in packet.text and "Dice" not in packet.text, packet.text
    assert "1. White: place a1" in packet.text and "2. Black: place b2" in packet.text
    names = {name: data for name, _, data in opened.files}
    assert any(data.startswith(PNG) for data in names.values())
    record = Record.from_json(names["game-1-dispute.json"])
    assert record.seed is None and g.seed not in names["game-1-dispute.json"].decode()


async def test_a_dispute_opens_a_private_thread_when_the_bot_may(harness: Harness) -> None:
    await morris_game(harness)
    opened = await harness.slash(BOB, "dispute", reason="lag", app_permissions=PRIVATE_THREADS)
    made = [c for c in harness.rest_calls if c.path == "/channels/{channel_id}/threads"]
    assert len(made) == 1 and made[0].payload["type"] == 12  # a private thread
    thread = int(made[0].message["id"])
    added = [c.path for c in harness.rest_calls if "thread-members" in c.path]
    assert len(added) == 2
    posted = [c for c in harness.rest_calls if c.path == "/channels/{channel_id}/messages"]
    assert int(posted[-1].message["channel_id"]) == thread
    assert "opened a dispute" in posted[-1].text and posted[-1].files
    assert f"<#{thread}>" in opened.text  # the channel is pointed to the thread
    # moderators answer in the thread: it finds the frozen game of its channel
    # and read it there: the board, the log, the record, the verdict (the thread has no game)
    expected = {
        "board": "Frozen for a dispute",
        "history": "2. Black: place b2",
        "record": "game-1",
        "verify": "Verified",
    }
    for path, said in expected.items():
        seen = await harness.slash(MODERATOR, path, channel=thread)
        assert said in seen.text + " ".join(n for n, _, _ in seen.files), (path, seen.text)
    assert (await harness.slash(MODERATOR, "board", channel=thread)).files  # its picture
    resumed = await harness.slash(MODERATOR, "referee resume", channel=thread, reason="ok")
    assert not resumed.all_ephemeral and "resumes the game" in resumed.text
    resumed_here = await harness.slash(MODERATOR, "referee void", channel=thread, reason="x")
    assert resumed_here.all_ephemeral and "no longer disputed" in resumed_here.text
    awarded = await harness.slash(MODERATOR, "referee award", reason="x", winner=BOB)
    assert "decided by moderator" in awarded.text
    ended_there = await harness.slash(MODERATOR, "board", channel=thread)
    assert "decided by moderator" in ended_there.text
    assert not [c for c in ended_there.calls if c.custom_ids]  # no Rematch that finds no game
    assert [c for c in (await harness.slash(MODERATOR, "board")).calls if c.custom_ids]
    again = await harness.slash(MODERATOR, "referee void", channel=thread, reason="oops")
    assert again.all_ephemeral and again.text.startswith("the game here has already ended: Bob")


async def test_frozen_clocks_let_no_flag_fall_and_resume_keeps_the_banks(
    harness: Harness, clock: ManualClock
) -> None:
    await morris_game(harness, clock="1+0")
    clock.advance(25)  # alice, to move, has 35 s left
    await harness.slash(BOB, "dispute", reason="she is away")
    clock.advance(7200)
    assert await harness.bot.post_notices() == 0  # type: ignore[attr-defined]
    for person, path, values in (
        (ALICE, "place", {"point": "a7"}),
        (BOB, "claim", {}),
        (BOB, "resign", {}),
        (BOB, "draw offer", {}),
    ):
        refused = await harness.slash(person, path, **values)
        assert refused.all_ephemeral and "frozen" in refused.text, (path, refused.text)
    board = await harness.slash(CAROL, "board")
    assert "White 0:35" in board.text and "Frozen for a dispute" in board.text
    resumed = await harness.slash(MODERATOR, "referee resume", reason="back")
    assert "White 0:35" in resumed.text, resumed.text
    clock.advance(30)
    assert not (await harness.slash(ALICE, "place", point="a7")).all_ephemeral
    g = await harness.bot.referee.store.game(1)  # type: ignore[attr-defined]
    assert g.bank0 == 60 - 25 - 30 and g.status == "active"


async def test_non_moderators_cannot_use_the_dispute_decisions(harness: Harness) -> None:
    await morris_game(harness)
    await harness.slash(ALICE, "dispute", reason="x")
    for path, values in (
        ("referee rewind", {"action": 1}),
        ("referee resume", {}),
        ("referee restore", {"action": 1, "reason": "agreed"}),
        ("referee void", {"reason": "x"}),
        ("referee award", {"reason": "x", "winner": ALICE}),
    ):
        refused = await harness.slash(ALICE, path, **values)
        assert refused.all_ephemeral and "only moderators" in refused.text, path
    assert [k for k, _, _ in await events(harness)] == ["start", "dispute"]


async def test_moderators_rewind_restore_and_award_each_logged(harness: Harness) -> None:
    await morris_game(harness)
    await harness.slash(ALICE, "dispute", reason="misclick")
    rewound = await harness.slash(MODERATOR, "referee rewind", action=1, reason="look")
    assert "after action 1: place a1;" in rewound.text
    assert any(data.startswith(PNG) for _, _, data in rewound.files)
    restored = await harness.slash(MODERATOR, "referee restore", action=1, reason="both agree")
    assert "restores the game to action 1" in restored.text and BOB.mention in restored.last.content
    again = await harness.slash(BOB, "place", point="g7")  # bob replays his turn
    assert not again.all_ephemeral, again.text
    await harness.slash(BOB, "dispute", reason="now she stalls")
    awarded = await harness.slash(MODERATOR, "referee award", reason="stalling", winner=BOB)
    assert "Game over: Bob (Black) wins" in awarded.text
    steps = [(k, who, d.get("reason")) for k, who, d in await events(harness)][1:]
    assert steps == [
        ("dispute", ALICE.id, "misclick"),
        ("rewind", MODERATOR.id, "look"),
        ("restore", MODERATOR.id, "both agree"),
        ("dispute", BOB.id, "now she stalls"),
        ("award", MODERATOR.id, "stalling"),
    ]
    verified = await harness.slash(CAROL, "verify")
    assert "Verified" in verified.text and "1 taken back or restored away" in verified.text


async def test_a_moderator_who_plays_cannot_award_the_game_to_themselves(harness: Harness) -> None:
    """Manage Messages on the channel is not enough to decide your own game (issue 13.2)."""
    await start_game(harness, MODERATOR, BOB, "morris")
    await harness.slash(MODERATOR, "place", point="a1")
    for path, values in (
        ("referee award", {"reason": "mine", "winner": MODERATOR}),
        ("referee void", {"reason": "losing"}),
        ("referee abort", {"reason": "losing"}),
        ("referee restore", {"action": 0, "reason": "undo"}),
    ):
        refused = await harness.slash(MODERATOR, path, **values)
        assert refused.all_ephemeral and "another moderator" in refused.text, path
    assert [k for k, _, _ in await events(harness)] == ["start"]
    other = Person(900_000_000_000_000_044, "vera", permissions=MODERATOR.permissions)
    awarded = await harness.slash(other, "referee award", reason="stalling", winner=BOB)
    assert not awarded.first.ephemeral and "Bob (Black) wins" in awarded.text


async def test_void_ends_the_game_unrated(harness: Harness) -> None:
    await morris_game(harness, rated=True)
    await harness.slash(BOB, "dispute", reason="x")
    voided = await harness.slash(MODERATOR, "referee void", reason="both cheated")
    assert "voided by moderator" in voided.text and "both cheated" in voided.text
    g = await harness.bot.referee.store.game(1)  # type: ignore[attr-defined]
    assert (g.status, g.winner) == ("aborted", None)
    assert (await events(harness))[-1][:2] == ("void", MODERATOR.id)


async def test_the_replay_of_a_voided_game_ends_on_a_void_not_an_abort(harness: Harness) -> None:
    """/replay's last frame is the void the referee knows from the log (its outcome says
    "aborted" to the engine), with the moderator who voided it and why, as the board and the
    result line say."""
    await morris_game(harness)
    await harness.slash(BOB, "dispute", reason="x")
    await harness.slash(MODERATOR, "referee void", reason="both cheated")
    shown = await harness.slash(ALICE, "replay")
    (gif,) = [data for name, _, data in shown.files if name.endswith(".gif")]
    img = Image.open(io.BytesIO(gif))
    img.seek(img.n_frames - 1)
    last = img.convert("RGB")
    exported = await harness.bot.referee.record(Where(GUILD_ID, CHANNEL_ID))  # type: ignore[attr-defined]
    record = Record.from_json(exported.file)
    game, state = start_record(record)
    for _, _, _, after in replay_steps(game, state, record):
        state = after
    told = ("end.voided_by", {"name": MODERATOR.name, "why": "both cheated"})
    drawn = {
        voided: render.board_image("morris", state, size=last.width, players=("Alice", "Bob"),
                                   outcome=record.result, told=told if voided else None)
        for voided in (True, False)
    }  # fmt: skip

    def far(a: Image.Image, b: Image.Image) -> int:
        x, y = a.tobytes(), b.tobytes()
        return sum(
            1 for i in range(0, len(x), 3) if abs(x[i] - y[i]) + abs(x[i + 2] - y[i + 2]) > 80
        )

    assert far(last, drawn[True]) < far(last, drawn[False])


async def finished_record(h: Harness) -> bytes:
    await morris_game(h)
    await h.slash(BOB, "resign")
    exported = await h.slash(ALICE, "record")
    (data,) = [d for name, _, d in exported.files if name.endswith(".json")]
    head = Record.from_json(data).head
    assert f"log #{head[:10]}" in exported.last.text  # the chain head, in the embed's footer
    return data


async def test_import_of_a_good_record_shows_verdict_position_and_replay(
    harness: Harness,
) -> None:
    data = await finished_record(harness)
    imported = await harness.slash(CAROL, "import", record=Upload("game-1.json", data))
    assert imported.first.response_type == 5  # deferred: the replay takes a moment
    assert "Verified" in imported.text and "record version 3" in imported.text
    names = [name for name, _, _ in imported.files]
    assert "import-1.png" in names and "replay-1.gif" in names
    assert harness.downloads == [u for u in harness.cdn]  # the file came from the CDN


async def test_import_of_a_tampered_record_names_the_row(harness: Harness) -> None:
    record = json.loads(await finished_record(harness))
    record["log"][-1]["note"]["winner"] = 1  # bob resigned, yet "bob" wins
    record["result"]["winner"] = 1
    forged = json.dumps(record).encode()
    imported = await harness.slash(CAROL, "import", record=Upload("forged.json", forged))
    assert "Problem: row 4 (event resign)" in imported.text, imported.text
    junk = await harness.slash(CAROL, "import", record=Upload("junk.json", b"{not json"))
    assert "not a readable record" in junk.text


async def test_dispute_needs_a_game_in_this_channel(harness: Harness) -> None:
    refused = await harness.slash(ALICE, "dispute", channel=CHANNEL_ID)
    assert refused.all_ephemeral and "no game" in refused.text


@pytest.mark.parametrize("lang", ["en", "hu", "is"])
async def test_a_disputes_thread_opens_with_the_game_and_its_last_drop_and_roll(
    harness: Harness, lang: str
) -> None:
    """The thread's first message named the disputer and their reason, not what was disputed:
    it now says the game, its players and its last action, with a drop's announcement, roll
    and landing square (the words rewind and restore use), in the server's language."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "atmalof")
    await harness.slash(ALICE, "play", command="drop row 3")
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    (row,) = await store.actions(1)
    before = len(harness.rest_calls)
    await harness.slash(BOB, "dispute", reason="the roll", app_permissions=PRIVATE_THREADS)
    thread = next(c for c in harness.rest_calls[before:] if c.path.endswith("/threads"))
    (first,) = [c for c in harness.rest_calls[before:] if c.path.endswith("/messages")]
    assert first.message["channel_id"] == thread.message["id"], first.message
    w = words(lang)
    g = await store.game(1)
    start, drop = GAME.new(), GAME.parse(GAME.new(), "drop row 3")
    landed = GAME.effect(start, drop, row.roll, GAME.apply(start, drop, row.roll)).landing
    assert landed is not None and landed[0] == 3
    about = w.t(
        "dispute.about",
        id=1,
        game="Atmalof",
        first=w.t("who.named", name="Alice", side=w.t("side.atmalof.0")),
        second=w.t("who.named", name="Bob", side=w.t("side.atmalof.1")),
        seq=1,
        player=w.t("who.named", name="Alice", side=w.t("side.atmalof.0")),
        action=w.t("action.rolled", action="drop row 3", roll=row.roll, square=f"(3,{landed[1]})"),
    )
    lines = first.text.splitlines()
    assert about in lines, first.text
    assert lines.index(about) == 1 + next(i for i, x in enumerate(lines) if "Bob" in x), lines
    if lang == "en":
        assert about == (
            "Disputed: game 1, Atmalof, Alice (Red) vs Bob (Blue). Its last action, as the log "
            f"numbers it: 1. Alice (Red): drop row 3, rolled {row.roll}: landed on (3,{landed[1]})."
        )
    assert f"(3,{landed[1]})" in about and not _nested(about), about
    assert g.frozen_at is not None


def _nested(text: str) -> bool:
    """Whether a parenthesis opens inside another ("(Alice (White), ...)")."""
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth > 1:
            return True
    return False


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
async def test_a_disputed_morris_move_reads_as_its_history_line(
    harness: Harness, lang: str
) -> None:
    """In eo/hu/is the dispute's first line put the notation ("place g7") inside a sentence of
    words, and Hungarian nested parentheses around the player: it now reads as the /history
    line of that action ("1. White: place d7"), notation being the same in every language."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    history = await harness.slash(ALICE, "history")
    w = words(lang)
    opened = await harness.slash(BOB, "dispute", reason="x", app_permissions=PRIVATE_THREADS)
    white = w.t("who.named", name="Alice", side=w.t("side.morris.0"))
    assert f"1. {w.t('side.morris.0')}: place d7" in history.text, history.text
    (about,) = [line for line in opened.text.splitlines() if f"1. {white}: place d7" in line]
    assert about.endswith(f"1. {white}: place d7."), about
    assert not _nested(about), about


async def test_a_dispute_before_any_move_says_so(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    opened = await harness.slash(BOB, "dispute", reason="wrong starter")
    said = (
        "Disputed: game 1, Nine Men's Morris, Alice (White) vs Bob (Black), "
        "before its first action."
    )
    assert said in opened.text.splitlines(), opened.text


async def test_nobody_calls_the_moderators_to_ten_games_at_once(harness: Harness) -> None:
    """Each dispute pings the moderators' role: a player with many games running (the limit
    is ten) could ping it ten times in a row. The fourth dispute opened within ten minutes is
    refused privately, saying how many and when again, nothing frozen; refused attempts (a
    dispute already open) do not count; another player's dispute is not slowed."""
    channels = [CHANNEL_ID + k for k in range(1, 6)]
    for channel in channels:
        await start_game(harness, ALICE, BOB, "morris", channel=channel)
    uses, _ = COOLDOWNS["dispute"]
    for n, channel in enumerate(channels[:uses]):
        opened = await harness.slash(BOB, "dispute", channel=channel, reason="x")
        assert not opened.all_ephemeral, opened.text
        if n == 0:  # refused twice more: these do not count
            for _ in range(uses):
                again = await harness.slash(BOB, "dispute", channel=channel, reason="x")
                assert again.all_ephemeral and "already open" in again.text, again.text
    slowed = await harness.slash(BOB, "dispute", channel=channels[uses], reason="x")
    said = words("en").t("discord.dispute_cooldown", n=uses, minutes=10, wait=10)
    assert slowed.all_ephemeral and slowed.text == said, slowed.text
    assert said.startswith(f"you have opened {uses} disputes in the last 10 minutes")
    moved = await harness.slash(ALICE, "place", channel=channels[uses], point="d7")
    assert not moved.first.ephemeral, moved.text  # that game was not frozen
    other = await harness.slash(ALICE, "dispute", channel=channels[uses + 1], reason="y")
    assert not other.all_ephemeral, other.text
