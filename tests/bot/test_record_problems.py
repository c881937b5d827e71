"""A record file broken in many ways (by hand or by accident) is refused with a reason each
language can say: the engine's RecordError carries a Problem whose every code has a catalog
entry, English keeps the engine's own words, and /import in Hungarian (or Esperanto, Icelandic)
does not show the English sentence."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.imports import MAX_IMPORT_BYTES
from engine.record import MAX_ACTIONS, Problem, Record, RecordError, replay
from engine.record.fields import JSON_SYNTAX, json_syntax
from tests.bot.conftest import ALICE, BOB, HERE, checks_out, start
from translations import LANGUAGES, words

pytestmark = pytest.mark.sqlite_only  # the store only makes the record; the file is the test

Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return edit


def _delete(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        del target[int(last) if last.isdigit() else last]

    return edit


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _future_version(data: dict[str, Any]) -> None:
    data["version"] = 99
    data["actions"] = data.pop("log")  # a version this reader does not know keeps "actions"


def _future_format(data: dict[str, Any]) -> None:
    data["format"] = "lichess/pgn"
    data["version"] = 99
    data["moves"] = data.pop("log")  # another format: its fields are its own


def _too_many_rows(data: dict[str, Any]) -> None:
    data["log"] = [data["log"][1]] * (MAX_ACTIONS + 1)


# name -> (how the good record's text is broken, the code of the problem said first)
EDITS: dict[str, tuple[Edit, str]] = {
    "unknown field": (_set("seed", "x"), "unknown_field"),
    "missing field": (_delete("game_id"), "missing_field"),
    "missing dice field": (_delete("dice.seed"), "missing_field"),
    "player misses a field": (_delete("players.1.name"), "at_place"),
    "wrong type": (_set("variant", 7), "not_text"),
    "player id wrong type": (_set("players.0.id", 111), "at_place"),
    "player name too long": (_set("players.1.name", "X" * 5000), "at_place"),
    "accept id wrong type": (_set("dice.accept", 5), "not_text"),
    "empty text": (_set("variant", ""), "text_length"),
    "wrong seat": (_set("players.1.seat", 0), "at_place"),
    "bad format": (_set("format", "pgn"), "bad_format"),
    "bad version": (_future_version, "bad_version"),
    "future version keeps its log": (_set("version", 99), "bad_version"),
    "version is text": (_set("version", "3"), "bad_version"),
    "bad format, version 99": (_future_format, "bad_format"),
    "unknown game": (_set("game", "chess"), "not_a_game"),
    "bad seed": (_set("dice.seed", "xyz"), "bad_seed"),
    "short seed": (_set("dice.seed", "ab" * 8), "bad_seed"),
    "bad commitment": (_set("dice.commitment", "ABC"), "not_a_hash"),
    "dice words": (_set("dice.words", {"x": "y"}), "words_per_player"),
    "bad time": (_set("created", "not a time"), "not_a_time"),
    "not utc": (_set("ended", "2025-01-01T12:00:00+01:00"), "not_utc"),
    "players not two": (_set("players", []), "players_not_two"),
    "bad game id": (_set("game_id", "a|b"), "bad_game_id"),
    "options not an object": (_set("options", []), "not_an_object"),
    "options too long": (_set("options.x", "y" * 5000), "json_too_long"),
    "dice not an object": (_set("dice", None), "not_an_object"),
    "log not a list": (_set("log", {}), "not_a_list"),
    "too many rows": (_too_many_rows, "too_many_rows"),
    "row not an object": (_set("log.1", []), "at_place"),
    "bad seq": (_set("log.1.seq", 0), "at_place"),
    "bad side": (_set("log.1.side", 2), "at_place"),
    "bad roll": (_set("log.1.roll", 999), "at_place"),
    "bad hash": (_set("log.1.hash", "0" * 63), "at_place"),
    "bad event kind": (_set("log.2.event", "Resign!"), "at_place"),
    "unknown ending": (_set("result.termination", "checkmate"), "unknown_ending"),
    "result winner": (_set("result.winner", 2), "not_a_seat"),
    "result reason": (_set("result.reason", "x" * 501), "reason_too_long"),
    "bad variant": (_set("variant", "nope"), "cannot_start"),  # the engine's own refusal inside
    "bad option": (_set("options.flying", "maybe"), "cannot_start"),
    # the reader's own values, long or quoted: the English says them as the catalog does, cut
    "long unknown ending": (_set("result.termination", "x" * 300), "unknown_ending"),
    "long winner": (_set("result.winner", "w" * 300), "not_a_seat"),
    "long game": (_set("game", "g" * 300), "not_a_game"),
    "long format": (_set("format", "f" * 300), "bad_format"),
    "long version": (_set("version", "9" * 300), "bad_version"),
    "long event kind": (_set("log.2.event", "K" * 300), "at_place"),
    "long seq": (_set("log.1.seq", "s" * 300), "at_place"),
    "long roll": (_set("log.1.roll", "r" * 300), "at_place"),
    "time of control characters": (_set("created", "\x00" * 40), "not_a_time"),
    "unknown field with a quote": (_set("it's", 1), "unknown_field"),
    "long unknown field": (_set("k" * 300, 1), "unknown_field"),
}

# name -> (the broken text from the good one's, the code of the problem said first)
TEXTS: dict[str, tuple[Callable[[str], str | bytes], str]] = {
    "not json": (lambda _: "{not json", "not_json"),
    "not utf-8": (lambda _: b"\xff\xfe{}", "not_utf8"),
    "a list": (lambda _: "[1, 2]", "not_an_object"),
    "duplicate key": (lambda t: t.rstrip()[:-1] + ', "game_id": "other"}', "duplicate_key"),
    "nested too deep": (lambda t: t.replace("true", _nested(40), 1), "json_too_deep"),
    "huge number": (lambda t: t.replace(": 50", ": " + "9" * 40, 1), "number_too_long"),
    "nan": (lambda t: t.replace(": 50", ": NaN", 1), "not_json_constant"),
    "duplicate key with a quote": (
        lambda t: t.rstrip()[:-1] + ', "it\'s": 1, "it\'s": 2}',
        "duplicate_key",
    ),
    "lone surrogate": (lambda t: t.replace('"alice"', '"\\ud800lice"', 1), "lone_surrogate"),
    "not json at all": (lambda _: "hello, this is my game, I won!", "not_json"),
    "cut short": (lambda t: t[: len(t) // 2], "not_json"),
    "text not closed": (lambda t: t.replace('"standard"', '"standard', 1), "not_json"),
    "extra data": (lambda t: t + "}", "not_json"),
    "bad escape": (lambda t: t.replace('"standard"', '"stan\\dard"', 1), "not_json"),
    "number too large": (lambda t: t.replace(": 50", ": 1e999", 1), "number_too_large"),
    "note number too large": (
        lambda t: t.replace('"winner": 0}', '"winner": 1e999}', 1),
        "number_too_large",
    ),
}

JSON_SAYS = {  # what Python's JSON reader says -> the plain words' code (no Python in any language)
    "{": "json_name_missing",
    "[": "json_value_missing",
    '{"a" 1}': "json_colon_missing",
    '{"a": 1 "b": 2}': "json_comma_missing",
    '"abc': "json_text_unclosed",
    '"a\nb"': "json_control_character",
    '"\\x"': "json_bad_escape",
    '"\\u12"': "json_bad_unicode",
    "{} x": "json_extra_data",
}


@pytest.fixture
async def good(referee: Referee) -> str:
    """A real record: a Morris game made through the referee, one move, then a resignation."""
    await start(referee, "morris")
    assert (await referee.act(HERE, ALICE, "place d7")).ok
    assert (await referee.resign(HERE, BOB)).ok
    data = (await referee.record(HERE)).file
    assert data is not None
    return data.decode()


def broken(good: str, name: str) -> tuple[str | bytes, str]:
    if name in TEXTS:
        make, code = TEXTS[name]
        return make(good), code
    edit, code = EDITS[name]
    data = json.loads(good)
    edit(data)
    return json.dumps(data), code


def refusal(text: str | bytes) -> Problem:
    """The problem the engine names, on the path /import takes: read the file (with /import's
    bounds), then start and replay it."""
    with pytest.raises(RecordError) as raised:
        record = Record.from_json(text, max_chars=MAX_IMPORT_BYTES, max_rows=MAX_ACTIONS)
        replay(record)
    problem = raised.value.args[0]
    assert isinstance(problem, Problem), repr(problem)
    return problem


def walk(problem: Problem) -> Iterator[Problem]:
    """A problem and every problem inside it."""
    yield problem
    for value in problem.params.values():
        if isinstance(value, Problem):
            yield from walk(value)


def catalog_keys(problem: Problem) -> Iterator[str]:
    """The catalog keys that say ``problem`` (an engine refusal: its own ``engine.*`` key)."""
    for inner in walk(problem):
        if inner.code == "engine":
            reason = inner.params["reason"]
            game_key = f"engine.{inner.params.get('game', 'morris')}.{reason}"
            yield game_key if game_key in words("en") else f"engine.{reason}"
        else:
            yield f"problem.{inner.code}"


ALL = [*EDITS, *TEXTS]


@pytest.mark.parametrize("name", ALL)
async def test_each_broken_record_names_a_coded_problem_every_language_can_say(
    good: str, name: str
) -> None:
    text, code = broken(good, name)
    problem = refusal(text)
    assert problem.code == code, str(problem)
    for key in catalog_keys(problem):
        for lang in LANGUAGES:
            assert key in words(lang), f"{lang} lacks {key} ({problem})"
    for inner in walk(problem):  # a field is named by its JSON key, the same in every language
        assert " " not in str(inner.params.get("name", "")), inner
    for inner in walk(problem):  # the English catalog says what the engine says
        if inner.code != "engine":
            params = {k: str(v) if isinstance(v, Problem) else v for k, v in inner.params.items()}
            assert words("en").t(f"problem.{inner.code}", **params) == str(inner), inner.code


async def test_an_engine_refusal_inside_is_said_from_its_own_code(good: str) -> None:
    problem = refusal(broken(good, "bad variant")[0])
    inner = problem.params["why"]
    assert isinstance(inner, Problem) and inner.code == "engine"
    assert inner.params["reason"] == "unknown_variant"
    seed = refusal(broken(good, "short seed")[0]).params["why"]
    assert isinstance(seed, Problem) and seed.params["reason"] == "seed_too_short"
    assert seed.params["engine_params"] == {"least": 16}


@pytest.mark.parametrize("name", ALL)
async def test_import_says_the_problem_in_the_readers_language(
    referee: Referee, good: str, name: str
) -> None:
    text, _ = broken(good, name)
    english = str(refusal(text))
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    reply = await referee.import_record(HERE, data, name="record.json")
    assert english in reply_words(reply, "en")
    for lang in ("hu", "eo", "is"):
        said = reply_words(reply, lang)
        assert english not in said, (lang, said)
        assert "record.json" in said
    hungarian = reply_words(reply, "hu")
    if reply.reason:  # refused before any check: the file is no record
        assert hungarian.startswith("record.json nem olvasható jegyzőkönyv: "), hungarian
    else:  # a record that cannot start a game: the verdict says why
        assert "cannot start a game" not in hungarian and "Morris" not in hungarian, hungarian


async def test_the_hungarian_reasons_read_as_hungarian(referee: Referee, good: str) -> None:
    async def hungarian(name: str) -> str:
        text, _ = broken(good, name)
        data = text if isinstance(text, bytes) else text.encode()
        return reply_words(await referee.import_record(HERE, data, name="record.json"), "hu")

    assert (await hungarian("unknown field")) == (
        "record.json nem olvasható jegyzőkönyv: a jegyzőkönyv: ismeretlen „seed” mező"
    )
    assert (await hungarian("unknown game")).endswith(
        'a game értéke ezek egyike lehet: atmalof, morris, abalone; nem "chess"'
    )
    assert "players[1]: a jegyzőkönyv" not in await hungarian("player misses a field")
    assert (await hungarian("player misses a field")).endswith(
        "players[1]: a játékos: hiányzik a(z) „name” mező"
    )
    assert "a kockamaghoz legalább 16 bájt kell" in await hungarian("short seed")
    assert (await hungarian("player name too long")).endswith(
        "players[1]: a(z) name hossza 1 és 100 karakter között lehet"
    )
    option = await hungarian("bad option")
    assert "a jegyzőkönyv változatával és beállításaival nem indítható játszma" in option
    assert "flying must be on or off" not in option


@pytest.mark.parametrize(("text", "code"), JSON_SAYS.items())
def test_python_json_words_are_said_plainly(text: str, code: str) -> None:
    problem = refusal(text)
    assert problem.code == "not_json"
    assert problem.params["why"].code == code
    assert {"line", "column"} <= set(problem.params)
    english = str(problem)
    assert "Expecting" not in english and "(char " not in english, english
    assert "(line 1, column " in english


def test_every_json_refusal_has_its_own_words_in_every_language() -> None:
    codes = [code for _, code, _ in JSON_SYNTAX]
    assert len(set(codes)) == len(codes)
    assert json_syntax("Something Python may say one day").code == "json_syntax"
    assert json_syntax("Unexpected UTF-8 BOM (decode using utf-8-sig)").code == "json_bom"
    trailing = "Illegal trailing comma before end of object"  # Python 3.13's words
    assert json_syntax(trailing).code == "json_trailing_comma"
    for begins, code, english in JSON_SYNTAX:
        assert json_syntax(begins).code == code
        assert words("en").t(f"problem.{code}") == english
        for lang in ("hu", "eo", "is"):
            said = words(lang).t(f"problem.{code}")
            assert said != english and begins not in said, (lang, code, said)
    for lang in LANGUAGES:
        assert "problem.json_syntax" in words(lang)


@pytest.mark.parametrize("mark", [b"\xef\xbb\xbf", "\ufeff"])
async def test_a_record_saved_with_a_byte_order_mark_reads(good: str, mark: bytes | str) -> None:
    """An editor may save UTF-8 with a byte order mark first: it is no part of the record."""
    text = mark + good.encode() if isinstance(mark, bytes) else mark + good
    assert Record.from_json(text).to_json() == good


async def test_import_reads_a_record_with_a_byte_order_mark(referee: Referee, good: str) -> None:
    reply = await referee.import_record(HERE, b"\xef\xbb\xbf" + good.encode(), name="bom.json")
    assert reply.ok and checks_out(reply), reply.text
    assert "Imported bom.json: Nine Men's Morris, " in reply_words(reply, "en")
    assert "Importálva: bom.json: Malom, " in reply_words(reply, "hu")


async def test_a_changed_name_says_which_start_field_differs(referee: Referee, good: str) -> None:
    data = json.loads(good)
    data["players"][1]["name"] = "Mallory"
    reply = await referee.import_record(HERE, json.dumps(data).encode(), name="name.json")
    english = reply_words(reply, "en")
    assert 'the record does not match the start row\'s "names"' in english, english
    assert "a jegyzőkönyv nem egyezik a kezdősor „names” mezőjével" in reply_words(reply, "hu")
