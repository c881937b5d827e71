"""Text commands ("challenge bob atmalof rated clock 10+5", "accept", "draw", "drop row 4") read
into Referee calls. The console uses it; anything that is not a referee word goes to the game.

Every word typed is untrusted: numbers are read from ASCII digits only and bounded, and a
command missing its argument gets its usage, never another command's answer.

Why it is long: it is the whole console language, every command's words and their usage, in
one place a reader checks against the help text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine
import translations
from bot.clock import ClockSpec, ClockSpecError
from bot.errors import Refusal
from bot.game_names import game_named
from bot.i18n import Msg, msg, plain, say, say_all, typed
from bot.referee.ladders import MAX_TOP
from bot.referee.move_words import VERBS, is_move_word
from bot.referee.names import BOT_NAME, CONSOLE_BOT, name_key
from bot.referee.practice_start import DEFAULT_LEVEL
from bot.referee.replies import Actor, Reply, Where
from bot.referee.settings_words import settings_lines
from bot.referee.suggest import MAX_WORD
from bot.rules_text import RULES, console, summary

if TYPE_CHECKING:
    from bot.referee import Referee

ANYONE = ("anyone", "open", "anybody", "*")
MAX_TEXT = 300
MAX_DIGITS = 18  # any larger number is no id, page or action SQLite could hold
MOVES_PAGE = 60
CLOCK_LIKE = re.compile(r"\d+\+\d+|\d+h")  # "10+5", "24h": what a clock is written as


def _value(raw: str) -> Any:
    """An option value from text: true/false, a whole number, else the text."""
    low = raw.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    try:
        return int(raw)
    except ValueError:
        return raw


def _number(word: str) -> int | None:
    """A whole number typed in ASCII digits ("3"), else None ("²", "٣", "-1", 20 digits)."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


def _game_number(head: str, rest: list[str]) -> tuple[int | None, list[str]]:
    """A game named by its number at the start of ``rest`` (``#12`` or ``game 12``, as the
    texts show "game 12") and the words after it; (None, ``rest``) when it names none. A
    number that is not one (``#x``, ``game -1``) is refused with how to name a game."""
    first = rest[0].lower() if rest else ""
    if first == "game":
        number = _number(rest[1]) if len(rest) > 1 else None
        taken = 2
    elif first.startswith("#"):
        number, taken = _number(first[1:]), 1
    else:
        return None, rest
    if number is None:
        raise Refusal("console_game_usage", {"head": head})
    return number, rest[taken:]


def _named(people: Mapping[str, Actor], who: str) -> Actor:
    """The player called ``who`` at this table; refused, naming the players there are."""
    found = people.get(name_key(who))
    if found is not None:
        return found
    known = ", ".join(sorted(a.name for a in people.values())) or "nobody yet"
    raise Refusal("unknown_person", {"who": who, "known": known})


async def _challenge(
    referee: Referee, where: Where, actor: Actor, words: list[str], people: Mapping[str, Actor]
) -> Reply:
    if len(words) < 2:
        raise Refusal("console_challenge_usage")
    who, (game, rest) = words[0], _game_named(words[1:])
    if name_key(who) == BOT_NAME:  # the practice opponent: a game at once
        return await _practice(referee, where, actor, [game, *rest])
    opponent = None
    if who.lower() not in ANYONE:
        opponent = _named(people, who)
    terms = _terms(rest)
    return await referee.challenge(
        where,
        actor,
        game,
        opponent=opponent,
        variant=terms.variant,
        options=terms.options,
        rated=terms.rated,
        clock=terms.clock,
        starter=terms.starter,
        dice_words=terms.dice_words,
    )


def _game_named(words: list[str]) -> tuple[str, list[str]]:
    """The game the words start with and the words after it: its one word ("morris") or its
    whole name in any language ("Nine Men's Morris", "Malom", any case), which would
    otherwise read as two variants; a variant's own name ("Hatos malom") is the game and that
    variant, as if typed after it."""
    for n in range(min(4, len(words)), 0, -1):  # the longest name first
        try:
            game, variant = game_named(" ".join(words[:n]))
        except engine.EngineError:
            continue
        return game, ([variant] if variant else []) + words[n:]
    return words[0], words[1:]


@dataclass
class _Terms:
    """What follows the game in ``challenge`` and ``practice``."""

    variant: str = "standard"
    rated: bool = False
    clock: str = "none"
    starter: str = "random"
    level: int | str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    dice_words: str = ""


def _terms(words: list[str], *, level: bool = False) -> _Terms:
    """``[variant] [rated|casual] [clock 10+5] [first me|them|random] [key=value...] [words
    "..."]``, and with ``level`` a number or ``level N`` (kept as typed when not a number)."""
    terms = _Terms()
    rest, terms.dice_words = _dice_words(words)
    given: dict[str, str] = {}

    def once(term: str, typed: str, keyword: str = "") -> None:
        # "practice atmalof 3 junior 4": a term said twice is refused, never the last kept;
        # it is named by the keyword typed the second time (`starter` is also `first`)
        if term in given:
            named = keyword or term
            said = {"term": named, "first": given[term][:20], "second": typed[:20]}
            raise Refusal("term_twice", said)
        given[term] = typed

    i = 0
    while i < len(rest):
        word = rest[i]
        low = word.lower()
        if "=" in word:
            key, _, raw = word.partition("=")
            terms.options[key.replace("-", "_")] = _value(raw)
        elif low in ("rated", "casual"):
            once("rated", low)
            terms.rated = low == "rated"
        elif low == "clock" and i + 1 < len(rest):
            once("clock", rest[i + 1])
            terms.clock, i = rest[i + 1], i + 1
        elif low in ("first", "starter") and i + 1 < len(rest):
            once("first", rest[i + 1], low)
            terms.starter, i = rest[i + 1].lower(), i + 1
        elif level and low == "level" and i + 1 < len(rest):
            once("level", rest[i + 1])
            terms.level, i = _number(rest[i + 1]) or rest[i + 1][:20], i + 1
        elif level and (low.isdigit() or low.lstrip("-").isdigit()):
            once("level", low)
            terms.level = _number(low) if _number(low) is not None else low[:20]
        elif CLOCK_LIKE.fullmatch(low):  # "10+5" without its word: a clock, never a variant
            once("clock", word)
            try:  # one past its limits (10+1000) is refused with them, as the clock option is
                ClockSpec.parse(low)
            except ClockSpecError as exc:
                raise Refusal("bad_option", {"message": exc.said or str(exc)}) from exc
            raise Refusal("console_clock_word", {"clock": typed(word, 20)})
        else:
            once("variant", low)
            terms.variant = low
        i += 1
    return terms


async def _practice(referee: Referee, where: Where, actor: Actor, words: list[str]) -> Reply:
    """``practice <game> [level] [variant] [clock ..] [first me|them|random]``: a game against
    the table's bot, at once; a challenge to ``bot`` is the same at the default level."""
    if not words:
        raise Refusal("console_practice_usage")
    game, rest = _game_named(words)
    terms = _terms(rest, level=True)
    try:
        variants: tuple[str, ...] | None = tuple(engine.get_game(game).variants)
    except engine.EngineError:
        variants = None  # the referee names the unknown game
    if variants is not None and terms.variant not in variants:
        # "practice morris hard", "... 2.5", "... 2 2": a level meant, read as a variant
        raise Refusal(
            "practice_level_or_variant",
            {"word": terms.variant[:20], "variants": ", ".join(variants)},
        )
    return await referee.practice(
        where,
        actor,
        game,
        bot=CONSOLE_BOT,
        level=terms.level if terms.level is not None else DEFAULT_LEVEL,  # type: ignore[arg-type]
        variant=terms.variant,
        options=terms.options,
        clock=terms.clock,
        starter=terms.starter,
        dice_words=terms.dice_words,
        rated=terms.rated,
    )


def _dice_words(words: list[str]) -> tuple[list[str], str]:
    """``... words "lucky socks"`` (or ``words lucky``): the words before it, and the dice
    words (quoted: up to the closing quote; else the one word after). A quote never closed is
    refused."""
    low = [w.lower() for w in words]
    if "words" not in low:
        return words, ""
    at = low.index("words")
    after = words[at + 1 :]
    if not after:
        return words[:at], ""
    if not after[0].startswith('"'):
        return words[:at] + after[1:], after[0]
    for end, word in enumerate(after):
        if word.endswith('"') and (end > 0 or len(word) > 1):
            return words[:at] + after[end + 1 :], " ".join(after[: end + 1])[1:-1]
    # no closing quote: whatever followed (a clock, first me) would silently become dice words
    raise Refusal("console_words_unclosed")


async def _import(referee: Referee, where: Where, path: str) -> Reply:
    """``import <path>``: a record file from this machine (the console only)."""
    from bot.referee.imports import MAX_IMPORT_BYTES

    if not path:
        raise Refusal("console_import_usage")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise Refusal(
            "console_cannot_read", {"path": path, "error": str(exc.strerror or exc)}
        ) from exc
    except ValueError as exc:  # a path the system cannot even name (a NUL character)
        raise Refusal("console_not_a_file", {"path": path}) from exc
    return await referee.import_record(where, data, name=Path(path).name, gif=True)


def rules_reply(words: list[str], lang: str = "en", variant: str = "standard") -> Reply:
    """``rules <game>``: the same summary ``/rules`` shows, as terminal text, in ``lang``, for
    ``variant`` (the one being played here)."""
    games = " | ".join(f"rules {name}" for name in RULES)
    if not words:
        raise Refusal("console_rules_usage", {"games": games})
    try:
        name, named = game_named(" ".join(words))
    except engine.EngineError as exc:
        raise Refusal("console_no_rules", {"words": " ".join(words)[:40], "games": games}) from exc
    title, text = summary(name, lang, named if named and variant == "standard" else variant)
    heading = translations.words(lang).t("rules.title", game=title)
    return Reply(text=f"{heading}\n{console(text)}", ephemeral=True)


async def rules_here(referee: Referee, where: Where, words: list[str], lang: str = "en") -> Reply:
    """``rules_reply`` for the game of those rules being played here: Six Men's Morris is told
    as itself, and what its summary leaves out follows (changed options; a custom board's
    variant and dice). Without a game's name: the rules of the game being played (or
    challenged to) here."""
    if not words:
        played = await referee.game_here(where)
        words = [played] if played else words
    reply = rules_reply(words, lang)  # refuses anything but a game's name
    here = await referee.terms_here(where, game_named(" ".join(words))[0])
    if here is None:
        return reply
    reply = rules_reply(words, lang, here.variant)
    if here.notes:
        reply.text += "\n" + say_all(list(here.notes), lang)
    return reply


async def _moves(
    referee: Referee, where: Where, actor: Actor, words: list[str], *, paged: bool
) -> Reply:
    """``moves [page]``: every legal move, a page at a time; ``legal [prefix]``: those that
    start with (then contain) the prefix, all of them."""
    page, prefix = 1, ""
    if paged and words:
        number = _number(words[0])
        if number is None or len(words) > 1:
            raise Refusal("console_moves_usage")
        page = number
    elif not paged:
        prefix = " ".join(words).lower()
    moves, hopeless = await referee.move_list(where, actor)
    if not moves:
        raise await referee.why_no_moves(where, actor)
    if prefix:
        shown = [m for m in moves if m.startswith(prefix)]
        shown += [m for m in moves if prefix in m and not m.startswith(prefix)]
        if not shown:
            raise Refusal("console_no_such_moves", {"count": len(moves), "prefix": prefix[:40]})
        head = msg("console.moves_match", n=len(shown), total=len(moves), prefix=typed(prefix))
        return _listed(head, shown, [m for m in hopeless if m in shown])
    pages = -(-len(moves) // MOVES_PAGE)
    beyond = [msg("page.beyond", asked=page)] if page > pages else []
    page = min(max(page, 1), pages)
    chunk = moves[(page - 1) * MOVES_PAGE : page * MOVES_PAGE]
    if pages == 1:
        head = msg("console.moves", name=actor.name, n=len(moves))
    elif page < pages:
        head = msg(
            "console.moves_page_more",
            name=actor.name,
            n=len(moves),
            page=page,
            pages=pages,
            next=page + 1,
        )
    else:
        head = msg("console.moves_page", name=actor.name, n=len(moves), page=page, pages=pages)
    return _listed(head, chunk, hopeless, beyond)


def _listed(
    head: Msg, moves: list[str], futile: list[str] | None = None, under: list[Msg] | None = None
) -> Reply:
    """The head (and ``under`` it, e.g. that the page asked for is past the last), the moves
    wrapped, then those that can only lose the turn."""
    mark = _separator(moves)
    lines = [head, *(under or []), plain(_wrapped(moves, mark))]
    if futile:
        lines.append(msg("console.moves_futile", moves=f"{mark} ".join(futile)))
    return Reply(text=say_all(lines), lines=lines, ephemeral=True)


def _separator(moves: list[str]) -> str:
    """What separates moves in a list: a comma, or a semicolon where a move holds a comma
    (Atmalof's ``move 1,3 1,4``: "move 1,3 1,4, move 1,3 2,2" could not be read)."""
    return ";" if any("," in m for m in moves) else ","


def _wrapped(moves: list[str], mark: str = ",", width: int = 96) -> str:
    """The moves separated by ``mark``, in lines of at most ``width``; a move never split."""
    lines: list[str] = []
    for move in moves:
        if lines and len(lines[-1]) + len(move) + 2 <= width:
            lines[-1] += f"{mark} {move}"
        else:
            if lines:
                lines[-1] += mark
            lines.append(move)
    return "\n".join(lines)


async def _moderate(
    referee: Referee, where: Where, actor: Actor, words: list[str], people: Mapping[str, Actor]
) -> Reply:
    """``referee <command>``: what Discord's /referee group offers; the referee itself checks
    that ``actor`` is a moderator."""
    if not words:
        raise Refusal("console_moderator_usage")
    sub, rest = words[0].lower(), words[1:]
    reason = " ".join(rest)
    if sub == "abort":
        return await referee.moderator_abort(where, actor, reason)
    if sub == "void":
        return await referee.void(where, actor, reason)
    if sub == "resume":
        return await referee.resume(where, actor, reason)
    if sub == "award":
        if not rest:
            raise Refusal("console_award_usage")
        winner: Actor | None = None
        if rest[0].lower() not in ("draw", "nobody"):
            winner = _named(people, rest[0])
        return await referee.award(where, actor, winner, " ".join(rest[1:]))
    if sub in ("rewind", "restore"):
        number = _number(rest[0]) if rest else None
        if number is None:
            raise Refusal("console_action_usage", {"sub": sub})
        why = " ".join(rest[1:])
        if sub == "rewind":
            return await referee.rewind(where, actor, number, why)
        return await referee.restore(where, actor, number, why)
    if sub == "theme" and rest:
        return await referee.set_setting(where, actor, "theme", rest[0])
    if sub == "settings":
        if not actor.is_moderator:
            raise Refusal("console_settings_moderators")
        lines = settings_lines(await referee.settings(where))
        if where.guild_id is None:
            lines.append(msg("settings.console_defaults"))
        return Reply(text=say_all(lines), lines=lines, ephemeral=True)
    if sub in ("season-close", "close-season"):
        if [w.lower() for w in rest] != ["confirm"]:
            raise Refusal("console_season_confirm")
        return await referee.close_season(where, actor)
    raise Refusal("console_moderator_usage")


PLAYER_WORDS = frozenset(
    [
        "challenge",
        "practice",
        "accept",
        "decline",
        "withdraw",
        "cancel",
        "resign",
        "draw",
        "takeback",
        "claim",
        "rematch",
    ]
)
"""The commands only a player gives (with the moves): the console's moderator, who rules on
disputes, plays no game (its ``abort <reason>`` is its own)."""
COMMAND_WORDS = PLAYER_WORDS | frozenset(
    [
        "help",
        "abort",
        "dispute",
        "referee",
        "import",
        "rules",
        "board",
        "history",
        "record",
        "replay",
        "verify",
        "moves",
        "legal",
        "ladder",
        "stats",
        "theme",
    ]
)
"""The first words ``dispatch`` knows besides the games' moves: a line starting with one is a
command, never a speaker's name (``dispute reason: ...``)."""


async def dispatch(
    referee: Referee, where: Where, actor: Actor, text: str, people: Mapping[str, Actor]
) -> Reply:
    """One line of console text for ``actor``; a refusal for what cannot be read."""
    words = str(text)[:MAX_TEXT].split()
    if not words:
        raise Refusal("console_empty")
    head, rest = words[0].lower(), words[1:]
    answer = rest[0].lower() if rest else ""
    if head in ("help", "?"):
        helped = msg("help.console")
        return Reply(text=say(helped), lines=[helped], ephemeral=True)
    if head == "challenge":
        return await _challenge(referee, where, actor, rest, people)
    if head == "practice":
        return await _practice(referee, where, actor, rest)
    if head == "accept" and rest and answer == "words":
        return await referee.accept(where, actor, dice_words=_dice_words(rest)[1])
    if head in ("accept", "decline"):
        if not rest:
            if head == "accept":
                return await referee.accept(where, actor)
            return await referee.decline(where, actor)
        number = _number(answer)
        if head == "accept" and number is not None and len(rest) > 1:
            tail, said = _dice_words(rest[1:])
            if not tail and said:  # accept 3 words "..."
                return await referee.accept(where, actor, number, dice_words=said)
        if number is None or len(rest) > 1:
            if answer.isascii() and answer.isdigit() and len(rest) == 1:
                raise Refusal("console_no_such_challenge", {"answer": answer[:30]})
            raise Refusal("console_answer_usage", {"head": head})
        if head == "accept":
            return await referee.accept(where, actor, number)
        return await referee.decline(where, actor, number)
    if head in ("withdraw", "cancel") and not rest:
        return await referee.decline(where, actor)
    if head == "resign":
        return await referee.resign(where, actor)
    if head == "draw":
        if answer in ("accept", "yes"):
            return await referee.answer_draw(where, actor, True)
        if answer in ("decline", "no"):
            return await referee.answer_draw(where, actor, False)
        if answer == "withdraw":
            return await referee.withdraw_draw(where, actor)
        return await referee.offer_draw(where, actor)
    if head == "takeback":
        if answer in ("accept", "yes"):
            return await referee.answer_takeback(where, actor, True)
        if answer in ("decline", "no", "refuse"):
            return await referee.answer_takeback(where, actor, False)
        return await referee.request_takeback(where, actor)
    if head == "abort":
        return await referee.abort(where, actor)
    if head == "claim":
        return await referee.claim(where, actor)
    if head == "dispute":
        return await referee.dispute(where, actor, " ".join(rest))
    if head == "referee":
        return await _moderate(referee, where, actor, rest, people)
    if head == "import":
        return await _import(referee, where, " ".join(str(text).split()[1:]))
    if head == "rules":
        return await rules_here(referee, where, rest)
    if head == "rematch":
        return await referee.rematch(where, actor)
    if head == "board":
        return await referee.board(where)
    if head == "history":
        game_id, rest = _game_number(head, rest)
        page = _number(rest[0]) if rest else None
        if (rest and page is None) or len(rest) > 1:
            raise Refusal("console_history_usage")
        return await referee.history(where, page, game_id=game_id)
    if head in ("record", "replay", "verify"):
        game_id, rest = _game_number(head, rest)
        if rest and game_id is None and len(rest) == 1:  # `verify 12`: nothing else is taken
            game_id, rest = _number(rest[0].lower()), []
        if rest or (len(words) > 1 and game_id is None):
            raise Refusal("console_game_usage", {"head": head})
        proof = {"record": referee.record, "replay": referee.replay, "verify": referee.verify}
        return await proof[head](where, game_id=game_id)
    if head in ("moves", "legal"):
        return await _moves(referee, where, actor, rest, paged=head == "moves")
    if head == "ladder":
        shown = [w for w in rest if w.lower() not in ("all", "provisional")]
        wide = len(shown) < len(rest)
        # a number is how many to list, as Discord's top: "99999" was read as a game's name
        # and answered "there is no ladder for 'morris 99999'"
        counts = [w for w in shown if w.isascii() and w.isdigit()]
        shown = [w for w in shown if w not in counts]
        top = _number(counts[0]) if len(counts) == 1 else None
        if counts and (top is None or not 1 <= top <= MAX_TOP):
            raise Refusal(
                "console_ladder_top", {"max": MAX_TOP, "number": typed(" ".join(counts), MAX_WORD)}
            )
        return await referee.ladder(  # a game's name may be words ("Hatos malom")
            where,
            actor,
            " ".join(shown) if shown else None,
            top=top or 10,
            include_provisional=wide,
        )
    if head == "stats":
        known = {**people, BOT_NAME: CONSOLE_BOT}  # `stats bot` asks about the practice opponent
        named = [known[name_key(w)] for w in rest if name_key(w) in known]
        games = [w for w in rest if name_key(w) not in known]
        return await referee.stats(
            where,
            actor,
            named[0] if named else None,
            " ".join(games) if games else None,
            named[1] if len(named) > 1 else None,
        )
    if head == "theme" and rest:
        return await referee.set_setting(where, actor, "theme", rest[0])
    if not is_move_word(head[:MAX_TEXT]):  # no command and no game's move: say so
        word = typed(head, MAX_WORD)
        near = await referee.did_you_mean(where, " ".join(words), COMMAND_WORDS | set(VERBS))
        if near is not None:  # "mvoe 3,4 4,5": move; "3,4 4,5" in Atmalof: move 3,4 4,5
            raise Refusal("did_you_mean", {"word": word, "near": near})
        raise Refusal("console_unknown_command", {"word": word})
    return await referee.act(where, actor, " ".join(words))
