"""Benchmarks: figures printed as JSON, never asserted on by tests."""

from __future__ import annotations

import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from archive.ingest import ingest_captures
from archive.store import open_store


def _peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own, children) / 1024, 1)


def bench_ingest(captures_dir: Path) -> dict[str, Any]:
    """Full ingest of every capture into a new store, then a second (no-op) ingest."""
    with tempfile.TemporaryDirectory() as folder:
        db = open_store(Path(folder) / "bench.db")
        start = time.perf_counter()
        report = ingest_captures(db, captures_dir)
        full = time.perf_counter() - start
        start = time.perf_counter()
        again = ingest_captures(db, captures_dir)
        rerun = time.perf_counter() - start
        size = (Path(folder) / "bench.db").stat().st_size
        releases = db["releases"].count
        db.close()
    return {
        "captures": len(report.ingested),
        "releases": releases,
        "failed": len(report.failed),
        "full_ingest_seconds": round(full, 2),
        "second_ingest_seconds": round(rerun, 3),
        "second_ingest_skipped": len(again.skipped),
        "store_megabytes": round(size / 1e6, 1),
        "peak_rss_megabytes": _peak_rss_mb(),
    }


def run_benchmarks(captures_dir: Path) -> dict[str, Any]:
    from rules_history.bench_lineage import bench_lineage
    from rules_history.bench_machine import machine_figures
    from rules_history.bench_site import bench_site

    return {
        "machine": machine_figures(),  # first, before the rest has warmed or tired it
        "ingest": bench_ingest(captures_dir),
        "lineage": bench_lineage(captures_dir),
        "site": bench_site(captures_dir),
    }
