"""The examples stage of the pipeline: run every scenario against every release and store the
records (`example_records`); `rules-history examples` and the site read them.

A release's records depend on its text and the one before it (what changed), their lineages
(`lineage_changes`) and the code of `facedown/`: `example_state` keeps that signature per
release, and only releases whose signature changed are run again (a new release: one).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.collector import collector_paused
from archive.query import release_in_force
from facedown.run import run_all
from facedown.scenarios import SCENARIOS
from lineage.answers import signature as lineage_signature
from lineage.freshness import UPDATE, StaleStore

SOURCE = Path(__file__).resolve().parent
SCENARIO_ORDER = {scenario.id: index for index, scenario in enumerate(SCENARIOS)}
RELEASES_PER_SCENARIO = 100_000  # positions: scenario-major, then release, as run_all orders


def _code_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(SOURCE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def examples_signatures(db: Database) -> dict[str, str]:
    """Release -> the signature its records must have been computed with."""
    code = _code_hash()
    return {
        release: hashlib.sha256((found + code).encode()).hexdigest()
        for release, found in lineage_signature(db).items()
    }


def stale_releases(db: Database) -> list[str]:
    wanted = examples_signatures(db)
    done = dict(db.execute("SELECT release, signature FROM example_state").fetchall())
    return [release for release in sorted(wanted) if done.get(release) != wanted[release]]


@collector_paused()  # every era's clauses are kept to the end of the run
def store_examples(db: Database) -> dict[str, Any]:
    """Run the scenarios on the releases whose records are missing or stale."""
    wanted = examples_signatures(db)
    stale = stale_releases(db)
    dates = sorted(wanted)
    index = {day: i for i, day in enumerate(dates)}
    if len(stale) > len(dates) // 4:  # most of them: one pass over every release is cheaper
        records = run_all(db)
        stale = dates
    else:
        records = [record for day in stale for record in run_all(db, day)]
    with db.atomic():
        db.conn.execute(
            "DELETE FROM example_records WHERE release NOT IN (SELECT date FROM releases)"
        )
        db.conn.execute(
            "DELETE FROM example_state WHERE release NOT IN (SELECT date FROM releases)"
        )
        db.conn.executemany("DELETE FROM example_records WHERE release = ?", [(d,) for d in stale])
        db.conn.executemany(
            "INSERT INTO example_records (scenario, release, position, record) VALUES (?, ?, ?, ?)",
            [
                (
                    record["scenario"],
                    record["release"],
                    SCENARIO_ORDER[record["scenario"]] * RELEASES_PER_SCENARIO
                    + index[record["release"]],
                    json.dumps(record),
                )
                for record in records
            ],
        )
        db.conn.executemany(
            "INSERT OR REPLACE INTO example_state (release, signature) VALUES (?, ?)",
            [(day, wanted[day]) for day in stale],
        )
    return {"releases_run": len(stale), "records": len(records)}


def require_examples(db: Database) -> None:
    """Raise StaleStore (one line) unless the records of every release are current."""
    stale = stale_releases(db)
    if stale:
        raise StaleStore(
            f"the executable examples are out of date from the {stale[0]} release on: {UPDATE}"
        )


def stored_examples(db: Database, as_of: str | None = None) -> list[dict[str, Any]]:
    """The stored records, in the order run_all makes them (only one release's with `as_of`)."""
    if as_of is None:
        rows = db.execute("SELECT record FROM example_records ORDER BY position")
    else:
        rows = db.execute(
            "SELECT record FROM example_records WHERE release = ? ORDER BY position",
            [release_in_force(db, as_of)],
        )
    return [json.loads(row[0]) for row in rows]
