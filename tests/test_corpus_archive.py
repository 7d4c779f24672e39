"""The committed archive holds every capture of the shared corpus, byte for byte.

The corpus folder sits beside the repository (`../shared/corpus`, or `$RULES_HISTORY_CORPUS`);
on a clone without it there is nothing to compare with, and the test says so.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from archive.manifest import CAPTURES_DIR

CORPUS = Path(
    os.environ.get("RULES_HISTORY_CORPUS")
    or Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
)
ARCHIVE = json.loads((CAPTURES_DIR / "manifest.json").read_bytes())


def corpus_manifest() -> list[dict]:
    if not (CORPUS / "manifest.json").is_file():
        pytest.skip(f"no shared corpus beside the repository ({CORPUS}): nothing to compare")
    return json.loads((CORPUS / "manifest.json").read_bytes())


def test_every_corpus_capture_is_archived_with_the_same_bytes():
    archived = {entry["file"]: entry for entry in ARCHIVE}
    corpus = corpus_manifest()
    for entry in corpus:
        assert entry["file"] in archived, f"{entry['file']} is in the corpus, not in the archive"
        data = (CAPTURES_DIR / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file"]
        # every provenance field the corpus records is kept as it is
        assert archived[entry["file"]] == entry, entry["file"]
    assert len({e["date"] for e in corpus}) == len({e["date"] for e in ARCHIVE}) == 135


def test_the_manifest_was_extended_not_rewritten():
    """The first collection's 137 entries come first, in their order; the 13 new ones follow."""
    files = [entry["file"] for entry in ARCHIVE]
    assert files[:2] == ["cr/1999-04-23.txt", "cr/1999-11-01.txt"]
    assert files[136] == "cr/2026-01-16.txt"
    assert files[137:] == [
        "cr/2003-05-26.txt",
        "cr/2021-09-24.txt",
        "cr/2023-02-03.txt",
        "cr/2023-06-16.txt",
        "cr/2023-09-01.txt",
        "cr/2024-04-10.txt",
        "cr/2024-09-17.txt",
        "cr/2026-02-27.txt",
        "cr/2026-04-17.txt",
        "cr/2026-06-19.txt",
        "cr/2026-08-07.txt",
        "cr/2026-08-07.upload-2026-08-08.txt",
        "cr/2026-08-07.upload-2026-08-19.txt",
    ]
    preferred = [e["file"] for e in ARCHIVE if e["date"] == "2026-08-07" and e["preferred"]]
    assert preferred == ["cr/2026-08-07.upload-2026-08-19.txt"]
    assert [e["date"] for e in ARCHIVE if e["role"] == "derived"] == ["2003-05-26"]
