"""Clause history pages, one per lineage (lineage.store): /history/FIRST_RELEASE/FIRST_NUMBER/.

Every wording with the releases it was in force and the numbers it had, the word diff from the
wording before, the events (renumbered, split, merged...), blame (since when the words read as
they do) and witnesses when archive.witnesses has them. The URL is made of the clause's first
release and first number, so it stays the same when later releases are added.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache
from itertools import groupby
from typing import Any

from sqlite_utils import Database

from renderer.changes import compared_with, lineage_ready
from renderer.citations import citations
from renderer.context import Site
from renderer.environment import clause_anchor, is_rule_number, rule_url
from renderer.explained import explained_lineage
from renderer.queries import has_table, texts
from renderer.writer import context_key


def build_lineage_if_possible(db: Database) -> dict[str, Any] | None:
    """Bring the lineage tables up to date (incremental) when lineage.store exists."""
    try:
        from lineage.store import build_lineage
    except ImportError:
        return None
    return build_lineage(db)


def build_histories(site: Site) -> None:
    if not has_table(site.db, "lineage_members") or not lineage_ready(site.db):
        return
    db = site.db
    site.witnessed = witnessed_numbers(site)
    lineages = {row["id"]: row for row in db.query("SELECT * FROM lineages")}
    urls = _urls(lineages)
    members: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in db.execute(
        """SELECT m.lineage_id, m.release, m.number, p.version_hash, m.part_id,
                  cv.normalised_hash
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           LEFT JOIN clause_versions cv ON cv.hash = p.version_hash
           ORDER BY m.lineage_id, m.release, p.position"""
    ):
        members[row[0]].append(row[1:])
    for lineage_id, rows in members.items():
        url = urls[lineage_id]
        title = _title(lineages[lineage_id])
        for row in rows:
            site.part_lineage[row[3]] = lineage_id
            site.history_urls[row[3]] = url
            site.history_titles[row[3]] = title
    events: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in db.query(
        """SELECT lineage_id, release, kind, old_numbers, new_numbers, related_lineages,
                  method, score, weak
           FROM lineage_events ORDER BY lineage_id, release, id"""
    ):
        events[row["lineage_id"]].append(row)
    wording = texts(db, {row[2] for rows in members.values() for row in rows if row[2]})
    base = compared_with(site.dates, site.derived)  # events are of the official chain
    previous = {day: old for day, old in base.items() if old and day not in site.derived}
    for lineage_id, rows in members.items():
        url = urls[lineage_id]
        h = _history(lineages[lineage_id], rows, events[lineage_id], urls, lineages, previous, site)
        _mark_derived(h, rows, site.derived)
        h["url"] = url
        h["lineage_id"] = lineage_id
        h["title"] = _title(lineages[lineage_id])
        h["explained"] = explained_lineage(site, lineage_id)
        site.histories[lineage_id] = h
        # Pages of clauses still in force never name the newest release (they say "today"),
        # so that a new release re-renders only the histories it changes. The texts are left
        # out of the key: each wording's version is the hash of its text.
        key_data = {"h": {k: v for k, v in h.items() if k != "years"}}
        site.search_records.append(_record(h, wording))

        def context(h: dict[str, Any] = h) -> dict[str, Any]:
            return _finish(site, h, wording)

        site.clause_page(
            url.strip("/") + "/index.html",
            "history.html",
            context,
            context_key(key_data),
            lineage_id,
        )


def _mark_derived(h: dict[str, Any], rows: list[tuple[Any, ...]], copies: set[str]) -> None:
    """A wording read only from a derived copy says so (`derived`)."""
    for w in h["wordings"]:
        releases = {row[0] for row in rows if row[2] == w["version"]} if copies else set()
        w["derived"] = bool(releases) and releases <= copies


def _record(h: dict[str, Any], wording: dict[str, str]) -> dict[str, Any]:
    """The search record of one clause: its numbers and each distinct wording."""
    seen: dict[str, str] = {}
    for w in h["wordings"]:
        seen.setdefault(w["normalised"] or w["version"], wording.get(w["version"], ""))
    label = "Rule " if h["numbered"] else "Glossary: "
    numbers = " → ".join(h["numbers"])
    years = h["years"]
    return {
        "url": h["url"],
        "title": f"{label}{numbers} ({years[0]}–{years[-1]})",
        "content": " ".join([numbers, *seen.values()]),
        "years": years,
    }


@lru_cache(maxsize=4096)
def _numbers(data: str) -> tuple[Any, ...]:
    """A JSON list of an event's numbers or lineages: the same few strings recur thousands of
    times, so each is parsed once."""
    return tuple(json.loads(data))


def _urls(lineages: dict[int, dict[str, Any]]) -> dict[int, str]:
    urls: dict[int, str] = {}
    taken: set[str] = set()
    for lineage_id, row in sorted(lineages.items()):
        base = f"/history/{row['first_release']}/{clause_anchor(row['first_number'] or 'x')}/"
        url = base if base not in taken else base.rstrip("/") + f"-{lineage_id}/"
        taken.add(url)
        urls[lineage_id] = url
    return urls


def _title(row: dict[str, Any]) -> str:
    """'504.2 → 708.2 (from 2002)': no end year, so that a new release changes the title
    (and every page that shows it) only when it renumbers the clause."""
    first, last = row["first_number"], row["last_number"]
    numbers = first if first == last else f"{first} → {last}"
    return f"{numbers} (from {row['first_release'][:4]})"


def _history(
    lineage: dict[str, Any],
    rows: list[tuple[Any, ...]],
    found_events: list[dict[str, Any]],
    urls: dict[int, str],
    lineages: dict[int, dict[str, Any]],
    previous: dict[str, str],
    site: Site,
) -> dict[str, Any]:
    newest = site.dates[-1]
    following = {b: a for a, b in previous.items()}
    kinds = {e["release"]: e["kind"] for e in found_events}
    numbered = is_rule_number(lineage["first_number"] or "")
    wordings: list[dict[str, Any]] = []
    for version, group in groupby(rows, key=lambda row: row[2]):
        items = list(group)
        numbers = list(dict.fromkeys(item[1] for item in items))
        start, end = items[0][0], items[-1][0]
        first_with_last = next(item[0] for item in items if item[1] == numbers[-1])
        wordings.append(
            {
                "version": version,
                "normalised": items[0][4],
                "start": start,
                "end": None if end == newest else end,
                "current": end == newest,
                "count": None if end == newest else len(items),
                "numbers": numbers,
                "anchor": clause_anchor(numbers[0]),
                "end_anchor": clause_anchor(items[-1][1]),
                "kind": kinds.get(start) if wordings else "added",
                "url": rule_url(numbers[0], start),
                "cite_number": numbers[-1],
                "cite_release": first_with_last,
            }
        )
    since = wordings[-1]["start"]
    for w in reversed(wordings):
        if w["normalised"] != wordings[-1]["normalised"]:
            break
        since = w["start"]
    spans = []
    for number, group in groupby(rows, key=lambda row: row[1]):
        items = list(group)
        spans.append(
            {
                "number": number,
                "start": items[0][0],
                "end": None if items[-1][0] == newest else items[-1][0],
                "anchor": clause_anchor(number),
            }
        )
    ending = [e for e in found_events if e["release"] == following.get(lineage["last_release"])]
    events = []
    for e in found_events:
        related = [
            {"url": urls.get(other), "title": _title(lineages[other])}
            for other in _numbers(e["related_lineages"])
            if other in lineages
        ]
        old_numbers = [n for n in _numbers(e["old_numbers"]) if n]
        new_numbers = [n for n in _numbers(e["new_numbers"]) if n]
        anchor = clause_anchor((new_numbers or old_numbers or ["x"])[0])
        link = (
            f"/diff/{previous[e['release']]}/{e['release']}/#c-{anchor}"
            if e["release"] in previous
            else f"/releases/{e['release']}/"
        )
        events.append(
            {
                **e,
                "old_numbers": old_numbers,
                "new_numbers": new_numbers,
                "related": related,
                "link": link,
            }
        )
    return {
        "numbered": numbered,
        "numbers": [span["number"] for span in spans],
        "number_spans": spans,
        "first_release": lineage["first_release"],
        "first_number": lineage["first_number"],
        "first_anchor": clause_anchor(lineage["first_number"] or "x"),
        "last_release": None if lineage["last_release"] == newest else lineage["last_release"],
        "last_number": lineage["last_number"],
        "last_anchor": clause_anchor(lineage["last_number"] or "x"),
        "current": lineage["last_release"] == newest,
        "ended": ending[0]["kind"] if ending else None,
        "ended_in": ending[0]["release"] if ending else None,
        "release_count": None if lineage["last_release"] == newest else len(rows),
        "years": sorted({row[0][:4] for row in rows}),
        "since": since,
        "wordings": wordings,
        "events": events,
    }


def _finish(site: Site, h: dict[str, Any], wording: dict[str, str]) -> dict[str, Any]:
    """Add texts, word diffs, witnesses and the citation (the costly part) to a history."""
    before = None
    for w in h["wordings"]:
        if w["url"] not in site.run_urls:  # a number printed twice: the other one has the page
            w["url"] = rule_url(w["numbers"][0])
        w["text"] = wording.get(w["version"], "")
        w["ops"] = site.diffs.diff(before, w["text"]) if before is not None else None
        w["witnesses"] = _witnesses(site, w["start"], w["numbers"][0]) if h["numbered"] else []
        before = w["text"]
    words = h["wordings"]
    h["first_last_ops"] = (
        site.diffs.diff(words[0]["text"], words[-1]["text"]) if len(words) > 2 else None
    )
    last = words[-1]
    path = rule_url(last["cite_number"], last["cite_release"])
    if path not in site.run_urls:
        path = rule_url(last["cite_number"])
    cite = citations(last["cite_number"], last["cite_release"], path, site.base_url)
    return {"title": f"History of {' → '.join(h['numbers'])}", "h": h, "cite": cite}


def witnessed_numbers(site: Site) -> set[str]:
    """Numbers some witness quotes (so the others skip the per-clause lookup)."""
    if not has_table(site.db, "witnesses"):
        return set()
    return {row[0] for row in site.db.execute("SELECT DISTINCT number FROM witnesses")}


def _witnesses(site: Site, release: str, number: str) -> list[dict[str, str]]:
    """Pages that quote this wording (archive.witnesses, once the crawler has them)."""
    if number not in site.witnessed:
        return []
    try:
        from archive.witnesses import witnesses_for
    except ImportError:
        return []
    found = []
    for data in witnesses_for(site.db, release, number):
        url = data.get("url") or ""
        when = (data.get("capture_time") or data.get("page_date") or "")[:10]
        quoted = data.get("quoted_date") or data.get("release") or ""
        note = f"quotes the rule as of {quoted}" if quoted else ""
        if data.get("agreement"):
            note += f"; {data['agreement']}"
        found.append({"url": url, "title": f"{data.get('source')} ({when})", "note": note})
    return found
