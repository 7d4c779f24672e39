"""Word diffs read from the store: the pipeline (`lineage.answers`) diffs, once, every two
wordings of a clause that some pair of releases can set against each other, and keeps each
diff's shape (`archive.worddiff.diff_shape`) under the key of its two texts.

A diff of any two releases then reads its word diffs instead of computing them; a pair the
store lacks (a store written before a text changed its make-up) is diffed here, with the
same result.
"""

from __future__ import annotations

from sqlite_utils import Database

from archive.keyed import keyed_values
from archive.worddiff import Diff, diff_of_shape, one_operation, pair_key, word_diffs


def member_text(text: str, examples: list[str]) -> str:
    """What a clause's word diff covers: its words, then its examples, one a line."""
    return "\n".join([text, *examples]) if examples else text


def stored_word_diff(db: Database, a: str, b: str) -> Diff | None:
    """The stored word diff of `a` into `b`, or None when the store lacks it."""
    row = db.execute("SELECT shape FROM word_diffs WHERE key = ?", [pair_key(a, b)]).fetchone()
    return diff_of_shape(row[0], a, b) if row else None


def stored_word_diffs(db: Database, pairs: list[tuple[str, str]]) -> list[Diff]:
    """`archive.worddiff.word_diffs` of `pairs`, read from the store where it has them."""
    results = [one_operation(a, b) for a, b in pairs]  # added, removed: no diffing
    keys = {i: pair_key(*pairs[i]) for i, diff in enumerate(results) if diff is None}
    shapes: dict[str, str] = keyed_values(db, "word_diffs", "key", "shape", keys.values())
    for i, key in keys.items():
        shape = shapes.get(key)
        if shape is not None:
            results[i] = diff_of_shape(shape, *pairs[i])
    todo = [i for i, diff in enumerate(results) if diff is None]
    for i, diff in zip(todo, word_diffs([pairs[i] for i in todo]), strict=True):
        results[i] = diff
    return [diff for diff in results if diff is not None]
