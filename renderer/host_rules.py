"""The rewrite rule that makes a static host answer /rule/N/DAY/ with HTTP 200.

No host can hold a page per number and day, so /rule/N/DAY/ is answered with the number's
page /rule/N/ (renderer.pages_rules), whose script shows it as of DAY. Netlify and
Cloudflare Pages read the rule from `_redirects` at the site's root (a 200 is a rewrite:
the address stays, the host serves the other file). Netlify serves a file that exists
before any rule, so the wording pages written for the days a wording began are served as
they are; Cloudflare applies the rule to them as well, and the number page's script shows
the same wording. The README gives the same rule for Apache and nginx.
"""

from __future__ import annotations

REDIRECTS_FILE = "_redirects"
# One line per form of the address: hosts differ on whether /a/b matches /a/b/.
RULES = (
    "/rule/:number/:day/  /rule/:number/  200",
    "/rule/:number/:day  /rule/:number/  200",
)


def redirects() -> bytes:
    """The `_redirects` file: a comment saying why, then the rules."""
    lines = [
        "# A rule number on any day: /rule/NUMBER/YYYY-MM-DD/ is answered (HTTP 200) with the",
        "# number's page, which shows the wording in force on that day.",
        *RULES,
    ]
    return ("\n".join(lines) + "\n").encode()
