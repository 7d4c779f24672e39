"""Release names and the official explanations, as the pages show them.

Kept in one module so that the page builders change by a line each: `install` gives the
templates `release_label` (a date with its set's name), `explained` the explanations of a
clause's change in a release (what `_explanations.html` shows), `unmatched` an article's
entries that match no change of the release (shown on its diff page as findings).
Both come from the store (`archive.explanations`), read once per build (renderer.model).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from markupsafe import Markup

from archive.explanations import called_new
from renderer.citations import release_parenthesis
from renderer.context import Site
from renderer.environment import long_date_html


def install(site: Site) -> None:
    """Give the templates `release_label(date)`: 'July 8, 2009 (Magic 2010)'; a release
    read from a derived copy says so, as its citations do: 'May 26, 2003 (Scourge;
    re-extracted copy)' (a keyword's era or a day's answer may begin with its words)."""
    names, copies = site.model.names, site.derived

    @cache  # a few hundred days, named on thousands of pages
    def release_label(day: str) -> Markup:
        notes, when = release_parenthesis(names.get(day), day in copies), long_date_html(day)
        return Markup("{} ({})").format(when, notes) if notes else when

    site.env.globals["release_label"] = release_label
    site.env.globals["called_new"] = called_new  # where an article and the lineage disagree


def _table(site: Site) -> dict[tuple[int, str], list[dict[str, Any]]]:
    return site.model.explained


def explained(site: Site, part_id: int | None, release: str) -> list[dict[str, Any]]:
    """The explanations of the change that brought this clause (a part) into `release`."""
    lineage = site.model.part_lineage.get(part_id or 0)
    return _table(site).get((lineage, release), []) if lineage is not None else []


def explained_lineage(site: Site, lineage: int) -> dict[str, list[dict[str, Any]]]:
    """release -> the explanations of this lineage's change in that release."""
    return dict(site.model.explained_by_lineage.get(lineage, {}))


def unmatched(site: Site, release: str) -> list[dict[str, Any]]:
    """Entries of the articles accompanying `release` that match none of its changes."""
    from archive.explanations import findings

    keys = ("article", "set_name", "url", "heading", "finding")
    return [{key: row[key] for key in keys} for row in findings(site.db, release)]
