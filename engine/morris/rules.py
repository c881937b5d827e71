"""The rules of Nine Men's Morris (and Six and Twelve Men's Morris) on bitmask states.

engine/morris/game.py documents the game and is the public face; this module holds the state, the
actions and the rule functions on them, kept apart from text (morris_text.py) so each stays
small. ``men`` are 24-bit masks per side, so legality is a few bit operations per point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import IllegalAction, OptionError, Outcome, Termination
from engine.morris.board import BITS_HI, BITS_LO, GRID_OF_LETTER, NINE, SIX, TWELVE, Layout, bits

SIDES = ("White", "Black")
POINTS: tuple[tuple[int, int], ...] = NINE.coords
"""(file, rank) of each point of the 24-point board on the 7x7 grid, both 0..6, rank 0 = rank 1."""
POINT_NAMES: tuple[str, ...] = NINE.points
LETTERS: dict[str, str] = GRID_OF_LETTER
"""The seed's letter of each point to its grid name: {"A": "a7", "B": "d7", ...}."""

MAX_MOVE_LIMIT = 1000
MIN_MEN = 3  # a side with fewer men (board plus hand) has lost


@dataclass(frozen=True, slots=True)
class Place:
    """Put a man from hand on an empty point; ``remove`` is the optional combined removal."""

    point: int
    remove: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Move (or, with three men and ``flying`` on, fly) a man from ``src`` to ``dst``."""

    src: int
    dst: int
    remove: int | None = None


@dataclass(frozen=True, slots=True)
class Remove:
    """Take an opponent's man off the board after closing a mill."""

    point: int


MorrisAction = Place | Move | Remove


@dataclass(frozen=True, slots=True)
class Variant:
    """A board, a number of men per side and the default for flying."""

    name: str
    layout: Layout
    pieces: int
    flying: bool


VARIANTS: dict[str, Variant] = {
    "standard": Variant("standard", NINE, 9, True),
    "six": Variant("six", SIX, 6, False),
    "twelve": Variant("twelve", TWELVE, 12, True),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one game (fixed for its whole length) and its board."""

    variant: str
    pieces: int
    flying: bool
    no_remill: bool
    repetition: bool
    move_limit: int  # moves by EACH side in phase 2 without a removal; 0 disables
    layout: Layout = field(compare=False, hash=False, repr=False)


@dataclass(frozen=True, slots=True)
class MorrisState:
    """A position. ``men`` are bitmasks per side; ``history`` holds the repetition keys since
    the last placement or removal (the current position last); ``last`` is each side's
    previous move as ``src * 32 + dst`` (-1 for none), kept only when ``no_remill`` is on."""

    variant: str
    to_move: int
    ply: int
    men: tuple[int, int]
    hand: tuple[int, int]
    pending: bool  # the side to move closed a mill and must remove a man
    quiet: int  # moves since the last placement or removal
    history: tuple[int, ...]
    last: tuple[int, int]
    rules: Rules


# Shared action objects, so legal() builds no new ones.
PLACE = tuple(Place(p) for p in range(24))
REMOVE = tuple(Remove(p) for p in range(24))
MOVE = tuple(tuple(Move(s, d) for d in range(24)) for s in range(24))
_PLACE_LO = tuple(tuple(PLACE[p] for p in ps) for ps in BITS_LO)
_PLACE_HI = tuple(tuple(PLACE[p] for p in ps) for ps in BITS_HI)
_REMOVE_LO = tuple(tuple(REMOVE[p] for p in ps) for ps in BITS_LO)
_REMOVE_HI = tuple(tuple(REMOVE[p] for p in ps) for ps in BITS_HI)


def _step_tables() -> tuple[dict[int, tuple[Move, ...]], ...]:
    """For each source point, every set of reachable neighbours -> its Move actions."""
    union = [0] * 24
    for variant in VARIANTS.values():
        for p, nb in enumerate(variant.layout.neighbours):
            union[p] |= nb
    tables = []
    for s in range(24):
        targets = bits(union[s])
        table: dict[int, tuple[Move, ...]] = {}
        for combo in range(1 << len(targets)):
            chosen = [t for i, t in enumerate(targets) if combo >> i & 1]
            table[sum(1 << t for t in chosen)] = tuple(MOVE[s][t] for t in chosen)
        tables.append(table)
    return tuple(tables)


_STEPS = _step_tables()

# What a placement or move did about mills (for describe and the combined removal).
_NO_MILL, _MILL, _REMILL, _NOTHING_TO_TAKE = range(4)


def _key(men: tuple[int, int], to_move: int) -> int:
    return men[0] | men[1] << 24 | to_move << 48


def _in_mills(layout: Layout, mask: int) -> int:
    """The points of ``mask`` that stand in a closed mill of ``mask``."""
    found = 0
    for mill in layout.mill_masks:
        if mask & mill == mill:
            found |= mill
    return found


def _removable_mask(layout: Layout, theirs: int) -> int:
    free = theirs & ~_in_mills(layout, theirs)
    return free or theirs


def _final(st: MorrisState) -> Outcome | None:
    """Every engine-decided end except a blocked side (that one needs the move list)."""
    men, hand = st.men, st.hand
    for side in (0, 1):
        if men[side].bit_count() + hand[side] < MIN_MEN:
            return Outcome(
                Termination.TWO_PIECES,
                1 - side,
                f"{SIDES[side]} is down to two men",
            )
    if st.pending:
        return None
    rules = st.rules
    if not hand[0] and not hand[1] and men[0] | men[1] == rules.layout.full:
        return Outcome(Termination.FULL_BOARD, None, "the board is full after placing")
    if rules.repetition and len(st.history) > 4 and st.history.count(st.history[-1]) >= 3:
        return Outcome(Termination.REPETITION, None, "the same position occurred three times")
    if rules.move_limit and st.quiet >= 2 * rules.move_limit:
        return Outcome(
            Termination.MOVE_LIMIT,
            None,
            f"{rules.move_limit} moves each without a removal",
        )
    return None


def _legal(st: MorrisState) -> list[MorrisAction]:
    me = st.to_move
    mine, theirs = st.men[me], st.men[1 - me]
    rules = st.rules
    if st.pending:
        free = _removable_mask(rules.layout, theirs)
        return list(_REMOVE_LO[free & 4095] + _REMOVE_HI[free >> 12])
    empty = rules.layout.full & ~(mine | theirs)
    if st.hand[me]:
        return list(_PLACE_LO[empty & 4095] + _PLACE_HI[empty >> 12])
    if rules.flying and mine.bit_count() == 3:
        targets = bits(empty)
        return [MOVE[s][d] for s in bits(mine) for d in targets]
    out: list[MorrisAction] = []
    neighbours = rules.layout.neighbours
    for s in BITS_LO[mine & 4095] + BITS_HI[mine >> 12]:
        reach = neighbours[s] & empty
        if reach:
            out.extend(_STEPS[s][reach])
    return out


def _can_fly(st: MorrisState, side: int) -> bool:
    return st.rules.flying and not st.hand[side] and st.men[side].bit_count() == 3


def _name(st: MorrisState, p: int) -> str:
    return st.rules.layout.points[p]


def _check_point(st: MorrisState, p: object) -> None:
    if type(p) is not int or not 0 <= p < st.rules.layout.size:
        raise IllegalAction(f"{p!r} is not a point on this board", "not_a_point", token=repr(p))


def _after_turn(
    st: MorrisState, men: tuple[int, int], hand: tuple[int, int], closed: int, quiet: int
) -> MorrisState:
    """The state after a placement or move that may have closed a mill."""
    me = st.to_move
    last = st.last
    if closed == _MILL:
        return MorrisState(
            st.variant, me, st.ply + 1, men, hand, True, quiet, st.history, last, st.rules
        )
    to_move = 1 - me
    key = _key(men, to_move)
    if not st.rules.repetition:
        history: tuple[int, ...] = ()
    else:
        history = (*st.history, key) if quiet else (key,)
    return MorrisState(
        st.variant, to_move, st.ply + 1, men, hand, False, quiet, history, last, st.rules
    )


def _place(st: MorrisState, p: int) -> tuple[MorrisState, int]:
    _check_point(st, p)
    me = st.to_move
    mine, theirs = st.men[me], st.men[1 - me]
    if not st.hand[me]:
        raise IllegalAction(
            f"{SIDES[me]} has no men left to place: move one instead", "no_man_in_hand", side=me
        )
    bit = 1 << p
    if (mine | theirs) & bit:
        raise IllegalAction(f"{_name(st, p)} is occupied", "occupied", point=_name(st, p))
    mine |= bit
    closed = _mill_status(st, mine, theirs, p, returning=False)
    if me:
        men, hand = (theirs, mine), (st.hand[0], st.hand[1] - 1)
    else:
        men, hand = (mine, theirs), (st.hand[0] - 1, st.hand[1])
    if st.rules.no_remill:
        st = _with_last(st, -1)
    return _after_turn(st, men, hand, closed, 0), closed


def _move(st: MorrisState, s: int, d: int) -> tuple[MorrisState, int]:
    _check_point(st, s)
    _check_point(st, d)
    me = st.to_move
    mine, theirs = st.men[me], st.men[1 - me]
    rules = st.rules
    if st.hand[me]:
        raise IllegalAction(
            f"{SIDES[me]} still has {_count(st.hand[me], 'man', 'men')} to place: place one first",
            "men_to_place",
            side=me,
            men=st.hand[me],
        )
    if not mine >> s & 1:
        raise IllegalAction(
            f"{_name(st, s)} is not one of {SIDES[me]}'s men",
            "not_yours",
            point=_name(st, s),
            side=me,
        )
    if s == d:
        raise IllegalAction("a man must move to another point", "same_point", point=_name(st, s))
    if (mine | theirs) >> d & 1:
        raise IllegalAction(f"{_name(st, d)} is occupied", "occupied", point=_name(st, d))
    if not rules.layout.neighbours[s] >> d & 1 and not _can_fly(st, me):
        why = (
            "flying is off in this game"
            if not rules.flying
            else "only a side with exactly three men may fly"
        )
        raise IllegalAction(
            f"{_name(st, s)} and {_name(st, d)} are not adjacent ({why})",
            "not_adjacent",
            origin=_name(st, s),
            target=_name(st, d),
            flying=rules.flying,
        )
    mine ^= 1 << s | 1 << d
    returning = rules.no_remill and st.last[me] == d * 32 + s
    closed = _mill_status(st, mine, theirs, d, returning=returning)
    men = (theirs, mine) if me else (mine, theirs)
    if rules.no_remill:
        st = _with_last(st, s * 32 + d)
    return _after_turn(st, men, st.hand, closed, st.quiet + 1), closed


def _mill_status(st: MorrisState, mine: int, theirs: int, p: int, *, returning: bool) -> int:
    for mill in st.rules.layout.mills_at[p]:
        if mine & mill == mill:
            if returning:
                return _REMILL
            return _MILL if theirs else _NOTHING_TO_TAKE
    return _NO_MILL


def _with_last(st: MorrisState, move: int) -> MorrisState:
    last = (st.last[0], move) if st.to_move else (move, st.last[1])
    return MorrisState(
        st.variant,
        st.to_move,
        st.ply,
        st.men,
        st.hand,
        st.pending,
        st.quiet,
        st.history,
        last,
        st.rules,
    )


def _remove(st: MorrisState, p: int) -> MorrisState:
    me = st.to_move
    if not st.pending:
        raise IllegalAction("no mill was closed, so nothing can be removed", "no_mill")
    _check_point(st, p)
    mine, theirs = st.men[me], st.men[1 - me]
    bit = 1 << p
    if mine & bit:
        raise IllegalAction(
            f"{_name(st, p)} is one of {SIDES[me]}'s own men",
            "own_man",
            point=_name(st, p),
            side=me,
        )
    if not theirs & bit:
        raise IllegalAction(f"{_name(st, p)} is empty", "empty", point=_name(st, p))
    if not _removable_mask(st.rules.layout, theirs) & bit:
        raise IllegalAction(
            f"{_name(st, p)} stands in a mill and {SIDES[1 - me]} has men outside mills: "
            "remove one of those",
            "in_mill",
            point=_name(st, p),
            side=1 - me,
        )
    theirs ^= bit
    men = (theirs, mine) if me else (mine, theirs)
    to_move = 1 - me
    return MorrisState(
        st.variant,
        to_move,
        st.ply + 1,
        men,
        st.hand,
        False,
        0,
        (_key(men, to_move),),
        st.last,
        st.rules,
    )


def _play(st: MorrisState, action: object) -> tuple[MorrisState, int]:
    """Validate and apply one action; returns the new state and what it did about mills."""
    if _final(st) is not None:
        raise IllegalAction("the game is over", "game_over")
    kind = type(action)
    if kind is Remove:
        return _remove(st, action.point), _NO_MILL  # type: ignore[attr-defined]
    if kind is not Place and kind is not Move:
        raise IllegalAction("that is not a Morris action", "not_an_action")
    me = st.to_move
    if st.pending:
        raise IllegalAction(
            f"{SIDES[me]} closed a mill and must first remove a {SIDES[1 - me]} man "
            "(remove <point>)",
            "removal_pending",
            side=me,
        )
    if kind is Place:
        nxt, closed = _place(st, action.point)  # type: ignore[attr-defined]
        where = action.point  # type: ignore[attr-defined]
    else:
        nxt, closed = _move(st, action.src, action.dst)  # type: ignore[attr-defined]
        where = action.dst  # type: ignore[attr-defined]
    take = action.remove  # type: ignore[attr-defined]
    if take is None:
        return nxt, closed
    if closed == _MILL:
        return _remove(nxt, take), closed
    here = _name(st, where)
    if closed == _REMILL:
        raise IllegalAction(
            f"{here} closes a mill by returning to where it came from, which removes nothing "
            "under the no_remill rule",
            "remill",
            point=here,
        )
    if closed == _NOTHING_TO_TAKE:
        raise IllegalAction(
            f"{SIDES[1 - me]} has no man on the board, so nothing can be removed",
            "nothing_to_remove",
            side=1 - me,
        )
    raise IllegalAction(f"{here} closes no mill, so nothing can be removed", "no_mill", point=here)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _on_off(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("on", "true", "yes", "1"):
            return True
        if word in ("off", "false", "no", "0"):
            return False
    raise OptionError(
        f"{name} must be on or off, not {value!r}", "not_on_off", name=name, value=str(value)[:40]
    )


def _move_limit(value: object) -> int:
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _digits(value.strip(), 9):
        number = int(value.strip())
    if number is None or not 0 <= number <= MAX_MOVE_LIMIT:
        raise OptionError(
            f"move_limit must be a whole number of moves each from 0 (off) to {MAX_MOVE_LIMIT}, "
            f"not {value!r}",
            "move_limit_range",
            most=MAX_MOVE_LIMIT,
            value=str(value)[:40],
        )
    return number


def _digits(text: str, most: int) -> bool:
    """1..``most`` ASCII digits: ``str.isdigit`` alone accepts "²", which int() refuses."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


OPTION_NAMES = ("flying", "no_remill", "repetition", "move_limit")


def make_rules(variant: str = "standard", **options: Any) -> Rules:
    """Validated rules for a variant and options; raises OptionError with a clear message."""
    if not isinstance(variant, str) or variant.strip().lower() not in VARIANTS:
        raise OptionError(
            f"unknown Morris variant {variant!r}: choose one of {', '.join(VARIANTS)}",
            "unknown_variant",
            variant=str(variant)[:40],
            choices=list(VARIANTS),
        )
    spec = VARIANTS[variant.strip().lower()]
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise OptionError(
            f"unknown Morris option {unknown[0]!r}: choose from {', '.join(OPTION_NAMES)}",
            "unknown_option",
            option=str(unknown[0])[:40],
            choices=list(OPTION_NAMES),
        )
    return Rules(
        variant=spec.name,
        pieces=spec.pieces,
        flying=_on_off("flying", options.get("flying", spec.flying)),
        no_remill=_on_off("no_remill", options.get("no_remill", False)),
        repetition=_on_off("repetition", options.get("repetition", True)),
        move_limit=_move_limit(options.get("move_limit", 50)),
        layout=spec.layout,
    )


def start(rules: Rules) -> MorrisState:
    """The empty board with both hands full, White to move."""
    men = (0, 0)
    return MorrisState(
        rules.variant,
        0,
        0,
        men,
        (rules.pieces, rules.pieces),
        False,
        0,
        (_key(men, 0),),
        (-1, -1),
        rules,
    )


# ---- accessors (for the renderer and the referee) ----


def layout(state_or_variant: MorrisState | str) -> Layout:
    """The board of a state or a variant name: points, coordinates, lines and mills."""
    if isinstance(state_or_variant, MorrisState):
        return state_or_variant.rules.layout
    return VARIANTS[state_or_variant].layout


def men(state: MorrisState, side: int) -> tuple[int, ...]:
    """The points where ``side``'s men stand, ascending."""
    return bits(state.men[side])


def men_on_board(state: MorrisState, side: int) -> int:
    return state.men[side].bit_count()


def men_in_hand(state: MorrisState, side: int) -> int:
    return state.hand[side]


def phase(state: MorrisState) -> int:
    """1 while anyone still has men to place, then 2 (moving, and flying with three men)."""
    return 1 if state.hand[0] or state.hand[1] else 2


def can_fly(state: MorrisState, side: int) -> bool:
    """True when ``side`` has placed everything, has exactly three men, and flying is on."""
    return _can_fly(state, side)


def mills(state: MorrisState, side: int | None = None) -> list[tuple[int, ...]]:
    """The closed mills on the board (of one side, or both), as tuples of points."""
    lay = state.rules.layout
    sides = (0, 1) if side is None else (side,)
    return [
        mill
        for s in sides
        for mill, mask in zip(lay.mills, lay.mill_masks, strict=True)
        if state.men[s] & mask == mask
    ]


def closes_mill(state: MorrisState, action: object) -> bool:
    """Whether ``action`` (legal in ``state``) closes a mill of its mover's, whatever the mill
    then removes (a man, or nothing under ``no_remill`` or with no man to take): the words of
    every language say so, not only the engine's English sentence. Raises like ``apply``."""
    return _play(state, action)[1] != _NO_MILL


def pending_removal(state: MorrisState) -> bool:
    """True when the side to move closed a mill and must remove an opponent's man."""
    return state.pending


def removable(state: MorrisState) -> set[int]:
    """The points the side to move may remove now (empty unless a removal is pending)."""
    if not state.pending or _final(state) is not None:
        return set()
    theirs = state.men[1 - state.to_move]
    return set(bits(_removable_mask(state.rules.layout, theirs)))


def point_name(state: MorrisState, point: int) -> str:
    return state.rules.layout.points[point]
