"""The accuracy page: how lineages are made and how right they are.

Its figures come from two places, neither of them `tests/`: the agreement with the ground
truth is the package data `lineage/data/accuracy.json` (measured on the whole archive by
`python -m lineage.accuracy --write`, recomputed by `tests/test_lineage_truth.py`), and the
agreement with the official change articles and the count of uncertain links are read from
the store the site is built from.
"""

from __future__ import annotations

import re
from typing import Any

from renderer.context import Site

# What each truth file judges (by its name); a file not listed is described by its name.
PAIR_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})\.csv$")
YEAR_FILE = re.compile(r"^(\d{4})\.csv$")  # each transition between that year's releases
SAMPLE_FILE = "sample.csv"
EVERY_HARD_CLAUSE = (
    "every clause that is not unchanged or plainly renumbered, and a seeded sample of the others"
)


def describe_file(name: str) -> str:
    """'Every hard decision of 2009-05-01 → 2009-07-08' for a truth file's name."""
    found = PAIR_FILE.match(name)
    if found:
        return f"{found[1]} → {found[2]}: {EVERY_HARD_CLAUSE}"
    found = YEAR_FILE.match(name)
    if found:
        return f"each transition between the {found[1]} releases: {EVERY_HARD_CLAUSE}"
    if name == SAMPLE_FILE:
        return "every other transition: a seeded random sample, stratified by kind"
    return name


def _rows(table: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    from lineage.accuracy import ALL, percent

    return [
        {
            "kind": kind,
            "all": kind == ALL,
            "rows": tally["rows"],
            "linked": tally["linked"],
            "named": tally["named"],
            "linked_pct": percent(tally["linked"], tally["rows"]),
            "named_pct": percent(tally["named"], tally["rows"]),
        }
        for kind, tally in table.items()
    ]


def _links(links: dict[str, Any]) -> dict[str, Any]:
    """The links measured one by one (`lineage.accuracy.measure_links`), with their shares."""
    from lineage.accuracy import percent

    if not links:
        return {}
    shown: dict[str, Any] = {
        mark: {**links[mark], "pct": percent(links[mark]["right"], links[mark]["links"])}
        for mark in ("certain", "uncertain")
    }
    truth = links["truth"]
    shown["truth"] = {**truth, "pct": percent(truth["found"], truth["links"])}
    shown["methods"] = [
        {"method": method, **tally, "pct": percent(tally["right"], tally["links"])}
        for method, tally in links.get("methods", {}).items()
    ]
    return shown


def uncertain_counts(site: Site) -> dict[str, int]:
    """Method -> how many changes of this store were decided on weak evidence."""
    if "lineage_events" not in site.db.table_names():
        return {}
    return dict(
        site.db.execute(
            """SELECT method, count(*) FROM lineage_events
               WHERE weak AND kind != 'unchanged' GROUP BY method ORDER BY count(*) DESC, method"""
        ).fetchall()
    )


def accuracy_context(site: Site) -> dict[str, Any]:
    """Everything the page shows (its key too)."""
    from lineage.accuracy import official_agreement, percent, published_figures
    from lineage.alignment import WEAK

    figures = published_figures()
    agreement = official_agreement(site.db)
    for tally in agreement.get("kinds", {}).values():
        tally["pct"] = percent(tally["matched"], tally["entries"])
    if agreement:
        agreement["pct"] = percent(agreement["matched"], agreement["entries"])
    uncertain = uncertain_counts(site)
    return {
        "title": "How lineages are made, and how right they are",
        "overall": _rows(figures.get("overall", {})),
        "files": [
            {"name": name, "about": describe_file(name), "rows": _rows(table)}
            for name, table in figures.get("files", {}).items()
        ],
        "links": _links(figures.get("links", {})),
        "official": agreement,
        "uncertain": uncertain,
        "uncertain_total": sum(uncertain.values()),
        "weak_threshold": WEAK,
    }


def build_accuracy(site: Site) -> None:
    site.page("accuracy/index.html", "accuracy.html", **accuracy_context(site))
