"""Every slash command as Discord would receive it at sync time, checked against Discord's limits.

Discord rejects a whole sync when one command breaks a limit, so these run on the exact JSON that
``tree.sync`` would send (``Command.to_dict``).
"""

from __future__ import annotations

import re
from typing import Any

from tests.discord.harness import Harness

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
EXPECTED = {
    "challenge", "accept", "drop", "move", "place", "remove", "push", "play",
    "board", "resign", "draw", "takeback", "abort", "rematch", "claim",
    "history", "record", "replay", "verify", "rules", "help", "referee",
    "ladder", "stats", "dispute", "import", "language", "practice",
}  # fmt: skip


def payloads(harness: Harness) -> list[dict[str, Any]]:
    tree = harness.bot.tree
    return [command.to_dict(tree) for command in tree.get_commands()]


def walk(options: list[dict[str, Any]], path: str) -> list[tuple[str, dict[str, Any]]]:
    """(path, option) for every option and sub-command, depth first."""
    out = []
    for option in options:
        here = f"{path} {option['name']}"
        out.append((here, option))
        out += walk(option.get("options") or [], here)
    return out


def visible_length(payload: dict[str, Any]) -> int:
    """Discord's 4000-character budget: names, descriptions and choice names and values."""
    total = len(payload["name"]) + len(payload.get("description") or "")
    for _, option in walk(payload.get("options") or [], ""):
        total += len(option["name"]) + len(option.get("description") or "")
        for choice in option.get("choices") or []:
            total += len(choice["name"]) + len(str(choice["value"]))
    return total


async def test_every_command_of_the_issue_is_registered(harness: Harness) -> None:
    assert {p["name"] for p in payloads(harness)} == EXPECTED


async def test_drop_reads_as_the_rules_say_it(harness: Harness) -> None:
    (drop,) = [p for p in payloads(harness) if p["name"] == "drop"]
    subs = {o["name"]: o for o in drop["options"]}
    assert set(subs) == {"row", "column"}
    for sub in subs.values():
        assert sub["type"] == SUB_COMMAND
        (k,) = sub["options"]
        assert (k["name"], k["type"], k["min_value"], k["max_value"]) == ("k", 4, 1, 12)


async def test_names_and_descriptions_fit_discords_limits(harness: Harness) -> None:
    for payload in payloads(harness):
        assert NAME.match(payload["name"]), payload["name"]
        assert 1 <= len(payload["description"]) <= 100, payload["name"]
        assert visible_length(payload) <= 4000, payload["name"]
        for path, option in walk(payload.get("options") or [], payload["name"]):
            assert NAME.match(option["name"]), path
            assert 1 <= len(option["description"]) <= 100, path


async def test_options_respect_counts_order_and_bounds(harness: Harness) -> None:
    for payload in payloads(harness):
        groups = [(payload["name"], payload.get("options") or [])]
        groups += [(p, o.get("options") or []) for p, o in walk(groups[0][1], payload["name"])]
        for path, options in groups:
            assert len(options) <= 25, path
            assert len({o["name"] for o in options}) == len(options), path
            required = [o.get("required", False) for o in options if o["type"] > 2]
            assert required == sorted(required, reverse=True), f"{path}: required after optional"
            for option in options:
                choices = option.get("choices") or []
                assert len(choices) <= 25, path
                assert not (choices and option.get("autocomplete")), path
                for choice in choices:
                    assert 1 <= len(choice["name"]) <= 100, path
                if option["type"] == STRING:
                    assert 0 <= option.get("min_length", 0) <= option.get("max_length", 6000)
                    assert option.get("max_length", 6000) <= 6000, path
        depth = max((p.count(" ") for p, _ in walk(payload.get("options") or [], "")), default=0)
        assert depth <= 3, payload["name"]


async def test_moves_autocomplete_their_coordinates(harness: Harness) -> None:
    autocompleted = {
        path.strip()
        for payload in payloads(harness)
        for path, option in walk(payload.get("options") or [], payload["name"])
        if option.get("autocomplete")
    }
    assert {
        "move from", "move to", "move remove", "place point", "place remove",
        "remove point", "push marbles", "play command", "challenge variant", "challenge clock",
    } <= autocompleted  # fmt: skip


async def test_moderator_group_is_hidden_from_members_and_unavailable_in_dms(
    harness: Harness,
) -> None:
    (group,) = [p for p in payloads(harness) if p["name"] == "referee"]
    assert int(group["default_member_permissions"]) == 1 << 13  # Manage Messages
    assert group.get("contexts") == [0] or group.get("dm_permission") is False
    names = {o["name"] for o in group["options"]}
    assert names == {
        "abort", "award", "theme", "settings", "season-close",
        "rewind", "resume", "restore", "void", "forget-server",
    }  # fmt: skip


async def test_the_button_template_is_registered_for_clicks_after_a_restart(
    harness: Harness,
) -> None:
    from bot.discord_ui.views import RefereeButton

    store = harness.bot._connection._view_store
    assert RefereeButton in store._dynamic_items.values()
