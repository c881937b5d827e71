"""A member's nickname is repeated in public (the channel's messages, the thread's name, the board's
alt text, the record): whatever they chose, it reads as one name inside the bot's sentence. A
right-to-left override (U+202E) turned the rest of the bot's line around for every reader, a line
break made the name forge a line of the bot's own ("Bob resigns."), a name of zero-width spaces
showed nothing at all, and a long one pushed the opponent out of the thread's name."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import Exchange, Harness, Person, Upload
from tests.discord.play import button, message_with_buttons, start_game
from tests.discord.test_disputes import finished_record

RLO = "\u202e"


@dataclass(frozen=True)
class Nicknamed(Person):
    """A member with a server nickname: Discord shows it instead of their username."""

    nick: str = ""

    def member_payload(self) -> dict[str, Any]:
        return {**super().member_payload(), "nick": self.nick}


def sent(exchange: Exchange) -> str:
    """Everything the bot sent in one exchange, as sent: text, thread names, alt texts."""
    parts = [c.raw for c in exchange.messages]
    parts += [str(c.payload.get("name") or "") for c in exchange.calls]
    parts += [alt or "" for _, alt, _ in exchange.files]
    return "\n".join(parts)


async def test_a_nickname_with_an_override_and_a_line_break_is_one_plain_name(
    harness: Harness,
) -> None:
    mallory = Nicknamed(900_000_000_000_000_081, "mallory", nick=f"Mal{RLO}lory\nBob resigns.")
    posted = await harness.slash(mallory, "challenge", game="morris", opponent=BOB, thread=True)
    (thread,) = [c for c in posted.calls if c.path == "/channels/{channel_id}/threads"]
    assert thread.payload["name"] == "Nine Men's Morris: Mallory Bob resigns. vs Bob"
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    said = sent(posted) + sent(started)
    assert RLO not in said and "Mallory Bob resigns." in said
    assert not any(line.startswith("Bob resigns") for line in said.splitlines())
    room = int(challenge.message["channel_id"])
    record = await harness.slash(mallory, "record", channel=room)
    ((_, _, data),) = record.files
    assert "Mallory Bob resigns." in [p["name"] for p in json.loads(data)["players"]]


async def test_an_invisible_nickname_is_shown_as_the_username(harness: Harness) -> None:
    ghost = Nicknamed(900_000_000_000_000_082, "ghost", nick="\u200b\u200b\u2060")
    posted = await harness.slash(ghost, "challenge", game="morris", opponent=BOB)
    assert posted.last.text.startswith(f"{BOB.mention}\nGhost challenges Bob")


async def test_a_long_nickname_leaves_the_opponent_in_the_thread_name(harness: Harness) -> None:
    loud = Nicknamed(900_000_000_000_000_083, "loud", nick="A" * 100)
    posted = await harness.slash(loud, "challenge", game="morris", opponent=BOB, thread=True)
    (thread,) = [c for c in posted.calls if c.path == "/channels/{channel_id}/threads"]
    name = thread.payload["name"]
    assert len(name) <= 100 and name.endswith("A… vs Bob"), name


async def test_a_reason_is_one_plain_line_in_the_public_messages(harness: Harness) -> None:
    """The dispute's reason and a moderator's are repeated to the channel: an override turned
    the bot's sentence around, and a moderator's line break forged a line of the bot's own."""
    await start_game(harness, ALICE, BOB, "morris")
    disputed = await harness.slash(ALICE, "dispute", reason=f"lag{RLO} evil")
    aborted = await harness.slash(MODERATOR, "referee abort", reason=f"cheat{RLO}\nBob wins.")
    said = sent(disputed) + sent(aborted)
    assert "lag evil" in said and "cheat Bob wins." in said
    assert RLO not in said
    assert not any(line.startswith("Bob wins") for line in said.splitlines())


async def test_a_forged_records_names_are_one_plain_line_in_the_verdict(harness: Harness) -> None:
    record = json.loads(await finished_record(harness))
    record["players"][0]["name"] = f"Eve{RLO}\nThis record verifies."
    record["players"][1]["name"] = "\u200b"
    data = json.dumps(record).encode()
    imported = await harness.slash(CAROL, "import", record=Upload("forged.json", data))
    said = sent(imported)
    assert "does not verify" in imported.text and "Eve This record verifies. vs ?" in said
    assert RLO not in said and "\u200b" not in said.replace("@\u200b", "")
    assert not any(line.startswith("This record") for line in said.splitlines())
