"""Trace one clause through every release: its numbers and words, across splits and merges.

Reads the lineage tables that `lineage.store.build_lineage` writes.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlite_utils import Database

from archive.errors import LookupFailed
from archive.explanations import annotate_trace
from archive.gaps import gap_between, gap_ending, gaps_by_day
from archive.lookup import Found, find
from archive.printings import printing_of
from archive.query import examples_of_parts, release_in_force
from archive.witnesses import witnesses_in_lineages
from lineage.copy_printings import copy_printings
from lineage.derived import derived_releases
from lineage.evidence import NO_EVIDENCE, UNCERTAIN, evidence, evidence_between
from vocabulary.kinds import MERGED, SPLIT

MAX_LINEAGES = 40  # a trace follows splits and merges, but not across the whole document


def require_lineage(db: Database) -> None:
    """Fail clearly when lineages were never built for this store."""
    if not db["lineage_alignments"].exists() or not db["lineage_alignments"].count:
        raise LookupFailed("the store has no lineages yet: run `rules-history ingest`")


def split_rule_at(text: str) -> tuple[str, str | None]:
    """'504.2@2008-03-17' -> ('504.2', '2008-03-17'); no '@' means the newest release. An
    '@' with nothing after it is refused rather than read as no day: the reader meant one.

    >>> split_rule_at("504.2@2008-03-17"), split_rule_at("708.2a")
    (('504.2', '2008-03-17'), ('708.2a', None))
    """
    number, at, when = text.partition("@")
    if at and not when.strip():
        raise LookupFailed(
            f"{text!r} has nothing after '@': write RULE@DATE (504.2@2008-03-17, or a set code)"
        )
    return number, when or None


def find_lineage(db: Database, found: Found, release: str) -> int:
    """The lineage of the clause `found` (by `archive.lookup.find`) in `release`: its number,
    or its glossary term, which `lineage_members.number` holds for an entry."""
    number = found.label
    if found.part is not None:  # a title names its own printing (archive.printings)
        row = db.execute(
            "SELECT lineage_id FROM lineage_members WHERE part_id = ?", [found.part]
        ).fetchone()
    else:  # a number names its first printing
        row = db.execute(
            """SELECT m.lineage_id FROM lineage_members m JOIN parts p ON p.id = m.part_id
               WHERE m.release = ? AND m.number = ? ORDER BY p.position LIMIT 1""",
            [release, number],
        ).fetchone()
    if row is None:
        what = "rule" if found.term is None else "glossary entry"
        missing = f"there is no {what} {number} in the {release} release"
        raise LookupFailed(missing + where_it_went(db, number, release))
    return int(row[0])


def where_it_went(db: Database, number: str, release: str) -> str:
    """For a number `release` lacks: the last release before it that had the number, and
    the number that clause has in `release` (an old citation's number today), or the clause
    it had been merged into by then; "" when no release before had the number. What `trace`,
    `show` and `cite` say. The last release is an official one where one had the number: a
    derived copy after it is named as the copy (2003-05-26 prints 214.8b, as 2003-03-15 did;
    the reader is sent to the official release).

    The day pages say it their own way (renderer.asof_segments)."""
    copies = derived_releases(db)
    before = [
        day
        for (day,) in db.execute(
            "SELECT DISTINCT release FROM lineage_members WHERE number = ? AND release < ?",
            [number, release],
        )
    ]
    if not before:
        return ""
    newest = max(before)
    last = max((day for day in before if day not in copies), default=newest)
    if last in copies:
        last_said = f"{last} (the re-extracted copy)"
    elif newest != last:  # a copy printed it after the last official release that did
        last_said = f"{last} (and in the re-extracted copy of {newest})"
    else:
        last_said = last
    now = db.execute(
        """SELECT later.number, later.lineage_id FROM lineage_members earlier
           JOIN lineage_members later
           ON later.lineage_id = earlier.lineage_id AND later.release = ?
           WHERE earlier.release = ? AND earlier.number = ?""",
        [release, last, number],
    ).fetchone()
    said = f"; it was last numbered so in {last_said}, and that clause"
    if now is None:
        merged = _merge_of(db, number, last, release)
        if merged is not None:
            return f"{said} was merged into {merged[1]} in {merged[0]} (try {number}@{last})"
        return f"{said} is not in it (try {number}@{last} to see where it went)"
    link = evidence_between(db, last, release, [now[1]]).get(now[1], {})
    doubt = f" (an {UNCERTAIN})" if link.get("weak") else ""
    became = _numbers_in(db, descendants(db, now[1], last), release)
    pieces = split_note(sorted(set(became.values()) - {now[0]}, key=_number_key))
    return f"{said} is {now[0]} in {release}{doubt}{pieces} (try {number}@{last})"


def split_note(others: list[str]) -> str:
    """What a clause became besides the clause that kept its identity (`descendants`), as
    the answers that name its number today add it: 2009 split 408.1c four ways, and naming
    117.3a alone sent a reader to a quarter of it.

    >>> split_note(["117.3b", "117.4"]), split_note([])
    ('; pieces split off it since are 117.3b, 117.4', '')
    """
    return f"; pieces split off it since are {', '.join(others)}" if others else ""


def _merge_of(db: Database, number: str, last: str, release: str) -> tuple[str, str] | None:
    """(release of the merge, number in `release`) of the clause that `number` named in
    `last`, when that clause was merged into one `release` still has."""
    row = db.execute(
        "SELECT lineage_id FROM lineage_members WHERE release = ? AND number = ?", [last, number]
    ).fetchone()
    return _merged_into(db, row[0], release) if row is not None else None


def _merged_into(db: Database, lineage: int, release: str) -> tuple[str, str] | None:
    """(release of the merge, number in `release`) of the clause a merge that ended `lineage`
    took it into (`merges`, the one definition); None when there was none, or `release` no
    longer has that clause."""
    merge = merges(db, lineage).get(lineage)
    if merge is None:
        return None
    into = db.execute(
        "SELECT number FROM lineage_members WHERE lineage_id = ? AND release = ?",
        [merge[1], release],
    ).fetchone()
    return (merge[0], str(into[0])) if into is not None else None


def merges(db: Database, lineage: int | None = None) -> dict[int, tuple[str, int]]:
    """lineage -> (release, lineage) where and into which its clause was merged, for each
    lineage (or the one asked) that a merge ended: the merge after its last release. The one
    definition `trace` and the site's day pages (renderer.model) follow a merge by."""
    found: dict[int, tuple[str, int]] = {}
    for lineage_id, release, related in db.execute(
        f"""SELECT e.lineage_id, e.release, e.related_lineages FROM lineage_events e
            JOIN lineages l ON l.id = e.lineage_id
            WHERE e.kind = ? AND e.release > l.last_release
              {"AND e.lineage_id = ?" if lineage is not None else ""}
            ORDER BY e.lineage_id, e.release, e.id""",
        [MERGED] if lineage is None else [MERGED, lineage],
    ):
        into = json.loads(related)
        if into and lineage_id not in found:  # the first merge that ended it
            found[lineage_id] = (release, int(into[0]))
    return found


def related_lineages(db: Database, start: int) -> list[int]:
    """`start` and the lineages linked to it by splits and merges, nearest first."""
    seen, queue = [start], deque([start])
    while queue and len(seen) < MAX_LINEAGES:
        current = queue.popleft()
        links = set()
        for (related,) in db.execute(
            "SELECT related_lineages FROM lineage_events WHERE lineage_id = ?"
            " AND related_lineages != '[]'",
            [current],
        ):
            links.update(json.loads(related))
        links.update(
            row[0]
            for row in db.execute(
                "SELECT lineage_events.lineage_id FROM lineage_events, json_each(related_lineages)"
                " WHERE json_each.value = ?",
                [current],
            )
        )
        for link in sorted(links - set(seen)):
            seen.append(link)
            queue.append(link)
    return seen[:MAX_LINEAGES]


# What `descendants` reads of a lineage: its first and last release, and its splits and
# merges (release, kind, related lineages) in release order.
Span = tuple[str, str]
Links = list[tuple[str, str, list[int]]]


def descendants(db: Database, start: int, release: str) -> list[int]:
    """`start` and what its clause became after `release`: the pieces split off it, the
    clause a merge took it into, and theirs in turn (`descendants_among`, read from the
    store)."""

    def span(lineage: int) -> Span:
        first, last = db.execute(
            "SELECT first_release, last_release FROM lineages WHERE id = ?", [lineage]
        ).fetchone()
        return str(first), str(last)

    def links(lineage: int) -> Links:
        return [
            (when, kind, json.loads(related))
            for when, kind, related in db.execute(
                """SELECT release, kind, related_lineages FROM lineage_events
                   WHERE lineage_id = ? AND kind IN (?, ?) AND related_lineages != '[]'
                   ORDER BY release, id""",
                [lineage, SPLIT, MERGED],
            )
        ]

    return descendants_among(span, links, start, release)


def descendants_among(
    span: Callable[[int], Span], links: Callable[[int], Links], start: int, release: str
) -> list[int]:
    """`start` and what its clause became after `release`, from `span` and `links` of each
    lineage: the one definition `trace` and the site's day pages (renderer.model) follow.

    Not its relatives by an older split or merge (the 2009 siblings of 613.3d's ancestor
    418.5a are no part of what 613.3d became: IKO removed it)."""
    found, queue = [start], deque([(start, release)])
    while queue and len(found) < MAX_LINEAGES:
        current, after = queue.popleft()
        first, last = span(current)
        for when, kind, related in links(current):
            # a split names its pieces on the clause it came from (which began before it);
            # a merge, its new home on the clause it ended (whose last release is before it)
            if when > after and (
                (kind == SPLIT and first < when) or (kind == MERGED and last < when)
            ):
                for lineage in related:
                    if lineage not in found:
                        found.append(lineage)
                        queue.append((lineage, when))
    return found[:MAX_LINEAGES]


def trace(db: Database, rule: str, as_of: str | None = None) -> dict[str, Any]:
    """The whole history of the clause `rule` designates in the release in force on `as_of`:
    a number, or a section or keyword title or a glossary term, found as `show` finds it
    (`archive.lookup.find`: "morph" is 502.26 in 2002 and 702.37 in 2024)."""
    require_lineage(db)
    if as_of is None:
        rule, as_of = split_rule_at(rule)
    release = release_in_force(db, as_of)
    found = find(db, release, rule)  # a number, or a title or term as `show` reads it
    lineage = find_lineage(db, found, release)
    lineages = related_lineages(db, lineage)
    newest = release_in_force(db, None)
    marks = ", ".join("?" for _ in lineages)
    entries = [
        _entry(row)
        for row in db.query(
            f"""SELECT e.lineage_id, e.release, e.kind, e.old_numbers, e.new_numbers,
                       e.related_lineages, e.similarity, e.method, e.score, e.weak,
                       e.old_part_id, e.new_part_id,
                       new_v.text AS new_text, new_p.printed_number AS new_printed,
                       old_v.text AS old_text, old_p.printed_number AS old_printed,
                       new_m.number AS number
                FROM lineage_events e
                LEFT JOIN lineage_members new_m ON new_m.part_id = e.new_part_id
                LEFT JOIN parts new_p ON new_p.id = e.new_part_id
                LEFT JOIN clause_versions new_v ON new_v.hash = new_p.version_hash
                LEFT JOIN parts old_p ON old_p.id = e.old_part_id
                LEFT JOIN clause_versions old_v ON old_v.hash = old_p.version_hash
                WHERE e.lineage_id IN ({marks})
                ORDER BY e.release, e.lineage_id != ?, e.lineage_id""",
            [*lineages, lineage],
        )
    ]
    gaps = gaps_by_day(db)
    for entry in entries:  # a change after a gap in the archive may have come in the gap
        entry["gap"] = gap_ending(gaps, entry["release"])
    parts = [entry.pop("part") for entry in entries]
    examples = examples_of_parts(db, (part for part in parts if part is not None))
    for entry, part in zip(entries, parts, strict=True):  # part of its wording, as in `diff`
        entry["examples"] = examples.get(part, []) if part is not None else []
    alive = _numbers_in(db, lineages, newest)
    became = _numbers_in(db, descendants(db, lineage, release), newest)
    # How certain `current_number` is: the first weak decision of the clause's lineage after
    # the release asked about (as `diff` of that release and the newest would mark it).
    weak = next(
        (e for e in entries if e["lineage"] == lineage and e["release"] > release and e["weak"]),
        None,
    )
    merged = None if lineage in alive else _merged_into(db, lineage, newest)
    merged_today = merged[1] if merged else None  # what a merge took it into, numbered today
    printing = printing_of(db, release, found.number, found.part) if found.number else None
    result = {
        "rule": found.label,
        "also_named": list(found.also),  # what else the name names (`archive.lookup.Found`)
        # which printing of its number the clause is, as `show` says it (archive.printings)
        "printing": printing.nth if printing else 1,
        "duplicates": printing.count - 1 if printing else 0,
        "as_of": as_of,
        "release": release,
        "lineage": lineage,
        "lineages": lineages,
        "newest_release": newest,
        "current_number": alive.get(lineage) or merged_today,
        # what the clause became: itself, the pieces split off it, what a merge took it into
        "current_numbers": sorted(set(became.values()), key=_number_key),
        "current_link": _link_today(weak),
        "entries": entries,
        "wordings": wordings(db, lineage, gaps),
        # where the re-extracted copy prints the clause outside its official span
        "copy_printings": [
            printed._asdict() for printed in copy_printings(db, lineage, derived_releases(db))
        ],
        "witnesses": witnesses_in_lineages(db, lineages),
    }
    return annotate_trace(db, result)  # each entry with the official explanations of it


def _link_today(weak: dict[str, Any] | None) -> dict[str, Any]:
    """`trace`'s `current_link`: the release and evidence of `weak`, the first weak decision
    between the clause asked about and its number today, or no evidence when there is none."""
    if weak is None:
        return {"release": None, **NO_EVIDENCE}
    return {"release": weak["release"], **evidence(weak["method"], weak["score"], True)}


def wordings(
    db: Database, lineage: int, gaps: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Each wording of the lineage with its span (`first`, `last`, `replaced_by`: see
    lineage.answers), its numbers, the kind of change that began it, and its blame (`gaps`:
    archive.gaps.gaps_by_day, when the caller has read them)."""
    rows = db.query(
        """SELECT first, last, replaced_by, releases, numbers, kind, since, text_since
           FROM wordings WHERE lineage_id = ? ORDER BY position""",
        [lineage],
    )
    if gaps is None:  # a wording replaced across one may have been replaced earlier
        gaps = gaps_by_day(db)
    return [
        {
            **row,
            "numbers": json.loads(row["numbers"]),
            "gap": gap_between(gaps, row["last"], row["replaced_by"]),
        }
        for row in rows
    ]


def _entry(row: dict[str, Any]) -> dict[str, Any]:
    old_numbers, new_numbers = json.loads(row["old_numbers"]), json.loads(row["new_numbers"])
    removed = row["kind"] == "removed"
    return {
        "release": row["release"],
        "number": old_numbers[0] if removed else row["number"] or new_numbers[0],
        "kind": row["kind"],
        "text": row["old_text"] if removed else row["new_text"],
        "part": row["old_part_id"] if removed else row["new_part_id"],  # for its examples
        # the number as the text printed it, where read otherwise (parts.printed_number)
        "printed_number": row["old_printed"] if removed else row["new_printed"],
        "old": old_numbers,
        "new": new_numbers,
        "lineage": row["lineage_id"],
        "related_lineages": json.loads(row["related_lineages"]),
        "similarity": row["similarity"],
        **evidence(row["method"], row["score"], row["weak"]),  # how certain the link is
    }


def _numbers_in(db: Database, lineages: list[int], release: str) -> dict[int, str]:
    marks = ", ".join("?" for _ in lineages)
    rows = db.execute(
        f"SELECT lineage_id, number FROM lineage_members WHERE release = ?"
        f" AND lineage_id IN ({marks})",
        [release, *lineages],
    )
    return {row[0]: row[1] for row in rows}


def _number_key(number: str) -> tuple[Any, ...]:
    """Sort 702.9 before 702.10."""
    head, _dot, tail = number.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    return (head, int(digits) if digits else -1, tail)
