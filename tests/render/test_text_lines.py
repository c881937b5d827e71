"""A line of words is drawn from its words' masks, each rendered once (issue 17): it must look
like the line FreeType renders whole. Checked in pixels, in every language's letters."""

from __future__ import annotations

import pytest
from PIL import Image

from render import paint

LINES = [
    "White placed d6 · Black to move",
    "Piros 6. sor: a (6,4) mezőre esik",
    "Ruĝa movis de b2 al c3 · Blua ludas",
    "Hvítur færði a3-c5 norðaustur",
    "alice (Red) dropped column 4: lost the turn, (5,4) is taken",
]


def ink_by_column(mask: Image.Image, width: int) -> list[int]:
    data = mask.tobytes()
    w = mask.width
    return [sum(data[x::w]) if x < w else 0 for x in range(width)]


def apart(made: Image.Image, whole: Image.Image) -> float:
    """How far ``made`` strays from ``whole``, in columns' worth of ink: the largest gap between
    their ink summed from the left edge, over the heaviest column. A word drawn a pixel aside
    strays under 1; a glyph missing or added strays by its width, 3 or more."""
    width = max(made.width, whole.width)
    a, b = ink_by_column(made, width), ink_by_column(whole, width)
    gap = total_a = total_b = 0
    for x in range(width):
        total_a += a[x]
        total_b += b[x]
        gap = max(gap, abs(total_a - total_b))
    return gap / max(b)


@pytest.mark.parametrize("text", LINES)
@pytest.mark.parametrize("px,bold,anchor", [(22, True, "lm"), (17, False, "la"), (13, False, "ls")])
def test_a_line_put_together_from_words_matches_the_line_rendered_whole(
    text: str, px: int, bold: bool, anchor: str
) -> None:
    made, left, top = paint._text_mask(text, px, bold, anchor)
    whole, whole_left, whole_top = paint._rendered(text, px, bold, anchor)
    assert made is not whole  # the line was put together, not rendered whole
    assert (left, top) == (whole_left, whole_top)
    assert abs(made.width - whole.width) <= 1 and made.height == whole.height
    ink, whole_ink = sum(made.tobytes()), sum(whole.tobytes())
    assert abs(ink - whole_ink) <= 0.02 * whole_ink
    assert apart(made, whole) < 1.2, text  # at most a pixel aside
    assert paint.text_width(text, px, bold) == pytest.approx(paint.font(px, bold).getlength(text))


def test_a_word_alone_and_a_centred_text_are_rendered_whole() -> None:
    assert paint._text_mask("Move", 20, True, "lm") == paint._rendered("Move", 20, True, "lm")
    centred = paint._text_mask("Black to move", 20, False, "mm")
    assert centred == paint._rendered("Black to move", 20, False, "mm")


def test_the_measure_of_straying_tells_a_missing_glyph_from_a_pixel_aside() -> None:
    whole = paint._rendered("White placed d6 · Black to move", 22, True, "lm")[0]
    aside = Image.new("L", (whole.width + 1, whole.height))
    aside.paste(whole, (1, 0))
    assert apart(aside, whole) < 1.2
    missing = paint._rendered("White placed d · Black to move", 22, True, "lm")[0]
    assert apart(missing, whole) > 3
