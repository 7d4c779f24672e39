"""The titled clauses of the rules through time: chapters, sections and keyword rules.

A heading is what a reader names ("Morph", "Face-Down Spells and Permanents"): a chapter, a
section, or a rule whose whole text is a title (archive.lookup.is_heading). Its lineage (as
lineage.store stored it) follows it through renumbering, 502.26 → 702.34 → … → 702.37; for
each release it was in, the pipeline stores what that release printed under it (the clauses
whose parent is its number; under a section, its subrules too) in `headings`, a derived
answer like the others (`lineage.answers`). The site's keyword pages and name index are made
from it.

Working it out read every member of every lineage and every numbered part, about a second
per build; the pipeline now does it once, for the releases it redoes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlite_utils import Database

from archive.keyed import keyed_values
from archive.lookup import is_heading

HEADING_KINDS = ("chapter", "section", "rule")
LONGEST_TITLE = 80  # characters: a rule text longer than this is a sentence, never a title
Children = tuple[tuple[str, str], ...]  # (number, version hash), in the release's order


@dataclass(frozen=True)
class HeadingMember:
    """A heading as one release printed it, with the clauses under it."""

    release: str
    number: str
    kind: str
    title: str
    version: str
    children: Children


def load_headings(db: Database) -> dict[int, tuple[HeadingMember, ...]]:
    """lineage id -> the releases in which it was a heading, oldest first (as stored)."""
    headings: dict[int, list[HeadingMember]] = defaultdict(list)
    decoded: dict[str, Children] = {}  # a heading's children rarely change between releases
    for lineage, release, number, kind, title, version, children in db.execute(
        """SELECT lineage_id, release, number, kind, title, version, children FROM headings
           ORDER BY lineage_id, release"""
    ):
        under = decoded.get(children)
        if under is None:
            under = decoded[children] = _decoded(children)
        headings[lineage].append(HeadingMember(release, number, kind, title, version, under))
    return {lineage: tuple(items) for lineage, items in headings.items()}


def store_headings(db: Database, start: str) -> int:
    """Store the headings of the releases from `start` on; returns how many were stored.

    Only a short rule can be a title: the rules are chosen by their text's length in SQLite
    (a set of a few thousand short texts), so that only the chapters, sections and short
    rules reach Python, and only their texts are read. The members come through their index
    by release: the newest release alone is a few hundred rows, not a scan of them all."""
    db.conn.execute("DELETE FROM headings WHERE release >= ?", [start])
    short = LONGEST_TITLE
    texts = dict(
        db.execute("SELECT hash, text FROM clause_versions WHERE length(text) <= ?", [short])
    )
    rows = db.execute(
        f"""SELECT m.lineage_id, m.release, m.number, m.kind, p.title, p.id,
                  p.version_hash
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.release >= ? AND m.kind IN {HEADING_KINDS} AND m.number IS NOT NULL
             AND (m.kind != 'rule' OR p.version_hash IN
                  (SELECT hash FROM clause_versions WHERE length(text) <= ?))""",
        [start, short],
    ).fetchall()
    longer = {row[6] for row in rows if row[6] not in texts}  # long chapter or section titles
    if longer:
        texts.update(keyed_values(db, "clause_versions", "hash", "text", longer))
    found = []
    for lineage, release, number, kind, title, part, version in rows:
        text = texts.get(version)
        if text is not None and is_heading(kind, text):
            found.append((lineage, release, number, kind, title, text, part, version))
    sections = {row[6] for row in found if row[3] == "section"}
    children = _children(db, {row[6] for row in found}, sections, start)
    db.conn.executemany(
        """INSERT INTO headings (lineage_id, release, number, kind, title, version, children)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                lineage,
                release,
                number,
                kind,
                " ".join((title or text or number).split()),
                version,
                _encoded(children.get(part, [])),
            )
            for lineage, release, number, kind, title, text, part, version in found
        ],
    )
    return len(found)


def _children(
    db: Database, wanted: set[int], sections: set[int], start: str
) -> dict[int, list[tuple[str, str]]]:
    """Heading part -> the numbered clauses printed under it, in order (one scan in the order
    of the parts' own index, of the captures of the releases from `start` on).

    Under a chapter, its sections; under a keyword rule, its subrules; under a section, every
    rule and subrule of it (`sections`): 704.5's "The state-based actions are as follows:"
    says nothing without 704.5a-z, and a page of the section that showed its rules alone
    dated its printings by them, as if the list had not changed since the rules did.

    "Under" is where the release prints a clause, not what its number says: the two differ
    only where the text errs, and a reader of the release sees it where it stands. 2024-09-17
    prints 702.175 for Offspring and then for Impending, each with its 702.175a: by number,
    each keyword got the other's rules; 2004-06-01 prints scry's rule 502.35b under 502.36
    Scry, 2006-05-01 rules 501.2-501.6 in section 510 (13 headings of the whole archive)."""
    found: dict[int, list[tuple[str, str]]] = defaultdict(list)
    chapter = section = rule = None  # the part each clause is printed under, so far
    capture_now = None
    for part, capture, number, kind, version in db.execute(
        """SELECT id, capture_id, number, kind, version_hash FROM parts
           WHERE capture_id IN (SELECT capture_id FROM releases WHERE date >= ?)
             AND number IS NOT NULL AND kind IN ('chapter', 'section', 'rule', 'subrule')
           ORDER BY capture_id, position""",
        [start],
    ):
        if capture != capture_now:
            chapter = section = rule = None
            capture_now = capture
        if kind == "chapter":
            chapter, section, rule = part, None, None
        elif kind == "section":
            if chapter in wanted:
                found[chapter].append((number, version))
            section, rule = part, None
        elif kind == "rule":
            if section in wanted:
                found[section].append((number, version))
            rule = part
        else:  # a subrule: its rule's, and its section's (a keyword's subrules too)
            if rule in wanted:
                found[rule].append((number, version))
            if section in sections:
                found[section].append((number, version))
    return found


def _encoded(children: list[tuple[str, str]]) -> str:
    """Children as one text: "number version" a line (neither holds a space)."""
    return "\n".join(f"{number} {version}" for number, version in children)


def _decoded(text: str) -> Children:
    pairs = []
    for line in text.split("\n"):
        if line:
            number, version = line.split(" ", 1)
            pairs.append((number, version))
    return tuple(pairs)
