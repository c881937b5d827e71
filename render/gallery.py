"""Sample images of every game, variant, theme and key moment, for a person to look at.

    python -m render.gallery OUTDIR

writes ``OUTDIR/<game>-<variant>-<moment>-<theme>.png`` (``board_png``'s bytes) at 800 px, the
same at 400 px in ``OUTDIR/small/`` (how Discord shows it on a phone), one replay GIF per game,
and an ``index.html`` that shows them all. The scenes are built by seeded random play and a few
scripted positions, so every run draws the same pictures; tests reuse ``scenes()``.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

import engine
from engine.abalone import AbaloneState
from engine.abalone.board import CELL_INDEX
from engine.core import Termination
from render import THEME_NAMES, Last, board_png, replay_gif
from render.chart import Standing, leaderboard_png
from render.samples import random_game
from translations import words

PLAYERS = ("Alice", "Bob")


@dataclass(frozen=True)
class Scene:
    """One picture: a game's position, the last action(s) and drawing options."""

    name: str
    game: str
    state: Any
    last: tuple[Last, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


def play(game_name: str, state: Any, *commands: tuple[str, int | None]) -> tuple[Any, list[Last]]:
    """Apply commands (text, roll) in order; returns the final state and every Last."""
    game = engine.get_game(game_name)
    lasts = []
    for text, roll in commands:
        action = game.parse(state, text)
        after = game.apply(state, action, roll)
        lasts.append(Last(state, action, roll))
        state = after
    return state, lasts


def _first(frames, test) -> tuple[Any, Last]:
    for state, last in frames:
        if last is not None and test(state, last):
            return state, last
    raise LookupError("no frame matched")


def _drops_only(state: Any, actions: list[Any], rng: random.Random) -> list[Any]:
    drops = [a for a in actions if type(a).__name__ == "Drop"]
    return drops or actions


def atmalof_scenes() -> Iterator[Scene]:
    g = engine.get_game("atmalof")
    yield Scene("atmalof-standard-start", "atmalof", g.new("standard"))
    frames = random_game("atmalof", seed=3, plies=30)
    state, last = frames[-1]
    yield Scene("atmalof-standard-mid", "atmalof", state, _lasts(last))
    state, last = _first(
        frames[10:], lambda s, x: x.roll is not None and x.before.at(_land(x)) is None
    )
    yield Scene("atmalof-standard-drop", "atmalof", state, _lasts(last))
    state, last = _first(
        frames, lambda s, x: x.roll is not None and x.before.at(_land(x)) is not None
    )
    yield Scene("atmalof-standard-lost-turn", "atmalof", state, _lasts(last))
    state, last = _first(frames[8:], lambda s, x: type(x.action).__name__ == "Move")
    yield Scene("atmalof-standard-move", "atmalof", state, _lasts(last))
    start = g.from_text(
        "standard board=......./......./......./RRRR.../BBB..../B....../....... "
        "hands=18,18 turn=red ply=8"
    )
    state, lasts = play("atmalof", start, ("drop row 4", 5))
    yield Scene("atmalof-standard-win", "atmalof", state, tuple(lasts))
    yield Scene("atmalof-junior-tiebreak", "atmalof", *_tiebreak())
    for variant, seed in (("junior", 4), ("atmalos", 5)):
        state, last = random_game("atmalof", variant, seed=seed, plies=36)[-1]
        yield Scene(f"atmalof-{variant}-mid", "atmalof", state, _lasts(last))
    custom = g.new("custom", rows=8, cols=11, beyond_rows=2, beyond_cols=3, pieces=20, line=4)
    state, last = random_game(
        "atmalof",
        "custom",
        seed=6,
        plies=20,
        rows=8,
        cols=11,
        beyond_rows=2,
        beyond_cols=3,
        pieces=20,
        line=4,
    )[-1]
    yield Scene("atmalof-custom-start", "atmalof", custom)
    yield Scene("atmalof-custom-mid", "atmalof", state, _lasts(last))


def _lasts(last: Last | None) -> tuple[Last, ...]:
    """What a scene marks: the last action, or nothing at the start."""
    return () if last is None else (last,)


def _land(last: Last) -> tuple[int, int]:
    a, roll = last.action, last.roll
    assert roll is not None  # asked only of a rolled drop
    return (a.index, roll) if a.axis == "row" else (roll, a.index)


def _tiebreak() -> tuple[Any, tuple[Last, ...]]:
    for seed in range(200):
        frames = random_game("atmalof", "junior", seed=seed, prefer=_drops_only)
        state, last = frames[-1]
        outcome = state.outcome
        if (
            outcome is not None
            and outcome.termination is Termination.TIEBREAK
            and outcome.winner is not None
        ):
            return state, _lasts(last)
    raise LookupError("no tie-break found")


def morris_scenes() -> Iterator[Scene]:
    g = engine.get_game("morris")
    yield Scene("morris-standard-start", "morris", g.new("standard"))
    state, lasts = play(
        "morris",
        g.new(),
        ("place a7", None),
        ("place b6", None),
        ("place d7", None),
        ("place d6", None),
        ("place g7", None),
    )
    yield Scene("morris-standard-mill", "morris", state, (lasts[-1],))
    yield Scene(
        "morris-standard-mill-letters", "morris", state, (lasts[-1],), {"labels": "letters"}
    )
    after, removal = play("morris", state, ("remove b6", None))
    yield Scene("morris-standard-removed", "morris", after, (lasts[-1], *removal))
    frames = random_game("morris", seed=2)
    state, last = frames[24]
    yield Scene("morris-standard-mid", "morris", state, _lasts(last))
    state, last = _first(
        frames, lambda s, x: type(x.action).__name__ == "Move" and not _adjacent(x.before, x.action)
    )
    yield Scene("morris-standard-fly", "morris", state, _lasts(last))
    state, last = frames[-1]
    yield Scene("morris-standard-end", "morris", state, _lasts(last))
    for variant, seed in (("six", 3), ("twelve", 4)):
        frames = random_game("morris", variant, seed=seed)
        state, last = frames[min(len(frames) - 1, 20)]
        yield Scene(f"morris-{variant}-mid", "morris", state, _lasts(last))


def _adjacent(state: Any, move: Any) -> bool:
    from engine.morris import layout

    return bool(layout(state).neighbours[move.src] >> move.dst & 1)


def abalone_position(black: str, white: str, to_move: int = 0, ply: int = 40) -> AbaloneState:
    """A standard-game position from space-separated cell names."""
    board = bytearray(61)
    for side, cells in enumerate((black, white)):
        for name in cells.split():
            board[CELL_INDEX[name]] = side + 1
    return AbaloneState("standard", bytes(board), to_move, ply)


def abalone_scenes() -> Iterator[Scene]:
    g = engine.get_game("abalone")
    for variant in g.variants:
        yield Scene(f"abalone-{variant}-start", "abalone", g.new(variant))
    frames = random_game("abalone", seed=7, plies=60)
    state, last = frames[-1]
    yield Scene("abalone-standard-mid", "abalone", state, _lasts(last))
    position = abalone_position(
        "a1 a2 a3 b2 b3 b4 c3 c4 c5 d4 e4 e5 e6 d5", "f6 g6 h6 g5 h5 i5 h4 i6 i7 f7", 0, 30
    )
    state, lasts = play("abalone", position, ("push d4 e5 ne", None))
    yield Scene("abalone-standard-sumito", "abalone", state, tuple(lasts))
    position = abalone_position(  # White has lost three: the push-off is the fourth
        "e2 e3 e4 c3 c4 c5 b2 b3 d4 d5 a3 a4 b4 c6", "e1 i5 i6 h5 h6 g5 g6 h7 i7 i8 i9", 0, 61
    )
    state, lasts = play("abalone", position, ("push e4 e2 w", None))
    yield Scene("abalone-standard-push-off", "abalone", state, tuple(lasts))
    position = abalone_position(
        "e2 e3 e4 c3 c4 c5 b2 b3 d4 d5 a3 a4 b4 c6", "e1 i5 i6 h5 h6 g5 g6 h7 i7", 0, 77
    )
    state, lasts = play("abalone", position, ("push e4 e2 w", None))
    yield Scene("abalone-standard-win", "abalone", state, tuple(lasts))


def scenes() -> Iterator[Scene]:
    yield from atmalof_scenes()
    yield from morris_scenes()
    yield from abalone_scenes()


# Players whose names carry each language's own letters, so the gallery shows them drawn.
NATIVE_PLAYERS = {
    "hu": ("Bőgős Ödön Űrhajós", "Kíváncsi Réka"),
    "eo": ("Ĉiĝa Ĥaŭĵo", "Ŝaŭmĝoja Eĥo"),
    "is": ("Þórður Ævarsson", "Guðný Ðöllisdóttir"),
}


def ladder(out: Path, lang: str, players: tuple[str, ...]) -> list[str]:
    """The ladder in ``lang`` with these names (and a long one; the second player is the
    caller, below the top), at 600 px and at 400 px."""
    w = words(lang)
    names = [players[0], "Wolfeschlegelsteinhausenbergerdorff Hubert", "Eve", "Zoë"]
    rows = [
        Standing(i + 1, name, 1812 - 47 * i, i % 2 == 1, 131 + i, 70 + i, 52, 9)
        for i, name in enumerate(names)
    ]
    caller = Standing(27, players[1], 1203, True, 12, 5, 6, 1, you=True)
    title = w.t("ladder.title", ladder=w.t("game.morris"), season=3)
    made = []
    for width, folder in ((600, ""), (400, "small/")):
        name = f"{lang}/{folder}ladder.png" if lang != "en" else f"{folder}ladder.png"
        (out / name).write_bytes(leaderboard_png(rows, title, caller=caller, width=width, words=w))
        made.append(name)
    return made[:1]  # the small one shows beside it


def languages(out: Path) -> list[str]:
    """Every scene in each other language (dark theme; ``OUT/<lang>/``, 400 px beside it)."""
    names = []
    for lang, players in NATIVE_PLAYERS.items():
        w = words(lang)
        (out / lang / "small").mkdir(parents=True, exist_ok=True)
        for scene in scenes():
            png = board_png(
                scene.game, scene.state, scene.last, players=players, words=w, **scene.options
            )
            name = f"{lang}/{scene.name}.png"
            (out / name).write_bytes(png)
            img = Image.open(io.BytesIO(png)).convert("RGB")
            img.resize((400, 400), resample=3).save(out / lang / "small" / f"{scene.name}.png")
            names.append(name)
        names += ladder(out, lang, players)
        frames = random_game("morris", seed=2, plies=40)
        name = f"{lang}/replay-morris.gif"
        (out / name).write_bytes(replay_gif(frames, players=players, words=w))
        names.append(name)
    return names


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m render.gallery OUTDIR", file=sys.stderr)
        raise SystemExit(2)
    out = Path(args[0])
    (out / "small").mkdir(parents=True, exist_ok=True)
    names = []
    for scene in scenes():
        for theme in THEME_NAMES:
            png = board_png(  # the bytes a player receives, not a re-encoding of them
                scene.game, scene.state, scene.last, theme=theme, players=PLAYERS, **scene.options
            )
            name = f"{scene.name}-{theme}.png"
            (out / name).write_bytes(png)
            img = Image.open(io.BytesIO(png)).convert("RGB")
            img.resize((400, 400), resample=3).save(out / "small" / name)
            names.append(name)
    for game, seed in (("atmalof", 3), ("morris", 2), ("abalone", 7)):
        frames = random_game(game, seed=seed, plies=80)
        (out / f"replay-{game}.gif").write_bytes(replay_gif(frames, players=PLAYERS))
        names.append(f"replay-{game}.gif")
    names += ladder(out, "en", PLAYERS)
    names += languages(out)
    rows = "\n".join(
        f'<figure><img src="{n}" width="400"><img src="{_small(n)}"><figcaption>{n}</figcaption>'
        "</figure>"
        if n.endswith(".png")
        else f'<figure><img src="{n}"><figcaption>{n}</figcaption></figure>'
        for n in names
    )
    (out / "index.html").write_text(
        f"<!doctype html><title>render gallery</title><body style='background:#888'>{rows}"
        "</body>\n",
        encoding="utf-8",
    )
    print(f"wrote {len(names)} images to {out}")


def _small(name: str) -> str:
    lang, _, rest = name.rpartition("/")
    return f"{lang}/small/{rest}" if lang else f"small/{rest}"


if __name__ == "__main__":
    main()
