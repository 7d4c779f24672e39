"""The manifest of committed captures: where each CR text came from and how to decode it."""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from archive.errors import CaptureError
from archive.limits import MAX_INDEX_BYTES, MAX_RELEASE_BYTES
from archive.paths import read_inside
from vocabulary.days import ISO_DAY

CAPTURES_DIR = Path(__file__).resolve().parent / "captures"
MANIFEST_NAME = "manifest.json"


@dataclass(frozen=True)
class CaptureInfo:
    """One captured file of one CR release, as the manifest describes it."""

    date: str
    file: str
    sha256: str
    encoding: str | None = None
    role: str = "primary"
    preferred: bool = True
    line_endings: str | None = None
    original_url: str | None = None
    stated_date: str | None = None
    source_repo: str | None = None
    source_path: str | None = None
    source_commit: str | None = None
    capture_time: str | None = None
    notes: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def name(self) -> str:
        return Path(self.file).name

    @classmethod
    def from_entry(cls, entry: dict[str, Any]) -> CaptureInfo:
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        return cls(
            **{k: v for k, v in entry.items() if k in known},
            extra={k: v for k, v in entry.items() if k not in known},
        )


def load_manifest(captures_dir: Path = CAPTURES_DIR) -> list[CaptureInfo]:
    """Read `manifest.json` of a captures folder, every entry checked, in release order.

    A manifest with one bad entry is refused whole, before anything is read or stored: the
    store is a function of the folder, and half a manifest is not the folder.
    """
    path = captures_dir / MANIFEST_NAME
    if not os.path.lexists(path):
        raise CaptureError(str(path), "no manifest.json in this captures folder")
    try:
        entries = json.loads(read_inside(captures_dir, MANIFEST_NAME, MAX_INDEX_BYTES, "manifest"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise CaptureError(str(path), f"manifest is not valid JSON ({json_fault(exc)})") from exc
    if not isinstance(entries, list):
        raise CaptureError(str(path), "manifest must be a JSON list of capture entries")
    captures = [validate_entry(entry, number, path) for number, entry in enumerate(entries, 1)]
    check_consistency(captures, path)
    return sorted(captures, key=lambda c: (c.date, not c.preferred, c.file))


def json_fault(error: Exception) -> str:
    """Where and why a JSON text could not be read, for its one-line error: a syntax error's
    line, a byte that is not UTF-8, or arrays nested deeper than Python's decoder goes.

    >>> json_fault(json.JSONDecodeError("Expecting value", "[\\n", 2))
    'line 2'
    >>> json_fault(RecursionError())
    'nested too deeply'
    """
    if isinstance(error, json.JSONDecodeError):
        return f"line {error.lineno}"
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 at byte {error.start}"
    return "nested too deeply"


# Magic: The Gathering was first published on 1993-08-05: no rules text is older.
EARLIEST_DATE = date(1993, 8, 5)
# Releases are announced a few weeks ahead; a year ahead is a typing error.
LATEST_AHEAD = timedelta(days=366)
# primary: the official text; alt: another copy of it; derived: rebuilt from other sources
# (see captures/PROVENANCE.md). Which one a release is read from is `preferred`.
ROLES = ("primary", "alt", "derived")
# Decoders of archive.decode that are not Python codec names.
SPECIAL_ENCODINGS = ("utf-16-le-bom", "utf-16-be-bom", "damaged-utf-16-le")
_TEXT_FIELDS = (
    "line_endings",
    "original_url",
    "source_repo",
    "source_path",
    "source_commit",
    "capture_time",
    "notes",
)
_SHA256 = re.compile(r"[0-9a-f]{64}")


def validate_entry(entry: object, number: int, path: Path) -> CaptureInfo:
    """One manifest entry checked field by field; `CaptureError` names the entry and field."""
    where = f"entry {number}"
    if not isinstance(entry, dict):
        raise CaptureError(str(path), f"{where} is {_kind(entry)}, not a JSON object")
    missing = {"date", "file", "sha256"} - set(entry)
    if missing:
        raise CaptureError(str(path), f"{where} lacks {', '.join(sorted(missing))}")
    file = entry["file"]
    if not isinstance(file, str) or not file.strip():
        raise CaptureError(str(path), f"{where}: file is {_kind(file)}, not a path")
    if "\0" in file:  # no file system takes it; the system call would raise
        raise CaptureError(str(path), f"{where}: file {file!r} holds a NUL character")
    where = f"entry {number} ({file})"

    def refuse(problem: str) -> CaptureError:
        return CaptureError(str(path), f"{where}: {problem}")

    check_date(entry["date"], "date", refuse)
    if entry.get("stated_date") is not None:
        check_date(entry["stated_date"], "stated_date", refuse)
    if not isinstance(entry["sha256"], str) or not _SHA256.fullmatch(entry["sha256"]):
        raise refuse(f"sha256 {entry['sha256']!r} is not 64 lowercase hex digits")
    encoding = entry.get("encoding")
    if encoding is not None and not known_encoding(encoding):
        raise refuse(f"encoding {encoding!r} is not a known text encoding")
    if entry.get("role", "primary") not in ROLES:
        raise refuse(f"role {entry.get('role')!r} is not one of {', '.join(ROLES)}")
    if not isinstance(entry.get("preferred", True), bool):
        raise refuse(f"preferred {entry.get('preferred')!r} is not true or false")
    for name in _TEXT_FIELDS:
        if entry.get(name) is not None and not isinstance(entry[name], str):
            raise refuse(f"{name} is {_kind(entry[name])}, not a string")
    return CaptureInfo.from_entry(entry)


def check_date(value: object, name: str, refuse: Any) -> None:
    """A real YYYY-MM-DD date between the first Magic release and a year from today."""
    if not isinstance(value, str) or not ISO_DAY.fullmatch(value):
        raise refuse(f"{name} {value!r} is not a date written YYYY-MM-DD")
    try:
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise refuse(f"{name} {value!r} is not a real date") from exc
    latest = date.today() + LATEST_AHEAD
    if not EARLIEST_DATE <= day <= latest:
        raise refuse(f"{name} {value} is outside {EARLIEST_DATE} .. {latest}")


def known_encoding(name: object) -> bool:
    """A Python text codec (not base64, rot13 ...) or one of archive.decode's own."""
    if not isinstance(name, str):
        return False
    if name in SPECIAL_ENCODINGS:
        return True
    try:
        return codecs.lookup(name)._is_text_encoding
    except LookupError:
        return False


def check_consistency(captures: list[CaptureInfo], path: Path) -> None:
    """One entry per file and per content, exactly one preferred capture per release date."""
    for attribute, what in (("file", "file"), ("sha256", "content (sha256)")):
        counts = Counter(getattr(c, attribute) for c in captures)
        for value, count in counts.items():
            if count > 1:
                files = [c.file for c in captures if getattr(c, attribute) == value]
                raise CaptureError(
                    str(path), f"the same {what} is listed {count} times: {', '.join(files)}"
                )
    preferred = Counter(c.date for c in captures if c.preferred)
    for day in sorted({c.date for c in captures}):
        if preferred[day] != 1:
            files = [c.file for c in captures if c.date == day and c.preferred]
            raise CaptureError(
                str(path),
                f"release {day} has {preferred[day]} preferred captures"
                f"{': ' + ', '.join(files) if files else ''}; it needs exactly one",
            )


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", list: "a list"}
    names.update({dict: "an object", str: "a string", type(None): "null"})
    return names.get(type(value), type(value).__name__)


def read_capture_bytes(captures_dir: Path, capture: CaptureInfo) -> bytes:
    """The capture's bytes, read inside the folder with the size cap, checked against the
    sha256 the manifest records."""
    data = read_inside(captures_dir, capture.file, MAX_RELEASE_BYTES, "capture")
    path = captures_dir / capture.file
    digest = hashlib.sha256(data).hexdigest()
    if digest != capture.sha256:
        raise CaptureError(
            str(path), f"sha256 is {digest[:12]}…, the manifest says {capture.sha256[:12]}…"
        )
    return data
