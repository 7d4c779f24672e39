"""Links to other sites: only http(s) URLs become hrefs.

A URL that reaches a page from a capture index or an option (a witness's `url`, `--base-url`)
is data we did not write: `javascript:alert(1)//` rendered as a link runs when clicked, and
autoescaping does not stop it. Every external href goes through `external_url`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

SCHEMES = ("http", "https")


def external_url(url: object) -> str | None:
    """`url` if it is an absolute http(s) URL with a host, else None (render no link).

    >>> external_url("https://mtg.fandom.com/wiki/Face-down")
    'https://mtg.fandom.com/wiki/Face-down'
    >>> external_url("javascript:alert(document.domain)//") is None
    True
    >>> external_url(" JavaScript:alert(1)") is None, external_url("//evil.example/") is None
    (True, True)
    """
    if not isinstance(url, str) or not url or any(c.isspace() or ord(c) < 32 for c in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in SCHEMES or not parts.netloc:
        return None
    return url
