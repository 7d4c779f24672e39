"""The titled clauses of the rules through time: chapters, sections and keyword rules.

A heading is what a reader names ("Morph", "Face-Down Spells and Permanents"): a chapter, a
section, or a rule whose whole text is a title (archive.lookup.is_heading). Its lineage (as
lineage.store stored it) follows it through renumbering, 502.26 → 702.34 → … → 702.37; for
each release it was in, this module reads what that release printed under it (the clauses
whose parent is its number). The site's keyword pages and name index are made from this.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from sqlite_utils import Database

from archive.lookup import is_heading

HEADING_KINDS = ("chapter", "section", "rule")
LONGEST_TITLE = 80  # characters: a rule text longer than this is a sentence, never a title


@dataclass(frozen=True)
class HeadingMember:
    """A heading as one release printed it, with the clauses under it."""

    release: str
    number: str
    kind: str
    title: str
    version: str
    children: tuple[tuple[str, str], ...]  # (number, version hash), in the release's order


def load_headings(db: Database) -> dict[int, tuple[HeadingMember, ...]]:
    """lineage id -> the releases in which it was a heading, oldest first.

    Only a short rule can be a title: the rules are chosen by their text's length in SQLite
    (a set of a few thousand short texts), so that of 120,000 members only the chapters,
    sections and short rules reach Python, and only their texts are read. The members are
    scanned rather than walked in lineage order by their index (NOT INDEXED): sorting the
    46,000 chosen costs SQLite a third of visiting all 350,000 members through the index."""
    short = [LONGEST_TITLE]
    texts = dict(
        db.execute("SELECT hash, text FROM clause_versions WHERE length(text) <= ?", short)
    )
    rows = db.execute(
        f"""SELECT m.lineage_id, m.release, m.number, m.kind, p.title, p.capture_id,
                  p.version_hash
           FROM lineage_members m NOT INDEXED JOIN parts p ON p.id = m.part_id
           WHERE m.kind IN {HEADING_KINDS} AND m.number IS NOT NULL
             AND (m.kind != 'rule' OR p.version_hash IN
                  (SELECT hash FROM clause_versions WHERE length(text) <= ?))
           ORDER BY m.lineage_id, m.release""",
        short,
    ).fetchall()
    longer = {row[6] for row in rows if row[6] not in texts}  # long chapter or section titles
    if longer:
        texts.update(
            db.execute(
                "SELECT hash, text FROM clause_versions"
                " WHERE hash IN (SELECT value FROM json_each(?))",
                [json.dumps(sorted(longer))],
            ).fetchall()
        )
    found = []
    for lineage, release, number, kind, title, capture, version in rows:
        text = texts.get(version)
        if text is not None and is_heading(kind, text):
            found.append((lineage, release, number, kind, title, text, capture, version))
    children = _children(db, {(row[6], row[2]) for row in found})
    headings: dict[int, list[HeadingMember]] = defaultdict(list)
    for lineage, release, number, kind, title, text, capture, version in found:
        name = " ".join((title or text or number).split())
        under = tuple(children.get((capture, number), ()))
        headings[lineage].append(HeadingMember(release, number, kind, name, version, under))
    return {lineage: tuple(items) for lineage, items in headings.items()}


def _children(
    db: Database, wanted: set[tuple[int, str]]
) -> dict[tuple[int, str], list[tuple[str, str]]]:
    """(capture, parent number) -> the numbered clauses printed under it, in order (one scan
    in the order of the parts' own index, rather than a query per chunk of parents)."""
    found: dict[tuple[int, str], list[tuple[str, str]]] = defaultdict(list)
    for capture, parent, number, version in db.execute(
        """SELECT capture_id, parent, number, version_hash FROM parts
           WHERE number IS NOT NULL AND kind IN ('section', 'rule', 'subrule')
           ORDER BY capture_id, position"""
    ):
        if (capture, parent) in wanted:
            found[(capture, parent)].append((number, version))
    return found
