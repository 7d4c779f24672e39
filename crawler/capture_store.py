"""The capture store: write-once, content-addressed, bytes kept exactly as received.

A captures folder holds
- `objects/ab/abcdef…`: each distinct capture's bytes once, named by its sha256;
- `index.json`: one record per capture (source, URL, Wayback timestamp, HTTP status,
  content type, sha256, fetch time), the evidence of where each object came from;
- `manifest.json`: the CR texts among them, in the format `rules-history ingest` reads.

Every file is written to a temporary name and renamed into place, so a crawl killed at any
moment leaves either the old file or the new one, never half of one; stray temporary
files are removed when the store is opened again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from archive.decode import guess_encoding
from archive.errors import CaptureError, RulesHistoryError
from archive.ingest import stated_iso
from archive.limits import MAX_INDEX_BYTES, MAX_RELEASE_BYTES
from archive.manifest import MANIFEST_NAME, json_fault
from archive.paths import read_inside
from crawler.cr_text import parse_cr_text
from crawler.wayback import BadCapture

INDEX_NAME = "index.json"
TEMP_PREFIX = ".tmp-"


class StoreError(RulesHistoryError):
    """A captures folder that is damaged: an object whose bytes do not match its name."""


@dataclass(frozen=True)
class CaptureRecord:
    """One capture of one source: where, when and how it was fetched, and its bytes' hash."""

    source: str
    kind: str  # "cr" or "witness"
    url: str
    sha256: str
    bytes: int
    file: str  # relative to the captures folder
    timestamp: str | None = None  # the Wayback capture time, YYYYMMDDhhmmss
    status: int | None = None
    content_type: str | None = None
    fetched_at: str | None = None
    wayback_url: str | None = None
    release: str | None = None  # CR captures: the release date
    stated_date: str | None = None  # CR captures: the date the text gives (from the catalogue)
    parser: str | None = None  # witness captures: which parser reads it
    form: str = "original"  # "original" bytes as served, or "text" (a converted text form)
    quotes: str | None = None
    encoding: str | None = None  # CR captures: archive.decode.guess_encoding of the bytes
    notes: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CaptureRecord:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @property
    def capture_time(self) -> str | None:
        """The Wayback timestamp as ISO 8601 (`2017-04-05T22:44:36Z`)."""
        if not self.timestamp or len(self.timestamp) != 14:
            return None
        t = self.timestamp
        return f"{t[:4]}-{t[4:6]}-{t[6:8]}T{t[8:10]}:{t[10:12]}:{t[12:]}Z"


_REQUIRED = {"source": str, "kind": str, "url": str, "sha256": str, "bytes": int, "file": str}
_OPTIONAL = {"timestamp": str, "status": int, "content_type": str, "fetched_at": str}
_OPTIONAL.update(
    {
        "wayback_url": str,
        "release": str,
        "stated_date": str,
        "parser": str,
        "form": str,
        "quotes": str,
        "encoding": str,
        "notes": str,
    }
)


def record_from_row(path: Path, number: int, row: object) -> CaptureRecord:
    """One record of `index.json`, its fields' presence and types checked."""
    if not isinstance(row, dict):
        raise StoreError(f"{path}: record {number} is {type(row).__name__}, not a JSON object")
    missing = sorted(set(_REQUIRED) - set(row))
    if missing:
        raise StoreError(f"{path}: record {number} lacks {', '.join(missing)}")
    for name, kind in [*_REQUIRED.items(), *_OPTIONAL.items()]:
        value = row.get(name)
        if name in _OPTIONAL and value is None:
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StoreError(f"{path}: record {number}: {name} {value!r} is not a {kind.__name__}")
    if row["kind"] not in ("cr", "witness"):
        raise StoreError(f"{path}: record {number}: kind {row['kind']!r} is not cr or witness")
    return CaptureRecord.from_dict(row)


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, flush it to disk, then rename it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes files private; captures are for everyone
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


class CaptureStore:
    """A captures folder; safe to share between the threads of one crawl."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._lock = threading.Lock()
        self._records = self._load_index()
        self._stated: dict[str, str | None] = {}  # sha256 -> the date its text states
        self.remove_stray_temporaries()

    def _load_index(self) -> list[CaptureRecord]:
        path = self.root / INDEX_NAME
        if not path.exists():
            return []
        try:
            rows = json.loads(read_inside(self.root, INDEX_NAME, MAX_INDEX_BYTES, "index"))
        except CaptureError as exc:
            raise StoreError(str(exc)) from exc
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise StoreError(f"{path}: not valid JSON ({json_fault(exc)})") from exc
        if not isinstance(rows, list):
            raise StoreError(f"{path}: must be a JSON list of capture records")
        return [record_from_row(path, number, row) for number, row in enumerate(rows, 1)]

    def remove_stray_temporaries(self) -> list[Path]:
        """Temporary files left by a killed crawl; never a finished object."""
        strays = list(self.root.rglob(f"{TEMP_PREFIX}*")) if self.root.exists() else []
        for stray in strays:
            stray.unlink(missing_ok=True)
        return strays

    @property
    def records(self) -> list[CaptureRecord]:
        with self._lock:
            return list(self._records)

    def for_source(self, source: str) -> list[CaptureRecord]:
        return [r for r in self.records if r.source == source]

    def release_of(self, sha256: str) -> str | None:
        """The release whose CR capture has these bytes, if one has."""
        return next(
            (
                r.release
                for r in self.records
                if r.kind == "cr" and r.release and r.sha256 == sha256
            ),
            None,
        )

    def object_path(self, sha256: str) -> Path:
        return self.root / "objects" / sha256[:2] / sha256

    def read(self, record: CaptureRecord) -> bytes:
        """A capture's bytes, checked against its recorded sha256."""
        path = self.root / record.file
        try:
            data = read_inside(self.root, record.file, MAX_RELEASE_BYTES, "capture")
        except CaptureError as exc:
            raise StoreError(str(exc)) from exc
        if sha256_of(data) != record.sha256:
            raise StoreError(f"{path}: bytes do not match the recorded sha256")
        return data

    def add(self, data: bytes, **fields: Any) -> tuple[CaptureRecord, bool]:
        """Store one capture; returns its record and whether it was new.

        The same capture (source, URL, timestamp, bytes) recorded twice is recorded once.
        """
        digest = sha256_of(data)
        path = self.object_path(digest)
        if fields.get("kind") == "cr" and "encoding" not in fields:
            fields["encoding"] = _encoding_of(data, fields.get("url", "?"))
        record = CaptureRecord(
            sha256=digest,
            bytes=len(data),
            file=path.relative_to(self.root).as_posix(),
            fetched_at=fields.pop("fetched_at", None) or _now(),
            **fields,
        )
        with self._lock:
            for known in self._records:
                if (known.source, known.url, known.timestamp, known.sha256) == (
                    record.source,
                    record.url,
                    record.timestamp,
                    record.sha256,
                ):
                    return known, False
            if not path.exists():  # write-once: an object is never rewritten
                write_atomic(path, data)
            self._records.append(record)
            self._save()
        return record, True

    def _save(self) -> None:
        rows = [asdict(r) for r in self._records]
        write_atomic(self.root / INDEX_NAME, _json(rows))
        write_atomic(self.root / MANIFEST_NAME, _json(self.cr_manifest()))

    def cr_manifest(self) -> list[dict[str, Any]]:
        """Manifest entries for the CR captures, as `archive.manifest` reads them.

        The first capture of a release is its preferred one; later distinct captures of the
        same release are kept as alternatives, never silently preferred. An object is listed
        once: `ingest` refuses a manifest listing one file twice, and the same bytes cannot
        be two releases (`_placed`).
        """
        entries: list[dict[str, Any]] = []
        seen: dict[str, set[str]] = {}
        placed = self._placed()
        for record in self._records:
            if placed.get(record.sha256) is not record:
                continue
            digests = seen.setdefault(str(record.release), set())
            digests.add(record.sha256)
            entries.append(_manifest_entry(record, preferred=len(digests) == 1))
        return entries

    def unplaced(self) -> list[str]:
        """One line for each CR object recorded under several releases that its text does
        not tell apart: `cr_manifest` lists it under none of them."""
        placed = self._placed()
        lines = []
        for digest, records in self._cr_records_by_object().items():
            if digest not in placed:
                releases = ", ".join(sorted({str(r.release) for r in records}))
                stated = self._stated.get(digest)
                said = f"states {stated}" if stated else "states no date"
                lines.append(
                    f"{records[0].file}: recorded as the releases {releases}, and the text"
                    f" {said}: listed in the manifest under none of them"
                )
        return lines

    def _cr_records_by_object(self) -> dict[str, list[CaptureRecord]]:
        found: dict[str, list[CaptureRecord]] = {}
        for record in self._records:
            if record.kind == "cr" and record.release:
                found.setdefault(record.sha256, []).append(record)
        return found

    def _placed(self) -> dict[str, CaptureRecord]:
        """The record each CR object is listed under. An object recorded under one release
        is listed under it. One recorded under several (an index written before the crawl
        checked a text's stated date could hold another release's text under the one asked
        for) is listed under the release its text states, and under none when the text
        states none of them, whichever release recorded it first."""
        placed = {}
        for digest, records in self._cr_records_by_object().items():
            if len({record.release for record in records}) == 1:
                placed[digest] = records[0]
                continue
            stated = self._stated_date(records[0])
            matching = [
                r for r in records if stated is not None and stated in (r.release, r.stated_date)
            ]
            if len({record.release for record in matching}) == 1:
                placed[digest] = matching[0]
        return placed

    def _stated_date(self, record: CaptureRecord) -> str | None:
        """The date the object's text states (None: none, or not a CR text); read once per
        object, as objects never change."""
        if record.sha256 not in self._stated:
            try:
                parsed = parse_cr_text(self.read(record), record.url)
                self._stated[record.sha256] = stated_iso(parsed.stated_date_text)
            except (StoreError, BadCapture):
                self._stated[record.sha256] = None
        return self._stated[record.sha256]

    def verify(self) -> list[str]:
        """Problems found: objects missing or not matching their hash, unrecorded objects."""
        problems = []
        recorded = set()
        for record in self.records:
            recorded.add(record.sha256)
            try:
                self.read(record)
            except (OSError, StoreError) as exc:
                problems.append(str(exc))
        objects = self.root / "objects"
        for path in objects.rglob("*") if objects.exists() else []:
            if path.is_file() and path.name not in recorded:
                problems.append(f"{path}: an object no record names")
        return problems


def _encoding_of(data: bytes, url: str) -> str | None:
    try:
        return guess_encoding(data, url)
    except CaptureError:
        return None  # ingest reports the file; the manifest still lists the evidence


def _manifest_entry(record: CaptureRecord, preferred: bool) -> dict[str, Any]:
    return {
        "date": record.release,
        "file": record.file,
        "sha256": record.sha256,
        "bytes": record.bytes,
        "encoding": record.encoding,
        "role": "primary" if preferred else "alt",
        "preferred": preferred,
        "original_url": record.url,
        "stated_date": record.stated_date,
        "capture_time": record.capture_time,
        "wayback_url": record.wayback_url,
        "fetched_at": record.fetched_at,
        "notes": f"crawled from {record.wayback_url or record.url}",
    }


def _json(rows: Any) -> bytes:
    return (json.dumps(rows, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
