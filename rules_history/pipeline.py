"""Bring the store up to date from a captures folder: releases, witnesses, lineages.

`ingest` and `build` both start here, so a site built on a fresh clone has the same store
as one built after an explicit ingest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.capture_diffs import store_capture_differences
from archive.explanations import store_explanations
from archive.gaps import load_gaps, store_gaps
from archive.ingest import IngestReport, ingest_captures
from archive.locking import store_writer_lock
from archive.release_names import store_release_names
from archive.witnesses import store_witnesses
from crawler.bulletin_captures import bulletin_articles
from crawler.catalogue import CATALOGUE_FILE
from crawler.witness_captures import witness_documents
from lineage.store import build_lineage


@dataclass
class UpdateReport:
    releases: IngestReport
    witnesses: dict[str, Any] = field(default_factory=dict)
    lineage: dict[str, Any] = field(default_factory=dict)
    names: int = 0
    explanations: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> list[tuple[str, str]]:
        return self.releases.failed

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.releases.__dict__,
            "witnesses": self.witnesses,
            "lineage": self.lineage,
            "names": self.names,
            "explanations": self.explanations,
        }


def ingest_witnesses(db: Database, captures_dir: Path) -> dict[str, Any]:
    """Parse the folder's witness captures and store them cross-checked."""
    documents, failed = witness_documents(captures_dir)
    forget_unlisted_witnesses(db, {document.sha256 for document in documents})
    report = store_witnesses(db, documents)
    return {"stored": report.stored, "counts": report.counts, "failed": failed}


def forget_unlisted_witnesses(db: Database, listed: set[str]) -> None:
    """Drop the witness captures the folder no longer holds, as a fresh ingest would not have
    them (their clauses go with them), and the witness sources no capture names."""
    with db.atomic():
        stored = [row[0] for row in db.execute("SELECT sha256 FROM witness_captures")]
        for sha256 in set(stored) - listed:
            db.conn.execute("DELETE FROM witness_captures WHERE sha256 = ?", [sha256])
        db.conn.execute(
            """DELETE FROM sources WHERE kind = 'witness'
               AND id NOT IN (SELECT source FROM witness_captures)"""
        )


def update_store(
    db: Database,
    captures_dir: Path,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda items: items,
) -> UpdateReport:
    """Ingest new captures (and the catalogue's gaps), then the witnesses (checked against
    those releases), then align whatever releases are new or stale, then name the releases
    and match the official explanations to the changes. One writer at a time: a second one is
    refused."""
    with store_writer_lock(db):
        report = UpdateReport(ingest_captures(db, captures_dir, progress=progress))
        store_capture_differences(db)
        gap_warnings = store_gaps(db, load_gaps(CATALOGUE_FILE))
        report.releases.warnings.extend((CATALOGUE_FILE.name, w) for w in gap_warnings)
        report.witnesses = ingest_witnesses(db, captures_dir)
        report.releases.failed.extend(report.witnesses.pop("failed"))
        report.lineage = build_lineage(db)
        report.names = store_release_names(db)
        report.explanations = ingest_explanations(db, captures_dir)
        report.releases.failed.extend(report.explanations.pop("failed"))
    return report


def ingest_explanations(db: Database, captures_dir: Path) -> dict[str, Any]:
    """Parse the folder's official change articles and match their entries to our changes
    (after the lineages: matches follow them)."""
    articles, failed = bulletin_articles(captures_dir)
    return {**store_explanations(db, articles), "failed": failed}
