"""What differs between the captures of one release (several uploads, a second copy).

A release is read from its preferred capture; the others are kept. For each other capture,
ingest stores once, in `capture_differences`, how it differs from the preferred one, in a
few words a reader can act on: `bom-only`, `line-endings-only`, `same-text` (the decoded
texts are equal; the bytes differ otherwise, e.g. the encoding), `whitespace-only` (equal
once runs of white space count as one space and blank lines are ignored) or
`lines-differ`, with the number of lines that differ (on the decoded texts) and a summary.

Lines are counted on a shortest line diff (`METHOD` 2). Rows counted another way (`METHOD`
1: Python's difflib, whose greedy matching can count more lines, and took 8.6 s for the one
2016-08-26 pair the shortest diff does in 0.25 s) are computed again.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from archive.query import rebuild_text
from archive.worddiff import units_differing

BOM_ENCODINGS = {"utf-8-sig": "utf-8"}  # the same codec with and without a byte-order mark
METHOD = 2  # how `lines_differ` is counted: rows counted another way are computed again


def store_capture_differences(db: Database) -> int:
    """Compute what is missing (each pair once); returns how many pairs were compared."""
    done = {
        (row[0], row[1])
        for row in db.execute(
            "SELECT capture_id, compared_with FROM capture_differences WHERE method = ?",
            [METHOD],
        )
    }
    pairs = [
        (row[0], row[1], row[2])
        for row in db.execute(
            """SELECT captures.id, releases.capture_id, releases.date FROM captures
               JOIN releases ON releases.date = captures.release_date
               WHERE captures.id != releases.capture_id ORDER BY releases.date, captures.file"""
        )
    ]
    todo = [pair for pair in pairs if (pair[0], pair[1]) not in done]
    with db.atomic():
        for capture_id, preferred_id, release in todo:
            db.conn.execute("DELETE FROM capture_differences WHERE capture_id = ?", [capture_id])
            row = compare_captures(db, capture_id, preferred_id)
            db.conn.execute(
                """INSERT INTO capture_differences (capture_id, release, compared_with, kind,
                   lines_differ, summary, method) VALUES (?, ?, ?, ?, ?, ?, ?)""",
                [
                    capture_id,
                    release,
                    preferred_id,
                    row["kind"],
                    row["lines_differ"],
                    row["summary"],
                    METHOD,
                ],
            )
    return len(todo)


def differences_stale(db: Database) -> bool:
    """True when a stored difference was counted another way than `METHOD` (a store of an
    older version, read as it is: its schema may lack the column)."""
    table = db["capture_differences"]
    if not table.exists():
        return False
    if "method" not in table.columns_dict:
        return bool(table.count)
    found = db.execute("SELECT 1 FROM capture_differences WHERE method != ? LIMIT 1", [METHOD])
    return found.fetchone() is not None


def compare_captures(db: Database, capture_id: int, preferred_id: int) -> dict[str, Any]:
    """How capture `capture_id` differs from the preferred capture `preferred_id`."""
    meta = {
        row["id"]: row
        for row in db.query(
            "SELECT id, encoding, line_endings FROM captures WHERE id IN (?, ?)",
            [capture_id, preferred_id],
        )
    }
    this, preferred = meta[capture_id], meta[preferred_id]
    text, reference = rebuild_text(db, capture_id), rebuild_text(db, preferred_id)
    if text == reference:
        codecs = (
            BOM_ENCODINGS.get(this["encoding"], this["encoding"]),
            BOM_ENCODINGS.get(preferred["encoding"], preferred["encoding"]),
        )
        same_endings = this["line_endings"] == preferred["line_endings"]
        if codecs[0] == codecs[1] and this["encoding"] != preferred["encoding"] and same_endings:
            return _row("bom-only", 0, "identical text; only the byte-order mark differs")
        if this["encoding"] == preferred["encoding"] and not same_endings:
            return _row("line-endings-only", 0, "identical text; only the line endings differ")
        return _row("same-text", 0, "identical text once decoded")
    changed = lines_differing(text, reference)
    if _squeezed(text) == _squeezed(reference):
        return _row("whitespace-only", changed, f"whitespace only ({changed} lines differ)")
    return _row("lines-differ", changed, f"{changed} lines differ")


def lines_differing(text: str, reference: str) -> int:
    """Lines of either text that the other lacks in a shortest line diff (a changed line
    counts once per side).

    >>> lines_differing("a\\nb\\nc\\n", "a\\nB\\nc\\nd\\n")
    3
    """
    return units_differing(reference.splitlines(), text.splitlines())


def _squeezed(text: str) -> list[str]:
    """The text's lines with every run of white space (no-break spaces too) as one space,
    blank lines left out."""
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _row(kind: str, lines: int, summary: str) -> dict[str, Any]:
    return {"kind": kind, "lines_differ": lines, "summary": summary}


def release_captures(db: Database, release: str) -> list[dict[str, Any]]:
    """Every capture of a release, the one it is read from first, each with its difference."""
    return list(
        db.query(
            """SELECT captures.file, captures.sha256, captures.role, captures.url,
                      captures.encoding, captures.line_endings, captures.bytes,
                      captures.id = releases.capture_id AS read,
                      d.kind AS difference, d.lines_differ, d.summary
               FROM captures JOIN releases ON releases.date = captures.release_date
               LEFT JOIN capture_differences d ON d.capture_id = captures.id
               WHERE captures.release_date = ?
               ORDER BY captures.id != releases.capture_id, captures.file""",
            [release],
        )
    )
