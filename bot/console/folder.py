"""The console run's folder: where its images, records and log go, and whether it is kept.

Each run gets a new owner-only folder (two consoles never write over each other's files); at the
end ``tidy`` removes it unless it holds something worth keeping, so runs do not pile up in /tmp.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import tempfile
from pathlib import Path

LOG_NAME = "console.log"


def run_folder() -> Path:
    """A new folder, owner-only, for this run's images and records: two consoles (or two
    databases) never write over each other's files."""
    return Path(tempfile.mkdtemp(prefix="referee-console-"))


class LogWatch(logging.Handler):
    """Writes the run's log to ``path`` and remembers the worst level logged, and the last
    critical line (the store's one line saying why it cannot open, shown on stderr when the
    table cannot start). Attached to the root logger until ``stop``."""

    def __init__(self, path: Path) -> None:
        super().__init__(logging.DEBUG)
        self.worst = logging.NOTSET
        self.critical: str | None = None
        self.file = logging.FileHandler(path, encoding="utf-8")
        self.file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        root.addHandler(self.file)
        root.addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.worst = max(self.worst, record.levelno)
        if record.levelno >= logging.CRITICAL:
            self.critical = " ".join(record.getMessage().split())

    def stop(self) -> None:
        root = logging.getLogger()
        root.removeHandler(self)
        root.removeHandler(self.file)
        self.file.close()


def tidy(folder: Path, *, keep_log: bool) -> None:
    """Remove a run's folder that holds nothing worth keeping, so runs do not pile up in /tmp.

    Kept: the images and records the table printed the paths of (a player opens them after
    quitting), and a log with a warning or worse (a store fault mid-game: the table only said
    "can't save"), whose path is then printed on stderr. Removed: the log of a quiet run (what
    it says, the table showed), and a failed start's, whose reason was just printed on stderr.
    """
    log_file = folder / LOG_NAME
    kept = [p for p in folder.iterdir() if p != log_file] if folder.is_dir() else []
    if keep_log:
        print(f"this run logged warnings: {log_file}", file=sys.stderr)
    elif not kept:
        log_file.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # something else wrote there meanwhile: leave it
            folder.rmdir()
