"""The console table: the real referee and store at a terminal, for trying the bot in a minute.

Each line is ``name: command`` (``alice: challenge bob atmalof``, ``bob: accept``,
``alice: drop row 4``); a bare command is played by the last named player. A name is the same
player in every run on the same database (``bot.referee.names``). ``referee:`` speaks for the
table's moderator (``referee: resume``, ``referee: void <reason>``). Boards are shown as text;
each board image and record is written to a folder of this run's own, whose path is printed.
When the input is not a terminal (a script piped in), each line is echoed before its answer, so
the output reads as a transcript. ``quit`` or the end of input (Ctrl-D, or no stdin at all in
CI) leaves cleanly; no line typed can end the table otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from pathlib import Path
from typing import TextIO

import engine
import translations
from bot import event_loop
from bot.clock import Clock
from bot.config import Config, shown_database
from bot.console.folder import LOG_NAME, LogWatch, run_folder, tidy
from bot.console.format import bot_answers, reply_lines
from bot.console.hints import answer_hint
from bot.console.lines import lines_of, silence
from bot.console.typed import MODERATOR_WORDS, help_about, is_command_word, is_player_word
from bot.errors import Refusal
from bot.game_names import game_named
from bot.i18n import msg, say
from bot.referee import Referee
from bot.referee.grammar import rules_here
from bot.referee.names import MODERATOR, console_actor, name_key, name_problem
from bot.referee.replies import Actor, Reply, Where
from bot.referee.wrapper import refused
from bot.store import SchemaTooNew, StoreUnavailable, open_store

log = logging.getLogger(__name__)

TABLE = Where(guild_id=None, channel_id=1)
BANNER = translations.words("en").t("console.banner")  # the English table's
UNEXPECTED = say(msg("console.unexpected"))  # its English; said in the table's language
MODERATOR_HINT = msg("console.moderator_hint")
UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
IDLE_SWEEP = 2.0  # seconds without a typed line between two sweeps (Discord's: every 5)
CANNOT_OPEN = 3  # the exit status when the database cannot be opened (as python -m bot's)


class ConsoleTable:
    """Named players at one table; a player is known from the first time their name is used."""

    def __init__(
        self, referee: Referee, out: TextIO, image_dir: Path | None, lang: str = "en"
    ) -> None:
        self.referee = referee
        self.lang = lang  # every reply, help and rules are said in it
        self.out = out
        self.image_dir = image_dir
        self.people: dict[str, Actor] = {}
        self.current: Actor | None = None
        self.store_down = False  # told once that the sweeps cannot reach the store, until one can

    async def close(self) -> None:
        await self.referee.close()
        await self.referee.store.close()

    async def catch_up(self, lead: str = "") -> int:
        """What the sweeper owes while nobody types (a flag that fell), each notice shown as
        the sweep decides it, ``lead`` written before the first (a newline after a waiting
        prompt); ``greet`` sweeps at the start. How many things it said (a store that cannot
        be read says so: one more)."""
        shown = 0
        try:
            async for notice in self.referee.sweep():
                if not shown and lead:
                    self.out.write(lead)
                self.show(notice.reply)
                shown += 1
        except StoreUnavailable:  # logged by the store; said once, not every 2 s while idle
            if self.store_down:
                return shown
            self.out.write("" if shown else lead)
            self._say_store_down()
            return shown + 1
        self.store_down = False
        return shown

    def _say_store_down(self) -> None:
        """Said once, until a sweep reaches the store again (not as a move not saved)."""
        self.store_down = True
        self.say(say(msg("console.store_down"), self.lang))

    async def greet(self, folder: Path | None = None, database: str | None = None) -> None:
        """The banner, where this run's files go and which database holds the games, then a
        game an earlier run left unfinished at this table (its board: the players and whose
        turn), or its challenge still waiting for an answer: a player who finds the table busy
        knows why. The start's sweep runs under that line, each notice shown as it comes
        (clocks given back after the restart, the bot's move): when one speaks of that game,
        its board is the one shown, not the stale one before it."""
        w = translations.words(self.lang)
        self.say(w.t("console.banner"))
        if folder is not None:
            self.say(w.t("console.folder", path=folder))
        if database is not None:  # a mistyped REFEREE_DB is a new, empty database: say which
            self.say(w.t("console.database", path=database))
        told: set[int | None] = set()
        try:
            left = await self.referee.ongoing(TABLE)
            if left is not None and left.game_id is not None:
                self.say(say(msg("console.unfinished"), self.lang))
            async for notice in self.referee.sweep():  # a practice game's bot moves now
                self.show(notice.reply)
                told.add(notice.reply.game_id)
            left = await self.referee.ongoing(TABLE)
        except StoreUnavailable:  # logged by the store; the next sweep tries again
            self._say_store_down()
            return
        if left is None:
            return
        if left.game_id is None:  # no game: a challenge waits for its answer
            self.say(say(msg("console.unanswered"), self.lang))
            self.show(left)
        elif left.game_id not in told:  # nothing the sweep said showed its board
            self.show(left)

    def actor(self, name: str) -> Actor:
        """The person called ``name`` (a valid name); players are kept for `challenge <name>`."""
        key = name_key(name)
        if key not in self.people:
            person = console_actor(name)
            if person.is_moderator:
                return person
            self.people[key] = person
        return self.people[key]

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def show(self, reply: Reply) -> None:
        # a move that hands the turn to the bot: its answer follows at once, with the board
        board = not bot_answers(reply)
        for line in reply_lines(reply, self.lang, board=board):  # bot.console.format
            self.say(line)
        if reply.buttons:
            self.say(self.answers(reply))
        if reply.image is not None and self.image_dir is not None:
            path = self.save(reply.image_name, reply.image)
            self.say(say(msg("console.image", path=str(path)), self.lang))
        if reply.file is not None and self.image_dir is not None:
            path = self.save(reply.file_name or "record.json", reply.file)
            self.say(say(msg("console.file", path=str(path)), self.lang))

    def save(self, name: str, data: bytes) -> Path:
        """Write ``data`` in this run's folder under ``name`` (made safe), never over another
        file: the same name with other bytes gets a number (``import-7-2.png``)."""
        assert self.image_dir is not None
        self.image_dir.mkdir(parents=True, exist_ok=True)
        safe = Path(UNSAFE_IN_FILE_NAME.sub("_", Path(name).name).lstrip(".") or "file")
        path, n = self.image_dir / safe, 1
        while path.exists() and path.read_bytes() != data:
            n += 1
            path = self.image_dir / f"{safe.stem}-{n}{safe.suffix}"
        path.write_bytes(data)
        return path

    def answers(self, reply: Reply) -> str:
        """The reply's buttons as lines to type (``bot.console.hints``)."""
        return answer_hint(reply, self.people, self.current, self.lang)

    @staticmethod
    def named_in(words: list[str]) -> list[str]:
        """The players a command names who may not have spoken in this run yet: the opponent
        of ``challenge``, the winner of ``award``, the players of ``stats`` (its other word is
        a game)."""
        head = words[0].lower() if words else ""
        if head == "challenge" or (head == "award" and words[1:2] not in (["draw"], ["nobody"])):
            named = words[1:2]
        elif head == "stats":
            named = [w for w in words[1:] if not _is_game(w)]
        else:
            return []
        return [w for w in named if name_problem(w) is None and name_key(w) != MODERATOR]

    async def line(self, text: str) -> bool:
        """Handle one input line; False when the table should close. Nothing typed raises:
        an unexpected error is logged and the table goes on."""
        try:
            return await self._line(text)
        except BrokenPipeError:  # nobody reads the answers any more: leave (run_console)
            raise
        except Exception:
            log.exception("console line failed: %r", text[:300])
            self.say(say(msg("console.unexpected"), self.lang))
            return True

    async def _line(self, text: str) -> bool:
        text = text.strip()
        if not text or text.startswith("#"):
            return True
        speaker, said, rest = text.partition(":")
        speaker = speaker.strip()
        parts = speaker.split()
        if (
            said
            and 1 < len(parts) <= 3
            and all(name_problem(p) is None for p in parts)
            and not is_command_word(parts[0])
        ):
            # "Alice Smith: drop row 3": a name of two words, not a command called "Alice"
            joined = f"{'_'.join(parts)}: {rest.strip()}"
            self.show(refused(Refusal("console_name_spaces", {"typed": joined})))
            return True
        if said and not speaker and rest.strip():
            # ": place d7" would speak for whoever spoke last, and nothing would say so
            self.show(refused(Refusal("console_colon", {"typed": f"name: {rest.strip()}"})))
            return True
        if said and speaker and not any(c.isspace() for c in speaker):  # "name: command"
            problem = name_problem(speaker)
            if problem is not None:
                self.show(refused(problem))
                return True
            self.current = self.actor(speaker)
            text = rest.strip()
        if text.lower() in ("quit", "exit"):
            return False
        words = text.split()
        if words and words[0].lower() in ("help", "?"):  # nobody needs a name to ask for help
            helped = translations.words(self.lang).t("help.console")
            about = help_about(helped, words[1:])
            if not about:  # "help nonsense": said, then the whole help
                topic = " ".join(words[1:])[:40]
                about = f"{say(msg('console.help_no_topic', topic=topic), self.lang)}\n{helped}"
            self.show(Reply(text=about, ephemeral=True))
            return True
        if words and words[0].lower() == "rules":  # nor for the rules
            try:
                self.show(await rules_here(self.referee, TABLE, words[1:], self.lang))
            except Refusal as exc:
                self.show(refused(exc))
            return True
        if not said and len(words) > 1 and name_key(words[0]) in self.people:
            # "alice place d7": the colon forgotten, not a command called "alice"
            typed = f"{words[0]}: {' '.join(words[1:])}"
            self.show(refused(Refusal("console_colon", {"typed": typed})))
            return True
        if self.current is None:
            self.say(say(msg("console.who_speaks"), self.lang))
            return True
        if self.current.is_moderator and words and is_player_word(words[0]):
            # the table's moderator settles disputes, so it sits at no game of its own
            self.show(refused(Refusal("console_moderator_plays", {"command": words[0].lower()})))
            return True
        for named in self.named_in(words):
            self.actor(named)  # "challenge bob ...", "stats bob": bob is at the table now
        if self.current.is_moderator and words and words[0].lower() in MODERATOR_WORDS:
            text = f"referee {text}"
        reply = await self.referee.handle(TABLE, self.current, text, people=self.people)
        async for shown in self.referee.sequence(TABLE, reply):  # an announcement: then the roll
            if shown.reason == "roll_later":  # the store logged it; the next line rolls it
                self.say(shown.text)
                return True
            self.show(shown)
            if shown is reply and reply.ok and words and words[0].lower() == "dispute":
                self.say(say(MODERATOR_HINT, self.lang))
        await self.catch_up()
        return True


def _is_game(word: str) -> bool:
    try:
        return bool(game_named(word))
    except engine.EngineError:
        return False


async def open_table(
    db_path: str,
    out: TextIO,
    image_dir: Path | None,
    *,
    render: bool = True,
    lang: str = "en",
    practice_nodes: int | None = None,
    clock: Clock | None = None,
) -> ConsoleTable:
    """A table over the store at ``db_path``; close it with ``close``. ``practice_nodes``:
    the practice opponent's node budget (None: its level's; tests lower it); ``clock``: the
    time (None: the system's; tests move a manual one)."""
    store = await open_store(db_path)
    referee = Referee(store, clock, render=render, language=lang, practice_nodes=practice_nodes)
    return ConsoleTable(referee, out, image_dir, lang)


async def play(
    db_path: str,
    lines: TextIO,
    out: TextIO,
    image_dir: Path | None,
    *,
    render: bool = True,
    echo: bool = False,
    lang: str = "en",
    practice_nodes: int | None = None,
) -> int:
    """Run the table until ``quit`` or end of input, reading lines in a worker thread."""
    table = await open_table(
        db_path, out, image_dir, render=render, lang=lang, practice_nodes=practice_nodes
    )
    try:
        await table.greet()
        while True:
            text = await asyncio.to_thread(lines.readline)
            if text and echo:
                print(f"> {text.rstrip()}", file=out)
            if not text or not await table.line(text):  # end of input, or quit
                break
            out.flush()
    finally:
        await table.close()
    print("bye", file=out)
    return 0


def run_console(
    config: Config,
    lines: TextIO | None = None,
    out: TextIO | None = None,
    *,
    clock: Clock | None = None,
) -> int:
    """``python -m bot console``: the table on stdin/stdout, images in a folder of its own.

    Lines are read on the main thread, between commands, so Ctrl-C leaves at once (a worker
    thread stuck in ``readline`` would keep the process waiting for one more line); while none
    comes the table sweeps every ``IDLE_SWEEP`` seconds (``bot.console.lines``). Bytes that are
    not UTF-8 are read as replacement characters, and the log goes to a file in the folder
    (kept or removed at the end: ``bot.console.folder``). A database that cannot be opened is
    the store's line on stderr and exit 3.
    """
    stream = lines if lines is not None else sys.stdin
    if stream is None or stream.closed:
        return 0
    reconfigure = getattr(stream, "reconfigure", None)
    if callable(reconfigure):
        reconfigure(errors="replace")
    out = out or sys.stdout
    image_dir = run_folder()
    watch = LogWatch(image_dir / LOG_NAME)  # the run's log file, and what it saw
    interactive = stream.isatty()
    opened = False
    try:
        with event_loop.runner(config.event_loop) as runner:
            opening = open_table(config.db_path, out, image_dir, lang=config.language, clock=clock)
            try:
                table = runner.run(opening)
            except (StoreUnavailable, SchemaTooNew) as exc:  # the store logged one line why
                print(watch.critical or f"cannot open the database: {exc}", file=sys.stderr)
                return CANNOT_OPEN
            opened = True
            reader = lines_of(stream)
            try:
                runner.run(table.greet(image_dir, shown_database(config.db_path)))
                out.flush()
                while True:
                    if interactive:
                        print("> ", end="", file=out, flush=True)
                    text = reader.get(IDLE_SWEEP)
                    while text is None:  # nobody typed: what the sweeper says (a fallen flag)
                        shown = runner.run(table.catch_up("\n" if interactive else ""))
                        if shown and interactive:
                            print("> ", end="", file=out)  # the prompt again, under the news
                        out.flush()
                        text = reader.get(IDLE_SWEEP)
                    if text and not interactive:  # a piped script: show what is answered
                        print(f"> {text.rstrip()}", file=out)
                    if not text or not runner.run(table.line(text)):
                        break
                    out.flush()
            except KeyboardInterrupt:  # Ctrl-C: leave like quit, without a traceback
                print(file=out)
            except BrokenPipeError:  # the reader went away (`... | head`): leave quietly
                silence(out)
                return 0
            finally:
                runner.run(table.close())
    finally:
        watch.stop()
        tidy(image_dir, keep_log=opened and watch.worst >= logging.WARNING)
    print("bye", file=out)
    return 0
