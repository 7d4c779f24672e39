"""Captures into the store: decode, parse, and write each capture in one transaction.

Ingest is idempotent and resumable: a capture already stored (same sha256, same parser
version) is skipped, so a second run changes nothing and a new release costs one parse.
A capture that fails to decode or parse is reported and skipped; nothing stored changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.decode import decode_capture
from archive.errors import CaptureError
from archive.manifest import CAPTURES_DIR, CaptureInfo, load_manifest, read_capture_bytes
from archive.normalise import normalise
from archive.parse import (
    CLAUSE_KINDS,
    GLOSSARY_KIND,
    RULE_KIND,
    SUBRULE_KIND,
    ParsedRelease,
    parse_release,
)
from archive.release_names import release_name

# Bump when the parser's output changes: stored captures of an older version are parsed again.
PARSER_VERSION = 3

SOURCES = {
    "pit142857/mtg-cr": ("repository", "https://github.com/pit142857/mtg-cr"),
    "xremming/rulesraker": ("repository", "https://github.com/xremming/rulesraker"),
    "ivancea/MTGRules_Android": ("repository", "https://github.com/ivancea/MTGRules_Android"),
    "multimeric/VensersJournal": ("repository", "https://github.com/multimeric/VensersJournal"),
}


@dataclass
class IngestReport:
    ingested: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def ingest_captures(
    db: Database,
    captures_dir: Path = CAPTURES_DIR,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda items: items,
) -> IngestReport:
    """Ingest every capture the folder's manifest lists; return what happened to each."""
    report = IngestReport()
    captures = load_manifest(captures_dir)
    stored = {
        row["sha256"]: row["parser_version"]
        for row in db.query("select sha256, parser_version from captures")
    }
    known = _KnownHashes.load(db)
    todo = [c for c in captures if stored.get(c.sha256) != PARSER_VERSION]
    report.skipped.extend(c.file for c in captures if stored.get(c.sha256) == PARSER_VERSION)
    for capture, outcome in progress(_parsed_in_parallel(captures_dir, todo)):
        if isinstance(outcome, CaptureError):
            report.failed.append((capture.file, str(outcome)))
            continue
        size, parsed = outcome
        with db.atomic():
            _store_capture(db, capture, size, parsed, known)
        report.ingested.append(capture.file)
        report.warnings.extend((capture.file, warning) for warning in parsed.warnings)
    return report


def read_and_parse(captures_dir: Path, capture: CaptureInfo) -> tuple[int, ParsedRelease]:
    """Check, decode and parse one capture; raises `CaptureError` naming its file."""
    data = read_capture_bytes(captures_dir, capture)
    path = str(captures_dir / capture.file)
    return len(data), parse_release(decode_capture(data, capture.encoding, path), path)


def _parse_or_error(
    captures_dir: Path, capture: CaptureInfo
) -> tuple[int, ParsedRelease] | CaptureError:
    try:
        return read_and_parse(captures_dir, capture)
    except CaptureError as error:
        return error


def _parsed_in_parallel(
    captures_dir: Path, captures: list[CaptureInfo], window: int = 4
) -> Iterator[tuple[CaptureInfo, tuple[int, ParsedRelease] | CaptureError]]:
    """Parse in worker processes while the caller writes, keeping a few results in flight.

    Parsing is pure CPU and the writes are mostly SQLite's, so on two cores the two overlap.
    """
    if len(captures) < 3:
        for capture in captures:
            yield capture, _parse_or_error(captures_dir, capture)
        return
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[tuple[CaptureInfo, Future]] = deque()
        queue = iter(captures)
        for capture in queue:
            pending.append((capture, pool.submit(_parse_or_error, captures_dir, capture)))
            if len(pending) >= window:
                break
        while pending:
            capture, future = pending.popleft()
            following = next(queue, None)
            if following is not None:
                pending.append((following, pool.submit(_parse_or_error, captures_dir, following)))
            yield capture, future.result()


def _register_source(db: Database, capture: CaptureInfo) -> None:
    if capture.source_repo:
        kind, url = SOURCES.get(capture.source_repo, ("repository", None))
        db.conn.execute(
            "INSERT OR IGNORE INTO sources (id, kind, name, url) VALUES (?, ?, ?, ?)",
            [capture.source_repo, kind, capture.source_repo, url],
        )


@dataclass
class _KnownHashes:
    """Hashes already in the store, so that each text is hashed in and normalised only once."""

    raw: set[str]
    versions: set[str]
    captures: set[str]

    @classmethod
    def load(cls, db: Database) -> _KnownHashes:
        return cls(
            raw={row[0] for row in db.execute("select hash from raw_texts")},
            versions={row[0] for row in db.execute("select hash from clause_versions")},
            captures={row[0] for row in db.execute("select sha256 from captures")},
        )


def _store_capture(
    db: Database, capture: CaptureInfo, size: int, parsed: ParsedRelease, known: _KnownHashes
) -> None:
    conn = db.conn
    _register_source(db, capture)
    if capture.sha256 in known.captures:  # stored by an older parser: replace it whole
        old = "SELECT id FROM captures WHERE sha256 = ?"
        conn.execute(f"DELETE FROM releases WHERE capture_id IN ({old})", [capture.sha256])
        conn.execute("DELETE FROM captures WHERE sha256 = ?", [capture.sha256])
    text = parsed.rebuild()
    capture_id = conn.execute(
        """INSERT INTO captures (sha256, file, kind, release_date, role, preferred, url,
           capture_time, source_id, encoding, line_endings, bytes, stated_date,
           stated_date_text, text_sha256, hard_wrapped, complete, parser_version, warnings,
           notes) VALUES (?, ?, 'cr', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            capture.sha256,
            capture.file,
            capture.date,
            capture.role,
            int(capture.preferred),
            capture.original_url,
            capture.capture_time,
            capture.source_repo,
            capture.encoding,
            capture.line_endings,
            size,
            capture.stated_date or _iso(parsed.stated_date_text),
            parsed.stated_date_text,
            hashlib.sha256(text.encode("utf-8")).hexdigest(),
            int(parsed.wrapped),
            int(parsed.complete),
            PARSER_VERSION,
            json.dumps(parsed.warnings) if parsed.warnings else None,
            capture.notes,
        ],
    ).lastrowid
    raw_rows, version_rows, part_rows = [], [], []
    for position, part in enumerate(parsed.parts):
        raw_key = text_hash(part.raw)
        if raw_key not in known.raw:
            raw_rows.append((raw_key, part.raw))
        version_key = None
        if part.kind in CLAUSE_KINDS:
            words = part.text if part.kind != GLOSSARY_KIND else f"{part.title}\n{part.text}"
            version_key = text_hash(words)
            if version_key not in known.versions:
                folded = normalise(words)
                version_rows.append((version_key, words, folded, text_hash(folded), capture.date))
        part_rows.append(
            (
                capture_id,
                position,
                part.kind,
                part.number,
                part.parent,
                part.title,
                part.line,
                raw_key,
                version_key,
            )
        )
    conn.executemany("INSERT OR IGNORE INTO raw_texts (hash, raw) VALUES (?, ?)", raw_rows)
    conn.executemany(
        """INSERT OR IGNORE INTO clause_versions (hash, text, normalised, normalised_hash,
           first_release) VALUES (?, ?, ?, ?, ?)""",
        version_rows,
    )
    conn.executemany(
        """INSERT INTO parts (capture_id, position, kind, number, parent, title, line,
           raw_hash, version_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        part_rows,
    )
    # Only now, inside the transaction that wrote them: a failed write leaves them unknown.
    known.raw.update(row[0] for row in raw_rows)
    known.versions.update(row[0] for row in version_rows)
    if capture.preferred:
        kinds = [part.kind for part in parsed.parts]
        conn.execute(
            """INSERT OR REPLACE INTO releases (date, stated_date, name, capture_id, clauses,
               rules, glossary_entries) VALUES (?, ?, ?, ?, ?, ?, ?)""",
            [
                capture.date,
                capture.stated_date or _iso(parsed.stated_date_text),
                release_name(capture.date),
                capture_id,
                sum(kind in CLAUSE_KINDS for kind in kinds),
                sum(kind in (RULE_KIND, SUBRULE_KIND) for kind in kinds),
                kinds.count(GLOSSARY_KIND),
            ],
        )


def _iso(stated: str | None) -> str | None:
    """'October 7, 2002' -> '2002-10-07'; None when absent or unreadable."""
    if not stated:
        return None
    cleaned = re.sub(r"\.", "", stated)
    for layout in ("%B %d, %Y", "%b %d, %Y"):
        try:
            return datetime.strptime(cleaned, layout).date().isoformat()
        except ValueError:
            continue
    return None
