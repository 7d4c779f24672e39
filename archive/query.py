"""Read the store: releases, one clause as of a date, a capture rebuilt from its parts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlite_utils import Database

from archive.errors import LookupFailed, NotANumber, quoted
from archive.lookup import find
from archive.lost_marks import lost_characters
from archive.printings import printing_of
from archive.release_names import names_in_store
from archive.witnesses import witnesses_for
from vocabulary.days import ISO_DAY_PATTERN
from vocabulary.numbers import is_rule_number

DATE = re.compile(rf"^{ISO_DAY_PATTERN}$")


def release_dates(db: Database) -> list[str]:
    """Every release's date, oldest first."""
    return [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]


def parse_date(text: str) -> str:
    """Check an ISO date given by a user and return it."""
    if not DATE.match(text):
        raise LookupFailed(f"{text!r} is not a date: write it as YYYY-MM-DD")
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError as exc:
        raise LookupFailed(f"{text!r} is not a real date: {exc}") from exc


def resolve_when(db: Database, text: str) -> str:
    """A date given by a user (YYYY-MM-DD), or a release named by its set code or set name
    (any case: `M10`, `ons`, `Magic 2010`) -> an ISO date. The one place that reads names.
    """
    if DATE.match(text.strip()):
        return parse_date(text.strip())
    wanted = text.strip().casefold()
    if not wanted:
        raise LookupFailed(
            f"{text!r} is empty: give a date (YYYY-MM-DD) or a release's set code or name"
        )
    names = names_in_store(db)
    found = sorted(
        day for day, (code, name) in names.items() if wanted in (code.casefold(), name.casefold())
    )
    if len(found) == 1:
        return found[0]
    if found:
        raise LookupFailed(
            f"{text!r} names {len(found)} releases ({', '.join(found)}): give the date"
        )
    near = _near_names(wanted, names)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    raise LookupFailed(
        f"{quoted(text)} is neither a date (write it as YYYY-MM-DD) nor a release's set code or"
        f" name{hint}"
    )


NEAR_NAMES = 5  # how many near matches an unknown release name lists


def _near_names(wanted: str, names: dict[str, tuple[str, str]]) -> list[str]:
    """Codes and names that start like, contain, or are spelt nearly like `wanted`."""
    from difflib import get_close_matches

    labels: dict[str, str] = {}
    for day, (code, name) in sorted(names.items()):
        for option in (code, name):
            if option:
                labels.setdefault(option.casefold(), f"{option} ({day})")
    contains = [labels[key] for key in labels if wanted and (wanted in key or key in wanted)]
    close = [labels[key] for key in get_close_matches(wanted, list(labels), n=NEAR_NAMES)]
    return list(dict.fromkeys(contains + close))[:NEAR_NAMES]


def canonical_number(text: str) -> str:
    """'504.2.' -> '504.2'; rejects what cannot be a rule number.

    >>> canonical_number("708.2a"), canonical_number("504.2."), canonical_number("504")
    ('708.2a', '504.2', '504')
    """
    cleaned = text.strip().rstrip(".")
    if not is_rule_number(cleaned):
        raise NotANumber(
            f"{quoted(text)} is not a rule number (write it like 504, 504.2 or 708.2a)"
        )
    return cleaned


def releases(db: Database) -> list[dict[str, Any]]:
    """Every release, oldest first, with its name and set code, counts and the capture it was
    read from."""
    rows = list(
        db.query(
            """SELECT releases.date, releases.name, releases.clauses, releases.rules,
                      releases.glossary_entries, releases.stated_date, captures.file AS capture
               FROM releases JOIN captures ON captures.id = releases.capture_id
               ORDER BY releases.date"""
        )
    )
    names = names_in_store(db)
    for row in rows:
        code, name = names.get(row["date"], ("", ""))
        row["name"] = name or row["name"]
        row["set_code"] = code or None
    return rows


def release_in_force(db: Database, as_of: str | None) -> str:
    """The newest release on or before `as_of` (the newest of all when None)."""
    if as_of is None:
        row = next(db.query("SELECT max(date) AS date FROM releases"))
        if row["date"] is None:
            raise LookupFailed("the store holds no release yet: run `rules-history ingest`")
        return str(row["date"])
    when = resolve_when(db, as_of)
    row = next(db.query("SELECT max(date) AS date FROM releases WHERE date <= ?", [when]))
    if row["date"] is None:
        first = next(db.query("SELECT min(date) AS date FROM releases"))["date"]
        raise LookupFailed(f"{when} is before the first release in the store ({first})")
    return str(row["date"])


def resolve_release(db: Database, text: str) -> str:
    """A release named by its date exactly (or its set), or the one in force on that date."""
    when = resolve_when(db, text)
    if db["releases"].count_where("date = ?", [when]):
        return when
    return release_in_force(db, when)


@dataclass
class Clause:
    release: str
    number: str
    kind: str
    title: str | None
    text: str
    normalised: str
    raw: str
    parent: str | None
    position: int
    line: int
    part_id: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def show(db: Database, name: str, as_of: str | None = None) -> dict[str, Any]:
    """The clause `name` designates in the release in force on `as_of`, with its examples.

    `name` is a number, a section or keyword title, or a glossary term (`archive.lookup`); a
    heading (a chapter, a section, a keyword's rule) comes with everything numbered under it.
    `lost_characters` counts the characters its copy lost (`lost_in_clause`).
    """
    clause = _show(db, name, as_of)
    clause["lost_characters"] = lost_in_clause(clause)
    return clause


def lost_in_clause(clause: dict[str, Any]) -> int:
    """The characters a conversion lost (`archive.lost_marks`) in the text of a clause as
    `show` gives it (its examples and what is under it are texts of their own): what its
    wording's page says of the same text."""
    return lost_characters(clause["text"] or "")


def _show(db: Database, name: str, as_of: str | None) -> dict[str, Any]:
    release = release_in_force(db, as_of)
    found = find(db, release, name)
    if found.term is not None:
        return _show_glossary(db, release, found.term, as_of)
    wanted = canonical_number(found.number or name)
    printing = printing_of(db, release, wanted, found.part)
    if printing is None:
        raise LookupFailed(_missing_message(db, wanted, release))
    row = next(
        db.query(
            "SELECT * FROM clauses WHERE release = ? AND part_id = ?", [release, printing.part_id]
        )
    )
    examples = [
        ex["text"]
        for ex in db.query(
            """SELECT text, position FROM clauses WHERE release = ? AND kind = 'example'
               AND parent = ? AND position > ? ORDER BY position""",
            [release, wanted, row["position"]],
        )
        if printing.owns(ex["position"])
    ]
    children = [
        child["number"]
        for child in db.query(
            "SELECT number, position FROM clauses WHERE release = ? AND parent = ?"
            " AND number IS NOT NULL ORDER BY position",
            [release, wanted],
        )
        if printing.owns(child["position"])
    ]
    printed = db.execute(
        "SELECT printed_number FROM parts WHERE id = ?", [printing.part_id]
    ).fetchone()[0]
    capture = next(
        db.query(
            "SELECT captures.file, captures.url FROM releases JOIN captures"
            " ON captures.id = releases.capture_id WHERE releases.date = ?",
            [release],
        )
    )
    return {
        "release": release,
        "as_of": as_of,
        "number": wanted,
        "printed_number": printed,  # as the text printed it, where read otherwise ("408.f")
        "kind": row["kind"],
        "title": row["title"],
        "text": row["text"],
        "examples": examples,
        "subrules": children,
        "parent": row["parent"],
        "normalised": row["normalised"],
        "raw": row["raw"],
        "line": row["line"],
        "capture": capture["file"],
        "source_url": capture["url"],
        "duplicates": printing.count - 1,
        "printing": printing.nth,  # which of them (archive.printings), from 1
        "witnesses": witnesses_for(db, release, wanted),
        "contents": _contents(db, release, row["kind"], row["position"])
        if row["kind"] != "subrule"
        else [],
        "also_named": list(found.also),
    }


# How deep each numbered kind stands: what a heading holds ends at the next clause printed
# as deep as it, or less (the next section ends a section, the next rule a rule).
_DEPTH = {"chapter": 0, "section": 1, "rule": 2, "subrule": 3}


def _contents(db: Database, release: str, kind: str, start: int) -> list[dict[str, Any]]:
    """Every clause `release` prints under the heading of `kind` at position `start`, in
    order, each with its examples: the clauses after it up to the next one printed as deep
    as it or less.

    Where a clause is printed, not what its number says, as the keyword pages read it
    (lineage.headings): the two differ only where the text errs. 2005-08-01 prints a
    "605.2c" among section 609's rules, and 2006-05-01 rules 501.2-501.6 in section 510: a
    reader of the release sees them there."""
    depth = _DEPTH.get(kind, 0)
    contents: list[dict[str, Any]] = []
    for row in db.query(
        """SELECT kind, number, parent, text FROM clauses WHERE release = ? AND position > ?
           AND kind IN ('chapter', 'section', 'rule', 'subrule', 'example') ORDER BY position""",
        [release, start],
    ):
        if row["kind"] == "example":
            if contents and row["parent"] == contents[-1]["number"]:
                contents[-1]["examples"].append(row["text"])
            continue
        if _DEPTH[row["kind"]] <= depth:
            break
        contents.append(
            {"number": row["number"], "kind": row["kind"], "text": row["text"], "examples": []}
        )
    return contents


def _show_glossary(db: Database, release: str, term: str, as_of: str | None) -> dict[str, Any]:
    row = next(
        db.query(
            "SELECT * FROM clauses WHERE release = ? AND kind = 'glossary' AND title = ?",
            [release, term],
        )
    )
    return {
        "release": release,
        "as_of": as_of,
        "number": None,
        "term": term,
        "kind": "glossary",
        "title": term,
        "text": row["text"],
        "examples": [],
        "subrules": [],
        "contents": [],
        "parent": None,
        "normalised": row["normalised"],
        "raw": row["raw"],
        "line": row["line"],
        "witnesses": [],
    }


def _missing_message(db: Database, number: str, release: str) -> str:
    last = next(
        db.query(
            "SELECT max(release) AS r FROM clauses WHERE number = ? AND release < ?",
            [number, release],
        )
    )["r"]
    later = next(
        db.query(
            "SELECT min(release) AS r FROM clauses WHERE number = ? AND release > ?",
            [number, release],
        )
    )["r"]
    message = f"there is no rule {number} in the {release} release"
    if last:
        message += (
            f"; it was last numbered so in {last} (try --as-of {last}, or `trace {number}@{last}`"
            " for its number now)"
        )
    elif later:
        message += f"; that number first appears in {later}"
    else:
        message += "; no release in the store has that number"
    return message


def capture_for_export(db: Database, release: str, capture_file: str | None) -> dict[str, Any]:
    """The capture row to export: the release's preferred one, or the one named."""
    if capture_file is None:
        rows = list(
            db.query(
                "SELECT captures.* FROM releases JOIN captures ON captures.id = releases.capture_id"
                " WHERE releases.date = ?",
                [release],
            )
        )
    else:
        rows = list(
            db.query(
                "SELECT * FROM captures WHERE release_date = ? AND (file = ? OR file LIKE ?)",
                [release, capture_file, f"%/{capture_file}"],
            )
        )
    if not rows:
        others = [
            r["file"]
            for r in db.query("SELECT file FROM captures WHERE release_date = ?", [release])
        ]
        if not others:
            raise LookupFailed(
                f"there is no release dated {release} in the store{_nearest(db, release)}"
            )
        raise LookupFailed(
            f"no capture {capture_file!r} for release {release}; it has: {', '.join(others)}"
        )
    return rows[0]


def _nearest(db: Database, day: str) -> str:
    """'; the release in force then is X', or where the store's releases begin."""
    before = db.execute("SELECT max(date) FROM releases WHERE date <= ?", [day]).fetchone()[0]
    if before:
        return f"; the release in force then is {before}"
    first = db.execute("SELECT min(date) FROM releases").fetchone()[0]
    return f"; the first is {first}" if first else ": it holds no release (run ingest)"


RULE_KINDS = ("rule", "subrule")  # the parts whose examples are part of their wording


def examples_of_parts(
    db: Database, part_ids: Iterable[int], normalised: bool = False
) -> dict[int, list[str]]:
    """Part id -> the texts of its examples, in order (empty for a part that has none, and
    for any part but a rule or subrule, as in the change lists: `lineage.compare`); their
    normalised texts with `normalised`, as kinds of change read them.

    A rule's examples are the example parts printed right after it whose parent is its
    number (the parser gives an example the rule it follows), so each part's are read by one
    short walk along its capture's positions, not by a scan of the whole release."""
    found: dict[int, list[str]] = {}
    for part_id in dict.fromkeys(part_ids):
        row = db.execute(
            "SELECT capture_id, position, number, kind FROM parts WHERE id = ?", [part_id]
        ).fetchone()
        texts: list[str] = []
        if row is not None and row[3] in RULE_KINDS:
            capture_id, position, number, _kind = row
            for kind, parent, text in db.execute(
                f"""SELECT p.kind, p.parent, v.{"normalised" if normalised else "text"}
                   FROM parts p
                   JOIN clause_versions v ON v.hash = p.version_hash
                   WHERE p.capture_id = ? AND p.position > ? ORDER BY p.position""",
                [capture_id, position],
            ):
                if kind != "example" or parent != number:
                    break
                texts.append(text)
        found[part_id] = texts
    return found


def rebuild_text(db: Database, capture_id: int) -> str:
    """The capture's decoded text (LF line endings), rebuilt from its stored parts."""
    return "".join(
        row[0]
        for row in db.execute(
            "SELECT raw_texts.raw FROM parts JOIN raw_texts ON raw_texts.hash = parts.raw_hash"
            " WHERE parts.capture_id = ? ORDER BY parts.position",
            [capture_id],
        )
    )


def export_parts(db: Database, capture_id: int) -> list[dict[str, Any]]:
    """The capture's parts as plain rows (kind, number, title, text, raw), in order; a
    number printed otherwise (`printed_number`) beside the number read."""
    return list(
        db.query(
            """SELECT parts.position, parts.kind, parts.number, parts.printed_number,
                      parts.parent, parts.title, parts.line, clause_versions.text,
                      clause_versions.normalised, raw_texts.raw
               FROM parts JOIN raw_texts ON raw_texts.hash = parts.raw_hash
               LEFT JOIN clause_versions ON clause_versions.hash = parts.version_hash
               WHERE parts.capture_id = ? ORDER BY parts.position""",
            [capture_id],
        )
    )
