"""Which version of the alignment algorithm the stored lineages come from, checked.

`ALIGN_VERSION` (in `lineage.store`) marks stored lineages: when it changes, they are built
again. It must change whenever the algorithm does, so `tests/data/align_version.json`
records the version with the sha256 of the algorithm's source files, and a test fails when
a file changed but the version did not. After changing the algorithm, bump `ALIGN_VERSION`
and run `python -m lineage.version` to record the new hashes; it refuses to record new
hashes under the old version.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from lineage.store import ALIGN_VERSION

ROOT = Path(__file__).resolve().parent.parent
# The files whose changes change alignments: the aligner's modules and every module of the
# project they import (the text forms it compares, the kinds it names, rule numbers);
# `tests/test_align_version.py` holds the list to those imports.
ALGORITHM_FILES = (
    "lineage/align.py",
    "lineage/alignment.py",
    "lineage/change_kind.py",
    "lineage/clause.py",
    "lineage/splits.py",
    "lineage/moved_sentences.py",
    "lineage/entry_sentences.py",
    "lineage/word_sets.py",
    "lineage/words.py",
    "archive/normalise.py",
    "vocabulary/kinds.py",
    "vocabulary/numbers.py",
)
RECORD = ROOT / "tests" / "data" / "align_version.json"


def source_hashes(root: Path = ROOT) -> dict[str, str]:
    """The sha256 of each file of the algorithm, by path from the project's root."""
    return {
        name: hashlib.sha256((root / name).read_bytes()).hexdigest() for name in ALGORITHM_FILES
    }


def recorded(record: Path = RECORD) -> dict[str, Any]:
    if not record.exists():
        return {"align_version": None, "sha256": {}}
    found: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    return found


def problem(root: Path = ROOT, record: Path = RECORD, version: int = ALIGN_VERSION) -> str | None:
    """Why the record does not match the sources and `version`, or None when it does."""
    noted = recorded(record)
    hashes = source_hashes(root)
    changed = [name for name, digest in hashes.items() if noted["sha256"].get(name) != digest]
    if changed and noted["align_version"] == version:
        return f"{', '.join(changed)} changed but ALIGN_VERSION is still {version}: bump it"
    if changed or noted["align_version"] != version:
        return "the record is out of date: run `python -m lineage.version`"
    return None


def main() -> int:
    record = recorded()
    hashes = source_hashes()
    if hashes != record["sha256"] and record["align_version"] == ALIGN_VERSION:
        print(f"the algorithm changed: bump ALIGN_VERSION (now {ALIGN_VERSION}) first")
        return 1
    RECORD.write_text(
        json.dumps({"align_version": ALIGN_VERSION, "sha256": hashes}, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"recorded ALIGN_VERSION {ALIGN_VERSION} for {', '.join(hashes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
