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


# How an answer for a day names the release that gives it, at the start of its sentence and
# in the day's citation ({day}, {stated}: dates in words; {release}, {next}: releases as a
# citation names them). Most days, the newest release filed by then is in force. A release
# whose text states a later day was only published on the days before it; on the days from
# the earlier day a release's text states up to its file, the newest filed release was
# already out of date. A citation is copied without the page's notes: it says so itself.
IN_FORCE = ("In force", "in force on {day}, release of {release}")
NOT_YET_IN_EFFECT = (
    "Published, not yet in effect,",
    "as published on {day}, release of {release}, in effect from {stated}",
)
OVERTAKEN = (
    "Newest published",
    "as published on {day}, release of {release}; the release of {next} states that it"
    " took effect on {stated}",
)


def day_standing(
    day: str, release: str, not_yet: str = "", overtaken: tuple[str, str] | None = None
) -> tuple[str, str]:
    """(how the sentence on `day` opens, the day's citation of `release`): `not_yet` is the
    later day the release states it takes effect, when `day` is before it; `overtaken`, the
    next release and the earlier day it states, when `day` is on or after that one.

    >>> day_standing("July 9, 2009", "July 8, 2009", not_yet="July 11, 2009")[1]
    'as published on July 9, 2009, release of July 8, 2009, in effect from July 11, 2009'
    >>> day_standing("May 2, 2009", "May 1, 2009")
    ('In force', 'in force on May 2, 2009, release of May 1, 2009')
    """
    if not_yet:
        opening, cited = NOT_YET_IN_EFFECT
        return opening, cited.format(day=day, release=release, stated=not_yet)
    if overtaken is not None:
        opening, cited = OVERTAKEN
        return opening, cited.format(
            day=day, release=release, next=overtaken[0], stated=overtaken[1]
        )
    opening, cited = IN_FORCE
    return opening, cited.format(day=day, release=release)
