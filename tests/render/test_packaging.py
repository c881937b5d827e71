"""The fonts ship inside the wheel: an installed copy, run from elsewhere, draws accented names.

A real ``pip wheel`` of the project is installed (without dependencies, offline) into a fresh
virtual environment that borrows only Pillow from this one; a script run from an empty folder
then draws with the shipped font. Before the fonts were package data, that copy fell back to
Pillow's built-in font, which has no accented letters ("Ágnes Kovács" came out "gnes Kovcs").
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import PIL

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "engine", "render", "bot", "translations")

CHECK = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    import engine
    import render
    from render.paint import font, printable, text_width

    prefix = Path(sys.prefix).resolve()
    assert Path(render.__file__).resolve().is_relative_to(prefix), render.__file__
    assert font(20).getname() == ("DejaVu Sans", "Book"), font(20).getname()
    missing = font(32).getmask("\\U0010fffd").getbbox()
    for bold in (False, True):
        for char in "őűþðĉŭÁáŐŰÞÐĈŬ":
            box = font(32, bold).getmask(char).getbbox()
            assert box is not None and box != missing, (char, bold)
    for name, bare in (("Ágnes Kovács", "gnes Kovcs"), ("Þórður Ðoŭĉő", "rur ou")):
        assert printable(name) == name, printable(name)
        assert text_width(name, 28, True) > text_width(bare, 28, True) + 40, name
    state = engine.get_game("morris").new()
    accented = render.board_image("morris", state, players=("Őrsi Űrös", "Þóra Ðoŭĉ"))
    plain = render.board_image("morris", state, players=("rsi rs", "ra o"))
    assert accented.crop((0, 0, 800, 100)).tobytes() != plain.crop((0, 0, 800, 100)).tobytes()
    import translations
    from translations import words

    assert Path(translations.__file__).resolve().is_relative_to(prefix), translations.__file__
    assert words("is").t("move.total", n=21) == "21 leikur", "the catalogs ship in the wheel"
    icelandic = render.board_image("abalone", engine.get_game("abalone").new(), words=words("is"))
    english = render.board_image("abalone", engine.get_game("abalone").new())
    assert icelandic.tobytes() != english.tobytes()
    print("ok", render.__file__)
    """
)


def test_an_installed_wheel_draws_accented_names_with_the_shipped_font(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(path, source / name)
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels, source],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("board_referee-*.whl")

    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=False)
    python = fresh / "bin" / "python"
    subprocess.run(
        [*pip, "--python", python, "install", "--no-deps", "--no-index", wheel],
        check=True,
        capture_output=True,
    )
    # Pillow alone from this environment: a path line, so this environment's .pth files (the
    # editable install's finder among them) are not run.
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "borrowed.pth").write_text(str(Path(PIL.__file__).parents[1]) + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = subprocess.run(
        [python, "-I", "-c", CHECK], cwd=elsewhere, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok "), run.stdout
