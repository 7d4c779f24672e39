"""Page families prepared and rendered in a process of their own while the build prepares
and renders the others.

Preparing a page is computing its key (renderer.writer): a rebuild after one new release
spends most of its time there, on one core, and the rule-number family alone (25,000 of
the 31,000 pages) is half of it. A build from nothing spends it rendering: the two
processes then share the pages, each rendering the families it prepared. Forked once
the model is loaded, the process prepares its families and renders their changed pages;
what it produced (the keys of its pages and files, the files it changed, its counts, the
word diffs it computed, the time each family took to prepare) comes back through a pipe
and joins the build's manifest. Its progress comes back the same way, and is heard between
this process's own chunks of pages (no thread: the render workers fork from here).
Which families go, and how the cores are shared out, is the build's choice
(renderer.build)."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from archive.collector import heap_frozen, resume_collection
from archive.workers import die_with_parent
from renderer.context import Site
from renderer.errors import SiteBuildError


@dataclass
class FamilyResult:
    """What the family's process produced."""

    pages: dict[str, str]  # path -> key, of each page and file it produced
    changed: set[str]  # the files it wrote
    rendered: int
    skipped: int
    diffs: dict[str, str]  # the word diffs its pages computed (renderer.diffcache)
    timings: dict[str, float]  # step -> seconds preparing it, as the build reports steps


def can_fork(workers: int) -> bool:
    return workers > 1 and "fork" in multiprocessing.get_all_start_methods()


class ForkedFamily:
    """The pages `prepare` queues, prepared and rendered in a forked process; `prepare`
    returns how long each family it queued took."""

    def __init__(
        self,
        name: str,
        site: Site,
        prepare: Callable[[Site], dict[str, float]],
        workers: int,
        start: Callable[[], None],
    ) -> None:
        """`name` is the family's, for messages; `start` runs first in the new process and
        in each of its render workers (their own database connections: a connection is
        never shared across a fork)."""
        self.name = name
        context = multiprocessing.get_context("fork")
        self.receiver, sender = context.Pipe(duplex=False)
        # not a daemon: daemonic processes may not start the render workers it needs
        self.process: BaseProcess | None = context.Process(
            target=_run, args=(site, prepare, workers, start, sender)
        )
        self.process.start()
        sender.close()  # this end is the child's: its closing there ends recv() with EOF
        self.outcome: FamilyResult | BaseException | None = None

    def poll(self, queued: Callable[[int, int], None], done: Callable[[int], None]) -> None:
        """Hear what the family has said so far, without waiting (this process calls it
        between its own chunks of pages, so the progress bar follows both)."""
        while self.outcome is None and self.receiver.poll():
            self._hear(queued, done)

    def join(self, queued: Callable[[int, int], None], done: Callable[[int], None]) -> FamilyResult:
        """Wait for the family; `queued(pages, unchanged)` hears how many pages it will
        render, `done(pages)` each chunk rendered."""
        try:
            while self.outcome is None:
                self._hear(queued, done)
        finally:
            self.close()
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome

    def _hear(self, queued: Callable[[int, int], None], done: Callable[[int], None]) -> None:
        try:
            what, value = self.receiver.recv()
        except EOFError:  # it ended without a word: killed, or its outcome would not pickle
            code = None
            if self.process is not None:
                self.process.join()
                code = self.process.exitcode
            self.outcome = SiteBuildError(
                f"the process preparing the {self.name} pages ended with no answer (exit {code})"
            )
            return
        if what == "queued":
            queued(*value)
        elif what == "done":
            done(value)
        else:  # the result, or the error that stopped it
            self.outcome = value

    def close(self) -> None:
        """End the process (a build that failed elsewhere leaves none behind)."""
        if self.process is not None:
            if self.process.is_alive():
                self.process.terminate()
            self.process.join()
            self.process = None


def _run(
    site: Site,
    prepare: Callable[[Site], dict[str, float]],
    workers: int,
    start: Callable[[], None],
    sender: Connection,
) -> None:
    """In the family's process: prepare, render, send back what it made (or its error)."""
    die_with_parent()  # a killed build leaves no process behind
    try:
        start()
        writer = site.writer
        before = dict(writer.pages)
        rendered, skipped = writer.rendered, writer.skipped
        timings = prepare(site)
        if not gc.isenabled():  # paused by the build while it prepares: resumed as there
            resume_collection()
        sender.send(("queued", (len(writer.jobs), writer.skipped - skipped)))
        diffs: dict[str, str] = {}
        with heap_frozen():  # its render workers fork from here: none walks the model
            for found in writer.render_all(
                workers,
                start=start,
                collect=site.diffs.drain,
                done=lambda pages: sender.send(("done", pages)),
            ):
                diffs.update(found or {})
        pages = {path: key for path, key in writer.pages.items() if before.get(path) != key}
        result = FamilyResult(
            pages,
            writer.changed,
            writer.rendered - rendered,
            writer.skipped - skipped,
            diffs,
            timings,
        )
        sender.send(("result", result))
    except BaseException as error:  # sent as the outcome, raised again by the build
        with contextlib.suppress(Exception):  # not picklable: the build reports the exit
            sender.send(("error", error))
    finally:
        sender.close()
