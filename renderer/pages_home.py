"""The home page: the face-down story, from 2002 to the newest release.

Found from the data, not hard-coded numbers: the section titled "Face-Down Spells and
Permanents" in the newest release and its lineage give the section's numbers over time
(504, 707, 708); every clause numbered under the section in a release belongs to the story;
morph and its relatives are the keyword rules titled Morph, Manifest, Disguise, Cloak and the
rule that starts "Megamorph".
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from renderer.context import Site
from vocabulary.kinds import (
    ADDED,
    MERGED,
    REMOVED,
    RENUMBERED,
    RENUMBERED_EXAMPLE,
    RENUMBERED_REWORDED,
    REWORDED,
    SPLIT,
)

SECTION_TITLE = "Face-Down Spells and Permanents"
KEYWORDS = ("Morph", "Megamorph", "Manifest", "Disguise", "Cloak")
SHOWN_KINDS = {ADDED, REMOVED, REWORDED, RENUMBERED_REWORDED, SPLIT, MERGED}


def build_home(site: Site, histories: dict[int, dict[str, Any]]) -> None:
    story = face_down_story(site, histories) if histories else None
    site.page(
        "index.html",
        "home.html",
        title="History of the Comprehensive Rules",
        story=story,
        newest=site.releases[-1],
        first=site.releases[0],
        count=len(site.releases),
    )


def _newest_part(site: Site, where: str, args: list[Any]) -> int | None:
    row = site.db.execute(
        f"""SELECT parts.id FROM releases JOIN parts ON parts.capture_id = releases.capture_id
            LEFT JOIN clause_versions ON clause_versions.hash = parts.version_hash
            WHERE releases.date = ? AND {where} ORDER BY parts.position LIMIT 1""",
        [site.dates[-1], *args],
    ).fetchone()
    return row[0] if row else None


def _chain(h: dict[str, Any]) -> list[dict[str, str]]:
    return [{"number": s["number"], "first": s["first"]} for s in h["number_spans"]]


def face_down_story(site: Site, histories: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    section_part = _newest_part(
        site,
        "parts.kind = 'section' AND (parts.title = ? OR clause_versions.text = ?)",
        [SECTION_TITLE, SECTION_TITLE],
    )
    if section_part is None or section_part not in site.model.part_lineage:
        return None
    section = histories[site.model.part_lineage[section_part]]
    section_of = {}
    for span in section["number_spans"]:
        for day in site.dates:
            if span["first"] <= day <= (span["last"] or site.dates[-1]):
                section_of[day] = span["number"]
    keyword_lineages = {}
    for word in KEYWORDS:
        part = _newest_part(
            site,
            "parts.kind IN ('rule', 'subrule') AND (clause_versions.text = ?"
            " OR clause_versions.text LIKE ?)",
            [word, f"{word} is a variant%"],
        )
        if part is not None and part in site.model.part_lineage:
            keyword_lineages[word] = site.model.part_lineage[part]
    members = _section_lineages(site, section_of)
    family = set(members) | set(keyword_lineages.values())
    characteristics = _characteristics(site, histories, section_of)
    key = set(keyword_lineages.values())
    if characteristics:
        key.add(characteristics["lineage_id"])
    return {
        "section": {"h": section, "chain": _chain(section)},
        "characteristics": characteristics,
        "first_last": _first_last(site, characteristics),
        "keywords": [
            {"word": w, "h": histories[i], "chain": _chain(histories[i])}
            for w, i in keyword_lineages.items()
        ],
        "timeline": _timeline(site, histories, family, key),
    }


def _section_lineages(site: Site, section_of: dict[str, str]) -> set[int]:
    prefixes = sorted(set(section_of.values()))
    where = " OR ".join("number LIKE ?" for _ in prefixes)
    found = set()
    for lineage_id, release, number in site.db.execute(
        f"SELECT lineage_id, release, number FROM lineage_members WHERE {where}",
        [f"{p}.%" for p in prefixes],
    ):
        if section_of.get(release) and number.startswith(section_of[release] + "."):
            found.add(lineage_id)
    return found


def _characteristics(
    site: Site, histories: dict[int, dict[str, Any]], section_of: dict[str, str]
) -> dict[str, Any] | None:
    """The clause listing a face-down object's characteristics (504.2 / 707.2 / 708.2)."""
    newest = site.dates[-1]
    part = _newest_part(site, "parts.number = ?", [section_of.get(newest, "708") + ".2"])
    if part is None or part not in site.model.part_lineage:
        return None
    return histories[site.model.part_lineage[part]]


def _timeline(
    site: Site, histories: dict[int, dict[str, Any]], family: set[int], keywords: set[int]
) -> list[dict[str, Any]]:
    by_release: dict[str, list[dict[str, Any]]] = defaultdict(list)
    names = site.model.names
    for lineage_id in family:
        h = histories[lineage_id]
        for event in h["events"]:
            if event["kind"] not in SHOWN_KINDS and not (
                event["kind"] in (RENUMBERED, RENUMBERED_EXAMPLE) and lineage_id in keywords
            ):
                continue
            by_release[event["release"]].append(
                {
                    **event,
                    "history": h["url"],
                    "key": lineage_id in keywords,
                    "ops": _event_diff(site, h, event) if lineage_id in keywords else None,
                }
            )
    timeline = []
    for day in sorted(by_release):
        events = sorted(by_release[day], key=lambda e: (not e["key"], json.dumps(e["new_numbers"])))
        kinds: dict[str, int] = defaultdict(int)
        for event in events:
            kinds[event["kind"]] += 1
        timeline.append(
            {"release": day, "name": names.get(day), "events": events, "kinds": dict(kinds)}
        )
    return timeline


def _event_diff(site: Site, h: dict[str, Any], event: dict[str, Any]) -> Any:
    """Word diff of a key clause's rewording at this event (None if its words stayed)."""
    if event["kind"] not in {REWORDED, RENUMBERED_REWORDED, SPLIT, MERGED}:
        return None
    words = h["wordings"]
    for i, w in enumerate(words):
        if i and w["first"] == event["release"]:
            texts = site.model.texts
            return site.diffs.diff(texts[words[i - 1]["version"]], texts[w["version"]])
    return None


def _first_last(site: Site, h: dict[str, Any] | None) -> dict[str, Any] | None:
    """The characteristics clause's first and last wordings and the diff between them."""
    if not h or len(h["wordings"]) < 2:
        return None
    first, last = h["wordings"][0], h["wordings"][-1]
    texts = site.model.texts
    return {
        "first": first,
        "last": last,
        "first_text": texts[first["version"]],
        "last_text": texts[last["version"]],
        "ops": site.diffs.diff(texts[first["version"]], texts[last["version"]]),
    }
