"""Shared fixtures: stores built from the real committed captures, once per test session."""

from __future__ import annotations

import gc
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from sqlite_utils import Database

from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from rules_history.bench_browser import CHROMIUM, CHROMIUM_ARGS
from rules_history.pipeline import update_store

# Every release a seed witness quotes, and the one in force when the Gatherer rulings were
# written; also a crawl long enough to be killed midway.
WITNESSED_RELEASES = (
    "2002-10-07",
    "2003-07-01",
    "2005-08-01",
    "2006-05-01",
    "2006-10-01",
    "2007-05-01",
    "2008-02-01",
    "2019-10-04",
    "2020-01-22",
    "2024-06-07",
)

# Releases that carry the face-down story, and the renumberings of 2009 and 2021.
SMALL_RELEASES = (
    "2002-10-07",
    "2008-02-01",
    "2009-05-01",
    "2009-07-08",
    "2018-10-05",
    "2019-01-25",
    "2020-01-22",
    "2021-06-09",
    "2021-07-12",
    "2024-06-07",
)

# The two smallest releases (about 600 clauses each): enough for the tests of how the site is
# built (processes, collector, publish folder), at a tenth of the small site's pages.
TINY_RELEASES = ("1999-04-23", "1999-11-01")


def make_captures_dir(target: Path, dates: tuple[str, ...]) -> Path:
    """A captures folder holding only the given releases (all their captures)."""
    manifest = json.loads((CAPTURES_DIR / "manifest.json").read_bytes())
    chosen = [entry for entry in manifest if entry["date"] in dates]
    (target / "cr").mkdir(parents=True, exist_ok=True)
    for entry in chosen:
        shutil.copyfile(CAPTURES_DIR / entry["file"], target / entry["file"])
    (target / "manifest.json").write_text(json.dumps(chosen, indent=1))
    return target


BUILT = "built"  # the marker a finished shared folder holds: a killed builder leaves none


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """The folder `name`, filled by `build` once per test run.

    Under pytest-xdist each worker is a session of its own; the first to ask builds the
    folder beside the workers' own temporary folders, under a file lock, and the others wait
    for it and read it. The folder is only read after it is built."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / f"shared-{name}"
    with FileLock(f"{folder}.lock"):
        if not (folder / BUILT).exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / BUILT).write_text("")
    return folder


def ingested_copy(
    tmp_path_factory: pytest.TempPathFactory, name: str, captures: Path | None
) -> Database:
    """A store of the captures in `captures` (None: every committed capture) with every
    stage of the pipeline run, built once per test run and copied for this session, which
    may write to its copy. (A test that needs a store without lineages builds its own.)"""

    def ingest(folder: Path) -> None:
        db = open_store(folder / "rules.db")
        # the pipeline itself, so the tests read what `rules-history ingest` writes (release
        # names and set codes, witnesses, official explanations among it)
        report = update_store(db, captures or CAPTURES_DIR)
        assert not report.releases.failed, report.releases.failed
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()

    shared = built_once(tmp_path_factory, f"{name}-store", ingest)
    path = tmp_path_factory.mktemp(name) / "rules.db"
    shutil.copyfile(shared / "rules.db", path)
    return open_store(path)


def session_store(
    tmp_path_factory: pytest.TempPathFactory, name: str, captures: Path | None
) -> Iterator[Database]:
    """This session's copy of the shared store `name` (`ingested_copy`), closed at its end."""
    db = ingested_copy(tmp_path_factory, name, captures)
    yield db
    db.close()


@pytest.fixture(scope="session")
def full_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """Every committed capture ingested into one store, its lineages and derived answers
    built (one to two minutes, once per run)."""
    yield from session_store(tmp_path_factory, "full", None)


@pytest.fixture(scope="session")
def small_captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_captures_dir(tmp_path_factory.mktemp("small-captures"), SMALL_RELEASES)


@pytest.fixture(scope="session")
def small_store(
    tmp_path_factory: pytest.TempPathFactory, small_captures: Path
) -> Iterator[Database]:
    """The releases in SMALL_RELEASES only (enough for the face-down story), every stage
    run."""
    yield from session_store(tmp_path_factory, "small", small_captures)


def run_stages(db: Database) -> Database:
    """The pipeline's stages after the ingest (rules_history.pipeline): lineages, derived
    answers, examples; what the readers (CLI, site) need."""
    from facedown.store import store_examples
    from lineage.answers import build_derived
    from lineage.store import build_lineage

    build_lineage(db)
    build_derived(db)
    store_examples(db)
    return db


@pytest.fixture(scope="session")
def full_lineage(full_store: Database) -> Database:
    """The full store with every stage of the pipeline run (lineages, derived answers,
    examples): full_store has run them, so each stage finds itself current."""
    return run_stages(full_store)


@pytest.fixture(scope="session")
def small_lineage(small_store: Database) -> Database:
    """The small store with every stage run: each release aligned with the one before."""
    return run_stages(small_store)


@pytest.fixture(scope="session")
def tiny_captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_captures_dir(tmp_path_factory.mktemp("tiny-captures"), TINY_RELEASES)


@pytest.fixture(scope="session")
def tiny_lineage(
    tmp_path_factory: pytest.TempPathFactory, tiny_captures: Path
) -> Iterator[Database]:
    """The releases in TINY_RELEASES only, every stage run: for tests of how the site is
    built rather than what it says."""
    yield from session_store(tmp_path_factory, "tiny", tiny_captures)


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory, small_lineage: Database) -> Path:
    """The static site built from the small store (with its search index), once per test
    run; tests only read it. Every session's small store is a copy of the one store and runs
    the same stages, so the site is the one each of them would build."""
    from renderer.build import build_site

    def build(folder: Path) -> None:
        build_site(small_lineage, folder / "_site")

    return built_once(tmp_path_factory, "small-site", build) / "_site"


@pytest.fixture(scope="session")
def full_site(tmp_path_factory: pytest.TempPathFactory, full_lineage: Database) -> Path:
    """The whole site built from the full store (about half a minute; no search index), from
    a read-only connection, as `rules-history build` renders it; once per test run, as the
    small site is: four files read it, and two workers that each built it spent a full build
    apiece (every session's full store is a copy of the one store, so either builds the
    same site)."""
    from archive.store import open_reader
    from renderer.build import build_site

    def build(folder: Path) -> None:
        full_lineage.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        path = full_lineage.execute("PRAGMA database_list").fetchone()[2]
        build_site(open_reader(path), folder / "_site", search=False)

    return built_once(tmp_path_factory, "full-site", build) / "_site"


# The browser tests (marker `browser`): Debian's Chromium driven by Playwright against a real
# server on 127.0.0.1 serving the small site; one browser for the whole session, a fresh
# context (cookies, storage, permissions) for each test.
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin"),
]
VIEWPORT = {"width": 1100, "height": 900}  # a laptop's window; phone tests set their own


@contextmanager
def serving(site: Path) -> Iterator[str]:
    """`site` served over real HTTP on 127.0.0.1, as `rules-history serve` does: its base URL."""
    from renderer.serve import serve_in_thread

    server, base = serve_in_thread(site)
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def base_url(small_site: Path) -> Iterator[str]:
    """The small site served."""
    with serving(small_site) as base:
        yield base


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The cyclic collector on for the test, then as it was (archive.collector's tests)."""
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for every browser test of the session."""
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any, base_url: str) -> Iterator[Any]:
    """A tab in a fresh context. The test fails if the page asked any other host for anything
    (the site loads nothing from elsewhere) or a script threw."""
    context = browser.new_context(viewport=VIEWPORT)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    tab = context.new_page()
    elsewhere: list[str] = []
    errors: list[str] = []
    local = (base_url, "data:", "blob:")
    tab.on("request", lambda r: None if r.url.startswith(local) else elsewhere.append(r.url))
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert elsewhere == []
    assert errors == []


# The files that take longest, longest first (measured with --durations on a slow two-core
# machine): the two workers take files in this order, so neither is left alone at the end
# with a long one (the run lasts as long as its last file). The first two build the shared
# stores and site: the full store for one worker, the small site for the other. pytest-xdist
# would order files by their number of tests instead (`--no-loadscope-reorder` in the
# pytest options keeps this order).
HEAVIEST_FILES = (
    "test_crawl.py",
    "test_site_a11y_browser.py",
    "test_one_answer.py",
    "test_search_browser.py",
    "test_compare_browser.py",
    "test_stale_store.py",
    "test_rebuild_after_release.py",
    "test_facedown_scenarios.py",
    "test_store.py",
    "test_lookup.py",
    "test_lineage_truth.py",
    "test_crawl_hostile_input.py",
    "test_hostile_input.py",
    "test_derived.py",
    "test_site.py",
    "test_gaps.py",
    "test_packaging.py",
)
RANK = {name: rank for rank, name in enumerate(HEAVIEST_FILES)}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: RANK.get(item.path.name, len(RANK)))  # stable: order kept
