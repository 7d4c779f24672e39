"""Build the whole site: bring the store up to date, render every page, index for search."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.collector import collector_paused, heap_frozen
from archive.query import release_dates
from lineage.freshness import require_current
from renderer.assets import asset_sources, write_assets
from renderer.context import Site
from renderer.diffcache import DiffCache
from renderer.environment import make_environment
from renderer.errors import SiteBuildError
from renderer.explained import install
from renderer.forked_family import ForkedFamily, can_fork
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
    report = BuildReport(out=str(out))
    progress = progress or Progress.off()
    progress.begin(len(STEPS) + len(("histories", "render", "search")))
    # The model and the queued pages live until the pages are written, and hold no cycle.
    family: ForkedFamily | None = None
    try:
        with collector_paused():
            site, search_done, family = _prepare(
                db, out, base_url, search, progress, state, compare, report, workers
            )
        writer = site.writer
        progress.stage("render")
        began = time.perf_counter()
        done = progress.pages(len(writer.jobs), writer.skipped)

        def done_here(pages: int) -> None:  # and what the family beside has done meanwhile
            done(pages)
            if family is not None:
                family.poll(progress.more_pages, done)

        with heap_frozen():  # the render workers fork from here: none walks the model
            for new_diffs in writer.render_all(
                workers,
                start=lambda: _reopen(site),
                collect=lambda: site.diffs.drain(),
                done=done_here,
            ):
                site.diffs.new.update(new_diffs or {})
        if family is not None:
            forked = family.join(progress.more_pages, done)
            writer.take(forked.pages, forked.changed, forked.rendered, forked.skipped)
            site.diffs.new.update(forked.diffs)
            report.timings[FORKED_STEP] = forked.seconds
        report.timings["render"] = round(time.perf_counter() - began, 2)
    finally:
        if family is not None:
            family.close()
    site.diffs.close()
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


def _prepare(
    db: Database,
    out: Path,
    base_url: str,
    search: bool,
    progress: Progress,
    state: Path,
    compare: PendingCompare,
    report: BuildReport,
    workers: int,
) -> tuple[Site, Callable[[], bool], ForkedFamily | None]:
    """Load the model and queue every page (rendered later): the site, what says whether
    the search index was made, and the family prepared in a process of its own (in a
    rebuild, when there are cores for it: `renderer.forked_family`)."""
    start = time.perf_counter()
    model = load_model(db)
    writer = SiteWriter(out, code_key(), state, model.names)
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
    steps = STEPS
    family = None
    # Only in a rebuild, where preparing the pages (computing their keys) is most of the
    # work. In a build from nothing every page is rendered, the render workers keep the
    # cores busy, and a family with workers of its own only adds processes that copy the
    # shared model page by page as they touch it (the full build took 8 s longer with it).
    if can_fork(workers) and writer.previous:
        forked = dict(STEPS)[FORKED_STEP]
        progress.stage(f"{FORKED_STEP} (begun in a process of its own)")
        family = ForkedFamily(
            FORKED_STEP,
            site,
            lambda site: forked(site, {}, compare),
            workers,
            start=lambda: _reopen(site),
        )
        steps = tuple(step for step in STEPS if step[0] != FORKED_STEP)
    try:
        progress.stage("histories")
        began = time.perf_counter()
        histories, records = build_histories(site)
        report.timings["histories"] = round(time.perf_counter() - began, 2)
        search_done: Callable[[], bool] = bool  # bool() is False: no index was started
        if search:
            search_done = start_index(out, records, state)
        for name, step in steps:
            progress.stage(name)
            began = time.perf_counter()
            step(site, histories, compare)
            report.timings[name] = round(time.perf_counter() - began, 2)
    except BaseException:
        if family is not None:
            family.close()
        raise
    return site, search_done, family


Histories = dict[int, dict[str, Any]]
# The page families after the histories, in order: each step reads the model (and the
# histories, or the compare data made in the background), and queues its pages.
STEPS: tuple[tuple[str, Callable[[Site, Histories, PendingCompare], object]], ...] = (
    ("releases", lambda site, _h, _c: build_releases(site)),
    ("rules", lambda site, _h, _c: build_rules(site)),
    ("keywords", lambda site, _h, _c: write_names(site, build_keywords(site))),
    ("home", lambda site, histories, _c: build_home(site, histories)),
    ("misc", lambda site, _h, _c: build_misc(site)),
    ("compare", lambda site, _h, compare: build_compare(site, compare)),
    ("accuracy", lambda site, _h, _c: build_accuracy(site)),
)
# The family prepared, and rendered, in a process of its own while this one does the others
# (renderer.forked_family): the largest, and one that reads neither the histories nor the
# compare data.
FORKED_STEP = "rules"
