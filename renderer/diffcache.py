"""Word diffs remembered across builds, so a rebuild only diffs wordings it has not seen.

Most come from the store, whose pipeline diffed every two texts of a clause once
(`word_diffs`, see `lineage.stored_diffs`); the others (a text the store keeps with its
examples) are kept in `cache/diffs.sqlite` of the build's state folder (`renderer.state`).
Both are keyed by the sha1 of both texts (`archive.worddiff.pair_key`).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from archive.worddiff import pair_key, word_diff
from lineage.stored_diffs import stored_word_diff

Ops = list[tuple[int, str]]


class DiffCache:
    def __init__(self, folder: Path, store: Database) -> None:
        self.store = store
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "diffs.sqlite"
        self.conn = sqlite3.connect(self.path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS diffs (key TEXT PRIMARY KEY, ops TEXT)")
        self.memory: dict[str, Ops] = {}
        self.new: dict[str, str] = {}

    def diff(self, old: str, new: str) -> Ops:
        key = pair_key(old, new)
        found = self.memory.get(key)
        if found is None:
            found = stored_word_diff(self.store, old, new)
        if found is None:
            found = self._kept(key)
        if found is None:
            found = word_diff(old, new)
            self.new[key] = json.dumps(found, ensure_ascii=False)
        self.memory[key] = found
        return found

    def _kept(self, key: str) -> Ops | None:
        row = self.conn.execute("SELECT ops FROM diffs WHERE key = ?", [key]).fetchone()
        return [(op, text) for op, text in json.loads(row[0])] if row else None

    def reopen(self, store: Database) -> None:
        """New connections (in a forked worker)."""
        self.store = store
        self.conn = sqlite3.connect(self.path)

    def drain(self) -> dict[str, str]:
        """The diffs computed since the last drain (a worker hands them to the parent)."""
        found, self.new = self.new, {}
        return found

    def close(self) -> None:
        with self.conn:
            self.conn.executemany("INSERT OR REPLACE INTO diffs VALUES (?, ?)", self.new.items())
        self.conn.close()
