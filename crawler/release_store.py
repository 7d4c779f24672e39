"""Adding a newly found CR text to an archive-layout captures folder (`cr/` + manifest.json).

Whether a text is new is decided by its content and the date it states, never its URL:
- its sha256 is in the manifest: already archived, nothing to do;
- a release in the manifest states the same date (or is dated that day): a re-upload of
  that release, added as a further capture (`role: alt`, not preferred: which capture is
  read stays as it was until a person prefers the new one);
- otherwise a new release, dated by the date it states.
The file is written once (never over another file) and the manifest is extended by one
entry with its provenance, byte for byte the same before it; both writes are atomic.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from archive.decode import guess_encoding
from archive.errors import RulesHistoryError
from archive.ingest import stated_iso
from archive.manifest import MANIFEST_NAME
from archive.parse import ParsedRelease
from crawler.capture_store import INDEX_NAME, sha256_of, write_atomic

CR_DIR = "cr"
# Indents a manifest may be written with (the archive's 2, the tests' and crawler's 1): the
# one that gives back its bytes is kept, so every existing entry stays byte for byte.
LAYOUTS = ((2, False), (1, False), (2, True), (1, True))  # (indent, ensure_ascii)
NEW_RELEASE, NEW_CAPTURE, KNOWN = "new release", "new capture", "already archived"


class ReleaseStoreError(RulesHistoryError):
    """A captures folder the update cannot extend safely."""


@dataclass(frozen=True)
class Decision:
    """What adding one text means for the folder."""

    action: str  # NEW_RELEASE, NEW_CAPTURE or KNOWN
    release: str
    stated_date: str
    file: str  # relative to the captures folder: the existing file, or the one to write
    sha256: str

    def as_dict(self) -> dict[str, str]:
        return {
            "action": self.action,
            "release": self.release,
            "stated_date": self.stated_date,
            "file": self.file,
            "sha256": self.sha256,
        }


def read_entries(captures_dir: Path) -> list[dict[str, Any]]:
    path = captures_dir / MANIFEST_NAME
    if not path.exists():
        return []
    try:
        entries = json.loads(path.read_bytes())
    except json.JSONDecodeError as exc:
        raise ReleaseStoreError(f"{path}: not valid JSON (line {exc.lineno})") from exc
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ReleaseStoreError(f"{path}: not a list of manifest entries")
    return entries


def decide(captures_dir: Path, data: bytes, parsed: ParsedRelease, today: str) -> Decision:
    """Known, a new capture of a known release, or a new release (see the module's text)."""
    digest = sha256_of(data)
    stated = stated_iso(parsed.stated_date_text)
    if stated is None:
        raise ReleaseStoreError("the text states no date: not added")
    entries = read_entries(captures_dir)
    for entry in entries:
        if entry.get("sha256") == digest:
            return Decision(KNOWN, entry["date"], stated, entry["file"], digest)
    same = [e for e in entries if stated in (e.get("stated_date"), e.get("date"))]
    if same:
        release = same[0]["date"]
        name = _free_name(captures_dir, f"{release}.upload-{today}")
        return Decision(NEW_CAPTURE, release, stated, name, digest)
    return Decision(NEW_RELEASE, stated, stated, _free_name(captures_dir, stated), digest)


def _free_name(captures_dir: Path, stem: str) -> str:
    """`cr/STEM.txt`, or `cr/STEM-2.txt` ... when a file already has the name."""
    candidate, number = f"{CR_DIR}/{stem}.txt", 1
    while (captures_dir / candidate).exists():
        number += 1
        candidate = f"{CR_DIR}/{stem}-{number}.txt"
    return candidate


def add(
    captures_dir: Path, decision: Decision, data: bytes, provenance: dict[str, Any]
) -> dict[str, Any]:
    """Write the text once and extend the manifest by its entry; returns the entry."""
    if decision.action == KNOWN:
        raise ReleaseStoreError(f"{decision.file}: already archived")
    entry: dict[str, Any] = {
        "date": decision.release,
        "file": decision.file,
        "role": "primary" if decision.action == NEW_RELEASE else "alt",
        "preferred": decision.action == NEW_RELEASE,
        "sha256": decision.sha256,
        "bytes": len(data),
        "encoding": guess_encoding(data, decision.file),
        "stated_date": decision.stated_date,
        **provenance,
    }
    path = captures_dir / MANIFEST_NAME
    if (captures_dir / INDEX_NAME).exists():
        raise ReleaseStoreError(
            f"{path}: written by the crawler from its index.json; give update an archive folder"
        )
    old = path.read_bytes() if path.exists() else None
    entries = read_entries(captures_dir)
    layout = next((i for i in LAYOUTS if old is None or _layout(entries, i) == old), None)
    if layout is None:
        raise ReleaseStoreError(f"{path}: not laid out as json.dumps writes it: not rewritten")
    write_once(captures_dir / decision.file, data)
    write_atomic(path, _layout([*entries, entry], layout))
    return entry


def write_once(path: Path, data: bytes) -> None:
    """Write `data` to `path` atomically, refusing to replace any file already there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)
        try:
            os.link(temp, path)  # fails if the name is taken: a capture is never overwritten
        except FileExistsError as exc:
            raise ReleaseStoreError(f"{path}: exists already; not overwritten") from exc
    finally:
        Path(temp).unlink(missing_ok=True)


def _layout(entries: list[dict[str, Any]], layout: tuple[int, bool]) -> bytes:
    indent, ascii_only = layout
    return (json.dumps(entries, indent=indent, ensure_ascii=ascii_only) + "\n").encode("utf-8")


def now_utc() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
