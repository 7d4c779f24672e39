"""Where a derived copy prints a clause outside its official history.

A lineage's official span (`lineages.first_release` to `last_release`) is read from the
official releases alone (lineage.derived): the re-extracted copy of 2003-05-26 never dates a
change. Yet the copy prints clauses the span leaves out: Storm (502.30), new in Scourge,
is in the copy before it is in the official 2003-07-01; 212.1, gone by 2003-07-01, is in
the copy after its last official release (2003-03-15). The number's pages show those days
from the copy, so `trace` and the history page say so too, by this one definition.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from sqlite_utils import Database

BEFORE, AFTER = "before", "after"  # which side of the official span a copy's printing lies


class CopyPrinting(NamedTuple):
    release: str
    number: str
    side: str  # BEFORE the official span, or AFTER it


def outside_official(
    members: Iterable[tuple[str, str]], first: str, last: str, copies: Iterable[str]
) -> list[CopyPrinting]:
    """The members (release, number or term) that a derived copy prints before the official
    span `first`..`last` begins or after it ends, in release order.

    >>> outside_official([("2003-05-26", "502.30"), ("2003-07-01", "502.30")],
    ...                  "2003-07-01", "2026-08-07", {"2003-05-26"})
    [CopyPrinting(release='2003-05-26', number='502.30', side='before')]
    """
    derived = frozenset(copies)
    return sorted(
        CopyPrinting(release, number, BEFORE if release < first else AFTER)
        for release, number in members
        if release in derived and (release < first or release > last)
    )


def copy_printings(db: Database, lineage: int, copies: Iterable[str]) -> list[CopyPrinting]:
    """`outside_official` for a lineage of the store."""
    span = db.execute(
        "SELECT first_release, last_release FROM lineages WHERE id = ?", [lineage]
    ).fetchone()
    if span is None:
        return []
    members = db.execute(
        "SELECT release, number FROM lineage_members WHERE lineage_id = ?", [lineage]
    ).fetchall()
    return outside_official(members, span[0], span[1], copies)
