"""A game's name as played in a variant, decided in one place for every sentence, image and
choice that names it: a variant with a name of its own is said by it alone ("Six Men's
Morris", "Hatos malom"), another by the game's name and the variant's ("Abalone (Belgian
daisy)"), the standard game by the game's name. Naming the game apart from its variant let
a Six Men's Morris game be called "Nine Men's Morris (six)".

Every language has the same keys (the catalog test checks it), so which keys say a title is
read from the default catalog, and each language then says them in its own words.
"""

from __future__ import annotations

from translations import DEFAULT, LANGUAGES, Words, words

OWN_TITLE = "game.{game}.{variant}"
VARIANT_NAME = "variant.{game}.{variant}"
WITH_VARIANT = "game.variant_title"


def title_keys(game: str, variant: str = "standard") -> tuple[str, str | None]:
    """(the title's key, the variant to add to it or None): ``("game.morris.six", None)``,
    ``("game.abalone", "belgian-daisy")``, ``("game.morris", None)``."""
    own = OWN_TITLE.format(game=game, variant=variant)
    if variant == "standard":
        return f"game.{game}", None
    if own in words(DEFAULT):
        return own, None
    return f"game.{game}", variant


def variant_key(game: str, variant: str) -> str | None:
    """The key of a variant's name ("belga százszorszép"), or None: a variant no catalog names
    (an imported record's) is said as its id."""
    key = VARIANT_NAME.format(game=game, variant=variant)
    return key if key in words(DEFAULT) else None


def game_title(w: Words, game: str, variant: str = "standard") -> str:
    """The game's name as played in ``variant``, in ``w``'s language (see the module)."""
    key, rest = title_keys(game, variant)
    if rest is None:
        return w.t(key)
    named = variant_key(game, rest)
    return w.t(WITH_VARIANT, game=w.t(key), variant=w.t(named) if named else rest)


def variant_name(w: Words, game: str, variant: str) -> str:
    """A variant said on its own, in ``w``'s language: its own title ("Junior Atmalof"), else
    its name ("belga százszorszép"), else its id. The rules list the variants by it."""
    key, rest = title_keys(game, variant)
    if rest is None:
        return w.t(key)
    named = variant_key(game, rest)
    return w.t(named) if named else rest


def titles(game: str, variants: tuple[str, ...]) -> dict[str, tuple[str, str | None]]:
    """Each language's lower-case title of each of ``variants`` (and the bare game name): the
    names a player may type for a game, mapped to (game, variant or None for the game alone)."""
    said: dict[str, tuple[str, str | None]] = {}
    for lang in LANGUAGES:
        w = words(lang)
        said.setdefault(w.t(f"game.{game}").lower(), (game, None))
        for variant in variants:
            if variant != "standard" and title_keys(game, variant)[1] is None:
                said.setdefault(game_title(w, game, variant).lower(), (game, variant))
    return said
