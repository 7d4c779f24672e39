"""Captures into the store: decode, parse, and write each capture in one transaction.

The store is a function of the captures folder. A stored capture is identified by its
manifest entry (`entry_key`: every field of the entry, its bytes' sha256 among them, and the
parser version), not by its bytes alone: an entry whose date, encoding or preference changed
is stored again, an entry no longer listed is removed with its release. So any sequence of
ingests of a folder leaves what one fresh ingest of it leaves, as long as every entry the
folder lists reads.

Two guards keep a careless folder from costing what is stored. A folder that no longer lists
a release the store holds (an empty manifest, or a folder of a few crawled releases) is
refused unless the caller asks to prune. A release whose new entries fail to read or parse
keeps the captures stored for it (they are replaced in one transaction once every new entry
of the release parsed), and the failure is reported.

Ingest is idempotent and resumable: a capture already stored is skipped, so a second run
changes nothing and a new release costs one parse; its file is still looked at (a regular
file inside the folder, of the size stored), so that a rerun reports a capture removed,
moved out or resized since, as a fresh ingest would. A capture that fails to decode or
parse is reported and skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from sqlite_utils import Database

from archive.collector import collector_paused
from archive.decode import decode_capture
from archive.errors import CaptureError
from archive.limits import MAX_CLAUSES
from archive.manifest import (
    CAPTURES_DIR,
    MANIFEST_NAME,
    CaptureInfo,
    load_manifest,
    read_capture_bytes,
)
from archive.normalise import normalise
from archive.parse import (
    CLAUSE_KINDS,
    GLOSSARY_KIND,
    RULE_KIND,
    SUBRULE_KIND,
    ParsedRelease,
    parse_release,
)
from archive.paths import size_inside
from archive.release_names import release_name
from archive.stored_texts import renormalise, text_hash
from archive.workers import die_with_parent

# Bump when the parser's output changes: stored captures of an older version are parsed again.
PARSER_VERSION = 10  # 9: a number as printed; 10: paragraphs opened by an indent

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
    renormalised: int = 0  # stored texts whose comparison form an older normalise made


@collector_paused()  # the known hashes grow to every text of the archive, and are kept
def ingest_captures(
    db: Database,
    captures_dir: Path = CAPTURES_DIR,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda items: items,
    prune: bool = False,
) -> IngestReport:
    """Ingest every capture the folder's manifest lists; return what happened to each.

    A release the store holds and the manifest no longer lists is removed only with `prune`;
    without it, the ingest is refused before any change (one line naming the manifest)."""
    report = IngestReport()
    captures = load_manifest(captures_dir)  # a bad manifest is refused before any change
    wanted = {entry_key(capture) for capture in captures}
    held = [
        _Held(*row)
        for row in db.execute(
            "SELECT id, entry_key, release_date, parser_version, bytes, sha256 FROM captures"
        )
    ]
    current = {row.key: row for row in held if row.parser == PARSER_VERSION and row.key in wanted}
    stale = [row for row in held if row.key not in current]
    if not prune:
        _refuse_dropped_releases(captures_dir, captures, stale)
    report.renormalised = renormalise(db)  # texts stored by an older normalise, made again
    todo = sorted((c for c in captures if entry_key(c) not in current), key=lambda c: c.date)
    _look_at_stored_files(captures_dir, captures, current, report)
    replaced = _stale_by_release(stale, {c.date for c in todo})
    with db.atomic():  # what no new entry replaces goes now; the rest with its replacement
        removed = _remove_captures(db, [row.id for row in stale if row.release not in replaced])
    latest = db.execute("SELECT max(release_date) FROM captures").fetchone()[0]
    earliest_new = None
    known = _KnownHashes.load(db)
    for day, group in _by_release(progress(_parsed_in_parallel(captures_dir, todo))):
        parsed, failed = _sorted_out(group)
        report.failed.extend((capture.file, str(error)) for capture, error in failed)
        if failed and day in replaced:  # the release keeps the captures stored for it
            report.failed.extend(
                (capture.file, _kept(captures_dir, capture)) for capture, _ in parsed
            )
            continue
        with db.atomic():
            removed = _remove_captures(db, replaced.get(day, [])) or removed
            for capture, (size, release) in parsed:
                _store_capture(db, capture, size, release, known)
        for capture, (_size, release) in parsed:
            earliest_new = min(earliest_new or capture.date, capture.date)
            report.ingested.append(capture.file)
            report.warnings.extend((capture.file, warning) for warning in release.warnings)
    # Captures stored in date order after the newest one leave nothing to tidy (a fresh
    # ingest stores them so); a removal, or a capture older than some stored, may.
    if removed or (earliest_new and latest and earliest_new < latest):
        with db.atomic():
            _tidy(db)
    return report


_Parsed = tuple[CaptureInfo, tuple[int, ParsedRelease] | CaptureError]


def _look_at_stored_files(
    captures_dir: Path, captures: list[CaptureInfo], current: dict[str, _Held], report: IngestReport
) -> None:
    """Each entry already stored is skipped when its file is still there as stored, and
    reported otherwise (`_still_on_disk`): a rerun says what a fresh ingest would."""
    for capture in captures:
        stored = current.get(entry_key(capture))
        if stored is None:
            continue
        problem = _still_on_disk(captures_dir, capture, stored.size)
        if problem:
            report.failed.append((capture.file, problem))
        else:
            report.skipped.append(capture.file)


def _stale_by_release(stale: list[_Held], renewed: set[str]) -> dict[str, list[int]]:
    """Release -> its stale captures, for the releases a new entry renews: they are removed
    with their replacement, in one transaction."""
    replaced: dict[str, list[int]] = defaultdict(list)
    for row in stale:
        if row.release in renewed:
            replaced[row.release].append(row.id)
    return replaced


def _sorted_out(
    group: list[_Parsed],
) -> tuple[
    list[tuple[CaptureInfo, tuple[int, ParsedRelease]]], list[tuple[CaptureInfo, CaptureError]]
]:
    """The captures of `group` that parsed, and those that failed."""
    parsed, failed = [], []
    for capture, outcome in group:
        if isinstance(outcome, CaptureError):
            failed.append((capture, outcome))
        else:
            parsed.append((capture, outcome))
    return parsed, failed


def _kept(captures_dir: Path, capture: CaptureInfo) -> str:
    return (
        f"{captures_dir / capture.file}: not stored: another new capture of {capture.date} "
        "failed, and the store keeps the captures it holds for that release"
    )


def _by_release(parsed: Iterable[_Parsed]) -> Iterator[tuple[str, list[_Parsed]]]:
    """The parsed captures (in date order) grouped by release: a release's new captures
    replace its stored ones together."""
    group: list[_Parsed] = []
    for item in parsed:
        if group and group[0][0].date != item[0].date:
            yield group[0][0].date, group
            group = []
        group.append(item)
    if group:
        yield group[0][0].date, group


class _Held(NamedTuple):
    """A stored capture, as an ingest weighs it against the manifest."""

    id: int
    key: str  # its manifest entry (`entry_key`)
    release: str | None
    parser: int | None  # the parser version that read it
    size: int | None  # its file's bytes
    sha256: str


def _refuse_dropped_releases(
    captures_dir: Path, captures: list[CaptureInfo], stale: list[_Held]
) -> None:
    """Refuse a folder that no longer lists releases the store holds, nor their bytes under
    another date (a corrected date is no dropped release): removing them is asked for by
    name (`prune`), never the side effect of a folder given by mistake."""
    listed = {capture.date for capture in captures}
    listed_bytes = {capture.sha256 for capture in captures}
    dropped = sorted(
        {
            row.release
            for row in stale
            if row.release and row.release not in listed and row.sha256 not in listed_bytes
        }
    )
    if dropped:
        which = ", ".join(dropped[:3]) + (
            f" and {len(dropped) - 3} more" if len(dropped) > 3 else ""
        )
        raise CaptureError(
            str(captures_dir / MANIFEST_NAME),
            f"does not list {len(dropped)} of the releases the store holds ({which}); "
            "nothing was changed: give the folder they came from, or ingest --prune to "
            "remove them from the store",
        )


def _still_on_disk(captures_dir: Path, capture: CaptureInfo, stored_bytes: int | None) -> str:
    """'' when the file of a stored capture is still a regular file inside the folder, of
    the size stored; else what is wrong with it (the store keeps what it read)."""
    try:
        size = size_inside(captures_dir, capture.file, "capture")
    except CaptureError as error:
        return f"{error}; the store keeps the capture it read"
    if stored_bytes is not None and size != stored_bytes:
        return (
            f"{captures_dir / capture.file}: {size:,} bytes, the capture stored from it had "
            f"{stored_bytes:,}; the store keeps the capture it read"
        )
    return ""


def entry_key(capture: CaptureInfo) -> str:
    """What identifies a stored capture: its whole manifest entry and the parser version."""
    fields = {name: getattr(capture, name) for name in capture.__dataclass_fields__}
    fields["parser_version"] = PARSER_VERSION
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()


def _remove_captures(db: Database, gone: list[int]) -> bool:
    """Remove the captures `gone` (and their releases): those whose entry the manifest no
    longer lists, or which an older parser read. True when there were any."""
    for start in range(0, len(gone), 400):  # SQLite caps the number of parameters
        chunk = gone[start : start + 400]
        marks = ", ".join("?" for _ in chunk)
        db.conn.execute(f"DELETE FROM releases WHERE capture_id IN ({marks})", chunk)
        db.conn.execute(f"DELETE FROM captures WHERE id IN ({marks})", chunk)
        # SQLite may give a new capture the id of the one removed: mark the alignments made
        # from a removed capture stale, so that lineages never pass them for current.
        db.conn.execute(
            f"""UPDATE lineage_alignments SET version = -1
                WHERE capture_id IN ({marks}) OR previous_capture_id IN ({marks})""",
            chunk + chunk,
        )
    return bool(gone)


# Indexes on the parts' text keys, made for the tidy and dropped after it. Each text deleted
# makes SQLite look for the parts that name it (their foreign keys): with no index, a scan of
# every part per text, four minutes to prune one release from the whole archive. Kept for
# good, they would cost more than that saves: a fresh ingest went from 21 s to 47 s keeping
# them up to date part by part; made here, they cost about a second.
TIDY_INDEXES = {
    "tidy_parts_raw_hash": "parts(raw_hash)",
    "tidy_parts_version_hash": "parts(version_hash) WHERE version_hash IS NOT NULL",
}


def _tidy(db: Database) -> None:
    """What a fresh ingest would hold: texts only stored captures use, each wording's first
    release the earliest capture that has it, only the sources stored captures name."""
    conn = db.conn
    for name, columns in TIDY_INDEXES.items():
        conn.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {columns}")
    conn.execute("DELETE FROM raw_texts WHERE hash NOT IN (SELECT raw_hash FROM parts)")
    conn.execute(
        """DELETE FROM clause_versions WHERE hash NOT IN
           (SELECT version_hash FROM parts WHERE version_hash IS NOT NULL)"""
    )
    for name in TIDY_INDEXES:
        conn.execute(f"DROP INDEX {name}")
    conn.execute(
        """UPDATE clause_versions SET first_release = first.release_date
           FROM (SELECT parts.version_hash AS hash, min(captures.release_date) AS release_date
                 FROM parts JOIN captures ON captures.id = parts.capture_id
                 WHERE parts.version_hash IS NOT NULL GROUP BY parts.version_hash) AS first
           WHERE first.hash = clause_versions.hash
             AND clause_versions.first_release IS NOT first.release_date"""
    )
    conn.execute(
        """DELETE FROM sources WHERE kind = 'repository'
           AND id NOT IN (SELECT source_id FROM captures WHERE source_id IS NOT NULL)"""
    )


def read_and_parse(captures_dir: Path, capture: CaptureInfo) -> tuple[int, ParsedRelease]:
    """Check, decode and parse one capture; raises `CaptureError` naming its file."""
    data = read_capture_bytes(captures_dir, capture)
    path = str(captures_dir / capture.file)
    parsed = parse_release(decode_capture(data, capture.encoding, path), path)
    clauses = sum(part.kind in CLAUSE_KINDS for part in parsed.parts)
    if clauses > MAX_CLAUSES:  # refused before it is stored or aligned
        raise CaptureError(
            path, f"{clauses:,} clauses, over the limit of {MAX_CLAUSES:,} for one release"
        )
    return len(data), parsed


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
    with ProcessPoolExecutor(
        max_workers=workers, initializer=die_with_parent, initargs=(os.getpid(),)
    ) as pool:
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

    @classmethod
    def load(cls, db: Database) -> _KnownHashes:
        return cls(
            raw={row[0] for row in db.execute("select hash from raw_texts")},
            versions={row[0] for row in db.execute("select hash from clause_versions")},
        )


def _store_capture(
    db: Database, capture: CaptureInfo, size: int, parsed: ParsedRelease, known: _KnownHashes
) -> None:
    conn = db.conn
    _register_source(db, capture)
    text = parsed.rebuild()
    capture_id = conn.execute(
        """INSERT INTO captures (sha256, file, kind, release_date, role, preferred, url,
           capture_time, source_id, encoding, line_endings, bytes, stated_date,
           stated_date_text, text_sha256, hard_wrapped, complete, parser_version, warnings,
           notes, entry_key)
           VALUES (?, ?, 'cr', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
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
            capture.stated_date or stated_iso(parsed.stated_date_text),
            parsed.stated_date_text,
            hashlib.sha256(text.encode("utf-8")).hexdigest(),
            int(parsed.wrapped),
            int(parsed.complete),
            PARSER_VERSION,
            json.dumps(parsed.warnings) if parsed.warnings else None,
            capture.notes,
            entry_key(capture),
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
                part.printed,
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
           raw_hash, version_hash, printed_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
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
                capture.stated_date or stated_iso(parsed.stated_date_text),
                release_name(capture.date),
                capture_id,
                sum(kind in CLAUSE_KINDS for kind in kinds),
                sum(kind in (RULE_KIND, SUBRULE_KIND) for kind in kinds),
                kinds.count(GLOSSARY_KIND),
            ],
        )


def stated_iso(stated: str | None) -> str | None:
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
