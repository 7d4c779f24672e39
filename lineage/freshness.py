"""Is the store up to date for the readers? One line saying what is missing, or nothing.

Readers (the CLI's read commands, the site, the bench) never compute what the pipeline
stores; on a store that is behind they stop with a `StaleStore` error naming the command that
brings it up to date.
"""

from __future__ import annotations

from sqlite_utils import Database

from archive.capture_diffs import differences_stale
from archive.errors import RulesHistoryError
from archive.store import migrations
from archive.stored_texts import normalised_stale
from lineage.answers import first_stale
from lineage.store import stale_release

UPDATE = "run `rules-history ingest` to update it"
# Tables every reader relies on; a store without one was made by an older version.
REQUIRED_TABLES = (
    "releases",
    "parts",
    "lineages",
    "lineage_members",
    "lineage_events",
    "lineage_alignments",
    "wordings",
    "blame",
    "release_counts",
    "release_changes",
    "derived_state",
    "word_diffs",
    "change_kinds",
    "number_runs",
    "headings",
    "example_records",
    "example_state",
)


class StaleStore(RulesHistoryError):
    """The store lacks something the pipeline writes."""


def store_problem(db: Database) -> str | None:
    """What makes the store out of date for a reader, in one line (None: it is current)."""
    names = set(db.table_names())
    missing = [table for table in REQUIRED_TABLES if table not in names]
    if missing:
        return f"the store is from an older version (no table {missing[0]}): {UPDATE}"
    waiting = migrations.pending(db)  # a column or an index added since
    if waiting:
        return f"the store is from an older version (before {waiting[0].name}): {UPDATE}"
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
