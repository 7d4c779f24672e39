"""The executable examples on the site: the records the pipeline stored (facedown.store, as
`rules-history examples --json` prints them), grouped by scenario on /examples/, and beside
each clause they cite (the history and wording pages of its lineage: `lineage_examples`).
"""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from renderer.anchors import nth_anchor
from renderer.environment import clause_anchor


def scenarios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows grouped by scenario, oldest release first; consecutive releases with the same
    outcome and cites become one span. A span is marked as changed when its first record
    says so, as `rules-history examples` does (facedown.run: a derived copy's outcome is
    no change, and the release after it is compared with the official one before), and
    one read from a derived copy says so, with what the record notes of it."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(str(row.get("scenario", "?")), []).append(row)
    result = []
    for name, items in grouped.items():
        items.sort(key=lambda row: str(row.get("release", "")))
        spans: list[dict[str, Any]] = []
        for row in items:
            outcome = row.get("outcome")
            text = outcome if isinstance(outcome, str) else json.dumps(outcome, sort_keys=True)
            cites = row.get("cites") or []
            cites = [str(c) for c in cites] if isinstance(cites, list) else [str(cites)]
            links = list(zip(cites, _cite_anchors(row), strict=False))
            last = spans[-1] if spans else None
            if last and (last["outcome"], last["cites"], last["agrees"]) == (
                text,
                cites,
                row.get("agrees"),
            ):
                last["last"] = str(row.get("release", ""))
                last["count"] += 1
                continue
            spans.append(
                {
                    "release": str(row.get("release", "")),
                    "last": None,
                    "count": 1,
                    "outcome": text,
                    "cites": cites,
                    "cite_links": links,  # each cite with its id on the release's page
                    "agrees": row.get("agrees"),
                    "changed": bool(row.get("changed")),
                    "derived": bool(row.get("derived")),
                    "finding": row.get("finding") if row.get("derived") else None,
                }
            )
        first = items[0]
        result.append(
            {
                "name": str(first.get("title") or name),
                "id": name,
                "source": str(first.get("source") or ""),
                "rows": spans,
            }
        )
    return result


def _cite_anchors(record: dict[str, Any]) -> list[str]:
    """The id on its release's page of each clause a record cites: a later printing of a
    number has its own (2006-05-01's face-up 501.3 is 501.3-2; facedown.era.Clause.nth)."""
    cites = record.get("cites") or []
    nths = record.get("cite_printings") or [1] * len(cites)
    return [
        nth_anchor(clause_anchor(str(n)), int(nth)) for n, nth in zip(cites, nths, strict=False)
    ]


RECORD_KEYS = {"scenario", "title", "release", "outcome", "cites", "agrees", "previous_release"}


def lineage_examples(
    db: Database,
    rows: list[dict[str, Any]],
    dates: list[str],
    anchors: dict[str, set[str]],
) -> dict[int, list[dict[str, Any]]]:
    """Lineage id -> the scenarios that cite any of its members, each with its outcome per era.

    `rows` are the run records (facedown.run.run_all, as `rules-history examples --json`
    prints them); `anchors` the change anchors of each release's diff page, so that a changed
    outcome links to the rule change behind it. An era still running at the newest release
    says "today" (no end date, no count): a new release changes these lists, and the pages
    that show them, only when it changes an outcome.
    """
    from facedown.summary import by_clause

    records = [row for row in rows if row.keys() >= RECORD_KEYS]
    if not records:
        return {}
    cited = by_clause(records)
    members: dict[tuple[str, str], list[int]] = {}
    for release, number in cited:  # a few thousand lookups by the (release, number) index
        members[(release, number)] = [
            row[0]
            for row in db.execute(
                "SELECT lineage_id FROM lineage_members WHERE release = ? AND number = ?",
                [release, number],
            )
        ]
    # lineage -> scenario -> the (release, number) pairs of the lineage it cites
    citing: dict[int, dict[str, set[tuple[str, str]]]] = {}
    for pair, found in cited.items():
        for lineage in members.get(pair, ()):
            for record in found:
                citing.setdefault(lineage, {}).setdefault(record["scenario"], set()).add(pair)
    shown = _scenario_eras(records, dates, anchors)
    order = list(shown)
    result: dict[int, list[dict[str, Any]]] = {}
    for lineage, scenarios_here in sorted(citing.items()):
        result[lineage] = [
            _for_lineage(shown[name], scenarios_here[name])
            for name in order
            if name in scenarios_here
        ]
    return result


def _scenario_eras(
    records: list[dict[str, Any]], dates: list[str], anchors: dict[str, set[str]]
) -> dict[str, dict[str, Any]]:
    """Scenario id -> its title and its eras (facedown.summary.outcome_eras), with the eras
    that differ only by a renumbering of the cited clauses joined: one row per outcome."""
    from facedown.summary import outcome_eras

    newest = dates[-1] if dates else ""
    previous = {day: dates[i - 1] for i, day in enumerate(dates) if i}
    first_record = {(r["scenario"], r["release"]): r for r in records}
    result: dict[str, dict[str, Any]] = {}
    for era in outcome_eras(records):
        name = era["scenario"]
        record = first_record[(name, era["first"])]
        entry = result.setdefault(
            name, {"id": name, "title": str(record.get("title") or name), "eras": []}
        )
        eras = entry["eras"]
        cites = [(str(n), era["first"]) for n in era["cites"]]
        at = dict(zip(cites, _cite_anchors(record), strict=False))  # ids on the release page
        last = eras[-1] if eras else None
        if last is not None and era["renumbered"] and era["agrees"] == last["agrees"]:
            last["last"] = era["last"]
            last["count"] += era["releases"]
            seen = {n for n, _ in last["cites"]}
            last["cites"].extend((n, day) for n, day in cites if n not in seen)
            last["anchors"].update(at)
            continue
        change = _rule_change(era, record, previous, anchors) if era["changed"] else []
        eras.append(
            {
                "first": era["first"],
                "last": era["last"],
                "count": era["releases"],
                "outcome": str(era["outcome"]),
                "expected": str(era["expected"]),
                "agrees": era["agrees"],
                "finding": era.get("finding"),
                "source": str(record.get("source") or ""),
                "changed": bool(era["changed"]),
                "change": change,
                "cites": cites,
                "anchors": at,
            }
        )
    for entry in result.values():
        for era in entry["eras"]:
            if era["last"] == newest:  # still the outcome today
                era["last"] = era["count"] = None
        entry["agrees"] = all(era["agrees"] for era in entry["eras"])
    return result


def _rule_change(
    era: dict[str, Any],
    record: dict[str, Any],
    previous: dict[str, str],
    anchors: dict[str, set[str]],
) -> list[dict[str, Any]]:
    """The cited clauses that changed when the outcome did, each linked to the diff page of
    the two releases (at the clause, when that page lists it)."""
    release, before = era["first"], record.get("previous_release")
    diff = f"/diff/{before}/{release}/" if before and previous.get(release) == before else None
    found = []
    for item in era["change"] or []:
        anchor = "c-" + clause_anchor(item.get("after") or item.get("before") or "")
        link = diff and (f"{diff}#{anchor}" if anchor in anchors.get(release, ()) else diff)
        found.append(
            {
                "kind": item.get("change"),
                "before": item.get("before"),
                "after": item.get("after"),
                "link": link,
            }
        )
    return found


def _for_lineage(scenario: dict[str, Any], pairs: set[tuple[str, str]]) -> dict[str, Any]:
    """A scenario as one clause's pages show it: its cites of that clause marked."""
    eras = [
        {
            **era,
            "cites": [
                {
                    "number": n,
                    "release": day,
                    "here": (day, n) in pairs,
                    "anchor": era["anchors"].get((n, day)) or clause_anchor(n),
                }
                for n, day in era["cites"]
            ],
        }
        for era in scenario["eras"]
    ]
    here = sorted({n for _, n in pairs}, key=lambda n: min(d for d, m in pairs if m == n))
    return {**scenario, "eras": eras, "here": here}
