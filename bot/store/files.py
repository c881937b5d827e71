"""The database's files on disk: owner-only, and still the same file while the bot runs.

A running game's dice seed sits in the database until the game ends, so anyone who can read the
file (or its ``-wal``) can predict every future roll. The folder is made 0700 and the files
0600; SQLite gives the ``-wal`` and ``-shm`` files the mode of the database file, so creating
that file 0600 ourselves (before SQLite does, with the process umask) covers all three. Files
left looser by an older version are tightened, with one warning.

``FileIdentity`` remembers which file was opened (device and inode), so a database deleted or
replaced under the running bot is noticed before another write is acknowledged: SQLite would
go on writing to the unlinked inode, and everything would be gone at the next start.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("bot.store")

FILE_MODE = 0o600
FOLDER_MODE = 0o700
SIDE_FILES = ("-wal", "-shm", "-journal")
_LOOSE = stat.S_IRWXG | stat.S_IRWXO


def prepare(path: Path) -> None:
    """Make the folder (0700) and the database file (0600) if missing, and tighten what an
    earlier run left readable by others. Raises OSError when the folder cannot be made."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=FOLDER_MODE, parents=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    os.close(fd)
    tightened = [f"{p} {old:04o} -> {new:04o}" for p, old, new in _tighten(path)]
    if tightened:
        log.warning(
            "the database was readable by other users; now owner-only: %s", ", ".join(tightened)
        )


def _tighten(path: Path) -> list[tuple[Path, int, int]]:
    """chmod the database, its side files and its folder to owner-only where they are looser;
    (path, old mode, new mode) for each one changed. A shared folder (sticky, like /tmp, or
    another user's) is left alone: the files themselves are what hold the secrets."""
    changed = []
    for candidate in [path, *(Path(f"{path}{end}") for end in SIDE_FILES)]:
        changed += _chmod_if_loose(candidate, FILE_MODE)
    folder = path.parent
    info = folder.stat()
    if not info.st_mode & stat.S_ISVTX and info.st_uid == os.getuid():
        changed += _chmod_if_loose(folder, FOLDER_MODE)
    return changed


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
