r"""Citations of one rule as it read in one release: plain text, BibTeX, CSL-JSON, Wikipedia.

Each gives the permalink, the release (its date and set name) and an access date. The
access date is the day the reader cites the page, which no build can know: a page written
by the build says `ACCESS_PLACEHOLDER` and static/site.js puts today's date in its place
in the reader's browser (long form in plain text and Wikipedia, ISO 8601 in BibTeX and
CSL-JSON). The build date would be wrong the day after the build, so it is not offered.
`accessed` (an ISO day) fills it when the day is known, as `rules-history serve` knows it.

>>> c = citations("504.2", "2008-02-01", "/rule/504.2/2008-02-01/", "https://example.org",
...               name="Morningtide")
>>> print(c["formats"][0]["text"].replace(". ", ".\n"))
Magic: The Gathering Comprehensive Rules, rule 504.2, release of February 1, 2008 (Morningtide).
https://example.org/rule/504.2/2008-02-01/.
Accessed [the date you read it].
"""

from __future__ import annotations

import re
from json.encoder import encode_basestring_ascii as _string
from typing import Any

from renderer.environment import long_date

WORK = "Magic: The Gathering Comprehensive Rules"
PUBLISHER = "Wizards of the Coast"
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
# What a citation says for its access date until the reader's browser fills it in.
ACCESS_PLACEHOLDER = "[the date you read it]"


# How a citation marks a release read from a derived copy (lineage.derived).
COPY_NOTE = "re-extracted copy"


def bibtex_key(number: str, release: str) -> str:
    return "mtgcr" + re.sub(r"\W", "_", number) + "_" + release.replace("-", "")


def csl_json(
    ident: str,
    title: str,
    number: str,
    issued: tuple[int, int, int],
    version: str,
    url: str,
    accessed: str,
) -> str:
    """The CSL-JSON record of one citation, as `json.dumps(record, indent=2)` writes it.

    Written out rather than dumped: with an indent, the json module leaves its C encoder
    for a Python one, and some 25,000 pages cite (over a second of every full build). Each
    string still goes through the module's own escaping.

    >>> import json
    >>> record = {"id": "i", "type": "document", "title": "t\u00e9", "container-title": WORK,
    ...           "section": "1", "author": [{"literal": PUBLISHER}], "publisher": PUBLISHER,
    ...           "issued": {"date-parts": [[2008, 2, 1]]}, "version": "v", "URL": "u",
    ...           "accessed": {"raw": "r"}}
    >>> csl_json("i", "t\u00e9", "1", (2008, 2, 1), "v", "u", "r") == json.dumps(record, indent=2)
    True
    """
    year, month, day = issued
    return (
        f'{{\n  "id": {_string(ident)},\n  "type": "document",\n  "title": {_string(title)},\n'
        f'  "container-title": {_string(WORK)},\n  "section": {_string(number)},\n'
        f'  "author": [\n    {{\n      "literal": {_string(PUBLISHER)}\n    }}\n  ],\n'
        f'  "publisher": {_string(PUBLISHER)},\n'
        f'  "issued": {{\n    "date-parts": [\n      [\n        {int(year)},\n'
        f"        {int(month)},\n        {int(day)}\n      ]\n    ]\n  }},\n"
        f'  "version": {_string(version)},\n  "URL": {_string(url)},\n'
        f'  "accessed": {{\n    "raw": {_string(accessed)}\n  }}\n}}'
    )


def release_notes(name: str | None, derived: bool = False) -> list[str]:
    """What a citation says of a release after its date: its set name, and that its words
    are a derived copy's (they are the copy's, not an official file's)."""
    return [note for note in (name, COPY_NOTE if derived else None) if note]


def release_parenthesis(name: str | None, derived: bool = False) -> str:
    """What follows a release's date in brackets: 'Scourge; re-extracted copy' ("" for none)."""
    return "; ".join(release_notes(name, derived))


def release_words(release: str, name: str | None, derived: bool = False) -> str:
    """A release as a citation names it: 'July 8, 2009 (Magic 2010)'; a release read from a
    derived copy says so, since its wording is the copy's: 'May 26, 2003 (Scourge;
    re-extracted copy)'.

    >>> release_words("2003-05-26", "Scourge", derived=True)
    'May 26, 2003 (Scourge; re-extracted copy)'
    """
    notes = release_parenthesis(name, derived)
    return long_date(release) + (f" ({notes})" if notes else "")


# BibTeX's special characters in running text (a set name: "Dungeons & Dragons: Adventures
# in the Forgotten Realms"), each escaped; the `url` field is left as it is (read verbatim).
_BIBTEX_SPECIAL = re.compile(r"([&%$#_])")


def bibtex_text(text: str) -> str:
    r"""Running text as a BibTeX field holds it: LaTeX reads a bare "&" as a table column.

    >>> print(bibtex_text("release of July 12, 2021 (Dungeons & Dragons: 100% #1)"))
    release of July 12, 2021 (Dungeons \& Dragons: 100\% \#1)
    """
    return _BIBTEX_SPECIAL.sub(r"\\\1", text)


def day_citation(number: str, on: str, url: str, accessed: str) -> str:
    """The citation of rule `number` on a day (`on`: the day and the release that answers
    for it, as vocabulary.days.day_standing words them; `accessed` written out), as
    /rule/N/DAY/ gives it under "Cite this day" and `cite --day` prints it: the day pages
    fill it with their values (renderer.asof_view)."""
    return f"{WORK}, rule {number}, {on}. {url}. Accessed {accessed}."


def citations(
    number: str,
    release: str,
    path: str,
    base_url: str = "",
    name: str | None = None,
    accessed: str | None = None,
    derived: bool = False,
) -> dict[str, Any]:
    """Every format for rule `number` as of `release` (set `name`; `derived`: read from a
    derived copy), each carrying the permalink and the access date (`accessed`, else the
    placeholder)."""
    url = base_url.rstrip("/") + path
    when = release_words(release, name, derived)
    year, month, day = (int(part) for part in release.split("-"))
    seen_long = long_date(accessed) if accessed else ACCESS_PLACEHOLDER
    seen_iso = accessed or ACCESS_PLACEHOLDER
    title = f"{WORK}, rule {number}"
    plain = f"{title}, release of {when}. {url}. Accessed {seen_long}."
    bibtex = (
        f"@misc{{{bibtex_key(number, release)},\n"
        f"  author = {{{{{PUBLISHER}}}}},\n"
        f"  title = {{{{{WORK}}}, rule {bibtex_text(number)}}},\n"
        f"  year = {{{year}}},\n"
        f"  month = {MONTHS[month - 1]},\n"
        f"  date = {{{release}}},\n"
        f"  url = {{{url}}},\n"
        f"  urldate = {{{seen_iso}}},\n"
        f"  note = {{Comprehensive Rules release of {bibtex_text(when)}}}\n"
        "}"
    )
    csl = csl_json(
        bibtex_key(number, release),
        title,
        number,
        (year, month, day),
        f"release of {when}",
        url,
        seen_iso,
    )
    wikipedia = (
        f"{{{{cite web |title={title} |publisher={PUBLISHER} |date={long_date(release)}"
        f" |version=release of {when} |url={url} |website={WORK} |access-date={seen_long}}}}}"
    )
    return {
        "id": re.sub(r"\W", "-", f"{number}-{release}"),
        "path": path,
        "url": url,
        "release": when,
        "day": release,  # the page shows `release` from these two, its date as a <time>
        "name": name,
        "notes": release_notes(name, derived),  # what follows the date: set name, copy
        "formats": [
            {"key": "plain", "label": "Plain text", "text": plain, "accessed": "long"},
            {"key": "bibtex", "label": "BibTeX", "text": bibtex, "accessed": "iso"},
            {
                "key": "csl",
                "label": "CSL-JSON",
                "text": csl,
                "accessed": "iso",
            },
            {"key": "wiki", "label": "Wikipedia", "text": wikipedia, "accessed": "long"},
        ],
    }
