"""Read-only queries the site needs beyond archive.query, as plain rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from sqlite_utils import Database

from archive.query import examples_of_parts
from archive.release_names import names_in_store
from lineage.runs import NUMBERED_KINDS
from lineage.stored_diffs import member_text


def set_names(db: Database) -> dict[str, str | None]:
    """Release date -> its set's name, where a source gives one (what every page that names
    a release shows beside its date)."""
    known = names_in_store(db)
    return {
        day: _set_name(known, day, stored)
        for day, stored in db.execute("SELECT date, name FROM releases")
    }


def _set_name(known: dict[str, tuple[str, str]], day: str, stored: str | None) -> str | None:
    """A release's set name: the sources' (`names_in_store`), else the one its capture gave."""
    return known.get(day, ("", ""))[1] or stored


def releases(db: Database) -> list[dict[str, Any]]:
    """Every release, oldest first, with its set's name and code (where a source gives them),
    the capture it was read from and its counts (`release_counts`: what `rules-history
    releases` prints; see lineage.counts)."""
    rows = list(
        db.query(
            """SELECT releases.date, releases.name, c.clauses, c.rules, c.glossary, c.examples,
                      c.unchanged,
                      releases.stated_date, captures.file, captures.url, captures.sha256,
                      captures.role, captures.capture_time,
                      -- the parser that read it: its pages change when the texts do
                      captures.parser_version
               FROM releases JOIN captures ON captures.id = releases.capture_id
               JOIN release_counts c ON c.release = releases.date
               ORDER BY releases.date"""
        )
    )
    known = names_in_store(db)
    for row in rows:
        row["name"] = _set_name(known, row["date"], row["name"])
        row["set_code"] = known.get(row["date"], ("", ""))[0] or None
    return rows


def release_parts(db: Database, release: str, wording: Mapping[str, str]) -> list[dict[str, Any]]:
    """The parts of a release's preferred capture, in order (the table of contents left out),
    each with its text from `wording` (the model's `texts`): a join with the texts, per
    release, took twice as long as reading the parts alone."""
    rows = db.execute(
        """SELECT parts.id, parts.kind, parts.number, parts.parent, parts.title,
                  parts.version_hash, parts.printed_number
           FROM releases JOIN parts ON parts.capture_id = releases.capture_id
           WHERE releases.date = ? AND parts.kind != 'contents'
           ORDER BY parts.position""",
        [release],
    )
    return [
        {
            "id": part_id,
            "kind": kind,
            "number": number,
            "parent": parent,
            "title": title,
            "text": wording.get(version) if version else None,
            "version_hash": version,
            "printed": printed,  # the number as printed, where read otherwise
        }
        for part_id, kind, number, parent, title, version, printed in rows
    ]


def all_texts(db: Database) -> dict[str, str]:
    """Version hash -> text, of every clause version in the store: some 20,000 texts, read
    in a few hundredths of a second, which the histories, the rule pages and the release
    pages all show (consecutive releases share nearly all of them)."""
    return dict(db.execute("SELECT hash, text FROM clause_versions").fetchall())


def release_versions(db: Database, release: str) -> dict[str, tuple[str, str, int]]:
    """number -> (version hash, normalised hash, part id) of a release's numbered clauses."""
    result: dict[str, tuple[str, str, int]] = {}
    for number, version, normalised, part_id in db.execute(
        f"""SELECT parts.number, parts.version_hash, clause_versions.normalised_hash, parts.id
            FROM releases JOIN parts ON parts.capture_id = releases.capture_id
            JOIN clause_versions ON clause_versions.hash = parts.version_hash
            WHERE releases.date = ? AND parts.kind IN {NUMBERED_KINDS} ORDER BY parts.position""",
        [release],
    ):
        result.setdefault(number, (version, normalised, part_id))
    return result


def examples(db: Database) -> dict[tuple[str, str], list[str]]:
    """(release, parent number) -> the example texts under it."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for day, parent, text in db.execute(
        """SELECT releases.date, parts.parent, clause_versions.text
           FROM parts JOIN releases ON releases.capture_id = parts.capture_id
           JOIN clause_versions ON clause_versions.hash = parts.version_hash
           WHERE parts.kind = 'example' ORDER BY releases.date, parts.position"""
    ):
        found[(day, parent)].append(text)
    return dict(found)


def part_texts(db: Database, part_ids: set[int]) -> dict[int, str]:
    """Wording of each part id."""
    return _pairs_where_in(
        db,
        """SELECT parts.id, clause_versions.text FROM parts
           JOIN clause_versions ON clause_versions.hash = parts.version_hash
           WHERE parts.id IN ({})""",
        part_ids,
    )


def clause_words(db: Database, part_ids: set[int]) -> dict[int, str]:
    """What a change list diffs of each part: its wording, then its examples, one a line
    (lineage.stored_diffs.member_text)."""
    examples = examples_of_parts(db, part_ids)
    return {
        part: member_text(text, examples.get(part, []))
        for part, text in part_texts(db, part_ids).items()
    }


def _pairs_where_in(db: Database, sql: str, keys: set[Any]) -> dict[Any, str]:
    """Run a two-column query whose `IN ({})` takes the keys, in chunks under SQLite's
    limit on bound parameters."""
    found: dict[Any, str] = {}
    ordered = sorted(keys)
    for start in range(0, len(ordered), 900):
        chunk = ordered[start : start + 900]
        found.update(db.execute(sql.format(",".join("?" * len(chunk))), chunk))
    return found
