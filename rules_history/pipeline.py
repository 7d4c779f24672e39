"""Bring the store up to date from a captures folder: every stage that writes, in order.

1. ingest: parse new captures into releases, and the catalogue's gaps (archive.ingest,
   archive.gaps);
2. witnesses: parse the witness pages and cross-check them (archive.witnesses);
3. lineage: align the releases that are new or stale (lineage.store);
4. derived answers: wording spans, blame, clause counts, change lists (lineage.derived);
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

from archive.gaps import load_gaps, store_gaps
from archive.ingest import IngestReport, ingest_captures
from archive.witnesses import store_witnesses
from crawler.catalogue import CATALOGUE_FILE
from crawler.witness_captures import witness_documents
from facedown.store import store_examples
from lineage.derived import build_derived
from lineage.store import build_lineage


@dataclass
class UpdateReport:
    releases: IngestReport
    witnesses: dict[str, Any] = field(default_factory=dict)
    lineage: dict[str, Any] = field(default_factory=dict)
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
            "derived": self.derived,
            "examples": self.examples,
        }


def ingest_witnesses(db: Database, captures_dir: Path) -> dict[str, Any]:
    """Parse the folder's witness captures and store them cross-checked."""
    documents, failed = witness_documents(captures_dir)
    report = store_witnesses(db, documents)
    return {"stored": report.stored, "counts": report.counts, "failed": failed}


def update_store(
    db: Database,
    captures_dir: Path,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda items: items,
) -> UpdateReport:
    """Run every stage that writes, in order; each skips what is already current."""
    report = UpdateReport(ingest_captures(db, captures_dir, progress=progress))
    gap_warnings = store_gaps(db, load_gaps(CATALOGUE_FILE))
    report.releases.warnings.extend((CATALOGUE_FILE.name, w) for w in gap_warnings)
    report.witnesses = ingest_witnesses(db, captures_dir)
    report.releases.failed.extend(report.witnesses.pop("failed"))
    report.lineage = build_lineage(db)
    report.derived = build_derived(db)
    report.examples = store_examples(db)
    return report
