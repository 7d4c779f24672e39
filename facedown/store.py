"""The examples stage of the pipeline: run every scenario against every release once and
store the records (`example_records`); `rules-history examples` and the site read them.

They are run again only when what they depend on changed: the releases and their lineages
(`lineage.derived.signature`) or the code of `facedown/` itself.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.query import release_in_force
from facedown.run import run_all
from lineage.derived import signature as lineage_signature

SOURCE = Path(__file__).resolve().parent


def examples_signature(db: Database) -> str:
    """Hash of the releases' lineage signature and of the facedown package's code."""
    digest = hashlib.sha256(json.dumps(lineage_signature(db), sort_keys=True).encode())
    for path in sorted(SOURCE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def store_examples(db: Database) -> dict[str, Any]:
    """Run the scenarios unless the stored records are current; returns what was done."""
    wanted = examples_signature(db)
    row = db.execute("SELECT signature FROM example_state WHERE id = 1").fetchone()
    if row is not None and row[0] == wanted:
        return {"run": False}
    records = run_all(db)
    with db.atomic():
        db.conn.execute("DELETE FROM example_records")
        db.conn.executemany(
            "INSERT INTO example_records (scenario, release, position, record) VALUES (?, ?, ?, ?)",
            [
                (record["scenario"], record["release"], position, json.dumps(record))
                for position, record in enumerate(records)
            ],
        )
        db.conn.execute(
            "INSERT OR REPLACE INTO example_state (id, signature) VALUES (1, ?)", [wanted]
        )
    return {"run": True, "records": len(records)}


def stored_examples(db: Database, as_of: str | None = None) -> list[dict[str, Any]]:
    """The stored records, in the order run_all made them (only one release's with `as_of`)."""
    if as_of is None:
        rows = db.execute("SELECT record FROM example_records ORDER BY position")
    else:
        rows = db.execute(
            "SELECT record FROM example_records WHERE release = ? ORDER BY position",
            [release_in_force(db, as_of)],
        )
    return [json.loads(row[0]) for row in rows]
