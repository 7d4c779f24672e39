"""One crawl: for each catalogue source not yet captured, discover a capture and store it.

Resumable by construction: a source the capture store already holds is skipped without a
request, so a crawl killed midway and started again fetches only what is still missing.
`offline` and `dry_run` never create a session, so they cannot touch the network.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from archive.ingest import stated_iso
from crawler.capture_store import CaptureStore, sha256_of
from crawler.catalogue import CR_KIND, RULES_PAGE_KIND, Source
from crawler.cr_text import parse_cr_text
from crawler.wayback import (
    BadCapture,
    BodyCheck,
    CdxRecord,
    NotArchived,
    WaybackError,
    WaybackSession,
)

# A release's file can be online (and captured) a little before the date it is named after.
EARLY_DAYS = 60
# How far the date a text states may lie from the date its release is filed under: up to
# 11 days in the archive (2021-07-12 states July 23, 2021-02-24 states February 15), while
# no two releases are closer than 22 days, and a text stating another release's own date
# is refused whatever the distance.
STATED_DATE_TOLERANCE = timedelta(days=14)


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
    catalogue: Iterable[Source] | None = None,
) -> CrawlReport:
    """Capture every source the store lacks; `session=None` is offline (nothing is fetched).

    `catalogue` (default: `sources`) names every release, so that a text stating another
    release's date is known as that release's, even when only one release is crawled.
    """
    report = CrawlReport()
    dates = release_dates(sources if catalogue is None else catalogue)
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
                record = capture_source(source, store, session, dates)
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


def release_dates(sources: Iterable[Source]) -> dict[str, str]:
    """Each date a CR release is filed under or states, mapped to that release."""
    dates: dict[str, str] = {}
    for source in sources:
        if source.kind == CR_KIND and source.release:
            dates.setdefault(source.release, source.release)
            if source.stated_date:
                dates.setdefault(source.stated_date, source.release)
    return dates


def wrong_release(source: Source, stated: str | None, dates: Mapping[str, str]) -> str | None:
    """Why a text stating `stated` is not the release `source` asks for; None when it is.

    A text that states no date (the oldest releases) cannot be checked, so it passes.
    """
    asked = source.release
    if stated is None or asked is None or stated in (asked, source.stated_date):
        return None
    other = dates.get(stated)
    if other is not None and other != asked:
        return f"the text states {stated}, the date of release {other}, not of {asked} asked for"
    if abs(date.fromisoformat(stated) - date.fromisoformat(asked)) > STATED_DATE_TOLERANCE:
        return (
            f"the text states {stated}, more than {STATED_DATE_TOLERANCE.days} days"
            f" from release {asked} asked for"
        )
    return None


def release_check(source: Source, dates: Mapping[str, str]) -> BodyCheck:
    """A `BodyCheck`: a whole CR text (it reaches its glossary) of the release asked for."""

    def check(data: bytes, url: str) -> None:
        parsed = parse_cr_text(data, url)
        problem = wrong_release(source, stated_iso(parsed.stated_date_text), dates)
        if problem is not None:
            raise BadCapture(url, problem)

    return check


def check_not_another_release(store: CaptureStore, source: Source, data: bytes, url: str) -> None:
    """Bytes the store holds as another release are refused: one object, one release."""
    held = store.release_of(sha256_of(data))
    if held is not None and held != source.release:
        raise BadCapture(url, f"the same bytes as release {held}, already captured")


def capture_source(
    source: Source,
    store: CaptureStore,
    session: WaybackSession,
    dates: Mapping[str, str] | None = None,
) -> str:
    """Fetch the oldest good capture of the source's first archived URL; returns its file.

    A capture that turns out bad (a placeholder page, a wrong type, a CR text that stops
    before its glossary or states another release's date, bytes already stored as another
    release, a redirect to another host, over the size cap) is passed over for the next one
    and never stored, so a later crawl tries the source again; when none is good the last
    error is raised. `dates` is `release_dates` of the catalogue (default: this source).
    """
    last_error: WaybackError = NotArchived(source.urls[0], "no capture with status 200")
    is_cr = source.kind == CR_KIND
    check = release_check(source, release_dates([source]) if dates is None else dates)
    for url, record in _candidates(source, session):
        try:
            capture = session.fetch(
                url,
                record.timestamp,
                expect_type=source.content_type,
                check=check if is_cr else None,
            )
            if is_cr:
                check_not_another_release(store, source, capture.data, url)
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
