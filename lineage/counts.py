"""What a release's clause count counts, read from `release_counts` (lineage.answers).

`clauses`: the clauses that have a history (chapters, sections, rules, subrules, glossary
entries), the same clauses `blame` lists; `rules`: rules and subrules; `glossary`: glossary
entries; `examples`: examples, which follow their rule and are not clauses of their own;
`unchanged`: the clauses kept as they were in the release it is compared with (None for the
first release), the "unchanged" of `rules-history diff` between the two.
"""

from __future__ import annotations

from sqlite_utils import Database

COUNTS = ("clauses", "rules", "glossary", "examples", "unchanged")


def release_counts(db: Database) -> dict[str, dict[str, int | None]]:
    """Release -> its counts: clauses, rules, glossary, examples, unchanged."""
    return {
        row["release"]: {key: row[key] for key in COUNTS}
        for row in db.query("SELECT * FROM release_counts")
    }
