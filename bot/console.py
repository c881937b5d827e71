"""The console table: the real referee and store at a terminal, for trying the bot in a minute.

Each line is ``name: command`` (``alice: challenge bob atmalof``, ``bob: accept``,
``alice: drop row 4``); a bare command is played by the last named player. Boards are shown as
text, and each board image is written as a PNG file whose path is printed. ``quit`` or the end
of input (Ctrl-D, or no stdin at all in CI) leaves cleanly.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from bot import texts
from bot.config import Config
from bot.referee import Referee
from bot.replies import Actor, ButtonKind, Reply, Where
from bot.store import Store, StoreUnavailable

TABLE = Where(guild_id=None, channel_id=1)
NAME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]{0,31})\s*:\s*(.*)$")
BANNER = """\
Console table: one line per command, as `name: command`; players join by using their name.
Start a game of atmalof, morris or abalone:  alice: challenge bob atmalof  then  bob: accept
Then play in turn (`alice: drop row 4`); `help` lists every command, `quit` or Ctrl-D leaves."""
# What a button under a reply does, typed at the table instead.
TYPED = {
    ButtonKind.ACCEPT: "accept",
    ButtonKind.DECLINE: "decline",
    ButtonKind.DRAW_ACCEPT: "draw accept",
    ButtonKind.DRAW_DECLINE: "draw decline",
    ButtonKind.TAKEBACK_ACCEPT: "takeback accept",
    ButtonKind.TAKEBACK_DECLINE: "takeback decline",
    ButtonKind.REMATCH: "rematch",
}


class ConsoleTable:
    """Named players at one table; a player is created the first time their name is used."""

    def __init__(self, referee: Referee, out: TextIO, image_dir: Path | None) -> None:
        self.referee = referee
        self.out = out
        self.image_dir = image_dir
        self.people: dict[str, Actor] = {}
        self.current: Actor | None = None

    async def close(self) -> None:
        await self.referee.store.close()

    def actor(self, name: str) -> Actor:
        key = name.lower()
        if key not in self.people:
            self.people[key] = Actor(id=len(self.people) + 1, name=name)
        return self.people[key]

    def show(self, reply: Reply) -> None:
        mark = "(refused) " if reply.refused else ""  # a fallen flag is news, not a refusal
        private = "[private] " if reply.ephemeral else ""
        print(f"{private}{mark}{reply.text}", file=self.out)
        if reply.chain and f"#{reply.chain[:10]}" not in reply.text:
            print(f"Log #{reply.chain[:10]}", file=self.out)  # the chain head
        if reply.board_text:
            print(reply.board_text, file=self.out)
        if reply.buttons:
            print(self.answers(reply), file=self.out)
        if reply.image is not None and self.image_dir is not None:
            self.image_dir.mkdir(parents=True, exist_ok=True)
            path = self.image_dir / reply.image_name
            path.write_bytes(reply.image)
            print(f"(image: {path})", file=self.out)
        if reply.file is not None and self.image_dir is not None:
            self.image_dir.mkdir(parents=True, exist_ok=True)
            path = self.image_dir / (reply.file_name or "record.json")
            path.write_bytes(reply.file)
            print(f"(file: {path})", file=self.out)

    def answers(self, reply: Reply) -> str:
        """The reply's buttons as lines to type: "(to answer, type `bob: accept` or ...)"."""
        names = {a.id: a.name for a in self.people.values()}
        asked = [names[i] for i in reply.mentions if i in names]
        whom = asked[0] if len(asked) == 1 else "name"
        lines = [b.typed or TYPED.get(b.kind) for b in reply.buttons]
        typed = " or ".join(f"`{whom}: {line}`" for line in lines if line)
        return f"(to answer, type {typed})"

    async def line(self, text: str) -> bool:
        """Handle one input line; False when the table should close."""
        text = text.strip()
        if not text or text.startswith("#"):
            return True
        match = NAME.match(text)
        if match:
            self.current = self.actor(match.group(1))
            text = match.group(2).strip()
        if text.lower() in ("quit", "exit"):
            return False
        if text.lower() in ("help", "?"):  # nobody needs a name to ask for help
            self.show(Reply(text=texts.HELP, ephemeral=True))
            return True
        if self.current is None:
            print("who is speaking? write `name: command`, e.g. `alice: help`", file=self.out)
            return True
        for word in text.split()[1:]:  # "challenge bob ...": make sure bob exists
            if text.lower().startswith("challenge") and NAME.match(word + ":"):
                self.actor(word)
                break
        reply = await self.referee.handle(TABLE, self.current, text, people=self.people)
        self.show(reply)
        try:
            if reply.pending_roll:
                self.show(await self.referee.roll_pending(TABLE))
            for notice in await self.referee.sweep():
                self.show(notice.reply)
        except StoreUnavailable:  # logged by the store; the next line tries again
            print(texts.ROLL_LATER if reply.pending_roll else texts.CANT_SAVE, file=self.out)
        return True


async def open_table(
    db_path: str, out: TextIO, image_dir: Path | None, *, render: bool = True
) -> ConsoleTable:
    """A table over the store at ``db_path``; close it with ``close``."""
    store = await Store.open(db_path)
    return ConsoleTable(Referee(store, render=render), out, image_dir)


async def play(
    db_path: str, lines: TextIO, out: TextIO, image_dir: Path | None, *, render: bool = True
) -> int:
    """Run the table until ``quit`` or end of input, reading lines in a worker thread."""
    table = await open_table(db_path, out, image_dir, render=render)
    try:
        print(BANNER, file=out)
        while True:
            text = await asyncio.to_thread(lines.readline)
            if not text or not await table.line(text):  # end of input, or quit
                break
            out.flush()
    finally:
        await table.close()
    print("bye", file=out)
    return 0


def run_console(config: Config, lines: TextIO | None = None, out: TextIO | None = None) -> int:
    """``python -m bot console``: the table on stdin/stdout, images in a temp folder.

    Lines are read on the main thread, between commands, so Ctrl-C leaves at once (a worker
    thread stuck in ``readline`` would keep the process waiting for one more line).
    """
    stream = lines if lines is not None else sys.stdin
    if stream is None or stream.closed:
        return 0
    out = out or sys.stdout
    image_dir = Path(tempfile.gettempdir()) / "referee-console"
    interactive = stream.isatty()
    with asyncio.Runner() as runner:
        table = runner.run(open_table(config.db_path, out, image_dir))
        try:
            print(BANNER, file=out, flush=True)
            while True:
                if interactive:
                    print("> ", end="", file=out, flush=True)
                text = stream.readline()
                if not text or not runner.run(table.line(text)):
                    break
                out.flush()
        except KeyboardInterrupt:  # Ctrl-C: leave like quit, without a traceback
            print(file=out)
        finally:
            runner.run(table.close())
    print("bye", file=out)
    return 0
