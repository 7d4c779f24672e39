"""Bring the store up to date from a captures folder: every stage that writes, in order.

1. ingest: parse new captures into releases, and the catalogue's gaps (archive.ingest,
   archive.gaps);
2. witnesses: parse the witness pages and cross-check them (archive.witnesses);
3. lineage: align the releases that are new or stale (lineage.store);
4. derived answers: wording spans, blame, clause counts, change lists (lineage.answers);
5. examples: the face-down scenarios run against every release (facedown.store).

`ingest` and `build` both start here; everything else (the read commands, the site, the
bench's reads) only reads what these stages stored.
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
from facedown.store import store_examples
from lineage.answers import build_derived
from lineage.store import build_lineage


@dataclass
class UpdateReport:
    releases: IngestReport
    witnesses: dict[str, Any] = field(default_factory=dict)
    lineage: dict[str, Any] = field(default_factory=dict)
    names: int = 0
    explanations: dict[str, Any] = field(default_factory=dict)
    derived: dict[str, Any] = field(default_factory=dict)
    examples: dict[str, Any] = field(default_factory=dict)

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
            "derived": self.derived,
            "examples": self.examples,
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
    prune: bool = False,
) -> UpdateReport:
    """Run every stage that writes, in order; each skips what is already current: ingest
    (with the catalogue's gaps and the captures' differences), witnesses, lineage, release
    names, official explanations, the derived answers, the examples. One writer at a time: a
    second one is refused. `prune`: remove the releases the folder no longer lists (else
    such a folder is refused: `archive.ingest`)."""
    with store_writer_lock(db):
        report = UpdateReport(ingest_captures(db, captures_dir, progress=progress, prune=prune))
        store_capture_differences(db)
        gap_warnings = store_gaps(db, load_gaps(CATALOGUE_FILE))
        report.releases.warnings.extend((CATALOGUE_FILE.name, w) for w in gap_warnings)
        report.witnesses = ingest_witnesses(db, captures_dir)
        report.releases.failed.extend(report.witnesses.pop("failed"))
        report.lineage = build_lineage(db)
        report.names = store_release_names(db)
        report.explanations = ingest_explanations(db, captures_dir)
        report.releases.failed.extend(report.explanations.pop("failed"))
        report.derived = build_derived(db)
        report.examples = store_examples(db)
    return report


def ingest_explanations(db: Database, captures_dir: Path) -> dict[str, Any]:
    """Parse the folder's official change articles and match their entries to our changes
    (after the lineages: matches follow them)."""
    articles, failed = bulletin_articles(captures_dir)
    return {**store_explanations(db, articles), "failed": failed}
