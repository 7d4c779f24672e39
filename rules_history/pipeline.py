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

from archive.gaps import load_gaps, store_gaps
from archive.ingest import IngestReport, ingest_captures
from archive.witnesses import store_witnesses
from crawler.catalogue import CATALOGUE_FILE
from crawler.witness_captures import witness_documents
from lineage.store import build_lineage


@dataclass
class UpdateReport:
    releases: IngestReport
    witnesses: dict[str, Any] = field(default_factory=dict)
    lineage: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> list[tuple[str, str]]:
        return self.releases.failed

    def as_dict(self) -> dict[str, Any]:
        return {**self.releases.__dict__, "witnesses": self.witnesses, "lineage": self.lineage}


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
    """Ingest new captures (and the catalogue's gaps), then the witnesses (checked against
    those releases), then align whatever releases are new or stale."""
    report = UpdateReport(ingest_captures(db, captures_dir, progress=progress))
    gap_warnings = store_gaps(db, load_gaps(CATALOGUE_FILE))
    report.releases.warnings.extend((CATALOGUE_FILE.name, w) for w in gap_warnings)
    report.witnesses = ingest_witnesses(db, captures_dir)
    report.releases.failed.extend(report.witnesses.pop("failed"))
    report.lineage = build_lineage(db)
    return report
