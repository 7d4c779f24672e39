"""A number page shown as of one day: the segment in force, its placeholders filled.

The build writes each number page (/rule/N/) with its segments (renderer.asof_segments) as
inert `<template>` elements: for each, the days it covers and its answer as HTML with
placeholders. Showing the
page as of a day is then the same small step wherever it happens: `rules-history serve`
does it here, on the server, for /rule/N/DAY/ (HTTP 200, no JavaScript needed);
static/asof.js does it in the browser on a static host whose rewrite rule serves /rule/N/
for /rule/N/DAY/ (see renderer.host_rules). Both pick the segment whose days hold DAY and
replace each placeholder with the same values.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import date

from archive.effect import states_earlier_effect, states_later_effect
from renderer.environment import long_date
from vocabulary.days import ISO_DAY, day_standing, to_come_notice

# Placeholders in a segment's HTML; static/asof.js fills the same ones.
SLOTS = (
    "date",
    "day",
    "release",
    "effective",
    "standing",
    "standing_lower",
    "cited_day",
    "release_url",
    "url",
    "path",
    "accessed",
    "accessed_day",
)
# Where the answer goes in a number page, and the heading's and title's part for the day.
VIEW = '<div id="asof-day" class="asof-view" hidden></div>'
TITLE_DAY = '<span id="asof-title"></span>'
SEGMENT = re.compile(
    r'<template class="asof-segment" data-start="([^"]*)" data-until="([^"]*)">(.*?)</template>',
    re.S,
)
TITLE = re.compile(r"<title>(.*?) · ")


def slot(name: str) -> str:
    """The placeholder for one value: characters no rule text or URL holds.

    >>> slot("date")
    '⟦date⟧'
    """
    if name not in SLOTS:
        raise ValueError(f"no placeholder named {name!r}")
    return f"⟦{name}⟧"


@dataclass(frozen=True)
class Asked:
    """What a reader asked for and when: the number, the day, the page's address."""

    number: str
    day: str
    path: str
    origin: str  # the site's base URL (the build's --base-url, or the request's host)
    accessed: date


def valid_day(text: str) -> bool:
    """True for a real calendar day written YYYY-MM-DD.

    >>> valid_day("2008-03-17"), valid_day("2008-02-30"), valid_day("2008-3-17")
    (True, False, False)
    """
    if not ISO_DAY.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def in_force_at(releases: list[list[str]], day: str) -> int:
    """The place in `releases` ([date, label, ...], oldest first) of the newest release on
    or before `day`; -1 before the first.

    >>> in_force_at([["2007-05-01", "May 1, 2007"], ["2008-02-01", "February 1, 2008"]],
    ...             "2008-03-17")
    1
    """
    found = -1
    for i, release in enumerate(releases):
        if release[0] <= day:
            found = i
    return found


def choose(page: str, day: str) -> str | None:
    """The answer of the segment of `page` whose days (start inclusive, until exclusive;
    an empty until: to today) hold `day`; None when there is none (not a number page).

    >>> page = ('<template class="asof-segment" data-start="2002-10-07" data-until="">'
    ...         '<p>on ⟦date⟧</p></template>')
    >>> choose(page, "2008-03-17"), choose(page, "2001-01-01")
    ('<p>on ⟦date⟧</p>', None)
    """
    for start, until, answer in SEGMENT.findall(page):
        if start <= day and (not until or day < until):
            return str(answer)
    return None


def fill(template: str, values: dict[str, str]) -> str:
    """Each placeholder replaced by its value, escaped for HTML."""
    for name, value in values.items():
        template = template.replace(slot(name), html.escape(value))
    return template


def values(asked: Asked, releases: list[list[str]]) -> dict[str, str]:
    """The placeholders' values for the day asked; `effective` is a release's notice
    (renderer.pages_rules.releases_json): the one in force, when the day is before the later
    day it states it takes effect; or the next one, when the day is on or after the earlier
    day it states it took effect; else empty (its paragraph is then not shown). A day after
    today (`accessed`) adds that it has not come yet (vocabulary.days.TO_COME). `standing`
    opens the answer's sentence and `cited_day` is the day's citation of its release: "in
    force" only on a day the release was in effect (vocabulary.days.day_standing)."""
    # a site built before the list named the effective days lists [date, label] only
    listed = [[*release, *[""] * 4][:4] for release in releases]
    at = in_force_at(listed, asked.day)
    day, label, stated, notice = listed[at] if at >= 0 else [""] * 4
    not_yet = states_later_effect(day, stated) and asked.day < stated
    effective = notice if not_yet else ""
    overtaken = None  # the next release and the earlier day it states, when that day has come
    if not effective and at + 1 < len(listed):
        upcoming, upcoming_label, early, early_notice = listed[at + 1]
        if states_earlier_effect(upcoming, early) and early <= asked.day:
            effective = early_notice
            overtaken = (upcoming_label, long_date(early))
    standing, cited_day = day_standing(
        long_date(asked.day), label, long_date(stated) if not_yet else "", overtaken
    )
    # a day after today: the answer is the newest release, which a later one may replace
    to_come = to_come_notice(asked.day, asked.accessed.isoformat(), long_date(asked.day))
    return {
        "date": long_date(asked.day),
        "day": asked.day,
        "release": label,
        "effective": " ".join(notice for notice in (effective, to_come) if notice),
        "standing": standing,
        "standing_lower": standing[:1].lower() + standing[1:],
        "cited_day": cited_day,
        "release_url": f"/releases/{day}/" if day else "/releases/",
        "url": asked.origin.rstrip("/") + asked.path,
        "path": asked.path,
        "accessed": long_date(asked.accessed.isoformat()),
        "accessed_day": asked.accessed.isoformat(),
    }


def show_as_of(page: str, asked: Asked, releases: list[list[str]]) -> str | None:
    """The number page `page` as of `asked.day`, or None when no segment of it holds the
    day (a page that is not a number page has none)."""
    segment = choose(page, asked.day)
    if segment is None:
        return None
    answer = fill(segment, values(asked, releases))
    when = html.escape(f" as of {long_date(asked.day)}")
    page = page.replace(VIEW, VIEW.replace(" hidden>", f">{answer}"), 1)
    page = page.replace(TITLE_DAY, TITLE_DAY.replace("><", f">{when}<"), 1)
    return TITLE.sub(lambda m: f"<title>{m.group(1)}{when} · ", page, count=1)
