"""One writer at a time per store: an advisory lock on a file beside it.

`ingest` and `build` write the store (captures, lineages); two of them at once raced on the
migrations (`table sources already exists`) and on the captures (`UNIQUE constraint
failed`). Each writer now holds `rules.db.lock` (flock, released by the kernel when the
process dies, so a killed ingest never leaves a stale lock); a second writer gets one line
naming the store and the process that holds it. Readers need no lock: SQLite in WAL mode gives
each reader a consistent snapshot.

The lock is reentrant within a process, so a command that holds it can open the store again.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from sqlite_utils import Database

from archive.errors import RulesHistoryError

LOCK_SUFFIX = ".lock"
POLL_SECONDS = 0.1  # how often a waiting writer tries the lock again

_held: dict[str, tuple[int, int]] = {}  # lock file -> (descriptor, depth)


class StoreBusy(RulesHistoryError):
    """Another process is writing the store."""


def lock_path(db_file: Path) -> Path:
    return db_file.with_name(db_file.name + LOCK_SUFFIX)


@contextmanager
def writer_lock(db_file: Path, wait: float = 0.0) -> Iterator[None]:
    """Hold the store's writer lock; wait up to `wait` seconds for it, then refuse."""
    if str(db_file) == ":memory:":
        yield
        return
    path = lock_path(db_file)
    key = str(path.resolve())
    if key in _held:
        handle, depth = _held[key]
        _held[key] = (handle, depth + 1)
        try:
            yield
        finally:
            _held[key] = (handle, _held[key][1] - 1)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _acquire(handle, db_file, path, wait)
        os.ftruncate(handle, 0)
        os.write(handle, f"{os.getpid()}\n".encode())
        _held[key] = (handle, 1)
        try:
            yield
        finally:
            del _held[key]
            fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        os.close(handle)


def store_writer_lock(db: Database, wait: float = 0.0) -> AbstractContextManager[None]:
    """`writer_lock` for the file an open store lives in (none for an in-memory store)."""
    row = db.execute("PRAGMA database_list").fetchone()
    return writer_lock(Path(row[2]) if row and row[2] else Path(":memory:"), wait)


def _acquire(handle: int, db_file: Path, path: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise StoreBusy(
                    f"{db_file}: {_holder(path)} is writing this store; run this again when it"
                    " has finished"
                ) from None
            time.sleep(POLL_SECONDS)


def _holder(path: Path) -> str:
    """Who holds the lock: the process whose id its file records while that process lives;
    a dead one's id is left from an earlier writer (the file is rewritten only by the next
    rules-history writer), so the holder is then some other process."""
    recorded = path.read_text(errors="replace").strip()
    if recorded.isdigit() and _alive(int(recorded)):
        return f"another rules-history process (pid {recorded})"
    return f"another process (holding {path.name})"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True
