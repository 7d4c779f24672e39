"""Is the store up to date for the readers? One line saying what is missing, or nothing.

Readers (the CLI's read commands, the site, the bench) never compute what the pipeline
stores; on a store that is behind they stop with a `StaleStore` error naming the command that
brings it up to date.
"""

from __future__ import annotations

from sqlite_utils import Database

from archive.capture_diffs import differences_stale
from archive.errors import RulesHistoryError
from archive.store import lacks_table, migrations, missing_tables
from archive.stored_texts import normalised_stale
from lineage.answers import first_stale
from lineage.store import stale_release

UPDATE = "run `rules-history ingest` to update it"


class StaleStore(RulesHistoryError):
    """The store lacks something the pipeline writes."""


def store_problem(db: Database) -> str | None:
    """What makes the store out of date for a reader, in one line (None: it is current)."""
    if not db.table_names():
        return "the store is empty: run `rules-history ingest` to build it"
    missing = missing_tables(db)
    if migrations.pending(db):  # a table, a column or an index added since
        lacks = f"no table {missing[0]}" if missing else "its tables lack a later column"
        return f"the store is from an older version ({lacks}): {UPDATE}"
    if missing:  # its version has the table: something removed it
        return lacks_table(missing[0])
    if not db.execute("SELECT count(*) FROM releases").fetchone()[0]:
        return "the store holds no release yet: run `rules-history ingest`"
    if normalised_stale(db):
        return f"the texts' comparison forms were made by an older version: {UPDATE}"
    if not db.execute("SELECT count(*) FROM lineage_alignments").fetchone()[0]:
        return f"the store has no lineages yet: {UPDATE}"
    behind = stale_release(db)
    if behind is not None:
        return f"the lineages are out of date from the {behind} release on: {UPDATE}"
    stale = first_stale(db)
    if stale is not None:
        answers = "the stored answers (spans, blame, counts, changes)"
        return f"{answers} are out of date from the {stale} release on: {UPDATE}"
    if differences_stale(db):
        return f"the differences between a release's captures were counted the old way: {UPDATE}"
    return None


def require_current(db: Database) -> None:
    """Raise StaleStore (one line) unless the lineages and derived answers are up to date
    (the examples, a layer above, check theirs: facedown.store.require_examples)."""
    problem = store_problem(db)
    if problem is not None:
        raise StaleStore(problem)
