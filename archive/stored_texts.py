"""How a text is kept in the store: its key, and its comparison form as `normalise` makes it.

A clause's words are stored once (`clause_versions`, keyed by `text_hash`), with their
comparison form (`normalised`), written when the words are first seen: a later ingest never
reads them again. So when `normalise` changes what it gives (`NORMALISE_VERSION`), the forms
an older one made stay behind. The store records which version made its forms
(`normaliser_state`); the ingest makes them again, once, before it stores anything new
(`renormalise`), and readers refuse a store whose forms are older (`normalised_stale`).
"""

from __future__ import annotations

import hashlib

from sqlite_utils import Database

from archive.normalise import NORMALISE_VERSION, normalise


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def normalised_stale(db: Database) -> bool:
    """True when an older `normalise` made the stored forms."""
    row = db.execute("SELECT version FROM normaliser_state").fetchone()
    return row is None or row[0] != NORMALISE_VERSION


def renormalise(db: Database) -> int:
    """Make every stored form again if an older `normalise` made them; how many changed.
    The words and their keys stay as they are: only the forms and their hashes move."""
    if not normalised_stale(db):
        return 0
    changed = [
        (form, text_hash(form), key)
        for key, text, stored in db.execute("SELECT hash, text, normalised FROM clause_versions")
        if (form := normalise(text)) != stored
    ]
    with db.atomic():
        db.conn.executemany(
            "UPDATE clause_versions SET normalised = ?, normalised_hash = ? WHERE hash = ?",
            changed,
        )
        db.execute("DELETE FROM normaliser_state")
        db.execute("INSERT INTO normaliser_state (version) VALUES (?)", [NORMALISE_VERSION])
    return len(changed)
