"""What the in-browser compare needs to compare any two releases as `rules-history diff` does.

`lineage.compare.diff_releases` pairs the clauses of two releases by lineage and names each
change from the lineage events (splits, merges) or from the two wordings (`kind_of_change`).
The browser does the same from files published under `compare/`:

- `compare/index.json`: the releases' files, the split and merge events, the text chunks,
  and, for the few wordings that need it, what `kind_of_change` compares beyond identity
  (wordings equal once normalised, equal once rule numbers are masked, and those numbers);
- `compare/r/DATE.json`: each clause of the release in document order, as
  `[lineage, wording, label]` (`[..., 1]` for a glossary entry, `[..., 1, key]` when its
  term compares in another form);
- `compare/t/N.json`: the wordings' texts, each once, numbered in order of first appearance,
  cut into chunks of about `CHUNK_CHARS` so a new release adds a chunk and rewrites none.

Everything is read from the store; nothing here decides a change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from archive.normalise import normalise
from lineage.align import ALIGNED_KINDS, REFERENCE_NUMBER, mask_references
from vocabulary.kinds import MERGED, SPLIT

FOLDER = "compare"
CHUNK_CHARS = 120_000  # texts per chunk file: a few dozen requests for the whole archive
INDEX = f"{FOLDER}/index.json"
FORMAT = 1  # bump when the files' layout changes (compare.js reads it)


@dataclass
class CompareData:
    """The published files: path (under the site) -> bytes."""

    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return sum(len(data) for data in self.files.values())


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def versioned(path: str, data: bytes) -> str:
    """The URL of a file with its content hash, so a browser cache never serves an old one."""
    return f"/{path}?v={hashlib.sha256(data).hexdigest()[:10]}"


def _wordings(db: Database) -> Iterator[tuple[str, str, str]]:
    """(version hash, text, normalised) of every clause wording, in order of first appearance."""
    marks = ", ".join("?" for _ in ALIGNED_KINDS)
    rows = db.execute(
        f"""SELECT p.version_hash, v.text, v.normalised, min(r.date || printf('%09d', p.position))
            FROM releases r JOIN parts p ON p.capture_id = r.capture_id
            JOIN clause_versions v ON v.hash = p.version_hash
            WHERE p.kind IN ({marks})
            GROUP BY p.version_hash ORDER BY 4""",
        list(ALIGNED_KINDS),
    )
    for version_hash, text, normalised, _first in rows:
        yield version_hash, text, normalised


def _release_rows(db: Database, release: str, ids: dict[str, int]) -> list[list[Any]]:
    """The release's clauses in document order, as `lineage.compare._members` reads them."""
    rows = db.execute(
        """SELECT m.lineage_id, p.version_hash, p.kind, p.number, p.title
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.release = ? ORDER BY p.position""",
        [release],
    )
    out: list[list[Any]] = []
    for lineage_id, version_hash, kind, number, title in rows:
        label = number or title or ""
        row: list[Any] = [lineage_id, ids[version_hash], label]
        if kind == "glossary":
            row.append(1)
            if normalise(label) != label:
                row.append(normalise(label))
        out.append(row)
    return out


def _events(db: Database) -> list[list[Any]]:
    """Every split and merge, in the order `lineage.compare._links` reads them."""
    return [
        [release, lineage_id, kind, json.loads(related)]
        for release, lineage_id, kind, related in db.execute(
            """SELECT release, lineage_id, kind, related_lineages FROM lineage_events
               WHERE kind IN (?, ?) ORDER BY release""",
            [SPLIT, MERGED],
        )
    ]


def compare_data(db: Database, dates: list[str]) -> CompareData:
    """Every file the in-browser compare reads, built from the store's lineages."""
    data = CompareData()
    ids: dict[str, int] = {}
    normal_of: dict[str, int] = {}
    masked_of: dict[str, int] = {}
    normal: dict[int, int] = {}
    masked: dict[int, int] = {}
    masked_texts: dict[int, str] = {}
    chunks: list[list[Any]] = []
    chunk: list[str] = []
    chunk_chars = 0

    def flush() -> None:
        nonlocal chunk, chunk_chars
        if chunk:
            path = f"{FOLDER}/t/{len(chunks)}.json"
            body = _dump(chunk)
            data.files[path] = body
            chunks.append([len(ids) - len(chunk), versioned(path, body)])
            chunk, chunk_chars = [], 0

    for version_hash, text, normalised in _wordings(db):
        wording = ids[version_hash] = len(ids)
        first_normal = normal_of.setdefault(normalised, wording)
        if first_normal != wording:
            normal[wording] = first_normal
        mask = mask_references(normalised)
        first_masked = masked_of.setdefault(mask, wording)
        if first_masked != wording:
            masked[wording] = first_masked
        masked_texts[wording] = normalised
        chunk.append(text)
        chunk_chars += len(text)
        if chunk_chars >= CHUNK_CHARS:
            flush()
    flush()
    # The rule numbers only matter where two wordings differ in nothing else: one list per
    # normalised wording whose masked form another normalised wording shares.
    forms: dict[int, set[int]] = {}
    for wording in masked_texts:
        if wording not in normal:
            forms.setdefault(masked.get(wording, wording), set()).add(wording)
    refs = {
        wording: REFERENCE_NUMBER.findall(masked_texts[wording])
        for group in forms.values()
        if len(group) > 1
        for wording in sorted(group)
    }
    releases = {}
    for date in dates:
        path = f"{FOLDER}/r/{date}.json"
        body = _dump(_release_rows(db, date, ids))
        data.files[path] = body
        releases[date] = versioned(path, body)
    index = {
        "format": FORMAT,
        "releases": releases,
        "events": _events(db),
        "chunks": chunks,
        "wordings": len(ids),
        "normal": normal,
        "masked": masked,
        "refs": refs,
    }
    data.files[INDEX] = _dump(index)
    return data
