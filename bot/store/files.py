"""The database's files on disk: what is at the path, owner-only files, and still the same file
while the bot runs.

Nothing at the path is changed until it is known to be this bot's database (``inspect``, which
only reads): a text file, a folder or another application's SQLite file named by a mistyped
REFEREE_DB is refused as it is, its modes and its folder untouched. Only the bot itself
(``python -m bot``, the console) makes a new file, and only where nothing is; the operator's
commands open an existing database of this bot or nothing.

A running game's dice seed sits in the database until the game ends, so anyone who can read the
file (or its ``-wal``) can predict every future roll. The files are made 0600, and a folder the
bot makes 0700; SQLite gives the ``-wal`` and ``-shm`` files the mode of the database file, so
creating that file 0600 ourselves (before SQLite does, with the process umask) covers all three.
A database file left looser by an older version is tightened, with one warning. A folder that
was already there is the operator's: it may be shared (``/tmp``, a mount other processes use),
and the files in it are owner-only either way, so it is never changed.

``FileIdentity`` remembers which file was opened (device and inode), so a database deleted or
replaced under the running bot is noticed before another write is acknowledged: SQLite would
go on writing to the unlinked inode, and everything would be gone at the next start.
"""

from __future__ import annotations

import enum
import logging
import os
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("bot.store")

FILE_MODE = 0o600
FOLDER_MODE = 0o700
SIDE_FILES = ("-wal", "-shm", "-journal")
_LOOSE = stat.S_IRWXG | stat.S_IRWXO
SQLITE_HEADER = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"players", "games"})  # the first migration's; every later one keeps them
SHOWN_TABLES = 5  # a foreign file's tables named in the refusal
READ_TIMEOUT_S = 30.0  # reading waits this long for a process switching a fresh file to WAL


class Access(enum.Enum):
    """What an opener may do with the path."""

    CREATE = "create"  # the bot itself: make a new database where nothing is, migrate an old one
    EXISTING = "existing"  # an operator's command that writes: an existing database, migrated
    READ = "read"  # a command that only reads: an existing database at this bot's schema, as is


class Kind(enum.Enum):
    MISSING = "missing"  # nothing at the path
    NEW = "new"  # an empty file the bot made, or a SQLite file with nothing in it yet
    OURS = "ours"  # a database of this bot (any schema version, newer ones too)
    FOREIGN = "foreign"  # anything else: a folder, a text file, another application's database


@dataclass(frozen=True, slots=True)
class Found:
    """What ``inspect`` found at a path; ``why``: a clause saying why it is not (yet) ours."""

    kind: Kind
    version: int = 0
    why: str = ""


def inspect(path: Path) -> Found:
    """What is at ``path``, read without changing anything (no file, folder or mode made or
    changed; a SQLite file is read on a read-only connection). Raises OSError when the path
    cannot be read, sqlite3.Error when SQLite cannot read the file (a damaged one)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return Found(Kind.MISSING, why="there is no file there")
    if stat.S_ISDIR(info.st_mode):
        return Found(Kind.FOREIGN, why="it is a folder, not a database file")
    if not stat.S_ISREG(info.st_mode):
        return Found(Kind.FOREIGN, why="it is not a regular file")
    if info.st_size == 0:
        # The bot makes a new database as an empty 0600 file first (``make_new``): another
        # process starting at the same moment may find it so. Any other empty file is not ours.
        mine = info.st_uid == os.getuid() and not stat.S_IMODE(info.st_mode) & _LOOSE
        return Found(Kind.NEW if mine else Kind.FOREIGN, why="it is an empty file")
    with open(path, "rb") as f:
        header = f.read(100)
    if not header.startswith(SQLITE_HEADER):
        return Found(
            Kind.FOREIGN,
            why="it is not a database (not a SQLite file, or its header is damaged)",
        )
    version, tables = _contents(path, wal=header[18:19] == b"\x02")
    if not tables and version == 0:
        return Found(Kind.NEW, why="it is an empty SQLite database (no tables, schema version 0)")
    if version >= 1 and tables >= OUR_TABLES:
        return Found(Kind.OURS, version=version)
    names = ", ".join(sorted(tables)[:SHOWN_TABLES])
    names += ", ..." if len(tables) > SHOWN_TABLES else ""
    what = f"tables of another application ({names})" if tables else "no tables"
    return Found(
        Kind.FOREIGN,
        version=version,
        why=f"it is not this bot's database: a SQLite file (schema version {version}) with {what}",
    )


def read_only_uri(path: Path, *, immutable: bool = False) -> str:
    """The ``file:`` URI that opens ``path`` read-only (``sqlite3.connect(..., uri=True)``)."""
    return f"{path.resolve().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")


def _contents(path: Path, *, wal: bool) -> tuple[int, frozenset[str]]:
    """The file's user_version and table names. A WAL file with no ``-wal`` beside it (no
    process has it open) is read as immutable, so not even an empty ``-wal`` or ``-shm`` is
    left beside a file that turns out not to be ours. Immutable reads take no lock: a bot
    starting on the file at that moment can tear them (this bot's tables at schema 0, or an
    error), and such an answer is read again the ordinary way."""
    if wal and not Path(f"{path}-wal").exists():
        try:
            version, tables = _read(path, immutable=True)
        except sqlite3.Error:
            pass
        else:
            if version >= 1 or not tables >= OUR_TABLES:
                return version, tables
    return _read(path, immutable=False)


def _read(path: Path, *, immutable: bool) -> tuple[int, frozenset[str]]:
    db = sqlite3.connect(read_only_uri(path, immutable=immutable), uri=True, timeout=READ_TIMEOUT_S)
    try:
        db.execute("BEGIN")  # both answers from one snapshot
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        rows = db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    finally:
        db.close()
    return version, frozenset(str(r[0]) for r in rows)


def make_new(path: Path) -> None:
    """Make an empty owner-only database file where nothing is (and its folder, 0700, when
    that is missing too). Another process making it at the same moment is fine: it is then
    that process's new file, found as NEW. A symlink to nothing (a volume's path not made yet)
    makes the file where it points: else ``O_EXCL`` refuses the link and SQLite makes the file
    through it with the process umask (0644). Raises OSError when the folder cannot be made."""
    path = Path(os.path.realpath(path))
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    try:
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def tighten(path: Path) -> None:
    """chmod this bot's database file and its side files to owner-only where an earlier
    version left them looser, with one warning. Never a folder: see the module's docstring."""
    changed = []
    for candidate in [path, *(Path(f"{path}{end}") for end in SIDE_FILES)]:
        changed += _chmod_if_loose(candidate, FILE_MODE)
    if changed:
        log.warning(
            "the database files were readable by other users; now owner-only: %s",
            ", ".join(f"{p} {old:04o} -> {new:04o}" for p, old, new in changed),
        )


def _chmod_if_loose(path: Path, wanted: int) -> list[tuple[Path, int, int]]:
    try:
        old = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return []
    if not old & _LOOSE:
        return []
    new = old & ~_LOOSE & (wanted | ~stat.S_IRWXU)
    path.chmod(new)
    return [(path, old, new)]


@dataclass(frozen=True, slots=True)
class FileIdentity:
    """The device and inode of the database file as opened."""

    path: str
    device: int
    inode: int

    @classmethod
    def of(cls, path: str) -> FileIdentity:
        info = os.stat(path)
        return cls(path, info.st_dev, info.st_ino)

    def still_there(self) -> bool:
        """False when the path no longer names the opened file (deleted, moved or replaced)."""
        try:
            info = os.stat(self.path)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) == (self.device, self.inode)
