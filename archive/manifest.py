"""The manifest of committed captures: where each CR text came from and how to decode it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archive.errors import CaptureError

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
    """Read `manifest.json` of a captures folder, in release order."""
    path = captures_dir / MANIFEST_NAME
    try:
        entries = json.loads(path.read_bytes())
    except FileNotFoundError as exc:
        raise CaptureError(str(path), "no manifest.json in this captures folder") from exc
    except json.JSONDecodeError as exc:
        raise CaptureError(str(path), f"manifest is not valid JSON (line {exc.lineno})") from exc
    if not isinstance(entries, list):
        raise CaptureError(str(path), "manifest must be a JSON list of capture entries")
    captures = []
    for number, entry in enumerate(entries, 1):
        missing = {"date", "file", "sha256"} - set(entry)
        if missing:
            raise CaptureError(str(path), f"entry {number} lacks {', '.join(sorted(missing))}")
        captures.append(CaptureInfo.from_entry(entry))
    return sorted(captures, key=lambda c: (c.date, not c.preferred, c.file))


def read_capture_bytes(captures_dir: Path, capture: CaptureInfo) -> bytes:
    """The capture's bytes, checked against the sha256 the manifest records."""
    path = captures_dir / capture.file
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise CaptureError(str(path), "listed in the manifest but missing on disk") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != capture.sha256:
        raise CaptureError(
            str(path), f"sha256 is {digest[:12]}…, the manifest says {capture.sha256[:12]}…"
        )
    return data
