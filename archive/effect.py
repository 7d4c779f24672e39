"""A release read before the day it states it takes effect.

The archive holds a release in force from the date of its file (`archive.query.
release_in_force`). Fifteen texts state a later day ("These rules are effective as of July
23, 2021." in the file of July 12; five more state an earlier one): on the days between,
the rules were published but not yet in effect, and a judge citing them should know. Every
answer for such a day says so in the same words: `show` (and `RULE@DATE`), and
/rule/N/DAY/ on the server and in the browser, which fill it from the site's list of
releases (`renderer.pages_rules.releases_json`).
"""

from __future__ import annotations

from sqlite_utils import Database


def takes_effect_after(db: Database, release: str, day: str) -> str | None:
    """The day `release` states it takes effect, when that is after `day` (a day on or
    after its file's date); None when it was in effect on `day`."""
    row = db.execute("SELECT stated_date FROM releases WHERE date = ?", [release]).fetchone()
    stated = row[0] if row else None
    return stated if stated is not None and stated > day else None


def states_later_effect(release: str, stated: str | None) -> bool:
    """True when a release's text states a day after its file's date (`stated`)."""
    return stated is not None and stated > release


def effect_notice(release: str, stated: str) -> str:
    """The one sentence every answer for a day before `stated` adds (dates as the answer
    writes them: ISO on the command line, in words on the site).

    >>> effect_notice("2021-07-12", "2021-07-23")[:68]
    'the release of 2021-07-12 states that it takes effect on 2021-07-23:'
    """
    return (
        f"the release of {release} states that it takes effect on {stated}: on the days"
        " before, it was published but not yet in effect"
    )
