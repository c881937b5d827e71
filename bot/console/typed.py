"""What a typed console line is, before it reaches the referee: a command word (never a
speaker's name), and ``help <topic>``'s part of the help."""

from __future__ import annotations

from bot.referee.grammar import COMMAND_WORDS, PLAYER_WORDS
from bot.referee.move_words import is_move_word

# The moderator's words: `referee: void cheating` runs `referee void cheating`.
MODERATOR_WORDS = (
    "abort",
    "award",
    "void",
    "rewind",
    "restore",
    "resume",
    "theme",
    "settings",
    "season-close",
    "close-season",
)


def is_player_word(word: str) -> bool:
    """A command or a move only a player makes."""
    low = word.lower()
    return low in PLAYER_WORDS or is_move_word(low)


def is_command_word(word: str) -> bool:
    """A word a command or a move starts with (then a colon after it is no speaker's)."""
    low = word.lower()
    return low in COMMAND_WORDS or low in MODERATOR_WORDS or is_move_word(low)


def help_about(helped: str, topic: list[str]) -> str:
    """``help drop``: the help's entries that name the topic, each under its section's head
    (which says how to type them); "" when none does. An entry is a line indented by two
    and the lines indented further under it; commands are English words in every language."""
    words = [w.lower() for w in topic]
    if not words:
        return helped
    sections: list[tuple[str, list[list[str]]]] = []
    for line in helped.splitlines():
        if not line.startswith(" "):
            sections.append((line, []))
        elif line.startswith("   ") and sections and sections[-1][1]:
            sections[-1][1][-1].append(line)  # the entry goes on
        elif sections:
            sections[-1][1].append([line])
    shown: list[str] = []
    for head, entries in sections:
        found = [e for e in entries if all(w in " ".join(e).lower() for w in words)]
        if found:
            shown += [head, *(line for entry in found for line in entry)]
    return "\n".join(shown) if shown else ""
