"""Build the whole site: bring the store up to date, render every page, index for search."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from lineage.derived import derived_releases
from renderer.assets import asset_sources, write_assets
from renderer.context import Site
from renderer.diffcache import DiffCache
from renderer.environment import make_environment
from renderer.errors import SiteBuildError
from renderer.examples import lineage_examples, start_example_rows
from renderer.explained import install, names_key
from renderer.pages_accuracy import build_accuracy
from renderer.pages_history import build_histories, build_lineage_if_possible
from renderer.pages_home import build_home
from renderer.pages_misc import build_misc
from renderer.pages_releases import build_releases
from renderer.pages_rules import build_rules
from renderer.queries import releases
from renderer.search import start_index
from renderer.writer import SiteWriter, code_key, default_workers


@dataclass
class BuildReport:
    out: str
    pages_rendered: int = 0
    pages_skipped: int = 0
    files_changed: int = 0
    stale_removed: int = 0
    seconds: float = 0.0
    search_indexed: bool = False
    timings: dict[str, float] = field(default_factory=dict)


def _reopen(site: Site) -> None:
    """In a forked worker: its own connections (never share SQLite handles across fork)."""
    path = site.db.conn.execute("PRAGMA database_list").fetchone()[2]
    site.db = Database(path)
    site.diffs.reopen()


def build_site(
    db: Database,
    out: Path,
    base_url: str = "",
    search: bool = True,
    workers: int | None = None,
) -> BuildReport:
    """Render every page of the site into `out`, skipping pages whose inputs did not change."""
    start = time.perf_counter()
    rows = releases(db)
    if not rows:
        raise SiteBuildError("the store holds no release: run `rules-history ingest` first")
    report = BuildReport(out=str(out))
    workers = default_workers() if workers is None else workers
    writer = SiteWriter(out, code_key() + names_key(rows))
    urls = write_assets(out, asset_sources())
    diffs = DiffCache(out / ".cache")
    site = Site(db, make_environment(urls), writer, rows, diffs, base_url=base_url)
    site.derived = derived_releases(db)
    install(site)
    build_lineage_if_possible(db)
    site.example_rows = start_example_rows(db, out / ".cache" / "examples.json")
    steps = [
        ("histories", build_histories),
        ("releases", build_releases),
        ("rules", build_rules),
        ("home", build_home),
        ("misc", build_misc),
        ("accuracy", build_accuracy),
    ]
    search_done: Callable[[], bool] = bool  # bool() is False: no index was started
    for name, step in steps:
        began = time.perf_counter()
        step(site)
        report.timings[name] = round(time.perf_counter() - began, 2)
        if name == "histories" and search:  # the search records are ready
            search_done = start_index(out, site.search_records)
    # Last, when the examples' process has had the time of the steps above: the scenarios
    # beside the clauses they cite, on the history and wording pages held back till now.
    began = time.perf_counter()
    anchors = {day: {c.anchor for c in found} for day, found in site.changes.items()}
    site.lineage_examples = lineage_examples(db, site.example_rows(), site.dates, anchors)
    site.write_clause_pages()
    report.timings["examples"] = round(time.perf_counter() - began, 2)
    began = time.perf_counter()
    for new_diffs in writer.render_all(
        workers, start=lambda: _reopen(site), collect=lambda: site.diffs.drain()
    ):
        diffs.new.update(new_diffs or {})
    report.timings["render"] = round(time.perf_counter() - began, 2)
    diffs.close()
    stale = writer.finish()
    began = time.perf_counter()
    report.search_indexed = search_done()
    report.timings["search_wait"] = round(time.perf_counter() - began, 2)
    report.pages_rendered = writer.rendered
    report.pages_skipped = writer.skipped
    report.files_changed = len(writer.changed)
    report.stale_removed = len(stale)
    report.seconds = round(time.perf_counter() - start, 2)
    return report
