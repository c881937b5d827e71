"""A game named as it is played, and a game's name as typed: the one place that turns a
(game, variant) into its title for every reply (translations.titles decides which words), and
a typed name in any language back into the game ("Malom", "Hatos malom", "nine men's morris").
"""

from __future__ import annotations

from functools import cache

import engine
from bot.i18n import Msg
from translations.titles import WITH_VARIANT, title_keys, titles, variant_key


def game_title(game: str, variant: str = "standard") -> Msg:
    """ "Six Men's Morris", "Abalone (Belgian daisy)", "Atmalof": the game as played in
    ``variant``, said in the reader's language."""
    key, rest = title_keys(game, variant)
    if rest is None:
        return Msg(key)
    named = variant_key(game, rest)
    return Msg(WITH_VARIANT, {"game": Msg(key), "variant": Msg(named) if named else rest})


@cache
def _typed_names() -> dict[str, tuple[str, str | None]]:
    said: dict[str, tuple[str, str | None]] = {}
    for name in engine.GAME_NAMES:
        for typed, meant in titles(name, tuple(engine.get_game(name).variants)).items():
            said.setdefault(typed, meant)
    return said


def game_named(text: str) -> tuple[str, str | None]:
    """(game, variant or None) that a typed name means: the game's id or an alias the engine
    knows, or its name or a variant's own name in any language, in any case. Raises the
    engine's ``unknown_game`` refusal otherwise."""
    typed = " ".join(str(text).split()).lower().replace("\u2019", "'")
    meant = _typed_names().get(typed)
    if meant is not None:
        return meant
    return engine.get_game(typed).name, None
