"""Finding the current CR: the official rules page links the newest text file.

Where to look is data: the catalogue's `rules-page` line gives the page's address and the
pattern of the text file's address (`file_pattern`, a regular expression searched in each
link the page holds, resolved against the page). The page is read through the crawler's
one HTTP policy; when it cannot be read, or links no text file, the newest capture of the
page in the Wayback Machine is read instead (CDX, then `id_` playback). The text itself
comes from its official address, or from its newest Wayback capture when that fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from bs4 import BeautifulSoup

from crawler.catalogue import RULES_PAGE_KIND, CatalogueError, Source
from crawler.wayback import BodyCheck, WaybackError, WaybackSession


@dataclass(frozen=True)
class RulesPage:
    """The catalogue's rules page: where the current CR is linked, and how its file is named."""

    id: str
    url: str
    file_pattern: re.Pattern[str]


@dataclass(frozen=True)
class Found:
    """A text file the page links, and how it was found (`official` or `wayback`)."""

    url: str
    page: str  # the page (or its Wayback capture) that links it
    via: str


@dataclass(frozen=True)
class Fetched:
    """The bytes of the current CR text and where they came from."""

    url: str  # the official address of the file
    data: bytes
    fetched_from: str  # the URL actually read (the official one or a Wayback capture)
    capture_time: str | None  # the Wayback timestamp as ISO 8601, when read from Wayback
    found: Found


def rules_page(sources: Iterable[Source], page_url: str | None = None) -> RulesPage:
    """The catalogue's rules page; `page_url` reads another address (a mirror, a test)."""
    for source in sources:
        if source.kind == RULES_PAGE_KIND:
            pattern = source.extra.get("file_pattern")
            if not source.urls or not isinstance(pattern, str):
                raise CatalogueError(f"{source.id}: a rules page needs urls and file_pattern")
            return RulesPage(source.id, page_url or source.urls[0], re.compile(pattern))
    raise CatalogueError(f"the catalogue has no {RULES_PAGE_KIND!r} line")


def linked_files(html: bytes, page_url: str, pattern: re.Pattern[str]) -> list[str]:
    """The http(s) links of the page matching `pattern`, in page order, each once."""
    soup = BeautifulSoup(html, "html.parser")
    found: list[str] = []
    for anchor in soup.find_all("a", href=True):
        url = urljoin(page_url, str(anchor["href"]).strip())
        if urlsplit(url).scheme in ("http", "https") and pattern.search(url) and url not in found:
            found.append(url)
    return found


def find_current(
    page: RulesPage, session: WaybackSession, wayback: WaybackSession, since: str | None
) -> tuple[list[Found], list[str]]:
    """The text files the rules page links (the page first, its Wayback captures after);
    and what failed on the way, one line each."""
    problems: list[str] = []
    try:
        reply = session.download(page.url, expect_type="text/html")
        files = linked_files(reply.data, reply.url, page.file_pattern)
        if files:
            return [Found(url, page.url, "official") for url in files], problems
        problems.append(f"{page.url}: links no file matching {page.file_pattern.pattern}")
    except WaybackError as error:
        problems.append(str(error))
    try:
        records = list(wayback.search(page.url, from_date=since))
        for record in reversed(records):  # newest capture first
            capture = wayback.fetch(page.url, record.timestamp, expect_type="text/html")
            files = linked_files(capture.data, page.url, page.file_pattern)
            if files:
                return [Found(url, capture.wayback_url, "wayback") for url in files], problems
        problems.append(f"{page.url}: no Wayback capture since {since} links a CR text")
    except WaybackError as error:
        problems.append(str(error))
    return [], problems


def fetch_text(
    found: Found, session: WaybackSession, wayback: WaybackSession, check: BodyCheck
) -> tuple[Fetched | None, list[str]]:
    """The file's bytes, checked by `check` before they are returned: from its official
    address, else from its newest Wayback capture."""
    problems: list[str] = []
    try:
        reply = session.download(found.url, expect_type="text/plain", check=check)
        return Fetched(found.url, reply.data, reply.url, None, found), problems
    except WaybackError as error:
        problems.append(str(error))
    try:
        for record in reversed(list(wayback.search(found.url))):
            try:
                capture = wayback.fetch(
                    found.url, record.timestamp, expect_type="text/plain", check=check
                )
            except WaybackError as error:
                problems.append(str(error))
                continue
            stamp = capture.timestamp
            when = (
                f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}T{stamp[8:10]}:{stamp[10:12]}:{stamp[12:]}Z"
            )
            return Fetched(found.url, capture.data, capture.wayback_url, when, found), problems
    except WaybackError as error:
        problems.append(str(error))
    return None, problems
