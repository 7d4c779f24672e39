"""A store keeps each text's comparison form as the `normalise` of its day made it; when
`normalise` changes, the ingest makes the stored forms again, once, and until then a reader
says the store is behind (archive.stored_texts)."""

from __future__ import annotations

from pathlib import Path

from archive.ingest import ingest_captures
from archive.normalise import NORMALISE_VERSION, normalise
from archive.store import open_store
from archive.stored_texts import normalised_stale, text_hash
from lineage.freshness import store_problem

# A text the first `normalise` left as "a-- b" (one dash at a time), where today's gives "a-b".
WORDS = "A rule - - with a run of dashes."
OLD_FORM = "A rule-- with a run of dashes."


def test_the_ingest_makes_forms_an_older_normalise_made_again(
    tmp_path: Path, tiny_captures: Path
) -> None:
    db = open_store(tmp_path / "rules.db")
    ingest_captures(db, tiny_captures)
    assert not normalised_stale(db)
    # The store as the first normaliser left it: its version, and one form it made.
    key = text_hash(WORDS)
    db.execute(
        """INSERT INTO clause_versions (hash, text, normalised, normalised_hash, first_release)
           VALUES (?, ?, ?, ?, ?)""",
        [key, WORDS, OLD_FORM, text_hash(OLD_FORM), "1999-04-23"],
    )
    db.execute("UPDATE normaliser_state SET version = 1")
    db.conn.commit()
    assert normalise(WORDS) != OLD_FORM
    problem = store_problem(db)
    assert problem is not None and "comparison forms" in problem and "ingest" in problem

    report = ingest_captures(db, tiny_captures)

    assert report.renormalised == 1  # that one; every other text's form is unchanged
    form, form_key = db.execute(
        "SELECT normalised, normalised_hash FROM clause_versions WHERE hash = ?", [key]
    ).fetchone()
    assert (form, form_key) == (normalise(WORDS), text_hash(normalise(WORDS)))
    assert db.execute("SELECT version FROM normaliser_state").fetchall() == [(NORMALISE_VERSION,)]
    assert ingest_captures(db, tiny_captures).renormalised == 0  # once
