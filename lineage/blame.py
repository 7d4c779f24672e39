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

from archive.query import canonical_number, resolve_release
from lineage.derived import is_derived
from lineage.trace import require_lineage
from vocabulary.kinds import EXAMPLE, FORMATTING, REFERENCE, WORDING_CHANGES
from vocabulary.numbers import is_under

_WORDING = ", ".join(f"'{kind}'" for kind in WORDING_CHANGES)
_TEXT = ", ".join(f"'{kind}'" for kind in (*WORDING_CHANGES, REFERENCE, FORMATTING, EXAMPLE))


def blame(db: Database, release: str, rule_prefix: str | None = None) -> list[dict[str, Any]]:
    """`number`, `since`, `lineage` (and more) for each clause of `release`, in order."""
    require_lineage(db)
    when = resolve_release(db, release)
    prefix = canonical_number(rule_prefix) if rule_prefix else None
    rows = db.query(
        f"""SELECT m.number, m.kind, m.lineage_id AS lineage, l.first_release,
                   (SELECT max(e.release) FROM lineage_events e WHERE e.lineage_id = m.lineage_id
                    AND e.release <= m.release AND e.kind IN ({_WORDING})) AS since,
                   (SELECT max(e.release) FROM lineage_events e WHERE e.lineage_id = m.lineage_id
                    AND e.release <= m.release AND e.kind IN ({_TEXT})) AS text_since
            FROM lineage_members m JOIN parts p ON p.id = m.part_id
            JOIN lineages l ON l.id = m.lineage_id
            WHERE m.release = ? ORDER BY p.position""",
        [when],
    )
    found = [
        {"release": when, **row}
        for row in rows
        if prefix is None or (row["kind"] != "glossary" and is_under(row["number"], prefix))
    ]
    copy = is_derived(db, when)  # its words are the copy's; `since` is the official date
    for row in found:
        row["since"] = row["since"] or row["first_release"]
        if copy:  # a clause the copy shares with a later official release only: from the copy
            row["since"] = min(row["since"], when)
            row["derived"] = True
    return found
