"""A payload without a required option (a modified client, a Discord change, a command edited
after it was synced) is refused privately, naming the command and the option, before the command
runs; while someone types, the options not filled in yet do not block the suggestions."""

from __future__ import annotations

from discord import AppCommandOptionType, Object, app_commands
from discord.app_commands.transformers import MemberTransformer

from bot.discord_ui.tree import UNEXPECTED, message_for
from bot.i18n import say
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.crowd import snapshot
from tests.discord.harness import Harness
from tests.discord.play import start_game


async def test_a_move_without_its_target_names_the_missing_option(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    before = await snapshot(harness.bot.referee.store)  # type: ignore[attr-defined]
    answer = await harness.slash(ALICE, "move", from_="d7")
    assert answer.all_ephemeral and answer.text == "`/move` needs the option `to`"
    assert await snapshot(harness.bot.referee.store) == before  # type: ignore[attr-defined]


async def test_a_subcommand_without_its_option_names_the_whole_command(harness: Harness) -> None:
    answer = await harness.slash(ALICE, "drop row")
    assert answer.all_ephemeral and answer.text == "`/drop row` needs the option `k`"


async def test_import_without_a_file_asks_for_the_record_option(harness: Harness) -> None:
    assert harness.command("import").get_parameter("record").required
    answer = await harness.slash(CAROL, "import")
    assert answer.all_ephemeral and answer.text == "`/import` needs the option `record`"
    assert UNEXPECTED not in answer.text and not harness.downloads


async def test_suggestions_still_come_while_earlier_options_are_empty(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    choices = await harness.autocomplete(ALICE, "place", "point", point="d")
    assert "d7" in [c["value"] for c in choices]
    targets = await harness.autocomplete(ALICE, "move", "to")  # no from yet; placing: no move
    assert targets == [{"name": "Place your men first: /place", "value": "?"}]  # says why


def test_a_value_discord_could_not_convert_is_named_without_internals() -> None:
    """discord.py hands over a bare ``Object`` for a member it could not find: no repr shown."""
    member = app_commands.TransformerError(
        Object(id=5), AppCommandOptionType.user, MemberTransformer()
    )
    assert (
        say(message_for(member)) == "that cannot be used there: pick it from the list Discord shows"
    )
    text = app_commands.TransformerError("d9", AppCommandOptionType.string, MemberTransformer())
    assert say(message_for(text)) == "cannot read 'd9' there"


def test_errors_written_for_players_are_known_by_type_not_by_class_name() -> None:
    from bot.clock import ClockSpecError
    from bot.errors import BadInput

    too_much = ClockSpecError("increment_most", most=60)
    assert say(message_for(too_much)) == "an increment is at most 60 seconds" == str(too_much)
    said = say(message_for(too_much), "hu")  # a message of the catalog: the reader's language
    assert said == "a lépésenkénti többletidő legfeljebb 60 másodperc", said
    assert say(message_for(BadInput("rows must be 4 to 12"))) == "rows must be 4 to 12"

    class LooksLikeSpecError(ValueError):  # a bug, whatever its name says
        pass

    assert message_for(LooksLikeSpecError("x")) is None
