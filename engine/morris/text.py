"""Morris text: the command grammar (parse, notation) and the one-line position string.

Commands: ``place d7``, ``move d7 d6``, ``fly a1 g7``, ``remove b6``, and the combined forms
``place d7 x b6``, ``move d7 d6 x b6``, ``fly a1 g7 x b6`` (``remove`` or ``take`` in place of
``x``, and ``remove:b6`` as Discord's option reads). Points are grid names (a letter and
a digit) or, as a bare single letter, the seed's letters A..X. The ``x`` separator is found by
its position, since a bare ``x`` is also the letter of g1 (``place x x a`` is legal). ``move``
is also accepted for a fly; ``fly`` is refused for a side that may not fly. ``-`` and ``,``
separate like spaces.

Position string (see ``to_text``)::

    standard board=W.......................B hand=8,8 turn=w ply=2 quiet=0

with ``pending`` when a removal is owed, ``last=d6-d5,-`` when ``no_remill`` is on, and every
option that differs from the variant's default (``flying=off``, ``move_limit=30``...). The
repetition history is not included: a position read back starts a fresh history.
"""

from __future__ import annotations

from engine.core import IllegalAction, OptionError, ParseError, clean_command, shown_token
from engine.morris.board import Layout
from engine.morris.rules import (
    MIN_MEN,
    SIDES,
    VARIANTS,
    MorrisAction,
    MorrisState,
    Move,
    Place,
    Remove,
    _can_fly,
    _key,
    _play,
    make_rules,
)

USAGE = "expected: place <point>, move <from> <to>, fly <from> <to> or remove <point>"
_FORMS = {
    "place": "expected: place <point> (or place <point> x <point> after a mill)",
    "move": "expected: move <from> <to> (or move <from> <to> x <point> after a mill)",
    "fly": "expected: fly <from> <to> (or fly <from> <to> x <point> after a mill)",
    "remove": "expected: remove <point>",
}
_ALIASES = {"take": "remove", "x": "remove", "jump": "fly"}  # "x b6": the help's "... x b6"
_TAKE_WORDS = ("x", "remove", "take")
"""What may join a removal to the move that closed the mill: ``place d7 x b6``, or the words
of the rules summary's Discord option, ``place d7 remove:b6`` (a colon separates like a
space), typed at the console."""
MAX_POSITION_LENGTH = 600


def parse_action(st: MorrisState, text: str) -> MorrisAction:
    """Untrusted text -> a legal action; ParseError for non-commands, IllegalAction if forbidden."""
    words = clean_command(text).replace("-", " ").replace(",", " ").replace(":", " ").split()
    if not words:
        raise ParseError(USAGE, "empty_command")
    verb = _ALIASES.get(words[0], words[0])
    if verb not in _FORMS:
        shown = shown_token(words[0])  # named, as Atmalof's and Abalone's parsers do
        raise ParseError(
            f"'{shown}' is not a Nine Men's Morris command: {USAGE}", "unknown_command", token=shown
        )
    args = words[1:]
    want = 1 if verb in ("place", "remove") else 2
    take = None
    if verb != "remove" and len(args) == want + 2 and args[want] in _TAKE_WORDS:
        take = args[-1]  # the separator is found by position: "x" alone is also point X
        args = args[:want]
    if len(args) != want:
        raise ParseError(_FORMS[verb], "expected", verb=verb)
    layout = st.rules.layout
    points = [layout.point(word) for word in args]
    removal = None if take is None else layout.point(take)
    action: MorrisAction
    if verb == "place":
        action = Place(points[0], removal)
    elif verb == "remove":
        action = Remove(points[0])
    else:
        action = Move(points[0], points[1], removal)
    _play(st, action)
    if verb == "fly" and not _can_fly(st, st.to_move):
        me = st.to_move
        if not st.rules.flying:
            raise IllegalAction("flying is off in this game: move along the lines", "flying_off")
        raise IllegalAction(
            f"{SIDES[me]} has {st.men[me].bit_count()} men and cannot fly: "
            "only a side with exactly three men may fly",
            "cannot_fly",
            side=me,
            men=st.men[me].bit_count(),
        )
    return action


def notation(st: MorrisState, action: MorrisAction) -> str:
    """The canonical text of an action in this position (grid names, ``fly`` when flying)."""
    names = st.rules.layout.points
    if isinstance(action, Remove):
        return f"remove {names[action.point]}"
    if isinstance(action, Place):
        text = f"place {names[action.point]}"
    elif isinstance(action, Move):
        verb = "fly" if _can_fly(st, st.to_move) else "move"
        text = f"{verb} {names[action.src]} {names[action.dst]}"
    else:
        raise IllegalAction("that is not a Morris action", "not_an_action")
    if action.remove is not None:
        text += f" x {names[action.remove]}"
    return text


def to_text(st: MorrisState) -> str:
    """The one-line position string; ``from_text(to_text(s)) == s`` up to the history."""
    rules = st.rules
    board = "".join(
        "W" if st.men[0] >> p & 1 else "B" if st.men[1] >> p & 1 else "."
        for p in range(rules.layout.size)
    )
    parts = [
        rules.variant,
        f"board={board}",
        f"hand={st.hand[0]},{st.hand[1]}",
        f"turn={'wb'[st.to_move]}",
        f"ply={st.ply}",
        f"quiet={st.quiet}",
    ]
    if st.pending:
        parts.append("pending")
    if rules.no_remill:
        parts.append("last=" + ",".join(_last_text(st, move) for move in st.last))
    default = make_rules(rules.variant)
    for name in ("flying", "no_remill", "repetition"):
        if getattr(rules, name) != getattr(default, name):
            parts.append(f"{name}={'on' if getattr(rules, name) else 'off'}")
    if rules.move_limit != default.move_limit:
        parts.append(f"move_limit={rules.move_limit}")
    return " ".join(parts)


def _last_text(st: MorrisState, move: int) -> str:
    if move < 0:
        return "-"
    names = st.rules.layout.points
    return f"{names[move // 32]}-{names[move % 32]}"


def from_text(text: str) -> MorrisState:
    """Read a position string back; ParseError with the reason for anything malformed."""
    if not isinstance(text, str) or len(text) > MAX_POSITION_LENGTH:
        raise ParseError("a Morris position must be text of at most 600 characters")
    words = text.split()
    if not words or words[0].lower() not in VARIANTS:
        raise ParseError(
            f"a Morris position starts with its variant ({', '.join(VARIANTS)}), "
            f"not {words[0][:20] if words else 'nothing'!r}"
        )
    fields: dict[str, str] = {}
    pending = False
    for word in words[1:]:
        if word == "pending":
            pending = True
            continue
        name, sep, value = word.partition("=")
        if not sep or name in fields:
            raise ParseError(f"unexpected {word[:30]!r} in a Morris position")
        fields[name] = value
    options = {
        k: fields.pop(k) for k in ("flying", "no_remill", "repetition", "move_limit") if k in fields
    }
    try:
        rules = make_rules(words[0].lower(), **options)
    except OptionError as exc:
        raise ParseError(str(exc)) from None
    for required in ("board", "hand", "turn", "ply"):
        if required not in fields:
            raise ParseError(f"a Morris position needs {required}=")
    men = _read_board(fields.pop("board"), rules.layout.size)
    hand = _read_pair(fields.pop("hand"), "hand")
    turn = fields.pop("turn")
    if turn not in ("w", "b"):
        raise ParseError("turn must be w or b")
    to_move = "wb".index(turn)
    ply = _read_number(fields.pop("ply"), "ply")
    quiet = _read_number(fields.pop("quiet", "0"), "quiet")
    last = (-1, -1)
    if "last" in fields:
        if not rules.no_remill:
            raise ParseError("last= is kept only when no_remill is on")
        last = _read_last(fields.pop("last"), rules.layout)
    if fields:
        raise ParseError(f"unknown field {next(iter(fields))[:20]!r} in a Morris position")
    for side in (0, 1):
        if men[side].bit_count() + hand[side] > rules.pieces:
            raise ParseError(f"{SIDES[side]} has more than {rules.pieces} men")
    if pending and not men[1 - to_move]:
        raise ParseError(f"a removal is pending but {SIDES[1 - to_move]} has no man to remove")
    if pending and min(men[s].bit_count() + hand[s] for s in (0, 1)) < MIN_MEN:
        raise ParseError("a removal cannot be pending in a finished game")
    history = (_key(men, to_move),)
    return MorrisState(rules.variant, to_move, ply, men, hand, pending, quiet, history, last, rules)


def _read_board(text: str, size: int) -> tuple[int, int]:
    if len(text) != size or set(text) - set("WB."):
        raise ParseError(f"board= needs {size} characters, each W, B or .")
    white = sum(1 << p for p, c in enumerate(text) if c == "W")
    black = sum(1 << p for p, c in enumerate(text) if c == "B")
    return white, black


def _read_number(text: str, name: str) -> int:
    if not (0 < len(text) <= 9 and text.isascii() and text.isdigit()):
        raise ParseError(f"{name}= needs a whole number")
    return int(text)


def _read_pair(text: str, name: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise ParseError(f"{name}= needs two numbers, White's and Black's")
    first, second = (_read_number(p, name) for p in parts)
    return first, second


def _read_last(text: str, layout: Layout) -> tuple[int, int]:
    out = []
    for part in text.split(","):
        if part == "-":
            out.append(-1)
            continue
        src, sep, dst = part.partition("-")
        if not sep:
            raise ParseError("last= needs two moves like d6-d5 or -")
        out.append(layout.point(src) * 32 + layout.point(dst))
    if len(out) != 2:
        raise ParseError("last= needs two moves like d6-d5 or -")
    return out[0], out[1]
