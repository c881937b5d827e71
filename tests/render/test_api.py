"""The public API of render/: sizes, themes, errors, PNG bytes, alt text and text boards."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

import engine
import render
from render import Last, RenderError
from render.gallery import random_game
from render.png import encode_png
from translations import words

GAMES = ("atmalof", "morris", "abalone")


@pytest.fixture(scope="module")
def mid_games() -> dict[str, tuple[object, Last]]:
    return {g: random_game(g, seed=11, plies=25)[-1] for g in GAMES}


@pytest.mark.parametrize("theme", render.THEME_NAMES)
@pytest.mark.parametrize("game", GAMES)
def test_board_png_decodes_at_the_promised_size(game, theme, mid_games) -> None:
    state, last = mid_games[game]
    for size in (400, 800):
        data = render.board_png(game, state, last, theme=theme, size=size)
        img = Image.open(io.BytesIO(data))
        img.load()
        assert img.format == "PNG"
        assert img.size == (size, size)


def test_board_png_is_the_same_bytes_every_time(mid_games) -> None:
    state, last = mid_games["abalone"]
    assert render.board_png("abalone", state, last) == render.board_png("abalone", state, last)


@pytest.mark.parametrize("theme", render.THEME_NAMES)
@pytest.mark.parametrize("game", GAMES)
def test_png_looks_like_the_image_drawn(game, theme, mid_games) -> None:
    """The PNG is a palette image: flat colours kept (within Pillow's colour cache), edges near."""
    state, last = mid_games[game]
    drawn = render.board_image(game, state, last, theme=theme, size=500)
    decoded = Image.open(io.BytesIO(render.board_png(game, state, last, theme=theme, size=500)))
    assert decoded.mode == "P"
    diff = ImageChops.difference(decoded.convert("RGB"), drawn)
    assert max(ImageStat.Stat(diff).mean) < 1.5
    far = diff.convert("L").point(lambda v: 255 if v > 8 else 0).histogram()[255]
    assert far < 0.03 * 500 * 500
    assert decoded.convert("RGB").getpixel((0, 0)) == drawn.getpixel((0, 0))  # the background


@pytest.mark.parametrize("theme", ["neon", "", None, 3])
def test_unknown_theme_is_a_render_error(theme) -> None:
    state = engine.get_game("morris").new()
    with pytest.raises(RenderError, match="unknown theme"):
        render.board_png("morris", state, theme=theme)


@pytest.mark.parametrize("size", [199, 2001, 0, -5, 800.0, "800", True])
def test_size_out_of_bounds_is_a_render_error(size) -> None:
    state = engine.get_game("morris").new()
    with pytest.raises(RenderError, match="size"):
        render.board_png("morris", state, size=size)


def test_bounds_are_accepted() -> None:
    state = engine.get_game("atmalof").new()
    for size in (render.MIN_SIZE, render.MAX_SIZE):
        assert Image.open(io.BytesIO(render.board_png("atmalof", state, size=size))).size == (
            size,
            size,
        )


def test_render_error_is_a_value_error() -> None:
    assert issubclass(RenderError, ValueError)


def test_unknown_game_is_a_render_error() -> None:
    with pytest.raises(RenderError, match="unknown game"):
        render.board_png("chess", engine.get_game("morris").new())


def test_a_state_of_another_game_is_a_render_error() -> None:
    with pytest.raises(RenderError, match="Atmalof state"):
        render.board_png("atmalof", engine.get_game("morris").new())


def test_bad_players_and_labels_are_render_errors() -> None:
    state = engine.get_game("morris").new()
    with pytest.raises(RenderError, match="two names"):
        render.board_png("morris", state, players=("Solo",))
    with pytest.raises(RenderError, match="labels"):
        render.board_png("morris", state, labels="roman")


def test_a_bare_action_draws_the_board_without_overlays() -> None:
    game = engine.get_game("morris")
    before = game.new()
    action = game.parse(before, "place d7")
    after = game.apply(before, action)
    bare = render.board_image("morris", after, last=action)
    assert bare.tobytes() == render.board_image("morris", after).tobytes()
    marked = render.board_image("morris", after, last=Last(before, action))
    assert marked.tobytes() != bare.tobytes()


def test_names_the_font_cannot_draw_are_dropped_not_boxed() -> None:
    state = engine.get_game("abalone").new()
    img = render.board_image("abalone", state, players=("Zoë 🐉", "🙂"))
    assert img.size == (800, 800)
    text = render.alt_text("abalone", state, players=("Zoë 🐉", "🙂"))
    assert "Zoë" in text
    assert "White" in text  # a name with nothing drawable falls back to the side name


@pytest.mark.parametrize("game", GAMES)
def test_layout_has_a_centre_for_every_cell(game, mid_games) -> None:
    state, _ = mid_games[game]
    expected = {"atmalof": 49, "morris": 24, "abalone": 61}[game]
    lay = render.layout(game, state, 600)
    assert len(lay.centres) == expected
    for x, y in lay.centres.values():
        assert lay.board[0] <= x <= lay.board[2]
        assert lay.board[1] <= y <= lay.board[3]


@pytest.mark.parametrize("game", GAMES)
def test_alt_text_says_who_moves_and_what_happened(game, mid_games) -> None:
    state, last = mid_games[game]
    g = engine.get_game(game)
    text = render.alt_text(game, state, last, players=("Alice", "Bob"))
    assert len(text) < 1024
    assert g.title in text
    assert ("Alice" if state.to_move == 0 else "Bob") in text
    assert "to move" in text
    said = render.renderer(game).said(last, words("en"))  # the status line's words
    assert f"Last: {said}" in text


@pytest.mark.parametrize("lang", ["en", "hu", "eo", "is"])
def test_alt_text_says_a_mill_and_its_removal_as_one_last_turn(lang: str) -> None:
    """A removal sent on its own after the mill: one "Last:", the turn said as the status line
    says it ("White placed g7 and removed a1"), never "Last: ... Last: ..."."""
    g = engine.get_game("morris")
    state = g.new("standard")
    for text in ("place a7", "place a1", "place d7", "place d1"):
        state = g.apply(state, g.parse(state, text))
    mill = g.parse(state, "place g7")
    milled = g.apply(state, mill)
    removal = g.parse(milled, "remove a1")
    after = g.apply(milled, removal)
    w = words(lang)
    text = render.alt_text("morris", after, [Last(state, mill), Last(milled, removal)], words=w)
    side = w.t("side.morris.0")
    turn = w.t("morris.placed_removed", side=side, point="g7", taken="a1")
    assert w.t("alt.last", what=turn) in text, text
    assert text.count(w.t("alt.last", what="").rstrip(". ")) == 1, text


def test_alt_text_of_a_crowded_board_stays_under_discords_limit() -> None:
    state, last = random_game("atmalof", "atmalos", seed=2, plies=140)[-1]
    text = render.alt_text("atmalof", state, last, players=("A" * 60, "B" * 60))
    assert len(text) <= 1000
    assert text.startswith("Atmalos, after 140 moves."), text  # the variant's own name


def test_alt_text_reports_a_referee_decided_result() -> None:
    state = engine.get_game("abalone").new()
    outcome = engine.Outcome(engine.Termination.RESIGNATION, 1, "Black resigned")
    text = render.alt_text("abalone", state, players=("Alice", "Bob"), outcome=outcome)
    assert "Bob (White) wins: Alice (Black) resigned" in text


@pytest.mark.parametrize("lang", ["hu", "eo", "is"])
def test_alt_text_and_cards_speak_the_given_language(lang, mid_games) -> None:
    """No English word left: every sentence is the language's own (checked against English)."""
    english = words("en")
    w = words(lang)
    for game in GAMES:
        state, last = mid_games[game]
        text = render.alt_text(game, state, last, players=("Alice", "Bob"), words=w)
        assert text.startswith(w.t(f"game.{game}"))
        for side in (0, 1):
            assert w.t(f"side.{game}.{side}") in text
        for key in ("alt.none", "hand.pushed_off"):
            assert english.t(key) not in text
        assert " to move" not in text and "in hand" not in text and "Last:" not in text
        cards = render.player_cards(game, state, players=("Alice", "Bob"), words=w)
        for card in cards:
            assert card.tag in (None, w.t("tag.to_move"), w.t("tag.to_remove"))
            assert "hand" not in card.hand.text and "board" not in card.hand.text


def test_text_board_atmalof_marks_pieces_by_row_and_column() -> None:
    g = engine.get_game("atmalof")
    state = g.from_text(
        "standard board=R....../......./......./......./......./......./......B "
        "hands=21,21 turn=red ply=2"
    )
    lines = render.text_board("atmalof", state).splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 8)]
    assert lines[1].split() == ["1", "●", ".", ".", ".", ".", ".", "."]  # Red
    assert lines[7].split() == ["7", ".", ".", ".", ".", ".", ".", "○"]  # Blue


def test_text_board_morris_draws_the_three_squares() -> None:
    state = engine.get_game("morris").new()
    text = render.text_board("morris", state)
    assert text.splitlines()[0] == "7 .-----------.-----------."
    assert text.splitlines()[12] == "1 .-----------.-----------."
    assert "a   b   c   d   e   f   g" in text
    letters = render.text_board("morris", state, labels="letters")
    assert letters.splitlines()[0].strip() == "a-----------b-----------c"


def test_text_board_abalone_has_nine_rows_of_the_hexagon() -> None:
    state = engine.get_game("abalone").new()
    lines = render.text_board("abalone", state).splitlines()
    assert lines[0].split() == ["I", "○", "○", "○", "○", "○"]  # White
    assert lines[4].split() == ["E", *["."] * 9]
    assert lines[8].split() == ["A", "●", "●", "●", "●", "●", "6"]  # Black
    assert lines[9].split() == ["1", "2", "3", "4", "5"]


@pytest.mark.parametrize(
    ("game", "legend"),
    [
        ("morris", ("○ Fehér", "● Fekete")),
        ("abalone", ("● Fekete", "○ Fehér")),
        ("atmalof", ("● Piros", "○ Kék")),
    ],
)
def test_text_boards_mark_pieces_by_symbol_and_the_status_line_is_the_legend(
    game: str, legend: tuple[str, str]
) -> None:
    """W, B and R were English initials (and B was Blue in Atmalof, Black elsewhere): the
    pieces are ● and ○ in every language, and the status line names each symbol's side."""
    rules = engine.get_game(game)
    state = rules.new()
    action = rules.legal(state)[0]  # a piece on the board (Abalone's are there already)
    state = rules.apply(state, action, 1 if rules.die_faces(state, action) else None)
    board = render.text_board(game, state, words=words("hu"))
    *grid, status = board.splitlines()
    pieces = {ch for line in grid for ch in line if ch.isalpha() and ch.isupper()}
    assert pieces <= set("ABCDEFGHI"), pieces  # row names only: no W, B or R pieces
    assert "●" in "".join(grid) or "○" in "".join(grid)
    assert all(side in status for side in legend), status


def test_players_names_appear_in_the_cards() -> None:
    state = engine.get_game("morris").new()
    plain = render.board_image("morris", state)
    named = render.board_image("morris", state, players=("Alice", "Bob"))
    top = (0, 0, 800, 100)
    assert plain.crop(top).tobytes() != named.crop(top).tobytes()
    below = (0, 110, 800, 730)
    assert plain.crop(below).tobytes() == named.crop(below).tobytes()


@pytest.mark.parametrize("mode", ["P", "RGB"])
def test_the_png_writer_round_trips_palette_and_rgb_images(mode, mid_games) -> None:
    state, last = mid_games["atmalof"]
    img = render.board_image("atmalof", state, last, size=300)
    if mode == "P":
        img = img.quantize(200, dither=Image.Dither.NONE)
    decoded = Image.open(io.BytesIO(encode_png(img)))
    decoded.load()
    assert decoded.mode == mode
    assert decoded.convert("RGB").tobytes() == img.convert("RGB").tobytes()


@pytest.mark.parametrize("theme", render.THEME_NAMES)
@pytest.mark.parametrize("game", GAMES)
def test_an_800_px_board_is_at_most_100_kb(game, theme) -> None:
    for state, last in random_game(game, seed=4, plies=60)[10::10]:
        png = render.board_png(game, state, last, theme=theme, players=("Alice", "Bob"))
        assert len(png) <= 100 * 1024, (game, theme, len(png))


def test_an_aborted_or_voided_game_is_drawn_and_described_as_no_result() -> None:
    """No result is no draw: an aborted game's picture and alt text say "no result", and a
    moderator's void (the referee knows it from the log) says it was voided, in the language
    drawn."""
    state = engine.get_game("morris").new()
    aborted = engine.Outcome(engine.Termination.ABORTED, None, "aborted by alice")
    said = render.alt_text("morris", state, outcome=aborted)
    assert "No result: aborted." in said and "Draw" not in said, said
    hu = render.alt_text("morris", state, outcome=aborted, voided=True, words=words("hu"))
    assert "Nincs eredmény: moderátor érvénytelenítette." in hu, hu
    plain = render.board_png("morris", state, outcome=aborted, size=300)
    voided = render.board_png("morris", state, outcome=aborted, voided=True, size=300)
    assert plain != voided  # the footer says which


def test_a_game_a_moderator_decided_names_them_in_the_footer_and_the_alt_text() -> None:
    """Where the outcome alone says "decided by a moderator", the caller's ``told`` (who
    decided it and why, from the log) is said instead, in the language drawn; a typed reason
    is made drawable (a line break, an emoji the font lacks)."""
    state = engine.get_game("morris").new()
    awarded = engine.Outcome(engine.Termination.AWARDED, 1, "decided by moderator Mo: left")
    told = ("end.awarded_by", {"name": "Mo", "why": "alice\nleft \U0001f642"})

    def status(told, lang: str = "en") -> str:
        scene = render._Scene(
            "morris", state, None, "dark", 800, ("Alice", "Bob"), awarded, "grid", None,
            words(lang), False, told,
        )  # fmt: skip
        return scene._status().text

    assert status(None) == "Bob (Black) wins · decided by a moderator"
    assert status(told) == "Bob (Black) wins · decided by moderator Mo: alice left"
    assert status(told, "hu") == "Bob (Fekete) nyert · Mo moderátor döntése: alice left"
    said = render.alt_text("morris", state, players=("Alice", "Bob"), outcome=awarded, told=told)
    assert "Bob (Black) wins: decided by moderator Mo: alice left." in said, said
    plain = render.board_png("morris", state, outcome=awarded, size=300)
    named = render.board_png("morris", state, outcome=awarded, told=told, size=300)
    assert plain != named


def test_the_move_number_is_the_one_the_status_line_tells() -> None:
    """Beside "White placed d7" the footer says "Move 1", the number `history` gives it; on an
    empty board it is the move about to be made, and at the end the count of moves."""
    game = engine.get_game("morris")
    before = game.new()
    action = game.parse(before, "place d7")
    after = game.apply(before, action)
    w = words("en")

    def label(state, last, moves, outcome=None) -> str:
        scene = render._Scene("morris", state, last, "light", 480, None, outcome, "grid", moves, w)
        return scene.label()

    assert label(before, None, 0) == "Move 1"
    assert label(after, Last(before, action), 1) == "Move 1"
    assert label(after, None, 1) == "Move 2"  # no last move shown: the next one
    resigned = engine.Outcome(engine.Termination.RESIGNATION, 0, "Black resigned")
    assert label(after, Last(before, action), 1, resigned) == "1 move"


def test_a_mill_and_its_removal_are_one_move_on_the_board_split_or_joined() -> None:
    """The footer, the alt text and the replay count turns as the history numbers them: a
    Morris mill with its removal is one move however it was typed (the engine's ply says two),
    and while the removal is owed the board is still at the mill's move."""
    game = engine.get_game("morris")
    state = game.new()
    for text in ("place a7", "place a1", "place d7", "place g1"):
        state = game.apply(state, game.parse(state, text))
    mill = game.parse(state, "place g7")
    owed = game.apply(state, mill)
    removal = game.parse(owed, "remove a1")
    split = game.apply(owed, removal)
    joined_action = game.parse(state, "place g7 x a1")
    joined = game.apply(state, joined_action)
    w = words("en")

    def label(state, last) -> str:
        return render._Scene(
            "morris", state, last, "light", 480, None, None, "grid", None, w
        ).label()

    assert label(owed, Last(state, mill)) == "Move 5"
    assert label(owed, None) == "Move 5"  # /board while the removal is owed: still the mill's
    assert label(split, (Last(state, mill), Last(owed, removal))) == "Move 5"
    assert label(joined, Last(state, joined_action)) == "Move 5"
    assert label(joined, None) == "Move 6"
    for shown in (split, joined):
        assert render.alt_text("morris", shown).startswith("Nine Men's Morris, after 5 moves.")
    hu = render.alt_text("morris", split, words=words("hu"))
    assert "5 lépés után" in hu, hu
