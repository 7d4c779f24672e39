"""Writing pages incrementally: a page is rendered only when its inputs changed.

Each page has a key: the hash of the code that shapes pages (the renderer's, the modules below
it that it reads, the templates) plus its template context
(or an explicit key given by the caller). The build manifest, kept in the build's state
folder (`renderer.state`, never in the published folder), keeps the key of every page
written; a page whose key is unchanged and whose file still exists is neither rendered nor
written. Files of the previous build that no page produced this time are removed, so the
folder always equals a fresh build.
"""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing
import os
import pickle
from collections import deque
from collections.abc import Callable
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any

from archive.errors import CaptureError
from archive.paths import resolve_inside
from archive.workers import die_with_parent
from renderer.site_files import site_folder
from renderer.state import MANIFEST, UNFINISHED

# UNFINISHED is present while a build writes: found at the start, it means the last build was
# killed, and every page is rendered again (a page it cut short may look unchanged to the
# manifest).
OWNED = ("history", "rule", "releases", "diff", "renumbering", "keyword")
RENDERER = Path(__file__).resolve().parent
# The packages below the renderer (the layers in pyproject.toml) whose code shapes what a page
# says, not only what the store holds: a note's wording (archive.lost_marks), a clause's label.
READ_BY_PAGES = ("facedown", "lineage", "archive", "vocabulary")
PAGE_SOURCES = {".py", ".html", ".css", ".js", ".txt"}  # what counts in renderer/, site/
KEY_PICKLE_PROTOCOL = 5  # fixed, so that a newer Python's default never changes every key
PAGES_PER_CHUNK = 500  # pages a worker renders between two reports to the progress bar
QUEUED_PER_WORKER = 2  # chunks given ahead to each worker, so it never waits on the main one


def code_files() -> list[tuple[str, Path]]:
    """(name, path) of every file whose change may change a page: the renderer's code, site/
    (templates, styles, scripts), and the Python code of the packages it reads
    (`READ_BY_PAGES`; only their code: the archive's folder holds its captures too)."""
    found = []
    for folder, suffixes in (
        (RENDERER, PAGE_SOURCES),
        (site_folder(), PAGE_SOURCES),
        *((RENDERER.parent / package, {".py"}) for package in READ_BY_PAGES),
    ):
        for path in sorted(folder.rglob("*")):
            if path.suffix in suffixes and path.is_file():
                found.append((f"{folder.name}/{path.relative_to(folder)}", path))
    return found


def code_key() -> str:
    """Hash of everything that shapes pages besides the data (`code_files`)."""
    digest = hashlib.sha256()
    for name, path in code_files():
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def context_key(context: Any) -> str:
    """Hash of a page's inputs, from their pickle: three times as fast as `repr` over the
    31,000 pages (a second of every rebuild), and, like it, a function of the values alone
    for the plain values, lists and dicts the contexts are built of, in a fixed order. The
    pickler runs without its memo: with it, an object met twice is written once, so two
    equal contexts gave different keys where one shared what the other repeated (95 of the
    pages of a rebuild with nothing new were rendered again)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=KEY_PICKLE_PROTOCOL)
    pickler.fast = True  # no memo: the bytes depend on the values, not on object identity
    pickler.dump(context)
    return hashlib.sha1(buffer.getbuffer()).hexdigest()[:20]


class SiteWriter:
    def __init__(
        self, out: Path, code: str, state: Path, names: dict[str, str | None] | None = None
    ) -> None:
        """Write into `out`; keep the manifest in `state` (a folder outside `out`).

        `names` (release date -> set name) is data every page may show: a release renamed
        since the last build re-renders every page, a release added does not (the pages that
        show it have it in their own keys)."""
        self.out = out
        self.code = code
        self.names = names or {}
        self.state = state
        # Leftovers can only be in page folders that were there before this build began.
        begun_empty = not any(os.path.isdir(os.path.join(out, folder)) for folder in OWNED)
        self.out.mkdir(parents=True, exist_ok=True)
        self.interrupted = (state / UNFINISHED).exists()
        self.previous: dict[str, str] = (
            {} if self.interrupted else _previous_pages(state, code, self.names)
        )
        # A manifest that lists every file the last build wrote, or page folders this build
        # made, make walking them for leftovers needless (a walk of 31,000 folders, 0.7 s).
        self.trusted = bool(self.previous) or begun_empty
        (state / UNFINISHED).write_text(f"a build is writing {out}\n")
        self.pages: dict[str, str] = {}
        self.rendered = 0
        self.skipped = 0
        self.changed: set[str] = set()
        self.jobs: list[tuple[str, Callable[[], str]]] = []

    def page(self, path: str, render: Callable[[], str], key: str) -> None:
        """Write `path` (relative, e.g. 'rule/504.2/index.html') unless its key is unchanged."""
        self.pages[path] = key
        if self.previous.get(path) == key and os.path.exists(os.path.join(self.out, path)):
            self.skipped += 1
            return
        self.rendered += 1
        self.jobs.append((path, render))

    def render_all(
        self,
        workers: int,
        start: Callable[[], None] = lambda: None,
        collect: Callable[[], Any] = lambda: None,
        done: Callable[[int], Any] = lambda pages: None,
    ) -> list[Any]:
        """Render the pages queued by `page()`: in this process and `workers` - 1 forked ones
        when `workers` > 1.

        This process renders chunks of pages itself between handing chunks to the workers
        (`QUEUED_PER_WORKER` ahead each), rather than waiting while `workers` forked ones
        render. After a fork, a process that touches a page of memory the others still
        share gets its own copy of it (reading an object writes its reference count), so
        two workers beside an idle parent copied the model's pages twice over; this process
        and one worker copy each at most once. With two cores, that cut a full build's
        system time by a quarter.

        `start` runs first in each worker (to open its own database connections); `collect`
        runs after each chunk of pages, in the process that rendered it, and its results are
        returned to the caller; `done` hears how many pages each finished chunk held (for a
        progress bar).
        """
        global _JOBS
        jobs, self.jobs = self.jobs, []
        if workers <= 1 or len(jobs) < 200 or "fork" not in multiprocessing.get_all_start_methods():
            self.changed.update(_render_chunk(self.out, jobs))
            done(len(jobs))
            return [collect()]
        _JOBS = (self.out, jobs, start, collect)
        count = max(workers * 4, len(jobs) // PAGES_PER_CHUNK)
        chunks = deque(list(range(i, len(jobs), count)) for i in range(count))
        context = multiprocessing.get_context("fork")
        collected: list[Any] = []

        def finished(size: int, changed: list[str], extra: Any) -> None:
            self.changed.update(changed)
            collected.append(extra)
            done(size)

        try:
            with context.Pool(workers - 1, initializer=_worker_start) as pool:
                given: deque[AsyncResult[tuple[int, tuple[list[str], Any]]]] = deque()
                while chunks or given:
                    while chunks and len(given) < QUEUED_PER_WORKER * (workers - 1):
                        given.append(pool.apply_async(_worker_chunk, (chunks.popleft(),)))
                    while given and given[0].ready():
                        size, (changed, extra) = given.popleft().get()
                        finished(size, changed, extra)
                    if chunks:
                        size, (changed, extra) = _worker_chunk(chunks.popleft())
                        finished(size, changed, extra)
                    elif given:
                        given[0].wait()
        finally:
            _JOBS = None
        return collected

    def file(self, path: str, data: bytes) -> None:
        """A non-page file (JSON, text); written only when its bytes differ."""
        self.pages[path] = hashlib.sha256(data).hexdigest()[:20]
        if write_if_changed(self.out, path, data):
            self.changed.add(path)

    def take(self, pages: dict[str, str], changed: set[str], rendered: int, skipped: int) -> None:
        """What another process wrote into `out` for this build (renderer.forked_family):
        its pages' keys, the files it changed, its counts."""
        self.pages.update(pages)
        self.changed |= changed
        self.rendered += rendered
        self.skipped += skipped

    def keep(self, path: str, key: str) -> None:
        """A non-page file the caller knows is current (written by an earlier build)."""
        self.pages[path] = key

    def finish(self) -> list[str]:
        """Remove pages of the last build that were not produced now; save the manifest."""
        stale = set(self.previous) - set(self.pages)
        # The page folders belong to the build alone: anything else in them is a leftover
        # (say, of a build that stopped before it saved its manifest, or of other code).
        for folder in () if self.trusted else OWNED:
            stale.update(name for name in _html_files(self.out, folder) if name not in self.pages)
        for name in stale:
            target = _inside(self.out, name)
            if target is not None:
                target.unlink(missing_ok=True)
        manifest = {"code": self.code, "names": self.names, "pages": self.pages}
        (self.state / MANIFEST).write_text(json.dumps(manifest, sort_keys=True))
        (self.state / UNFINISHED).unlink(missing_ok=True)
        return sorted(stale)


def _previous_pages(state: Path, code: str, names: dict[str, str | None]) -> dict[str, str]:
    """The pages the last build recorded (in its state folder), if it was built by the same
    code and named every release it knew as `names` does (else none)."""
    try:
        previous = json.loads((state / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(previous, dict) or previous.get("code") != code:
        return {}
    known = previous.get("names")
    if not isinstance(known, dict) or any(
        names.get(date, name) != name for date, name in known.items()
    ):
        return {}
    pages = previous.get("pages")
    return pages if isinstance(pages, dict) else {}


def _inside(out: Path, name: object) -> Path | None:
    """`out / name` when it is a file or link whose folder lies inside `out`, else None.

    The names come from the build manifest, which anyone can edit: `../victim.txt` or an
    absolute path must never be unlinked as a stale page.
    """
    if not isinstance(name, str):
        return None
    try:
        folder = resolve_inside(out, os.path.dirname(name) or ".", "stale page")
    except CaptureError:
        return None
    target = folder / os.path.basename(name)
    if target.is_symlink() or target.is_file():
        return target
    return None


def _html_files(out: Path, folder: str) -> list[str]:
    """Paths (relative to `out`) of the .html files under `out/folder`: os.walk on strings,
    several times faster than Path.rglob over 30,000 files."""
    found: list[str] = []
    skip = len(str(out)) + 1
    for top, _dirs, files in os.walk(os.path.join(out, folder)):
        relative = top[skip:] + "/"
        found.extend(relative + name for name in files if name.endswith(".html"))
    return found


Job = tuple[str, Callable[[], str]]
_JOBS: tuple[Path, list[Job], Callable[[], None], Callable[[], Any]] | None = None


def _render_chunk(out: Path, jobs: list[tuple[str, Callable[[], str]]]) -> list[str]:
    return [path for path, render in jobs if write_if_changed(out, path, render().encode())]


def write_if_changed(out: Path, path: str, data: bytes) -> bool:
    """Write `data` to `out/path` unless the file holds those bytes already (its time then
    stays, for tools that upload what changed); True when written.

    The file's folder is made first: when that makes it, no file can be there, and nothing
    is read. A build from nothing makes some 31,000 folders, one per page, and each call to
    the file system costs tens of microseconds on a virtual disk: this way a new page costs
    a folder and a file, where asking whether the file exists and then making its folder
    and parents cost a third more calls (and twice the writer's own CPU time)."""
    target = os.path.join(out, path)
    folder = os.path.dirname(target)
    try:
        os.mkdir(folder)
        made = True
    except FileExistsError:
        made = False
    except FileNotFoundError:  # its parent is missing too: so is any file in it
        os.makedirs(folder, exist_ok=True)
        made = True
    if not made:
        try:
            with open(target, "rb") as old:
                if os.fstat(old.fileno()).st_size == len(data) and old.read() == data:
                    return False
        except FileNotFoundError:
            pass
    with open(target, "wb") as new:
        new.write(data)
    return True


def _worker_start() -> None:
    die_with_parent()  # a killed build leaves no worker behind
    assert _JOBS is not None
    _JOBS[2]()


def _worker_chunk(indices: list[int]) -> tuple[int, tuple[list[str], Any]]:
    assert _JOBS is not None
    out, jobs, _start, collect = _JOBS
    changed = _render_chunk(out, [jobs[i] for i in indices])
    return len(indices), (changed, collect())


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))
