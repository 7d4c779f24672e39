"""Blame: for each clause of a release, the release its current wording dates from.

Followed back along the clause's lineage, across renumbering: a new number (`renumbered`), a
cross-reference that follows a renumbering (`reference`) or new typography (`formatting`)
leave the wording as it was; any other change (`reworded`, `renumbered+reworded`, `split`,
`merged`, `added`) starts it anew. `text_since` is the stricter date: the last release in
which the clause's text changed at all.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from archive.gaps import gap_ending, gaps_by_day
from archive.lookup import find
from archive.printings import titled_printing
from archive.query import resolve_release
from lineage.derived import is_derived
from lineage.freshness import require_current


def blame(db: Database, release: str, rule_prefix: str | None = None) -> list[dict[str, Any]]:
    """`number`, `since`, `text_since`, `lineage` for each clause of `release`, in order;
    with `rule_prefix`, only the clauses numbered so or under it (a title or a glossary term
    is read as `show` reads it: "morph" is 702.37 in 2024).

    Read from the `blame` table that `lineage.answers` computes (the site reads it too)."""
    require_current(db)
    when = resolve_release(db, release)
    # a number, or a title or term as `show` reads it in that release (archive.lookup)
    named = find(db, when, rule_prefix) if rule_prefix else None
    # a title names one printing of its number, when the release prints it more than once
    # (a number keeps every clause numbered so: it is a prefix), as `diff --rule` reads it
    printing = titled_printing(db, when, named.number, named.part) if named else None
    rows = db.query(
        """SELECT b.number, m.kind, b.lineage_id AS lineage, l.first_release, b.since,
                  b.text_since, p.position
           FROM blame b JOIN lineage_members m ON m.part_id = b.part_id
           JOIN parts p ON p.id = b.part_id JOIN lineages l ON l.id = b.lineage_id
           WHERE b.release = ? ORDER BY p.position""",
        [when],
    )
    found = [
        {"release": when, **row}
        for row in rows
        if named is None
        or (
            named.covers(row["number"])
            and (row["kind"] == "glossary") == (named.term is not None)
            and (printing is None or printing.owns(row["position"]))
        )
    ]
    gaps = gaps_by_day(db)
    for row in found:
        del row["position"]
        # a wording dated from the release after a gap may date from a release it lacks
        row["since_gap"] = gap_ending(gaps, row["since"])
    if is_derived(db, when):  # its words are the copy's (lineage.derived)
        for row in found:
            row["derived"] = True
    return found
