"""Colour themes: one frozen palette per name, chosen per server by the bot.

Every theme keeps the two sides apart by more than hue: Atmalof's Blue pieces carry a ring,
Morris and Abalone sides differ in lightness, and the "contrast" theme uses the Okabe-Ito
colours (safe for the common colour-vision deficiencies) with stronger marks.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.model import RenderError

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PieceStyle:
    """How one side's piece looks: a fill, an outline, and an optional inner ring mark."""

    fill: RGB
    edge: RGB
    mark: RGB | None = None  # colour of an inner ring drawn at ~60% radius (a shape cue)
    shine: bool = False  # a specular highlight (Abalone marbles)


@dataclass(frozen=True, slots=True)
class Theme:
    """All colours one image needs; pieces are per game, indexed by side (0, 1)."""

    name: str
    background: RGB  # the canvas
    panel: RGB  # player cards and the status bar
    text: RGB
    muted: RGB  # labels, secondary text
    accent: RGB  # the last action, the side to move
    warn: RGB  # lost turns, removable men
    strike: RGB  # a winning line
    square: RGB  # Atmalof squares in the die's reach
    shade: RGB  # Atmalof squares beyond the die's reach
    grid: RGB  # Atmalof grid lines
    wood: RGB  # the Morris board
    line: RGB  # Morris lines and points
    hexagon: RGB  # the Abalone board
    hole: RGB  # an empty Abalone cell
    atmalof: tuple[PieceStyle, PieceStyle]  # Red, Blue
    morris: tuple[PieceStyle, PieceStyle]  # White, Black
    abalone: tuple[PieceStyle, PieceStyle]  # Black, White

    def pieces(self, game: str) -> tuple[PieceStyle, PieceStyle]:
        """The two sides' piece styles for a game name."""
        return getattr(self, game)


DARK = Theme(
    name="dark",
    background=(43, 45, 49),
    panel=(30, 31, 34),
    text=(242, 243, 245),
    muted=(170, 176, 186),
    accent=(250, 204, 21),
    warn=(255, 92, 92),
    strike=(250, 204, 21),
    square=(74, 79, 89),
    shade=(52, 55, 62),
    grid=(34, 36, 40),
    wood=(58, 62, 70),
    line=(168, 174, 184),
    hexagon=(70, 75, 84),
    hole=(46, 49, 55),
    atmalof=(
        PieceStyle(fill=(232, 65, 72), edge=(120, 20, 26)),
        PieceStyle(fill=(66, 135, 245), edge=(16, 46, 110), mark=(235, 242, 255)),
    ),
    morris=(
        PieceStyle(fill=(240, 240, 236), edge=(20, 20, 22)),
        PieceStyle(fill=(22, 22, 24), edge=(210, 212, 218)),
    ),
    abalone=(
        PieceStyle(fill=(24, 24, 27), edge=(190, 192, 198), shine=True),
        PieceStyle(fill=(236, 234, 226), edge=(30, 30, 34), shine=True),
    ),
)

LIGHT = Theme(
    name="light",
    background=(246, 246, 244),
    panel=(226, 228, 232),
    text=(28, 29, 32),
    muted=(84, 89, 98),
    accent=(22, 150, 70),
    warn=(200, 30, 120),
    strike=(22, 150, 70),
    square=(236, 222, 190),
    shade=(206, 188, 150),
    grid=(150, 118, 80),
    wood=(226, 190, 140),
    line=(84, 56, 30),
    hexagon=(196, 150, 98),
    hole=(160, 116, 70),
    atmalof=(
        PieceStyle(fill=(214, 40, 48), edge=(110, 10, 16)),
        PieceStyle(fill=(36, 99, 214), edge=(10, 36, 96), mark=(235, 242, 255)),
    ),
    morris=(
        PieceStyle(fill=(250, 250, 248), edge=(40, 40, 40)),
        PieceStyle(fill=(30, 30, 32), edge=(10, 10, 10)),
    ),
    abalone=(
        PieceStyle(fill=(26, 26, 30), edge=(8, 8, 8), shine=True),
        PieceStyle(fill=(246, 244, 236), edge=(70, 60, 50), shine=True),
    ),
)

CONTRAST = Theme(
    name="contrast",
    background=(0, 0, 0),
    panel=(28, 28, 28),
    text=(255, 255, 255),
    muted=(210, 210, 210),
    accent=(240, 228, 66),  # Okabe-Ito yellow
    warn=(204, 121, 167),  # Okabe-Ito reddish purple
    strike=(255, 255, 255),
    square=(58, 58, 58),
    shade=(24, 24, 24),
    grid=(130, 130, 130),
    wood=(34, 34, 34),
    line=(230, 230, 230),
    hexagon=(60, 60, 60),
    hole=(20, 20, 20),
    atmalof=(
        # A clear red (the side is called Red; Okabe-Ito's vermillion read as orange) against a
        # darker blue with a white ring: lightness and shape differ, not only hue.
        PieceStyle(fill=(235, 40, 40), edge=(255, 255, 255)),
        PieceStyle(fill=(0, 90, 170), edge=(255, 255, 255), mark=(255, 255, 255)),
    ),
    morris=(
        PieceStyle(fill=(255, 255, 255), edge=(0, 0, 0)),
        PieceStyle(fill=(0, 0, 0), edge=(255, 255, 255), mark=(255, 255, 255)),
    ),
    abalone=(
        PieceStyle(fill=(0, 0, 0), edge=(255, 255, 255), mark=(255, 255, 255), shine=True),
        PieceStyle(fill=(255, 255, 255), edge=(0, 0, 0), shine=True),
    ),
)

THEMES: dict[str, Theme] = {t.name: t for t in (DARK, LIGHT, CONTRAST)}
THEME_NAMES: tuple[str, ...] = tuple(THEMES)


def get_theme(name: str | Theme) -> Theme:
    """The theme for a name ("dark", "light", "contrast"); raises RenderError otherwise."""
    if isinstance(name, Theme):
        return name
    key = str(name).strip().lower() if isinstance(name, str) else name
    if key not in THEMES:
        raise RenderError(f"unknown theme {name!r}: choose one of {', '.join(THEME_NAMES)}")
    return THEMES[key]
