"""A day as every stage reads one: YYYY-MM-DD in ASCII digits.

Python's `\\d` takes any script's digits: "２０２１-０７-１２" matched it, and then failed as a
date with Python's own message. One pattern, so that the manifest, the CLI, the server and
the pages agree on what a day looks like.

>>> bool(ISO_DAY.fullmatch("2021-07-12")), bool(ISO_DAY.fullmatch("２０２１-０７-１２"))
(True, False)
"""

from __future__ import annotations

import re

ISO_DAY_PATTERN = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
ISO_DAY = re.compile(ISO_DAY_PATTERN)
# What every answer for a day after today adds (the day written as the answer writes it: ISO
# on the command line, in words on the site): the release in force then is not known yet.
TO_COME = (
    "{day} has not come yet: the answer is the newest release the archive holds, and one"
    " published before that day may change it"
)


def to_come_notice(day: str, today: str, written: str | None = None) -> str:
    """`TO_COME` for `day` (ISO) when it is after `today` (ISO), else "". `written`: the day
    as the answer writes it (default: as given).

    >>> to_come_notice("2030-01-01", "2026-12-01")[:29]
    '2030-01-01 has not come yet: '
    >>> to_come_notice("2026-12-01", "2026-12-01")
    ''
    """
    return TO_COME.format(day=written or day) if day > today else ""
