"""`archive.keyed` reads rows by key with a join: each wanted row exactly once, whatever the
keys hold (repeats, keys the table lacks, many keys, integer keys), as the `IN` form read
them before."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlite_utils import Database

from archive.keyed import keyed_rows, keyed_values

TEXTS = {f"h{i:03}": f"text {i}" for i in range(0, 200, 3)}


def _store() -> Database:
    db = Database(sqlite3.connect(":memory:"))
    db.execute("CREATE TABLE versions (hash TEXT PRIMARY KEY, text TEXT, size INTEGER)")
    db.execute("CREATE TABLE ids (id INTEGER PRIMARY KEY, name TEXT)")
    db.conn.executemany(
        "INSERT INTO versions VALUES (?, ?, ?)", [(h, t, len(t)) for h, t in TEXTS.items()]
    )
    db.conn.executemany("INSERT INTO ids VALUES (?, ?)", [(i, f"n{i}") for i in range(50)])
    return db


def _in_form(db: Database, keys: list[str]) -> list[tuple[str, str, int]]:
    """What the reads were before: `IN (SELECT value FROM json_each(?))`."""
    return db.execute(
        "SELECT hash, text, size FROM versions WHERE hash IN (SELECT value FROM json_each(?))",
        [json.dumps(keys)],
    ).fetchall()


@given(st.lists(st.sampled_from([f"h{i:03}" for i in range(200)]), max_size=300))
def test_each_row_is_read_once_as_the_in_form_read_it(keys: list[str]) -> None:
    db = _store()
    rows = keyed_rows(db, "versions", "hash", ["text", "size"], keys)
    assert sorted(rows) == sorted(_in_form(db, keys))
    assert len(rows) == len({key for key in keys if key in TEXTS})


def test_values_by_key_and_integer_keys() -> None:
    db = _store()
    assert keyed_values(db, "versions", "hash", "text", ["h003", "h004", "h003"]) == {
        "h003": "text 3"
    }
    assert keyed_values(db, "ids", "id", "name", [7, 7, 49, 50]) == {7: "n7", 49: "n49"}
    assert sorted(keyed_rows(db, "ids", "id", [], range(3))) == [(0,), (1,), (2,)]
    assert keyed_values(db, "ids", "id", "name", []) == {}


def test_a_name_that_is_not_the_codes_own_is_refused() -> None:
    db = _store()
    with pytest.raises(ValueError, match="not a table or column name"):
        keyed_rows(db, "versions; DROP TABLE ids", "hash", ["text"], ["h003"])
    assert db.execute("SELECT count(*) FROM ids").fetchone() == (50,)
