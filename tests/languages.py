"""A check the language tests share: which English sentence parts a text holds that another
language's catalog does not (so a reply that fell back to English is caught, not only a key)."""

from __future__ import annotations

import re
import string
from functools import cache

from translations import read_catalog


@cache
def english_parts() -> frozenset[str]:
    """Runs of at least two words of the English catalog, between placeholders."""
    parts = set()
    for message in read_catalog("en"):
        if not message.id:
            continue
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            for literal, *_ in string.Formatter().parse(text):
                for piece in re.split(r"[\n()\[\]:;.,`'\"]", literal):
                    piece = piece.strip()
                    if len(piece) >= 12 and len(piece.split()) >= 2:
                        parts.add(piece)
    return frozenset(parts)


@cache
def own_text(lang: str) -> str:
    """Everything the language's catalog says, to forgive words it shares with English."""
    out = []
    for message in read_catalog(lang):
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        out.extend(t for t in texts if t)
    return "\n".join(out)


def english_in(text: str, lang: str) -> list[str]:
    """The English sentence parts ``text`` holds that ``lang``'s catalog does not."""
    return sorted(p for p in english_parts() if p in text and p not in own_text(lang))
