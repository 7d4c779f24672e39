"""Site build figures for `rules-history bench`: a full build, and a rebuild after one new
release (the newest capture held back, then ingested), with page count and total size."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from archive.ingest import ingest_captures
from archive.store import open_store
from renderer.build import build_site


def _captures_without_newest(captures_dir: Path, target: Path) -> tuple[Path, str]:
    manifest = json.loads((captures_dir / "manifest.json").read_bytes())
    newest = max(entry["date"] for entry in manifest)
    kept = [entry for entry in manifest if entry["date"] != newest]
    for entry in kept:
        (target / entry["file"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(captures_dir / entry["file"], target / entry["file"])
    (target / "manifest.json").write_text(json.dumps(kept))
    return target, newest


def _lineage(db: Any) -> float:
    from lineage.store import build_lineage

    start = time.perf_counter()
    build_lineage(db)
    return time.perf_counter() - start


def site_size(out: Path) -> tuple[int, int, int]:
    """(HTML pages, files, bytes) of a built site."""
    files = [p for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts]
    pages = sum(1 for p in files if p.suffix == ".html")
    return pages, len(files), sum(p.stat().st_size for p in files)


def bench_site(captures_dir: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        db = open_store(root / "full.db")
        ingest_captures(db, captures_dir)
        lineage_seconds = _lineage(db)
        start = time.perf_counter()
        report = build_site(db, root / "site-full")
        full = time.perf_counter() - start
        pages, files, size = site_size(root / "site-full")
        db.close()

        older, newest = _captures_without_newest(captures_dir, root / "older")
        db = open_store(root / "step.db")
        ingest_captures(db, older)
        _lineage(db)
        build_site(db, root / "site-step")
        start = time.perf_counter()
        ingest_captures(db, captures_dir)
        new_lineage = _lineage(db)
        began = time.perf_counter()
        step = build_site(db, root / "site-step")
        rebuild = time.perf_counter() - began
        total = time.perf_counter() - start
        db.close()
    return {
        "full_build_seconds": round(full, 2),
        "full_build_timings": report.timings,
        "lineage_seconds_before_build": round(lineage_seconds, 2),
        "rebuild_after_one_release": newest,
        "rebuild_seconds": round(rebuild, 2),
        "rebuild_pages_rendered": step.pages_rendered,
        "rebuild_pages_unchanged": step.pages_skipped,
        "rebuild_timings": step.timings,
        "rebuild_with_ingest_and_lineage_seconds": round(total, 2),
        "rebuild_lineage_seconds": round(new_lineage, 2),
        "pages": pages,
        "files": files,
        "megabytes": round(size / 1e6, 1),
    }
