"""Every message exists in every language, with the same placeholders, and each plural has the
forms its language's rule asks for: a new English message without its translations fails here."""

from __future__ import annotations

import pytest

from translations import (
    COMMAND_LANGUAGES,
    LANGUAGES,
    UnknownLanguage,
    catalog_path,
    choose,
    fill,
    language,
    placeholders,
    read_catalog,
    words,
)


def texts(message) -> list[str]:
    return list(message.string) if message.pluralizable else [message.string]


def by_key(lang: str, domain: str) -> dict[str, object]:
    catalog = read_catalog(lang, domain)
    return {(m.id[0] if m.pluralizable else m.id): m for m in catalog if m.id}


DOMAINS = [("messages", lang) for lang in LANGUAGES[1:]] + [
    ("commands", lang) for lang in COMMAND_LANGUAGES[1:]
]


@pytest.mark.parametrize(("domain", "lang"), DOMAINS)
def test_every_english_key_is_translated_and_nothing_else(domain: str, lang: str) -> None:
    english, other = by_key("en", domain), by_key(lang, domain)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"{lang} has keys English lacks"


@pytest.mark.parametrize(("domain", "lang"), DOMAINS)
def test_translations_keep_the_placeholders_and_the_plural_forms(domain: str, lang: str) -> None:
    english, other = by_key("en", domain), by_key(lang, domain)
    forms = read_catalog(lang, domain).num_plurals
    for key, message in english.items():
        theirs = other[key]
        assert theirs.pluralizable == message.pluralizable, key
        wanted = set().union(*(placeholders(t) for t in texts(message)))
        for text in texts(theirs):
            assert text.strip(), f"{lang} {key} is empty"
            assert placeholders(text) == wanted, f"{lang} {key}: {text!r}"
        if theirs.pluralizable:
            assert len(theirs.string) == forms, f"{lang} {key} needs {forms} plural forms"


@pytest.mark.parametrize(("domain", "lang"), [*DOMAINS, ("messages", "en")])
def test_no_entry_has_more_plural_forms_than_its_language(domain: str, lang: str) -> None:
    """Read from the file's text: Babel drops a form past ``nplurals`` when it reads a catalog,
    so the check above cannot see one, while ``msgfmt -c`` rejects the whole file for it."""
    text = catalog_path(lang, domain).read_text(encoding="utf-8")
    forms = read_catalog(lang, domain).num_plurals
    for entry in text.split("\n\n"):
        if "msgid_plural" in entry:
            found = sum(line.startswith("msgstr[") for line in entry.splitlines())
            assert found == forms, f"{lang}: {entry.splitlines()[0]} has {found} forms"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_formats(lang: str) -> None:
    """No stray brace or unknown field: each message formats with its own placeholders."""
    w = words(lang)
    for key, message in by_key(lang, "messages").items():
        for n in (1, 2, 5, 21):
            params = {name: n for text in texts(message) for name in placeholders(text)}
            assert w.t(key, **{**params, "n": n})


def test_plurals_follow_each_language() -> None:
    assert words("en").t("move.total", n=1) == "1 move"
    assert words("en").t("move.total", n=21) == "21 moves"
    assert words("is").t("move.total", n=21) == "21 leikur"  # Icelandic: 21 counts like 1
    assert words("is").t("move.total", n=11) == "11 leikir"
    assert words("hu").t("move.total", n=3) == "3 lépés"  # Hungarian: a noun after a number
    assert words("eo").t("move.total", n=2) == "2 movoj"


def test_language_codes() -> None:
    assert language("hu-HU") == "hu"
    assert language("IS") == "is"
    assert language(None) == "en"
    with pytest.raises(UnknownLanguage):
        language("de")
    with pytest.raises(KeyError):
        words("en").t("no.such.key")


def test_who_reads_which_language() -> None:
    """The user's choice, else their client's locale where we have it, else the server's."""
    assert choose(user="is", locale="hu", server="eo") == "is"
    assert choose(locale="hu", server="eo") == "hu"
    assert choose(locale="de", server="eo") == "eo"  # no German catalog: the server's
    assert choose(locale=None, server=None) == "en"
    assert choose(user="xx", server="hu") == "hu"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_value_that_ends_its_sentence_takes_no_second_full_stop(lang: str) -> None:
    """ "Last: the opposing marble on h4 is off!." read wrong: a sentence joined into a
    message before its full stop keeps its own "!", "?" or "." and the message adds none."""
    said = words(lang)
    for end in "!?.":
        text = said.t("alt.last", what=f"h4{end}")
        assert text.endswith(f"h4{end}") and not text.endswith(f"{end}."), text
    assert said.t("alt.last", what="h4").endswith("h4.")  # any other value keeps it


def test_only_a_full_stop_right_after_the_value_goes() -> None:
    assert fill("{n}. {x}.", {"n": 3, "x": "off!"}) == "3. off!"  # a number's own stop stays
    assert fill("{x}...", {"x": "wait!"}) == "wait!..."  # an ellipsis is not a full stop
    assert fill("{x} ({y}).", {"x": "off!", "y": 2}) == "off! (2)."
    assert fill("{n:,} bytes.", {"n": 12345}) == "12,345 bytes."
