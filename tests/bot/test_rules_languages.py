"""The rules summaries say the same facts in every language, each with Atmalof's credit, and the
console speaks the language it is given (``--lang``, ``REFEREE_LANGUAGE``)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import engine
from bot.config import Config, ConfigError
from bot.console.table import play
from bot.rules_text import DESCRIBED, GAMES, rules, summary
from translations import LANGUAGES, words
from translations.titles import variant_name

FACT = re.compile(r"`[^`]+`|\d+|\[[^\]]+\]\([^)]+\)")


def facts(text: str) -> list[str]:
    """The numbers, the commands in `ticks` and the links of a summary, in order of kind."""
    found = FACT.findall(text)
    return sorted(f for f in found if not f.startswith("[")) + [
        f.split("](")[1] for f in found if f.startswith("[")
    ]


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize("game", GAMES)
def test_each_summary_has_the_english_numbers_commands_and_links(game: str, lang: str) -> None:
    assert facts(rules(lang)[game][1]) == facts(rules("en")[game][1])


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize(
    ("game", "variant"), [(g, v) for g, vs in DESCRIBED.items() for v in vs if v != "standard"]
)
def test_each_variant_summary_has_the_english_numbers_and_commands(
    game: str, variant: str, lang: str
) -> None:
    """Six Men's Morris says 16 points and six men in every language, Atmalos its die of 8."""
    title, text = summary(game, lang, variant)
    english_title, english = summary(game, "en", variant)
    assert facts(text) == facts(english)
    assert title != words(lang).t(f"game.{game}") and english_title != words("en").t(f"game.{game}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_atmalof_credits_its_author_and_licence_in_every_language(lang: str) -> None:
    text = rules(lang)["atmalof"][1]
    assert "**Richard Sandes Forsyth**" in text
    assert "[CC BY-SA 3.0](https://creativecommons.org/licenses/by-sa/3.0/)" in text


def test_the_original_terms_are_used() -> None:
    assert "malom" in rules("hu")["morris"][1].lower() and "bábu" in rules("hu")["morris"][1]
    atmalof_eo = rules("eo")["atmalof"][1]
    assert all(term in atmalof_eo for term in ("Meto", "ĵetkubo", "ludvicon", "Movo"))
    abalone_is = rules("is")["abalone"][1]
    assert all(term in abalone_is for term in ("kúlur", "Sumito", "Pakk", "í línu"))


async def test_the_console_speaks_the_language_it_is_given(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = io.StringIO("help\nrules morris\nquit\n")
    table_db = str(tmp_path / "t.db")
    from bot.console import table as console_module

    table = await console_module.open_table(table_db, out, None, render=False, lang="hu")
    try:
        for line in lines:
            await table.line(line)
    finally:
        await table.close()
    text = out.getvalue()
    assert words("hu").t("help.console").splitlines()[0] in text
    assert "Malom: a szabályok" in text
    assert "Commands (type them" not in text and "the rules" not in text
    assert play  # the same table ``python -m bot console --lang hu`` opens


def test_referee_language_is_read_and_checked() -> None:
    assert Config.from_env({"REFEREE_LANGUAGE": "is"}).language == "is"
    assert Config.from_env({}).language == "en"
    with pytest.raises(ConfigError, match="REFEREE_LANGUAGE"):
        Config.from_env({"REFEREE_LANGUAGE": "klingon"})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_variants_are_listed_by_their_names_with_the_id_to_type(game: str, lang: str) -> None:
    """ "Variants: junior, atmalos and custom" listed ids as if they were words: a Hungarian
    reads "egyéni (`custom`)", the name every reply gives the variant, with what to type. A
    game whose summary lists no variants (Morris: each is described by its own summary) lists
    none by its id either."""
    text = rules(lang)[game][1]
    w = words(lang)
    listed = [v for v in engine.get_game(game).variants if f"`{v}`" in text]
    outside_ticks = re.sub(r"`[^`]*`", "", text)
    for variant in engine.get_game(game).variants:
        if variant == "standard":
            continue
        name = variant_name(w, game, variant)
        if listed:
            assert f"{name} (`{variant}`)" in text, (variant, name)
        if variant not in name.lower():
            assert not re.search(rf"\b{re.escape(variant)}\b", outside_ticks), variant
    assert bool(listed) == (game != "morris")
