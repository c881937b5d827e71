"""Hostile record text: every odd input gets a clean verdict, never a traceback (issue 13.9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import Record, Recorder, RecordError
from engine.verify import main

SEED = bytes(range(32)).hex()


def _text(log: bool = False) -> str:
    rec = Recorder(
        "atmalof", players=(("111", "Ann"), ("222", "Bob")), game_id="g", seed=SEED, log=log
    )
    rec.play("drop row 4")
    return rec.finish().to_json()


def _nested(depth: int) -> str:
    """JSON text of lists nested ``depth`` deep (built as text: json.dumps would recurse);
    short enough to pass the options' and notes' size limits."""
    return "[" * depth + "]" * depth


def _hostile() -> dict[str, tuple[str, str]]:
    """name -> (record text, what the refusal says)."""
    base = json.loads(_text())
    logged = json.loads(_text(log=True))
    deep_options = dict(base, options={"deep": "DEEP"})
    deep_note = dict(logged)
    deep_note["log"][0]["note"]["deep"] = "DEEP"
    surrogate = json.dumps(base).replace('"Ann"', '"\\ud800nn"')
    duplicate = json.dumps(base)[:-1] + ', "game_id": "other"}'
    big_text = json.dumps(base).replace('"rows": 7', '"rows": ' + "9" * 5000)
    return {
        "big int": (big_text, "number"),
        "deep options": (json.dumps(deep_options).replace('"DEEP"', _nested(985)), "nested"),
        "deep note": (json.dumps(deep_note).replace('"DEEP"', _nested(985)), "nested"),
        "surrogate": (surrogate, "surrogate"),
        "duplicate key": (duplicate, "appears twice"),
    }


@pytest.mark.parametrize("name", list(_hostile()))
def test_hostile_text_is_refused_with_a_reason(name: str) -> None:
    text, message = _hostile()[name]
    with pytest.raises(RecordError, match=message):
        Record.from_json(text)


@pytest.mark.parametrize("name", list(_hostile()))
def test_the_command_line_gives_a_clean_verdict(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text(_hostile()[name][0], encoding="utf-8", errors="surrogatepass")
    assert main([str(path)]) == 2
    assert "UNREADABLE:" in capsys.readouterr().out


def test_a_duplicate_key_inside_a_row_is_refused() -> None:
    text = _text().replace('"seq": 1,', '"seq": 1, "seq": 1,', 1)
    with pytest.raises(RecordError, match="'seq' appears twice"):
        Record.from_json(text)


def test_a_record_built_in_python_refuses_a_lone_surrogate_and_deep_notes() -> None:
    rec = Recorder("atmalof", seed=SEED, log=True)
    with pytest.raises(RecordError, match="surrogate"):
        rec.event("dispute", note={"reason": "\ud800"})
    deep: object = 1
    for _ in range(40):
        deep = [deep]
    with pytest.raises(RecordError, match="nested"):
        rec.event("dispute", note={"reason": deep})
    with pytest.raises(RecordError, match="surrogate"):
        Recorder("atmalof", players=(("1", "A\udc00"), ("2", "B")))


def test_a_note_built_in_python_says_which_value_json_cannot_write() -> None:
    """An infinite number and a value that is no JSON at all get their own problems, told
    apart by what ``json`` does with them, not by its message."""
    rec = Recorder("atmalof", seed=SEED, log=True)
    for value, code in ((float("inf"), "json_not_finite"), (object(), "json_not_a_value")):
        with pytest.raises(RecordError) as refused:
            rec.event("dispute", note={"reason": value})
        problem = refused.value.args[0]
        assert (problem.code, problem.params["why"].code) == ("note_not_plain", code)


@pytest.mark.parametrize(
    ("edit", "shown"),
    [
        ({"game": "chess"}, 'not "chess"'),
        ({"game": None}, "not null"),
        ({"version": True}, "version true"),
        ({"format": ["pgn", 1.5]}, 'not ["pgn", 1.5]'),
        ({"game": "šakk"}, 'not "šakk"'),
    ],
)
def test_a_refused_value_is_quoted_as_the_files_json(edit: dict, shown: str) -> None:
    """The reader wrote JSON, so the value they wrote comes back as JSON (``"chess"``,
    ``null``, ``true``), not as Python's ``'chess'``, ``None``, ``True``."""
    data = dict(json.loads(_text()), **edit)
    with pytest.raises(RecordError) as refused:
        Record.from_json(json.dumps(data))
    assert shown in str(refused.value), refused.value


def test_a_quoted_value_is_bounded_and_always_sayable() -> None:
    from engine.record.fields import quoted

    assert quoted("x" * 5000) == '"' + "x" * 99  # the reader's text, cut to 100 characters
    assert quoted("\ud800ab") == '"\\ud800ab"'  # no lone surrogate reaches a reply
    assert quoted({1, 2}) == "{1, 2}"  # a Python-built record's value JSON cannot write
