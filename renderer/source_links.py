"""Where a capture came from, as links: the original URL and the Wayback Machine's copy.

A capture read from the Wayback Machine has its capture time in the store
(captures.capture_time, witness_captures.capture_time): its link is that very capture,
https://web.archive.org/web/<timestamp>/<url>. A capture taken from elsewhere (a repository
that kept the file) has only the URL it was published at; its link asks the Wayback Machine
for the capture nearest the release date (a date-only timestamp), and says so.
"""

from __future__ import annotations

import re
from typing import Any

from renderer.links import external_url

WAYBACK = "https://web.archive.org/web/"


def wayback_timestamp(when: str) -> str:
    """'2017-04-05T22:44:36Z' -> '20170405224436'; '2008-02-01' -> '20080201'.

    >>> wayback_timestamp("2017-04-05T22:44:36Z"), wayback_timestamp("2008-02-01")
    ('20170405224436', '20080201')
    """
    return re.sub(r"\D", "", when)[:14]


def source_links(
    url: str | None, capture_time: str | None, near: str | None
) -> list[dict[str, Any]]:
    """The links of a capture's source: [] when its URL is not an http(s) URL.

    >>> found = source_links("http://x.test/cr.txt", "2009-07-10T01:02:03Z", None)
    >>> [link["href"] for link in found]
    ['http://x.test/cr.txt', 'https://web.archive.org/web/20090710010203/http://x.test/cr.txt']
    >>> source_links("http://x.test/cr.txt", None, "2008-02-01")[1]["label"]
    'Wayback Machine: the capture nearest 2008-02-01'
    """
    original = external_url(url)
    if original is None:
        return []
    links = [{"href": original, "label": "original", "rel": "external nofollow"}]
    if capture_time:
        label = f"Wayback Machine capture of {capture_time[:10]} (the copy read)"
        links.append(
            {
                "href": WAYBACK + wayback_timestamp(capture_time) + "/" + original,
                "label": label,
                "rel": "external nofollow",
            }
        )
    elif near:
        links.append(
            {
                "href": WAYBACK + wayback_timestamp(near) + "/" + original,
                "label": f"Wayback Machine: the capture nearest {near}",
                "rel": "external nofollow",
            }
        )
    return links
