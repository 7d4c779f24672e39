"""What a release's clause count counts, read from `release_counts` (lineage.answers).

`clauses`: the clauses that have a history (chapters, sections, rules, subrules, glossary
entries), the same clauses `blame` lists; `rules`: rules and subrules; `glossary`: glossary
entries; `examples`: examples, which follow their rule and are not clauses of their own.
"""

from __future__ import annotations

from sqlite_utils import Database


def release_counts(db: Database) -> dict[str, dict[str, int]]:
    """Release -> its counts: clauses, rules, glossary, examples."""
    return {
        row["release"]: {key: row[key] for key in ("clauses", "rules", "glossary", "examples")}
        for row in db.query("SELECT * FROM release_counts")
    }
