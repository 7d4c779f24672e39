"""One crawl: for each catalogue source not yet captured, discover a capture and store it.

Resumable by construction: a source the capture store already holds is skipped without a
request, so a crawl killed midway and started again fetches only what is still missing.
`offline` and `dry_run` never create a session, so they cannot touch the network.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from crawler.capture_store import CaptureStore
from crawler.catalogue import CR_KIND, RULES_PAGE_KIND, Source
from crawler.cr_text import check_cr_text
from crawler.wayback import BadCapture, CdxRecord, NotArchived, WaybackError, WaybackSession

# A release's file can be online (and captured) a little before the date it is named after.
EARLY_DAYS = 60


@dataclass
class CrawlReport:
    fetched: list[tuple[str, str]] = field(default_factory=list)  # (source, file)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (source, reason)
    failed: list[tuple[str, str, str]] = field(default_factory=list)  # (source, reason, detail)
    planned: list[tuple[str, str]] = field(default_factory=list)  # dry run: (source, request)

    def as_dict(self) -> dict[str, Any]:
        return {
            "fetched": [{"source": s, "file": f} for s, f in self.fetched],
            "skipped": [{"source": s, "reason": r} for s, r in self.skipped],
            "failed": [{"source": s, "reason": r, "detail": d} for s, r, d in self.failed],
            "planned": [{"source": s, "request": q} for s, q in self.planned],
        }


def crawl(
    sources: list[Source],
    store: CaptureStore,
    session: WaybackSession | None,
    progress: Callable[[Iterable[Source]], Iterable[Source]] = lambda items: items,
    dry_run: bool = False,
) -> CrawlReport:
    """Capture every source the store lacks; `session=None` is offline (nothing is fetched)."""
    report = CrawlReport()
    for source in progress(sources):
        if source.kind == RULES_PAGE_KIND:
            report.skipped.append((source.id, "the rules page: read by `update`"))
        elif store.for_source(source.id):
            report.skipped.append((source.id, "already captured"))
        elif not source.urls:
            report.skipped.append((source.id, "no URL in the catalogue"))
        elif dry_run:
            report.planned.extend((source.id, q) for q in planned_requests(source))
        elif session is None:
            report.skipped.append((source.id, "offline: not captured yet"))
        else:
            try:
                record = capture_source(source, store, session)
            except WaybackError as error:
                report.failed.append((source.id, error.reason, str(error)))
            else:
                report.fetched.append((source.id, record))
    return report


def date_range(source: Source) -> tuple[str | None, str | None]:
    """The CDX date range: the catalogue's, else from a little before the release."""
    start = source.from_date
    if start is None and source.kind == CR_KIND and source.release:
        start = (date.fromisoformat(source.release) - timedelta(days=EARLY_DAYS)).isoformat()
    return start, source.to_date


def planned_requests(source: Source) -> list[str]:
    start, end = date_range(source)
    span = f" from {start}" if start else ""
    span += f" to {end}" if end else ""
    return [f"CDX {url}{span}" for url in source.urls]


def capture_source(source: Source, store: CaptureStore, session: WaybackSession) -> str:
    """Fetch the oldest good capture of the source's first archived URL; returns its file.

    A capture that turns out bad (a placeholder page, a wrong type, a CR text that stops
    before its glossary, a redirect to another host, over the size cap) is passed over for
    the next one and never stored, so a later crawl tries the source again; when none is
    good the last error is raised.
    """
    last_error: WaybackError = NotArchived(source.urls[0], "no capture with status 200")
    check = check_cr_text if source.kind == CR_KIND else None
    for url, record in _candidates(source, session):
        try:
            capture = session.fetch(
                url, record.timestamp, expect_type=source.content_type, check=check
            )
        except (BadCapture, NotArchived) as error:
            last_error = error
            continue
        stored, _new = store.add(
            capture.data,
            source=source.id,
            kind=source.kind,
            url=url,
            timestamp=capture.timestamp,
            status=capture.status,
            content_type=capture.content_type,
            wayback_url=capture.wayback_url,
            release=source.release,
            stated_date=source.stated_date,
            parser=source.parser,
            quotes=source.quotes,
        )
        return stored.file
    raise last_error


def _candidates(source: Source, session: WaybackSession) -> Iterable[tuple[str, CdxRecord]]:
    """CDX records of each URL in turn; then the catalogue's known timestamps, if any."""
    start, end = date_range(source)
    found = False
    for url in source.urls:
        for record in session.search(url, start, end):
            found = True
            yield url, record
    if not found:
        for stamp in source.captures:
            yield source.urls[0], CdxRecord(stamp, source.urls[0], "", "200", "", "")
