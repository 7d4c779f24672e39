"""What the in-browser compare needs to compare any two releases as `rules-history diff` does.

`lineage.compare.diff_releases` pairs the clauses of two releases by lineage, names each
change from the lineage events (splits, merges) or from the two clauses (`kind_of_change`),
and word-diffs their texts. The browser does the same from files published under `compare/`,
and decides no kind itself: every kind is computed here, by the engine.

A lineage's clause takes a few distinct *states* over the releases (its wording, number,
examples...). For every pair of states of a lineage (the older first), `kind_of_change` is
run here; it depends on the two releases compared only through the rule numbers that follow
their rules (a `reference` change), so where that matters both answers are published with
the numbers to check, and the browser checks them against the pair of releases it compares.

- `compare/index.json`: the other files, the split and merge events, the text chunks;
- `compare/lineages.json`: per lineage, its states (`[text, label]`, `[..., 1]` for a
  glossary entry) and the kind of each pair of them (`KIND_CODES`, `.` for a pair that never
  occurs, `?` when it depends on the references: then `[if they follow, if not, pairs]`);
- `compare/r/DATE.json`: each clause of the release in document order, `[lineage, state]`;
- `compare/t/N.json`: the texts, each once, in order of first appearance, cut into chunks of
  about `CHUNK_CHARS` so a new release adds a chunk and rewrites none.

Everything is read from the store.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from lineage.align import REFERENCE_NUMBER, Clause, kind_of_change
from lineage.compare import load_members
from vocabulary.kinds import CHANGE_KINDS, MERGED, SPLIT

FOLDER = "compare"
INDEX = f"{FOLDER}/index.json"
CHUNK_CHARS = 120_000  # texts per chunk file: a few dozen requests for the whole archive
FORMAT = 2  # bump when the files' layout changes (compare.js reads it)
KIND_CODES = "".join(chr(ord("a") + i) for i in range(len(CHANGE_KINDS)))
NEVER, DEPENDS = ".", "?"
# Fields of a clause that say where it stands, not what it is: not part of its state.
PLACE = {"part_id", "position"}


class _NothingFollows(dict[Any, Any]):
    """A number map under which no rule number followed its rule."""

    def get(self, key: Any, default: Any = None) -> Any:
        return _NothingFollows


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


def _state_key(clause: Clause, text: str) -> tuple[Any, ...]:
    values = tuple(
        getattr(clause, f.name) for f in dataclasses.fields(clause) if f.name not in PLACE
    )
    return (*values, text)


@dataclass
class _Lineage:
    keys: dict[tuple[Any, ...], int] = field(default_factory=dict)
    states: list[list[Any]] = field(default_factory=list)
    clauses: list[Clause] = field(default_factory=list)
    first: list[int] = field(default_factory=list)  # release index each state first appears
    last: list[int] = field(default_factory=list)  # and last


def _kinds(lineage: _Lineage) -> tuple[str, dict[int, list[Any]]]:
    """The kind of each pair of states (row: older, column: newer) and those that depend on
    the references."""
    count = len(lineage.clauses)
    codes = [NEVER] * (count * count)
    depends: dict[int, list[Any]] = {}
    for i, old in enumerate(lineage.clauses):
        for j, new in enumerate(lineage.clauses):
            if lineage.first[i] > lineage.last[j]:
                continue  # state i never comes before state j
            follows = kind_of_change(old, new, {})
            if follows == kind_of_change(old, new, _NothingFollows()):
                codes[i * count + j] = KIND_CODES[CHANGE_KINDS.index(follows)]
                continue
            pairs = zip(
                REFERENCE_NUMBER.findall(old.normalised),
                REFERENCE_NUMBER.findall(new.normalised),
                strict=False,
            )
            otherwise = kind_of_change(old, new, _NothingFollows())
            codes[i * count + j] = DEPENDS
            depends[i * count + j] = [
                KIND_CODES[CHANGE_KINDS.index(follows)],
                KIND_CODES[CHANGE_KINDS.index(otherwise)],
                [[a, b] for a, b in pairs if a != b],
            ]
    return "".join(codes), depends


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
    texts: dict[str, int] = {}
    lineages: dict[int, _Lineage] = {}
    releases: dict[str, str] = {}
    for number, date in enumerate(dates):
        members = load_members(db, date)
        rows = []
        for lineage_id, member in sorted(members.items(), key=lambda m: m[1].clause.position):
            clause = member.clause
            lineage = lineages.setdefault(lineage_id, _Lineage())
            key = _state_key(clause, member.text)
            state = lineage.keys.get(key)
            if state is None:
                state = lineage.keys[key] = len(lineage.states)
                text = texts.setdefault(member.text, len(texts))
                glossary = [1] if clause.kind == "glossary" else []
                lineage.states.append([text, clause.label, *glossary])
                lineage.clauses.append(clause)
                lineage.first.append(number)
                lineage.last.append(number)
            lineage.last[state] = number
            rows.append([lineage_id, state])
        path = f"{FOLDER}/r/{date}.json"
        data.files[path] = body = _dump(rows)
        releases[date] = versioned(path, body)
    table = {}
    for lineage_id, lineage in sorted(lineages.items()):
        kinds, depends = _kinds(lineage)
        table[lineage_id] = [lineage.states, kinds, depends] if depends else [lineage.states, kinds]
    lineages_path = f"{FOLDER}/lineages.json"
    data.files[lineages_path] = lineages_body = _dump(table)
    chunks: list[list[Any]] = []
    chunk: list[str] = []
    chunk_chars = 0
    ordered = list(texts)
    for index, wording in enumerate(ordered):
        chunk.append(wording)
        chunk_chars += len(wording)
        if chunk_chars >= CHUNK_CHARS or index == len(ordered) - 1:
            path = f"{FOLDER}/t/{len(chunks)}.json"
            data.files[path] = body = _dump(chunk)
            chunks.append([index + 1 - len(chunk), versioned(path, body)])
            chunk, chunk_chars = [], 0
    index_data = {
        "format": FORMAT,
        "kinds": [kind.value for kind in CHANGE_KINDS],
        "releases": releases,
        "lineages": versioned(lineages_path, lineages_body),
        "events": _events(db),
        "chunks": chunks,
    }
    data.files[INDEX] = _dump(index_data)
    return data
