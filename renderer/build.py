"""Build the whole site: bring the store up to date, render every page, index for search."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from archive.query import release_dates
from lineage.freshness import require_current
from renderer.assets import asset_sources, write_assets
from renderer.context import Site
from renderer.diffcache import DiffCache
from renderer.environment import make_environment
from renderer.errors import SiteBuildError
from renderer.explained import install, release_names
from renderer.model import load_model
from renderer.names import write_names
from renderer.pages_accuracy import build_accuracy
from renderer.pages_compare import PendingCompare, build_compare, start_compare
from renderer.pages_history import build_histories
from renderer.pages_home import build_home
from renderer.pages_keywords import build_keywords
from renderer.pages_misc import build_misc
from renderer.pages_releases import build_releases
from renderer.pages_rules import build_rules
from renderer.progress import Progress
from renderer.search import start_index
from renderer.state import prepare_state, site_state
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
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


def _reopen(site: Site) -> None:
    """In a forked worker: its own connections (never share SQLite handles across fork)."""
    path = site.db.conn.execute("PRAGMA database_list").fetchone()[2]
    site.db = Database(path)
    site.diffs.reopen(site.db)


def build_site(
    db: Database,
    out: Path,
    base_url: str = "",
    search: bool = True,
    workers: int | None = None,
    progress: Progress | None = None,
    state: Path | None = None,
) -> BuildReport:
    """Render every page of the site into `out`, skipping pages whose inputs did not change.

    Only reads the store (the pipeline wrote it); a store that is behind stops the build
    before anything is written, with one line naming the command that updates it.
    `progress` shows the stages and pages (on a terminal); by default, nothing. `state` is
    the folder for what is not published (`renderer.state`; by default beside `out`)."""
    start = time.perf_counter()
    require_current(db)  # before the compare data's process starts on the store
    state = state if state is not None else site_state(out)
    workers = default_workers() if workers is None else workers
    dates = release_dates(db)
    if not dates:
        raise SiteBuildError("the store holds no release: run `rules-history ingest` first")
    prepare_state(out, state)
    compare = start_compare(db, dates, out, state, background=workers > 1)
    try:
        return _build(db, out, base_url, search, workers, progress, state, compare, start)
    finally:
        compare.close()


def _build(
    db: Database,
    out: Path,
    base_url: str,
    search: bool,
    workers: int,
    progress: Progress | None,
    state: Path,
    compare: PendingCompare,
    start: float,
) -> BuildReport:
    model = load_model(db)
    report = BuildReport(out=str(out))
    writer = SiteWriter(out, code_key(), state, release_names(list(model.releases)))
    if writer.interrupted:
        report.notes.append(
            f"{out}: the last build into it did not finish; every page is rendered again"
        )
    urls = write_assets(out, asset_sources(cache=state / "cache"))
    diffs = DiffCache(state / "cache", db)
    environment = make_environment(urls, cache=state / "cache" / "templates")
    for name in environment.list_templates():  # once here, not again in each render worker
        environment.get_template(name)
    site = Site(db, model, environment, writer, diffs, base_url=base_url)
    install(site)
    report.timings["model"] = round(time.perf_counter() - start, 2)
    steps: tuple[tuple[str, Callable[[Site], object]], ...] = (
        ("releases", build_releases),
        ("rules", build_rules),
        ("keywords", lambda site: write_names(site, build_keywords(site))),
        ("home", lambda site: build_home(site, histories)),
        ("misc", build_misc),
        ("compare", lambda site: build_compare(site, compare)),
        ("accuracy", build_accuracy),
    )
    progress = progress or Progress.off()
    progress.begin(len(steps) + len(("histories", "render", "search")))
    search_done: Callable[[], bool] = bool  # bool() is False: no index was started
    progress.stage("histories")
    began = time.perf_counter()
    histories, records = build_histories(site)
    report.timings["histories"] = round(time.perf_counter() - began, 2)
    if search:
        search_done = start_index(out, records, state)
    for name, step in steps:
        progress.stage(name)
        began = time.perf_counter()
        step(site)
        report.timings[name] = round(time.perf_counter() - began, 2)
    progress.stage("render")
    began = time.perf_counter()
    done = progress.pages(len(writer.jobs), writer.skipped)
    for new_diffs in writer.render_all(
        workers, start=lambda: _reopen(site), collect=lambda: site.diffs.drain(), done=done
    ):
        diffs.new.update(new_diffs or {})
    report.timings["render"] = round(time.perf_counter() - began, 2)
    diffs.close()
    stale = writer.finish()
    progress.stage("search")
    began = time.perf_counter()
    report.search_indexed = search_done()
    progress.close()
    report.timings["search_wait"] = round(time.perf_counter() - began, 2)
    report.pages_rendered = writer.rendered
    report.pages_skipped = writer.skipped
    report.files_changed = len(writer.changed)
    report.stale_removed = len(stale)
    report.seconds = round(time.perf_counter() - start, 2)
    return report
