"""Witnesses: secondary sources that quote the CR, stored beside the archive and cross-checked.

A witness clause (a rule a web page quotes, a glossary entry, a ruling) is stored with the
release it quotes, found by date (the release in force on the date the witness gives), and
compared with the archive's wording of that rule in that release: it `agrees` when the two
are the same once typography is folded (`archive.normalise`, and mana symbols written `{3}`
or `3`), else it `differs` and the word diff is kept. A difference is a finding, not an
error: the 2002 morph article quotes rules that were reworded before the Onslaught CR.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from archive.normalise import normalise
from archive.worddiff import word_diff

AGREES, DIFFERS, NOT_IN_RELEASE, NOT_A_QUOTE = "agrees", "differs", "not-in-release", "not-a-quote"


@dataclass(frozen=True)
class WitnessClause:
    """One clause as a witness gives it."""

    kind: str  # "section", "rule", "glossary" or "ruling"
    text: str
    number: str | None = None  # the rule number the witness quotes it under
    title: str | None = None  # section title or glossary term
    quoted_date: str | None = None  # the date of the CR wording, as the witness states it
    date_basis: str | None = None  # where that date comes from (heading, tag, ruling date)
    position: int = 0


@dataclass
class WitnessDocument:
    """A witness capture parsed: the page's own date and the clauses it quotes."""

    source: str
    parser: str
    sha256: str
    file: str
    url: str | None = None
    title: str | None = None
    page_date: str | None = None
    clauses: list[WitnessClause] = field(default_factory=list)
    capture_time: str | None = None
    form: str | None = None


@dataclass
class WitnessReport:
    stored: list[str] = field(default_factory=list)  # witness capture files
    counts: dict[str, int] = field(default_factory=dict)  # agreement -> clauses


_MANA = re.compile(r"\{(\d+|[WUBRGXYZCST])\}")
_SPACE = re.compile(r"\s+")


def comparison_form(text: str) -> str:
    """`normalise`, then mana written `{3}` or `3` alike and all white space as one space.

    >>> comparison_form("a mana cost of {0}, by paying {3}") == comparison_form(
    ...     "a mana cost of 0,  by paying 3")
    True
    """
    return _SPACE.sub(" ", _MANA.sub(r"\1", normalise(text))).strip()


def store_witnesses(db: Database, documents: list[WitnessDocument]) -> WitnessReport:
    """Store each parsed witness capture and cross-check its clauses, replacing older rows.

    Cross-checks are redone on every call: they depend on which releases the store holds.
    """
    report = WitnessReport()
    for document in documents:
        with db.atomic():
            db.conn.execute("DELETE FROM witness_captures WHERE sha256 = ?", [document.sha256])
            capture_id = _insert_capture(db, document)
            for clause in document.clauses:
                row = cross_check(db, clause)
                db.conn.execute(
                    """INSERT INTO witnesses (capture_id, source, position, kind, number, title,
                       text, quoted_date, date_basis, release, archive_version, agreement,
                       word_diff) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    [
                        capture_id,
                        document.source,
                        clause.position,
                        clause.kind,
                        clause.number,
                        clause.title,
                        clause.text,
                        clause.quoted_date,
                        clause.date_basis,
                        row["release"],
                        row["archive_version"],
                        row["agreement"],
                        json.dumps(row["word_diff"]) if row["word_diff"] is not None else None,
                    ],
                )
                report.counts[row["agreement"]] = report.counts.get(row["agreement"], 0) + 1
        report.stored.append(document.file)
    return report


def _insert_capture(db: Database, document: WitnessDocument) -> int:
    db.table("sources").upsert(
        {"id": document.source, "kind": "witness", "name": document.title, "url": document.url},
        pk="id",
    )
    cursor = db.conn.execute(
        """INSERT INTO witness_captures (sha256, source, parser, file, url, capture_time, form,
           page_date, clauses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            document.sha256,
            document.source,
            document.parser,
            document.file,
            document.url,
            document.capture_time,
            document.form,
            document.page_date,
            len(document.clauses),
        ],
    )
    return int(cursor.lastrowid or 0)


def release_quoted(db: Database, quoted_date: str | None) -> str | None:
    """The release in force on the quoted date (the newest on or before it)."""
    if not quoted_date:
        return None
    row = db.execute("SELECT max(date) FROM releases WHERE date <= ?", [quoted_date]).fetchone()
    return row[0] if row else None


def cross_check(db: Database, clause: WitnessClause) -> dict[str, Any]:
    """The release a clause quotes, the archive's version of it there, and whether they agree."""
    release = release_quoted(db, clause.quoted_date)
    result: dict[str, Any] = {
        "release": release,
        "archive_version": None,
        "agreement": NOT_A_QUOTE,
        "word_diff": None,
    }
    if clause.kind == "ruling" or release is None:
        return result
    archived = _archive_clause(db, release, clause)
    if archived is None:
        result["agreement"] = NOT_IN_RELEASE
        return result
    archive_text, version = archived
    witness_text = f"{clause.title}\n{clause.text}" if clause.kind == "glossary" else clause.text
    result["archive_version"] = version
    if comparison_form(archive_text) == comparison_form(witness_text):
        result["agreement"] = AGREES
    else:
        result["agreement"] = DIFFERS
        result["word_diff"] = word_diff(
            comparison_form(archive_text), comparison_form(witness_text)
        )
    return result


def _archive_clause(db: Database, release: str, clause: WitnessClause) -> tuple[str, str] | None:
    if clause.kind == "glossary":
        row = db.execute(
            """SELECT text, version_hash FROM clauses WHERE release = ? AND kind = 'glossary'
               AND lower(replace(title, '-', ' ')) = lower(replace(?, '-', ' '))
               ORDER BY position LIMIT 1""",
            [release, clause.title or ""],
        ).fetchone()
    else:
        row = db.execute(
            """SELECT text, version_hash FROM clauses WHERE release = ? AND number = ?
               AND kind IN ('chapter', 'section', 'rule', 'subrule') ORDER BY position LIMIT 1""",
            [release, clause.number],
        ).fetchone()
    return (row[0], row[1]) if row else None


def witnesses_for(db: Database, release: str, number: str) -> list[dict[str, Any]]:
    """Witnesses of rule `number` as `release` words it.

    A witness counts when it quotes this rule of this release, or quotes the same rule number
    in another release whose wording of it is the very same clause version (the Crystal Keep
    page dates 504.2 to 2007-05-01; it still witnesses 504.2 of 2008-02-01).
    """
    if not db["witnesses"].exists():
        return []
    version = db.execute(
        "SELECT version_hash FROM clauses WHERE release = ? AND number = ? ORDER BY position",
        [release, number],
    ).fetchone()
    rows = db.query(
        """SELECT witnesses.*, witness_captures.file, witness_captures.url,
                  witness_captures.capture_time, witness_captures.page_date
           FROM witnesses JOIN witness_captures ON witness_captures.id = witnesses.capture_id
           WHERE witnesses.number = ? AND (witnesses.release = ? OR
                 (witnesses.archive_version IS NOT NULL AND witnesses.archive_version = ?))
           ORDER BY witnesses.quoted_date, witnesses.source, witnesses.position""",
        [number, release, version[0] if version else None],
    )
    return [_witness_dict(row, release) for row in rows]


def _witness_dict(row: dict[str, Any], release: str) -> dict[str, Any]:
    return {
        "source": row["source"],
        "kind": row["kind"],
        "number": row["number"],
        "text": row["text"],
        "quoted_date": row["quoted_date"],
        "date_basis": row["date_basis"],
        "release": row["release"],
        "same_release": row["release"] == release,
        "agreement": row["agreement"],
        "word_diff": json.loads(row["word_diff"]) if row["word_diff"] else None,
        "capture": row["file"],
        "url": row["url"],
        "capture_time": row["capture_time"],
        "page_date": row["page_date"],
    }


def findings(db: Database) -> list[dict[str, Any]]:
    """Every stored witness clause with its agreement: the closing note's table."""
    return list(
        db.query(
            """SELECT source, kind, number, title, quoted_date, release, agreement, word_diff
               FROM witnesses ORDER BY source, position"""
        )
    )


def witnesses_in_lineages(db: Database, lineages: list[int]) -> list[dict[str, Any]]:
    """Witnesses of any clause of these lineages (`trace`): matched on the release and
    number the witness quotes, so a renumbered clause keeps its witnesses."""
    if not lineages or not db["witnesses"].exists():
        return []
    marks = ", ".join("?" for _ in lineages)
    rows = db.query(
        f"""SELECT DISTINCT witnesses.*, witness_captures.file, witness_captures.url,
                   witness_captures.capture_time, witness_captures.page_date,
                   lineage_members.lineage_id
            FROM witnesses
            JOIN witness_captures ON witness_captures.id = witnesses.capture_id
            JOIN lineage_members ON lineage_members.release = witnesses.release
                 AND lineage_members.number = witnesses.number
            WHERE lineage_members.lineage_id IN ({marks})
            ORDER BY witnesses.quoted_date, witnesses.source, witnesses.position""",
        lineages,
    )
    return [{**_witness_dict(row, row["release"]), "lineage": row["lineage_id"]} for row in rows]
