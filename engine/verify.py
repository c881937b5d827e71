"""Check game records offline: ``referee-verify record.json [more.json ...]``.

``referee-verify`` is the console script pyproject installs (it works from any directory);
``python -m engine.verify`` is the same from the repository.

Prints one verdict line per file, then the details indented. Exit status: 0 when every record
is valid, 1 when one is well-formed but wrong (an illegal action, a roll that the seed does not
give, a broken chain, a result the replay does not reach), 2 when one cannot be read at all.
``--head HASH`` also requires the (single) record's log to end on a hash published elsewhere.
This is the only module of engine/ that touches files, and only inside ``main``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from engine.core import EngineError
from engine.record import Record, RecordError, Verification, verify

OK, BAD, UNREADABLE = 0, 1, 2
PROGRAM = "referee-verify"
MAX_FILE_BYTES = 1 << 30  # a guard against the wrong file; a record has no size limit


def report(verdict: Verification) -> list[str]:
    """The lines printed for one checked record: the verdict, then the details indented."""
    return [str(verdict), *(f"  {line}" for line in verdict.details)]


def check_text(text: str | bytes, head: str | None = None) -> tuple[int, list[str]]:
    """Exit status and report body for a record's text (pure: no files)."""
    try:
        record = Record.from_json(text)
    except RecordError as exc:
        return UNREADABLE, [f"UNREADABLE: {exc}"]
    try:
        verdict = verify(record, head=head)
    except EngineError as exc:  # a game module refusing something verify did not foresee
        return BAD, [f"BAD: {exc}"]
    return (OK if verdict.ok else BAD), report(verdict)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Replay game records and check their dice, moves, hash chain and result.",
    )
    parser.add_argument("records", nargs="+", metavar="record.json")
    parser.add_argument("--head", help="the chain hash the log must end on (10+ hex digits)")
    args = parser.parse_args(argv)
    if args.head and len(args.records) != 1:
        parser.error("--head checks a single record")
    worst = OK
    for path in args.records:
        try:
            with open(path, "rb") as handle:
                text = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            status, lines = UNREADABLE, [f"UNREADABLE: {exc.strerror or exc}"]
        else:
            if len(text) > MAX_FILE_BYTES:
                status, lines = UNREADABLE, [f"UNREADABLE: larger than {MAX_FILE_BYTES:,} bytes"]
            else:
                status, lines = check_text(text, head=args.head)
        worst = max(worst, status)
        try:
            print(f"{path}: {lines[0]}")
            for line in lines[1:]:
                print(line)
            sys.stdout.flush()
        except BrokenPipeError:
            return _reader_left(worst)
    return worst


def _reader_left(status: int) -> int:
    """The reader of our output went away (``| head``): stop quietly, as Unix tools do. Python
    would print a traceback when it flushes stdout at exit, so stdout points at devnull now."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return status


def run() -> None:
    """The ``referee-verify`` console script."""
    sys.exit(main())


if __name__ == "__main__":
    run()
