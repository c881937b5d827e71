"""Autocomplete choices: moves capped at Discord's 25, a challenge's variants and clocks with
what they mean, and, where a list would be empty, one choice that says why.

Discord shows an empty list as "no options match", which tells a newcomer with no game here,
or whose opponent is to move, nothing. The referee says why there is nothing to offer (a
refusal's code and params, ``Referee.why_no_choices``); the words are made here, in the
reader's language. Such a choice's value is ``HINT_WORD``: picked and sent, the referee answers
with the same reason (``bot.referee.move_words``), and it is never a move.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord.app_commands import Choice

import engine
from bot import game_names, texts
from bot.clock import ClockSpec
from bot.discord_ui.app import RefereeBot
from bot.errors import BadInput, Refusal
from bot.i18n import Msg, msg, plain, say
from bot.referee.move_words import GAME_VERBS, HINT_WORD
from bot.referee.replies import Reply

MAX_CHOICES = 25
MAX_NAME = 100  # Discord's longest choice name (and value)
MORE = "…"  # the name of the last choice when more match than Discord shows
CLOCK_SUGGESTIONS = ("none", "5+3", "10+0", "15+5", "30+0", "24h", "72h")
SLASH = {
    "drop": "/drop",
    "move": "/move",
    "fly": "/move",
    "place": "/place",
    "remove": "/remove",
    "push": "/push",
}
"""The slash command that gives each game verb (``GAME_VERBS``): Morris flies with /move."""
HINTED = frozenset(
    {
        "no_game",
        "challenge_not_accepted",
        "game_over",
        "not_a_player",
        "frozen",
        "not_your_turn",
        "place_first",
        "no_mill_to_finish",
    }
)
"""The reasons a choice says in words of its own (``choice.<code>``); any other (a roll on its
way, a damaged game) is ``choice.nothing_now``."""


def unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))


def capped(values: list[str], typed: str, lang: str = "en") -> list[Choice[str]]:
    """At most 25 choices; when more match, the 25th says how many more and how to narrow them.

    Discord lets a person pick any choice, so that one's value is what they typed (or "?"):
    picked, it is refused with the game's own reason and changes nothing.
    """
    if len(values) <= MAX_CHOICES:
        return [Choice(name=v[:MAX_NAME], value=v[:MAX_NAME]) for v in values]
    shown = values[: MAX_CHOICES - 1]
    more = len(values) - len(shown)
    name = f"{MORE} {say(msg('discord.more_choices', n=more), lang)}"
    return [Choice(name=v[:MAX_NAME], value=v[:MAX_NAME]) for v in shown] + [
        Choice(name=name[:MAX_NAME], value=(typed.strip() or HINT_WORD)[:MAX_NAME])
    ]


def hint(said: Msg, lang: str) -> Choice[str]:
    """The one choice that stands for an empty list: its name says why, its value asks why."""
    return Choice(name=say(said, lang)[:MAX_NAME], value=HINT_WORD)


def why_msg(why: Refusal) -> Msg:
    """The words of a choice for why there is nothing to offer (a referee's refusal)."""
    return Msg(f"choice.{why.code}" if why.code in HINTED else "choice.nothing_now", why.params)


def other_games_msg(verb: str, game: str, commands: Iterable[str]) -> Msg:
    """ "/drop is for Atmalof; in Nine Men's Morris use /place, /move, /remove": the slash
    command of ``verb``, the games it serves, and ``game``'s own (from its ``commands``)."""
    owners = [msg(f"game.{name}") for name, verbs in GAME_VERBS.items() if verb in verbs]
    ours = ", ".join(dict.fromkeys(SLASH[c] for c in commands if c in SLASH))
    return msg(
        "discord.other_games_command",
        command=SLASH.get(verb, f"/{verb}"),
        owners=owners,
        game=msg(f"game.{game}"),
        commands=ours,
    )


def other_games(reply: Reply, verb: str) -> Msg | None:
    """What to say instead of a refusal of a slash command's move as no command of this game
    (the referee's refusal names the game's commands): that command is another game's."""
    if reply.ok or reply.reason != "engine" or "commands" not in reply.params:
        return None
    return other_games_msg(verb, str(reply.params.get("game")), reply.params["commands"])


async def private_language(interaction: discord.Interaction[Any]) -> str:
    """The reader's language for a choice's words, as for their private replies."""
    client = interaction.client
    if isinstance(client, RefereeBot):
        return (await client.languages(interaction))[1]
    return "en"


async def variant_choices(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
    """The variants of the game picked in the same command, those containing what is typed:
    /challenge's and /practice's ``variant``, each named as the game is then called ("Six
    Men's Morris", "Abalone (belga százszorszép)"); values stay the ids the option takes.
    Before a game is picked, every game's and ``standard`` once: a newcomer sees what there
    is, and a variant of another game than the one then picked is refused with that game's
    own list (a hint alone, "pick the game first", would show nothing to pick)."""
    typed = current.strip().lower()
    game = interaction.namespace.game
    lang = await private_language(interaction)
    if game:
        try:
            name = engine.get_game(game).name
            every = [(v, game_names.game_title(name, v)) for v in engine.get_game(name).variants]
        except (engine.EngineError, ImportError):
            every = [("standard", plain("standard"))]
    else:
        every = [("standard", msg("choice.variant_every_game", variant="standard"))]
        for name in engine.GAME_NAMES:
            every += [
                (v, game_names.game_title(name, v))
                for v in engine.get_game(name).variants
                if v != "standard"
            ]
    named = [(v, say(said, lang)[:MAX_NAME]) for v, said in every]
    return [Choice(name=name, value=v) for v, name in named if typed in v or typed in name.lower()][
        :MAX_CHOICES
    ]


def clock_msg(text: str) -> Msg:
    """A clock as typed, with what it means in the words every clock is said in
    (``texts.clock_msg``): "10+0: 10 min each", "5+3: 5 min each + 3 s a move"; a text that
    is no clock as it is (sent, it is refused with the clock's reason)."""
    try:
        ClockSpec.parse(text)
    except BadInput:
        return plain(text)
    return msg("choice.clock", clock=text, meaning=texts.clock_msg(text))


async def clock_choices(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
    """The usual clocks starting with what is typed (else what is typed), each with what it
    means: /challenge's and /practice's ``clock``. Values stay what the option takes."""
    typed = current.strip().lower()
    picks = [c for c in CLOCK_SUGGESTIONS if c.startswith(typed)] or [typed[:20] or "none"]
    lang = await private_language(interaction)
    return [Choice(name=say(clock_msg(c), lang)[:MAX_NAME], value=c) for c in picks]
