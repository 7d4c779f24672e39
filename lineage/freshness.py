"""Is the store up to date for the readers? One line saying what is missing, or nothing.

Readers (the CLI's read commands, the site, the bench) never compute what the pipeline
stores; on a store that is behind they stop with a `StaleStore` error naming the command that
brings it up to date.
"""

from __future__ import annotations

from functools import cache

from sqlite_utils import Database

from archive.capture_diffs import differences_stale
from archive.errors import RulesHistoryError
from archive.store import migrations
from archive.stored_texts import normalised_stale
from lineage.answers import first_stale
from lineage.store import stale_release

UPDATE = "run `rules-history ingest` to update it"


@cache
def schema_tables() -> tuple[str, ...]:
    """Every table of a store made by this version (its migrations run on an empty one):
    readers rely on each; a store without one was made by an older version, or damaged."""
    fresh = Database(memory=True)
    migrations.apply(fresh)
    return tuple(name for name in fresh.table_names() if not name.startswith("_"))


class StaleStore(RulesHistoryError):
    """The store lacks something the pipeline writes."""


def store_problem(db: Database) -> str | None:
    """What makes the store out of date for a reader, in one line (None: it is current)."""
    names = set(db.table_names())
    if not names:
        return "the store is empty: run `rules-history ingest` to build it"
    missing = [table for table in schema_tables() if table not in names]
    if migrations.pending(db):  # a table, a column or an index added since
        lacks = f"no table {missing[0]}" if missing else "its tables lack a later column"
        return f"the store is from an older version ({lacks}): {UPDATE}"
    if missing:  # its version has the table: something removed it
        return (
            f"the store is damaged (no table {missing[0]}, which its version has): remove it"
            " and run `rules-history ingest` to build it again"
        )
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
