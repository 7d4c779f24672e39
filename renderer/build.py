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
from renderer.state import check_folders, prepare_state, site_state
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
    check_folders(out, state)
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
            site, search_done, family, workers = _prepare(
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
            report.timings.update(forked.timings)
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
) -> tuple[Site, Callable[[], bool], ForkedFamily | None, int]:
    """Load the model and queue every page (rendered later): the site, what says whether
    the search index was made, the families prepared in a process of their own
    (`renderer.forked_family`, when there are cores for it) and how many processes render
    this process's pages."""
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
    if can_fork(workers):
        family, steps, workers = _fork_family(site, compare, workers, progress)
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
    return site, search_done, family, workers


def _fork_family(
    site: Site, compare: PendingCompare, workers: int, progress: Progress
) -> tuple[ForkedFamily, tuple[Step, ...], int]:
    """Fork the process that prepares and renders the families it is given (see
    `FAMILY_IN_A_REBUILD`); returns it, the steps left to this process and how many
    processes render this one's pages.

    A rebuild renders few pages, and both sides keep every worker for them. A build from
    nothing renders them all, and the cores are shared out between the two sides (on two,
    each side renders in its own process alone): each render process more copies the
    shared model page by page as it reads it (with two render workers on each side, four
    processes on two cores, a full build made 870,000 page faults)."""
    if site.writer.previous:  # a rebuild
        names, beside, here = FAMILY_IN_A_REBUILD, workers, workers
    else:
        names, beside, here = FAMILY_FROM_NOTHING, workers // 2, workers - workers // 2
    forked = [step for step in STEPS if step[0] in names]
    label = " and ".join(names)
    progress.stage(f"{label} (begun in a process of its own)")

    def prepare(site: Site) -> dict[str, float]:
        timings = {}
        for name, step in forked:
            began = time.perf_counter()
            step(site, {}, compare)  # no family reads the histories
            timings[name] = round(time.perf_counter() - began, 2)
        return timings

    family = ForkedFamily(label, site, prepare, beside, start=lambda: _reopen(site))
    left = tuple(step for step in STEPS if step[0] not in names)
    return family, left, here


Histories = dict[int, dict[str, Any]]
Step = tuple[str, Callable[[Site, Histories, PendingCompare], object]]
# The page families after the histories, in order: each step reads the model (and the
# histories, or the compare data made in the background), and queues its pages.
STEPS: tuple[Step, ...] = (
    ("releases", lambda site, _h, _c: build_releases(site)),
    ("rules", lambda site, _h, _c: build_rules(site)),
    ("keywords", lambda site, _h, _c: write_names(site, build_keywords(site))),
    ("home", lambda site, histories, _c: build_home(site, histories)),
    ("misc", lambda site, _h, _c: build_misc(site)),
    ("compare", lambda site, _h, compare: build_compare(site, compare)),
    ("accuracy", lambda site, _h, _c: build_accuracy(site)),
)
# The families prepared, and rendered, in a process of its own while this one does the
# others (renderer.forked_family); none reads the histories or the compare data. In a
# rebuild the work is preparing the pages (computing their keys), and the rule numbers'
# (25,000 of the 31,000 pages) is about what all the others take. In a build from nothing
# it is rendering them: the keyword pages go with the rule numbers', and the two processes
# then end within half a second of each other (without them, 1.1 to 1.8 s apart).
FAMILY_IN_A_REBUILD: tuple[str, ...] = ("rules",)
FAMILY_FROM_NOTHING: tuple[str, ...] = ("rules", "keywords")
