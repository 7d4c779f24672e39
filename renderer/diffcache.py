"""Word diffs remembered across builds, so a rebuild only diffs wordings it has not seen.

Kept in `cache/diffs.sqlite` of the build's state folder (`renderer.state`), keyed by the
sha1 of both texts.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from archive.worddiff import word_diff

Ops = list[tuple[int, str]]


class DiffCache:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "diffs.sqlite"
        self.conn = sqlite3.connect(self.path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS diffs (key TEXT PRIMARY KEY, ops TEXT)")
        self.memory: dict[str, Ops] = {}
        self.new: dict[str, str] = {}

    def diff(self, old: str, new: str) -> Ops:
        key = hashlib.sha1(f"{old}\x00{new}".encode()).hexdigest()
        found = self.memory.get(key)
        if found is not None:
            return found
        row = self.conn.execute("SELECT ops FROM diffs WHERE key = ?", [key]).fetchone()
        if row:
            ops: Ops = [(op, text) for op, text in json.loads(row[0])]
        else:
            ops = word_diff(old, new)
            self.new[key] = json.dumps(ops, ensure_ascii=False)
        self.memory[key] = ops
        return ops

    def reopen(self) -> None:
        """A new connection (in a forked worker)."""
        self.conn = sqlite3.connect(self.path)

    def drain(self) -> dict[str, str]:
        """The diffs computed since the last drain (a worker hands them to the parent)."""
        found, self.new = self.new, {}
        return found

    def close(self) -> None:
        with self.conn:
            self.conn.executemany("INSERT OR REPLACE INTO diffs VALUES (?, ?)", self.new.items())
        self.conn.close()
