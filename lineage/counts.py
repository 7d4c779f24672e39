"""What a release's clause count counts, read from `release_counts` (lineage.derived).

`clauses`: the clauses that have a history (chapters, sections, rules, subrules, glossary
entries), the same clauses `blame` lists; `rules`: rules and subrules; `glossary`: glossary
entries; `examples`: examples, which follow their rule and are not clauses of their own.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from archive.release_names import release_name


def release_rows(db: Database) -> list[dict[str, Any]]:
    """Every release, oldest first: date, name, counts, the capture it was read from."""
    rows = list(
        db.query(
            """SELECT r.date, r.name, c.clauses, c.rules, c.glossary, c.examples,
                      r.stated_date, captures.file AS capture
               FROM releases r JOIN captures ON captures.id = r.capture_id
               JOIN release_counts c ON c.release = r.date
               ORDER BY r.date"""
        )
    )
    for row in rows:
        row["name"] = row["name"] or release_name(row["date"])
    return rows
