"""Check a built site: every internal link and anchor resolves; no page gives one id to two
elements (a link to it would land on the first, whichever was meant); nothing loads from
elsewhere.

Links (`href`, `src`, `action`) are read with a regular expression rather than a full HTML
parser: the site's own templates write them, always quoted, and a full parse of every page
would take longer than the build.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

ATTR = re.compile(
    r"""<(a|link|script|img|form|iframe|source|video|audio)\b[^>]*?\s"""
    r"""(?:href|src|action)="([^"]*)\"""",
    re.I,
)
IDS = re.compile(r"""\sid="([^"]+)\"""")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)""")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)
# A <template>'s links hold placeholders for the day asked (renderer.asof_view): they are
# links only once filled, on the server or in the browser, and checked there by the tests.
TEMPLATE = re.compile(r"<template\b.*?</template>", re.S | re.I)


@dataclass
class LinkReport:
    pages: int = 0
    links: int = 0
    broken: list[tuple[str, str]] = field(default_factory=list)
    external_loads: list[tuple[str, str]] = field(default_factory=list)
    external_links: int = 0
    repeated_ids: list[tuple[str, str]] = field(default_factory=list)  # (page, id)

    @property
    def ok(self) -> bool:
        return not self.broken and not self.external_loads and not self.repeated_ids


def _target(files: set[str], page: str, url: str) -> str:
    """The site-relative file a link names: a folder's index.html, or the file itself."""
    path = unquote(urlsplit(url).path)
    joined = (
        path.lstrip("/") if path.startswith("/") else posixpath.join(posixpath.dirname(page), path)
    )
    base = posixpath.normpath(joined or ".")
    folder = "" if base == "." else f"{base}/"
    if path.endswith("/") or not folder or f"{folder}index.html" in files:
        return f"{folder}index.html"
    return base


def check_site(site: Path, check_anchors: bool = True) -> LinkReport:
    """Every page's links, resources and (optionally) fragments.

    The site's files are listed once (a set of paths relative to the site): a built site has
    some 650,000 links, and a file-system lookup for each took most of the check."""
    report = LinkReport()
    ids: dict[str, set[str]] = {}
    files = {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()}

    def anchors(name: str) -> set[str]:
        if name not in ids:
            text = (site / name).read_text(encoding="utf-8", errors="replace")
            ids[name] = {unquote(i) for i in IDS.findall(text)}
        return ids[name]

    for name in sorted(files):
        if not name.endswith(".html") or name.split("/", 1)[0] == "pagefind":
            continue
        report.pages += 1
        text = TEMPLATE.sub("", (site / name).read_text(encoding="utf-8"))
        given = Counter(IDS.findall(text))  # a <template>'s ids are inert until it is used
        report.repeated_ids.extend((name, i) for i, times in sorted(given.items()) if times > 1)
        for tag, url in ATTR.findall(text):
            report.links += 1
            url = url.replace("&amp;", "&")
            if EXTERNAL.match(url) or url.startswith(("mailto:", "data:", "javascript:")):
                if tag.lower() == "a" and not url.startswith(("data:", "javascript:")):
                    report.external_links += 1
                else:
                    report.external_loads.append((name, url))
                continue
            if url.startswith("#"):
                target = name
            else:
                target = _target(files, name, url)
                if target not in files:
                    report.broken.append((name, url))
                    continue
            fragment = urlsplit(url).fragment
            wanted = check_anchors and fragment and target.endswith(".html")
            if wanted and unquote(fragment) not in anchors(target):
                report.broken.append((name, url))
    for sheet in site.rglob("*.css"):
        for url in CSS_URL.findall(sheet.read_text(encoding="utf-8")):
            if EXTERNAL.match(url):
                report.external_loads.append((str(sheet.relative_to(site)), url))
    return report
