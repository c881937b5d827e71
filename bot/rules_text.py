"""The short rules summaries that ``/rules`` and the console's ``rules`` show, in one place.

The texts use Discord's Markdown (``**bold**``, `` `code` ``, ``[text](link)``); ``plain``
turns them into terminal text. Each sentence is checked against the engine or the referee in
tests/bot/test_rules_text.py: change a sentence there too.
"""

from __future__ import annotations

import re

ATMALOF_LICENCE = "https://creativecommons.org/licenses/by-sa/3.0/"

_TAKEBACKS = (
    "**Takebacks**: you may take back your last turn only if your opponent agrees, and only in "
    "a casual (unrated) game; a server can switch takebacks off (`/referee settings`)."
)

RULES: dict[str, tuple[str, str]] = {
    "atmalof": (
        "Atmalof",
        "A 7 × 7 board, Red and Blue with 22 pieces each, the board empty at the start.\n"
        "On your turn do one of two things:\n"
        "• **Drop**: first announce a row or a column (`/drop row 4`), then the die is rolled in "
        "public and picks the square in that line. If the square is taken, your turn is lost. "
        "Row 7 and column 7 can be announced like any other line: the six-sided die then picks "
        "one of its first six squares. Only the corner square (7,7) is out of the die's reach: "
        "a piece gets there by a move alone.\n"
        "• **Move**: step one of your pieces to a neighbouring empty square, in any of the eight "
        "directions (`/move 3,4 4,5`).\n"
        "Five in a row, in any direction, wins at once. As soon as a player has every piece on "
        "the board, play stops and each side counts its lines of exactly four: more lines wins, "
        "equal is a draw. A coin toss decides who starts; rematches alternate. Variants: junior "
        "(6 × 6), atmalos (9 × 9, seven in a row) and custom.\n"
        "**The referee's own rules**, not the author's: a position that comes back a third time "
        "through moves is a draw (turns lost to the die do not count), and so is a game where "
        "each side plays 50 turns without landing a piece; a challenge can change or switch off "
        "both.\n"
        f"{_TAKEBACKS} A drop can never be taken back once the die has rolled. The author's "
        "rules say a move once made is final: takebacks are the referee's allowance, not part "
        "of Atmalof.\n\n"
        "Atmalof was invented by **Richard Sandes Forsyth**, whose rules are published under "
        f"[CC BY-SA 3.0]({ATMALOF_LICENCE}); this is our own summary of them.",
    ),
    "morris": (
        "Nine Men's Morris",
        "24 points on three nested squares joined by four lines; nine men each, White first.\n"
        "• **Placing**: take turns putting a man on an empty point (`/place d7`).\n"
        "• **Moving**: once all are placed, slide a man along a line to a neighbouring empty "
        "point (`/move d7 d6`). With three men left you may fly to any empty point (an option, "
        "on unless the challenge says `flying=off`).\n"
        "• **Mills**: three of your men in a row on a line let you remove one of the opponent's "
        "(`/remove b6`, or `/move d7 d6 remove:b6`). A man standing in a mill is safe unless "
        "all of that side's men stand in mills. Removed men never come back.\n"
        "You lose with two men left or when you cannot move. Repeating a position three times, "
        "or 50 moves each without a removal once all are placed, is a draw.\n"
        f"{_TAKEBACKS}",
    ),
    "abalone": (
        "Abalone",
        "A hexagon of 61 cells, 14 marbles each, Black first. Rows A..I, diagonals 1..9.\n"
        "• **Move** one, two or three of your marbles in a line one step, along the line or "
        "sideways (`/push a1 a3 ne`, `/push c3 e`). Directions: NE, E, SE, SW, W, NW.\n"
        "• **Sumito**: pushing along the line, more of yours than of theirs pushes them: 2 push "
        "1, 3 push 1, 3 push 2, if the cell behind them is empty or off the board. Equal "
        "numbers cannot push, and you may never move your own marble off the board.\n"
        "Push six of your opponent's marbles off the board to win. Layouts: standard, Belgian "
        "daisy, German daisy.\n"
        "**The referee's own rules**, not the original's: the third repetition of a position "
        "(same side to move) is a draw, and after 200 moves in all the side with more marbles "
        "on the board wins (equal numbers draw).\n"
        f"{_TAKEBACKS} The original rules say a move cannot be changed once made: takebacks "
        "are the referee's allowance, not part of Abalone.",
    ),
}

_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_SLASH_COMMAND = re.compile(r"`(/[^`]+)`")
# The summaries' slash commands typed at the console where dropping the "/" is not enough:
# the console has no Discord options, and its moderator speaks as ``referee:``.
_AT_THE_CONSOLE = {
    "/move d7 d6 remove:b6": "move d7 d6 x b6",
    "/referee settings": "referee: settings",
}


def plain(text: str) -> str:
    """A summary for a terminal: no bold marks, no code ticks, a link as "text (address)"."""
    return _LINK.sub(r"\1 (\2)", text).replace("**", "").replace("`", "")


def console(text: str) -> str:
    """A summary for the console table: plain text, each slash command as it is typed there."""

    def typed(command: re.Match[str]) -> str:
        slash = command.group(1)
        return _AT_THE_CONSOLE.get(slash, slash.removeprefix("/"))

    return plain(_SLASH_COMMAND.sub(typed, text))
