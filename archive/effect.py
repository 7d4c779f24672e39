"""A day on which the release in force by file date is not the one in effect by its text.

The archive holds a release in force from the date of its file (`archive.query.
release_in_force`). Fifteen texts state a later day ("These rules are effective as of July
23, 2021." in the file of July 12): on the days between, the rules were published but not
yet in effect. Five state an earlier one ("effective as of July 30, 2024" in the file of
August 2): on the days between, its rules were in effect, though the answer is the release
before. A judge citing either should know. Every answer for such a day says so in the same
words: `show` (and `RULE@DATE`), `cite`, and /rule/N/DAY/ on the server and in the browser,
which fill it from the site's list of releases (`renderer.pages_rules.releases_json`).
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
    """True when a release's text states a day after its file's date (`stated`; None or
    empty when it states none)."""
    return bool(stated) and str(stated) > release


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


def took_effect_before(db: Database, day: str) -> tuple[str, str] | None:
    """(release, the day it states) for the first release filed after `day` when its text
    states it took effect on or before `day`: that day's answer, from the release before,
    is older than the rules then in effect."""
    row = db.execute(
        "SELECT date, stated_date FROM releases WHERE date > ? ORDER BY date LIMIT 1", [day]
    ).fetchone()
    if row is None or row[1] is None or not row[1] <= day:
        return None
    return row[0], row[1]


def states_earlier_effect(release: str, stated: str | None) -> bool:
    """True when a release's text states a day before its file's date (`stated`; None or
    empty when it states none: "" sorts before every day).

    >>> states_earlier_effect("2024-08-02", "2024-07-30"), states_earlier_effect("2024-08-02", "")
    (True, False)
    """
    return bool(stated) and str(stated) < release


def early_effect_notice(release: str, stated: str) -> str:
    """The sentence every answer for a day from `stated` to the day before `release`'s file
    adds (dates written as `effect_notice` writes them).

    >>> early_effect_notice("2024-08-02", "2024-07-30")[:71]
    'the release of 2024-08-02 states that it took effect on 2024-07-30, bef'
    """
    return (
        f"the release of {release} states that it took effect on {stated}, before it was"
        " published: from that day its rules were in effect, and this answer, from the"
        " release before, may be out of date"
    )
