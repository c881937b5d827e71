"""The project's errors share one root, and a refusal carries its reason as data."""

from __future__ import annotations

from bot import texts
from bot.clock import ClockSpec, ClockSpecError
from bot.errors import (
    BadInput,
    BrokenGame,
    Conflict,
    RefereeError,
    Refusal,
    StoreUnavailable,
)
from bot.referee.replies import Preempted, Reply
from bot.store import GameMovedOn
from bot.store import StoreUnavailable as StoresUnavailable


def test_every_error_of_the_project_has_one_root() -> None:
    for kind in (Refusal, Preempted, BadInput, StoreUnavailable, Conflict, BrokenGame):
        assert issubclass(kind, RefereeError), kind
    assert GameMovedOn is Conflict and StoresUnavailable is StoreUnavailable


def test_a_refusal_keeps_its_code_and_parameters_and_makes_the_sentence() -> None:
    refused = Refusal("not_a_player", {"players": "alice vs bob"}, game_id=3, version=7)
    assert refused.code == "not_a_player" and refused.params == {"players": "alice vs bob"}
    assert (refused.game_id, refused.version) == (3, 7)
    assert str(refused) == "you are not playing in this game (alice vs bob)"
    assert Refusal("frozen").text == texts.FROZEN


def test_a_clock_text_that_cannot_be_read_is_bad_input_for_the_player() -> None:
    try:
        ClockSpec.parse("15+999")
    except ClockSpecError as exc:
        assert isinstance(exc, BadInput) and isinstance(exc, ValueError)
        assert "increment" in str(exc)
    else:
        raise AssertionError("an increment over the maximum was accepted")


def test_preempted_carries_the_public_reply() -> None:
    reply = Reply(text="Game over: bob wins.", ok=False)
    assert Preempted(reply).reply is reply


def test_the_errors_other_modules_raise_share_the_root_too() -> None:
    from bot.config import ConfigError
    from bot.limits import OverLimit
    from bot.store import ChannelBusy, SchemaTooNew

    for kind in (ConfigError, OverLimit, ChannelBusy, SchemaTooNew):
        assert issubclass(kind, RefereeError), kind
