"""Who is who at the console table: what a name may be, and the player id each name stands for.

A name's id is derived from the name itself, so a name is the same player after a restart, in
two consoles on one database, and in any order people speak. The ids lie below 2**53: every
Discord user id (a snowflake, made after Discord's launch in 2015) lies above, so a console
player never meets a Discord user in a shared database.
"""

from __future__ import annotations

import hashlib
import unicodedata

from bot.errors import Refusal
from bot.i18n import typed
from bot.referee.replies import Actor

MAX_NAME = 32
CONSOLE_IDS = 2**53
MODERATOR = "referee"  # the speaker who uses the moderators' commands
BOT_NAME = "bot"  # the practice opponent at the table (`challenge bot morris`)
OPEN_WORDS = ("anyone", "open", "anybody")  # "challenge anyone morris": not a person
JOINERS = "_-"


def name_key(name: str) -> str:
    """The form two spellings of one name share: "Zoë", "zoë" and "ZOË" are one player."""
    return unicodedata.normalize("NFC", name).casefold()


def name_problem(name: str) -> Refusal | None:
    """Why ``name`` cannot be a player's name (a refusal, said in the reader's language), or
    None: letters and digits of any script, up to 32 characters (``_`` and ``-`` may join
    them), starting with a letter or a digit."""
    name = unicodedata.normalize("NFC", name)
    if not name:
        return Refusal("name_empty")
    if len(name) > MAX_NAME:
        return Refusal(
            "name_too_long", {"most": MAX_NAME, "start": name[:MAX_NAME], "length": len(name)}
        )
    for i, char in enumerate(name):
        kind = unicodedata.category(char)
        if kind.startswith("L") or kind == "Nd":
            continue
        if i > 0 and (kind.startswith("M") or char in JOINERS):
            continue  # accents and vowel signs of a letter before them; joined names
        return Refusal("name_bad_start" if i == 0 else "name_bad_char", {"char": typed(char)})
    if name_key(name) in OPEN_WORDS:
        return Refusal("name_open_word", {"name": name})
    if name_key(name) == BOT_NAME:
        return Refusal("name_bot", {"name": name})
    return None


def console_id(name: str) -> int:
    """The player id of a console name: the same for every spelling of it, in every run."""
    digest = hashlib.blake2b(name_key(name).encode(), digest_size=8, person=b"console").digest()
    return 1 + int.from_bytes(digest, "big") % (CONSOLE_IDS - 1)


def console_actor(name: str) -> Actor:
    """The person behind a valid name; ``referee`` is the table's moderator."""
    name = unicodedata.normalize("NFC", name)
    return Actor(console_id(name), name, is_moderator=name_key(name) == MODERATOR)


CONSOLE_BOT = Actor(CONSOLE_IDS, BOT_NAME, is_bot=True)
"""The practice opponent at the console: one id above every console name's, below Discord's."""
