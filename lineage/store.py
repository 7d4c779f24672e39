"""Lineages: a stable identity for each clause from its first release to its last, stored.

`build_lineage` aligns each release with the one before it (`lineage.align`) and writes
`lineages`, `lineage_members` (one row per clause part) and `lineage_events` (one row per
change: the release, its kind, the numbers before and after, and the lineages that a split
or a merge links). It is incremental: a release whose alignment `lineage_alignments` records
for the same pair of captures and the same `ALIGN_VERSION` is kept; from the first missing or
stale release on, everything is recomputed, since later lineages depend on earlier ones.

A member's `number` is the clause's number, or a glossary entry's term. Examples have no
lineage of their own: they follow their rule.
The reading side (trace, diff, blame) lives in its own modules and is re-exported here.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from itertools import chain, repeat
from typing import Any, NamedTuple, Protocol

from sqlite_utils import Database

from archive.collector import collector_paused
from archive.keyed import keyed_values
from archive.printings import examples_by_owner
from archive.store import store_file
from archive.workers import die_with_parent
from lineage.align import align
from lineage.alignment import Alignment
from lineage.alignment_rows import record_alignment
from lineage.clause import ALIGNED_KINDS, Clause, joined_examples
from lineage.derived import (
    OWN_IDS_FROM,
    DerivedAlignments,
    align_derived,
    around_derived,
    derived_releases,
    neighbours,
    store_derived,
)
from lineage.words import WordCodes
from vocabulary.kinds import ADDED, MERGED, SPLIT, UNCHANGED

# Bump when alignment changes (stored lineages are then rebuilt); tests/data/align_version.json
# records it with the algorithm's sha256 and a test fails when one changes without the other.
ALIGN_VERSION = 119
EXAMPLE_PART = "example"  # the kind of part an example is (archive.parse)
RUN = 8  # releases aligned per task in a worker process
LINEAGE_TABLES = ("lineage_members", "lineage_events")  # the tables the build writes with keys
MEMBER_INDEXES = {  # name -> what it indexes, as m002_lineage creates them
    "lineage_members_lineage": "lineage_members(lineage_id, release)",
    "lineage_members_release": "lineage_members(release, number)",
}


class Member(NamedTuple):
    """What lineages are written from: a clause's part, its number (or term), its kind."""

    part_id: int
    label: str
    kind: str


class Members(Sequence[Member]):
    """A release's clauses as lineages are written from them, held as columns: the writer
    inserts the 355,000 member rows of a whole build straight from them, and makes a
    `Member` only of the few clauses an event row or a new lineage names."""

    __slots__ = ("part_ids", "labels", "kinds")

    def __init__(self, part_ids: list[int], labels: list[str], kinds: list[str]) -> None:
        self.part_ids, self.labels, self.kinds = part_ids, labels, kinds

    def __len__(self) -> int:
        return len(self.part_ids)

    def __getitem__(self, n: int) -> Member:  # type: ignore[override]  # no slices
        return Member(self.part_ids[n], self.labels[n], self.kinds[n])


class _Labelled(Protocol):
    """A clause as the writer of lineage rows reads it (a `Clause` or a `Member`)."""

    @property
    def part_id(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def kind(self) -> str: ...


def load_clauses(db: Database, release: str, texts: dict[str, str] | None = None) -> list[Clause]:
    """The aligned parts of a release's preferred capture, in document order; each rule
    carries the normalised text of its examples (they are part of its wording).

    `texts` (version hash -> normalised text) may be kept across calls: consecutive releases
    share most of their texts, and each is then read once.
    """
    texts = {} if texts is None else texts
    kinds = (*ALIGNED_KINDS, EXAMPLE_PART)
    marks = ", ".join("?" for _ in kinds)
    rows = db.execute(
        f"""SELECT parts.id, parts.kind, parts.number, parts.parent, parts.title,
                   parts.version_hash, parts.position
            FROM releases JOIN parts ON parts.capture_id = releases.capture_id
            WHERE releases.date = ? AND parts.kind IN ({marks})
              AND parts.version_hash IS NOT NULL
            ORDER BY parts.position""",
        [release, *kinds],
    ).fetchall()
    missing = {row[5] for row in rows} - texts.keys()
    texts.update(keyed_values(db, "clause_versions", "hash", "normalised", missing))
    return with_examples((*row[:6], texts[row[5]], row[6]) for row in rows)


def with_examples(rows: Iterable[tuple[Any, ...]]) -> list[Clause]:
    """Clauses from rows in document order, the text of each example joined to its rule's:
    to the last printing of its number before it (`archive.printings.examples_by_owner`: a
    number printed twice has two rules, each with its own examples)."""
    clauses: list[Clause] = []
    examples: list[tuple[str | None, int, tuple[str, str]]] = []
    for row in rows:
        if row[1] == EXAMPLE_PART:
            examples.append((row[3], row[7], (row[6], row[5])))
        else:
            clauses.append(Clause(*row))
    rules = [(c.part_id, c.number, c.position) for c in clauses if c.group == "rule"]
    owned = examples_by_owner(rules, examples)
    for clause in clauses:
        if clause.part_id in owned:
            clause.examples = joined_examples(text for text, _version in owned[clause.part_id])
            clause.example_versions = tuple(version for _text, version in owned[clause.part_id])
    return clauses


@dataclass
class _Lineages:
    """Lineage rows being written, and the next free id."""

    rows: dict[int, list[Any]] = field(default_factory=dict)
    next_id: int = 1
    last_release: dict[int, str] = field(default_factory=dict)  # see `reach`
    last_label: dict[int, str] = field(default_factory=dict)
    last_kind: dict[int, str] = field(default_factory=dict)

    @classmethod
    def load(cls, db: Database, alive_in: str | None) -> _Lineages:
        """The lineages that have a member in release `alive_in`, to be continued."""
        top = db.execute(  # a derived copy's own lineages are numbered apart
            "SELECT coalesce(max(id), 0) FROM lineages WHERE id < ?", [OWN_IDS_FROM]
        ).fetchone()[0]
        rows = db.execute(
            """SELECT id, first_release, last_release, first_number, last_number, kind
               FROM lineages WHERE id IN
               (SELECT lineage_id FROM lineage_members WHERE release = ?)""",
            [alive_in],
        )
        return cls({row[0]: list(row[1:]) for row in rows}, top + 1)

    def start(self, release: str, clause: _Labelled) -> int:
        lineage_id = self.next_id
        self.next_id += 1
        self.rows[lineage_id] = [release, release, clause.label, clause.label, clause.kind]
        return lineage_id

    def reach(self, release: str, ids: list[int], members: Members) -> None:
        """Each lineage of `ids` reaches `release` as the member beside it: its last release,
        number and kind, until a later release's. Kept apart and joined to the rows at the
        end (`write`), three dictionary updates instead of a call for each member."""
        self.last_release.update(zip(ids, repeat(release)))
        self.last_label.update(zip(ids, members.labels, strict=True))
        self.last_kind.update(zip(ids, members.kinds, strict=True))

    def write(self, db: Database) -> None:
        for lineage_id, when in self.last_release.items():
            row = self.rows[lineage_id]
            row[1], row[3], row[4] = when, self.last_label[lineage_id], self.last_kind[lineage_id]
        db.conn.executemany(
            """INSERT OR REPLACE INTO lineages
               (id, first_release, last_release, first_number, last_number, kind)
               VALUES (?, ?, ?, ?, ?, ?)""",
            [(lineage_id, *row) for lineage_id, row in self.rows.items()],
        )


@collector_paused()  # the releases' members and lineage rows are kept to the end
def build_lineage(db: Database) -> dict[str, Any]:
    """Align every release that needs it and store its lineages; returns what was done.

    The official releases are chained among themselves; a release read from a derived copy
    is aligned beside that chain (`lineage.derived`), after it.
    """
    derived = derived_releases(db)
    everything = db.execute("SELECT date, capture_id FROM releases ORDER BY date").fetchall()
    releases = [(row[0], row[1]) for row in everything if row[0] not in derived]
    start = _first_stale(db, releases)
    gone = _first_gone(db, [(row[0], row[1]) for row in everything])
    if gone is not None:  # a release was removed: redo from the one that followed it
        after = next((i for i, (day, _) in enumerate(releases) if day > gone), len(releases))
        start = after if start is None else min(start, after)
    report: dict[str, Any] = {"releases": len(everything), "aligned": 0, "counts": {}}
    since = None
    if start is not None:
        first = releases[start][0] if start < len(releases) else None
        since = min(day for day in (gone, first) if day is not None)
    redo_derived = _derived_to_align(db, everything, derived, since)
    if start is None and not redo_derived:
        return report
    official = [release for release, _capture in releases]
    with _keys_checked_once(db) as unchecked, db.atomic(), _worker_pool(db) as pool:
        db.conn.execute("PRAGMA defer_foreign_keys = ON")  # lineage rows are written last
        pending = None  # the chain's alignments are asked for first, then the copies'
        if start is not None:
            chained = official[start - 1 :] if start else official  # from the one before
            pending = start, _submit_runs(db, chained, pool)
        copies = {release: _submit_derived(db, pool, release, official) for release in redo_derived}
        if pending is not None:
            _build_official(db, releases, *pending, report, since)
        for release in redo_derived:
            aligned = copies[release]()
            store_derived(db, release, official, _loader(db), _event_rows, aligned)
            report["aligned"] += 1
        if unchecked:
            _check_keys(db)
    return report


@contextmanager
def _keys_checked_once(db: Database) -> Iterator[bool]:
    """Foreign keys off while the lineage tables are written, checked once at the end
    (`_check_keys`) instead of row by row: SQLite looks up both parents of each of the
    355,000 members as it inserts them (0.5 s of a full build's writer), and deletes the
    old members row by row when their keys are on (0.27 s, 0.03 s off). Inside a caller's
    transaction the pragma cannot change; the keys stay on and are checked as they were.
    Yields whether they are off, and so left to `_check_keys`."""
    if db.conn.in_transaction or not db.execute("PRAGMA foreign_keys").fetchone()[0]:
        yield False
        return
    db.conn.execute("PRAGMA foreign_keys = OFF")
    try:
        yield True
    finally:
        db.conn.execute("PRAGMA foreign_keys = ON")


def _check_keys(db: Database) -> None:
    """Raise, inside the build's transaction (so nothing of it is kept), when a lineage row
    names a part or a lineage that is not there."""
    for table in LINEAGE_TABLES:
        broken = db.execute(f"PRAGMA foreign_key_check({table})").fetchone()
        if broken is not None:
            row, parent = broken[1], broken[2]
            raise RuntimeError(f"lineage build: {table} row {row} names a missing {parent}")


@contextmanager
def _worker_pool(db: Database) -> Iterator[ProcessPoolExecutor | None]:
    """Processes that align releases, each reading them from the store file (None for a
    store in memory). They start with the first task, so a build with none costs nothing."""
    if store_file(db) is None:
        yield None
        return
    pool = ProcessPoolExecutor(
        max_workers=min(2, os.cpu_count() or 1),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)


def _submit_derived(
    db: Database, pool: ProcessPoolExecutor | None, release: str, official: list[str]
) -> Callable[[], DerivedAlignments | None]:
    """The alignments of a derived release, computed in a worker while the official chain
    is written (the Eighth Edition copy's successor alone takes half a second); without
    workers, None: `store_derived` aligns it itself."""
    path = store_file(db)
    if pool is None or path is None:
        return lambda: None
    return pool.submit(_align_derived_in_worker, path, release, official).result


@collector_paused()  # the releases around the copy are kept to its end
def _align_derived_in_worker(path: str, release: str, official: list[str]) -> DerivedAlignments:
    db = Database(sqlite3.connect(path))
    try:
        return align_derived(*around_derived(_loader(db), release, official))
    finally:
        db.close()


def _loader(db: Database) -> Callable[[str], list[Clause]]:
    texts: dict[str, str] = {}  # the releases around a derived copy share most texts
    return lambda release: load_clauses(db, release, texts)


def _derived_to_align(
    db: Database, everything: list[Any], derived: set[str], since: str | None
) -> list[str]:
    """The derived releases to align again, in order: those whose stored alignment is
    missing or from other captures, and those beside an official release aligned again
    (`since` on: the one before a derived release gives it its lineages, the one after
    confirms them). Any other keeps its lineages, and their ids, which the answers stored
    from them name."""
    captures = dict(everything)
    official = [day for day, _capture in everything if day not in derived]
    done = {
        row[0]: (row[1], row[2])
        for row in db.execute(
            "SELECT release, capture_id, previous_capture_id FROM lineage_alignments"
        )
    }
    redo = []
    for release in sorted(derived):
        previous, following = neighbours(official, release)
        moved = since is not None and any(
            day is not None and day >= since for day in (release, previous, following)
        )
        if moved or done.get(release) != (captures[release], captures.get(previous)):
            redo.append(release)
    return redo


def _build_official(
    db: Database,
    releases: list[tuple[str, int]],
    start: int,
    pending: Iterator[Aligned],
    report: dict[str, Any],
    since: str | None = None,
) -> None:
    """Store the official releases from `start` on, each aligned with the official one before
    it (`pending`: those alignments, in order, from the release at `start` or the one after
    it when `start` is 0).

    `since` is the first day whose lineages go: the release at `start`, or an earlier one
    aligned before but removed since (what it left goes too)."""
    if start == 0:
        _forget_all(db)
        if not releases:
            return
    else:
        assert since is not None, "a store aligned up to `start` is forgotten from a day"
        _forget_from(db, since)
    previous = releases[start - 1][0] if start else None
    lineages = _Lineages.load(db, previous)
    old = members_of(load_clauses(db, previous) if previous else [])
    stored = _member_lineages(db, previous)
    old_ids = [stored[part_id] for part_id in old.part_ids]
    if not previous:  # the first release: everything in it is added
        opening = load_clauses(db, releases[0][0])
        pending = chain([Aligned(align([], opening), members_of(opening))], pending)
    for index, (alignment, new) in zip(range(start, len(releases)), pending, strict=True):
        release = releases[index][0]
        old_ids = _store_release(db, lineages, release, (old, old_ids), new, alignment)
        counts = alignment.counts()
        _record_alignment(db, releases, index, counts)
        for kind, count in counts.items():
            report["counts"][kind] = report["counts"].get(kind, 0) + count
        old = new
        report["aligned"] += 1
    # before the lineages: their foreign keys use one
    for name, columns in MEMBER_INDEXES.items():
        db.conn.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {columns}")
    lineages.write(db)


class Aligned(NamedTuple):
    """A release aligned with the one before it, and its clauses as members to write."""

    alignment: Alignment
    members: Members


def members_of(clauses: list[Clause]) -> Members:
    return Members(
        [clause.part_id for clause in clauses],
        [clause.label for clause in clauses],
        [clause.kind for clause in clauses],
    )


def alignments(db: Database, dates: list[str]) -> Iterator[Aligned]:
    """The alignment of each release in `dates` with the one before it, in order, with the
    release's members: the workers have read them already, so the writer need not.

    Worker processes align runs of releases (each reads them from the store file) while
    this process writes; an in-memory store is aligned here.
    """
    with _worker_pool(db) as pool:
        yield from _submit_runs(db, dates, pool)


def _submit_runs(
    db: Database, dates: list[str], pool: ProcessPoolExecutor | None
) -> Iterator[Aligned]:
    """What `alignments` yields; the runs are given to `pool` now (a single run, or no pool,
    is aligned here, as it is read)."""
    path = store_file(db)
    runs = [dates[i : i + RUN + 1] for i in range(0, len(dates) - 1, RUN)]
    if pool is None or path is None or len(runs) < 2:
        return (aligned for run in runs for aligned in _align_run(db, run))
    futures = [pool.submit(_align_run_in_worker, path, run) for run in runs]
    return (aligned for future in futures for aligned in map(_unpack, future.result()))


def _align_run(db: Database, dates: list[str]) -> list[Aligned]:
    return [Aligned(alignment, members_of(new)) for alignment, new in _aligned_pairs(db, dates)]


def _aligned_pairs(db: Database, dates: list[str]) -> Iterator[tuple[Alignment, list[Clause]]]:
    """Each release of `dates` after the first, aligned with the one before it."""
    texts: dict[str, str] = {}
    clauses = [load_clauses(db, date, texts) for date in dates]
    codes = WordCodes()  # the run's texts, each coded once
    for old, new in zip(clauses, clauses[1:], strict=False):
        yield align(old, new, codes), new


@collector_paused()  # the run's clauses are kept to its end
def _align_run_in_worker(path: str, dates: list[str]) -> list[_Packed]:
    db = Database(sqlite3.connect(path))
    try:
        return [_pack(alignment, new) for alignment, new in _aligned_pairs(db, dates)]
    finally:
        db.close()


class _Packed(NamedTuple):
    """An `Aligned` as a worker sends it back: the members as columns, the alignment with
    the evidence of only the clauses an event row is written for.

    Pickled as they are, a run's 30,000 member tuples and the evidence of every unchanged
    clause cost the two processes more than a tenth of the whole build; as columns of plain
    values, a sixth of that."""

    alignment: Alignment
    part_ids: list[int]
    labels: list[str]
    kinds: list[str]


def _pack(alignment: Alignment, clauses: list[Clause]) -> _Packed:
    """`alignment` and the release's `clauses` as a worker sends them (no `Member` is made
    there: the parent makes them from the columns)."""
    # the pairs whose evidence `_event_rows` reads: clauses that changed, homes of merges
    wanted = {n for n, kind in alignment.kinds.items() if kind != UNCHANGED}
    wanted.update(alignment.merges)
    alignment.similarity = {n: v for n, v in alignment.similarity.items() if n in wanted}
    alignment.method = {n: v for n, v in alignment.method.items() if n in wanted}
    alignment.score = {n: v for n, v in alignment.score.items() if n in wanted}
    return _Packed(
        alignment,
        [clause.part_id for clause in clauses],
        [clause.label for clause in clauses],
        [clause.kind for clause in clauses],
    )


def _unpack(packed: _Packed) -> Aligned:
    return Aligned(packed.alignment, Members(packed.part_ids, packed.labels, packed.kinds))


def _expected(releases: list[tuple[str, int]], index: int) -> tuple[Any, ...]:
    release, capture = releases[index]
    before = releases[index - 1] if index else (None, None)
    return (release, before[0], capture, before[1], ALIGN_VERSION)


def stale_release(db: Database) -> str | None:
    """The first release whose alignment is missing or stale, as `build_lineage` decides it
    (None: it would do nothing)."""
    derived = derived_releases(db)
    everything = db.execute("SELECT date, capture_id FROM releases ORDER BY date").fetchall()
    releases = [(row[0], row[1]) for row in everything if row[0] not in derived]
    index = _first_stale(db, releases)
    found = [releases[index][0]] if index is not None else []
    gone = _first_gone(db, [(row[0], row[1]) for row in everything])
    if gone is not None:
        found.append(gone)
    found.extend(_derived_to_align(db, everything, derived, min(found, default=None)))
    return min(found) if found else None


def _first_stale(db: Database, releases: list[tuple[str, int]]) -> int | None:
    done = {
        row[0]: tuple(row)
        for row in db.execute(
            "SELECT release, previous_release, capture_id, previous_capture_id, version"
            " FROM lineage_alignments"
        )
    }
    for index in range(len(releases)):
        if done.get(releases[index][0]) != _expected(releases, index):
            return index
    return None


def _first_gone(db: Database, releases: list[tuple[str, int]]) -> str | None:
    """The earliest release aligned before but no longer in the store, if any."""
    dates = {day for day, _capture in releases}
    gone = [row[0] for row in db.execute("SELECT release FROM lineage_alignments")]
    return min((day for day in gone if day not in dates), default=None)


def _record_alignment(
    db: Database, releases: list[tuple[str, int]], index: int, counts: dict[str, int]
) -> None:
    release, previous, capture, previous_capture, version = _expected(releases, index)
    record_alignment(db, release, previous, (capture, previous_capture), version, counts)


def _forget_all(db: Database) -> None:
    """Empty the lineage tables before a full rebuild. The member indexes go first and are
    built again at the end: that is faster than keeping them up to date row by row, and
    the delete itself would do so (when the members' foreign keys are on, as in a caller's
    transaction, SQLite does not truncate the table at once but deletes row by row: 2.5 s
    for 355,000 members with their two indexes, 0.3 s without)."""
    for name in MEMBER_INDEXES:
        db.conn.execute(f"DROP INDEX IF EXISTS {name}")
    tables = ("lineage_events", "derived_events", "lineage_members", "lineage_alignments")
    for table in (*tables, "lineages"):
        db.conn.execute(f"DELETE FROM {table}")


def _forget_from(db: Database, release: str) -> None:
    """Drop what was computed for `release` and later; trim lineages that reached it."""
    for table in ("lineage_events", "lineage_members", "lineage_alignments"):
        db.conn.execute(f"DELETE FROM {table} WHERE release >= ?", [release])
    db.conn.execute("DELETE FROM lineages WHERE first_release >= ?", [release])
    db.conn.execute(
        """UPDATE lineages SET
           last_release = (SELECT max(m.release) FROM lineage_members m
                           WHERE m.lineage_id = lineages.id),
           last_number = (SELECT m.number FROM lineage_members m
                          WHERE m.lineage_id = lineages.id ORDER BY m.release DESC LIMIT 1)
           WHERE last_release >= ?""",
        [release],
    )


def _member_lineages(db: Database, release: str | None) -> dict[int, int]:
    """Part id -> lineage id for the members of a release already stored."""
    rows = db.execute(
        "SELECT part_id, lineage_id FROM lineage_members WHERE release = ?", [release]
    )
    return dict(rows.fetchall())


def _store_release(
    db: Database,
    lineages: _Lineages,
    release: str,
    before: tuple[Sequence[_Labelled], list[int]],
    new: Members,
    alignment: Alignment,
) -> list[int]:
    """Write the members and events of one release; returns the lineage of each clause."""
    old, old_ids = before
    ids = []
    for n in range(len(new)):  # new lineages numbered in document order
        o = alignment.matches.get(n)
        ids.append(lineages.start(release, new[n]) if o is None else old_ids[o])
    lineages.reach(release, ids, new)
    events = _event_rows(release, old, old_ids, new, ids, alignment)
    db.conn.executemany(
        "INSERT INTO lineage_members (part_id, lineage_id, release, number, kind)"
        " VALUES (?, ?, ?, ?, ?)",
        zip(new.part_ids, ids, repeat(release), new.labels, new.kinds),
    )
    db.conn.executemany(
        """INSERT INTO lineage_events (lineage_id, release, kind, old_numbers, new_numbers,
           old_part_id, new_part_id, related_lineages, similarity, method, score, weak)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        events,
    )
    return ids


def _event_rows(
    release: str,
    old: Sequence[_Labelled],
    old_ids: list[int],
    new: Sequence[_Labelled],
    ids: list[int],
    alignment: Alignment,
) -> list[tuple[Any, ...]]:
    """The event rows of one release aligned with the one before it."""
    step = _Step(release, old, old_ids, new, ids, alignment)
    events = [step.event(n) for n in range(len(new)) if alignment.kinds[n] != UNCHANGED]
    events.extend(step.ending(o, kind) for o, kind in alignment.removed.items())
    return events


@dataclass
class _Step:
    """One release aligned with the one before: makes its event rows."""

    release: str
    old: Sequence[_Labelled]
    old_ids: list[int]
    new: Sequence[_Labelled]
    ids: list[int]
    alignment: Alignment

    def __post_init__(self) -> None:
        splits, merges = self.alignment.splits, self.alignment.merges
        self.piece_of = {p: source for source, pieces in splits.items() for p in pieces}
        self.merged_into = {o: n for n, olds in merges.items() for o in olds}
        self.continued = {o: n for n, o in self.alignment.matches.items()}

    def event(self, n: int) -> tuple[Any, ...]:
        """The event row of a new clause that is not unchanged."""
        alignment = self.alignment
        kind, o = alignment.kinds[n], alignment.matches.get(n)
        olds, news, related = ([o] if o is not None else []), [n], []
        if n in self.piece_of:  # a piece split off an old clause: it starts a new lineage
            o = self.piece_of[n]
            olds, news = [o], [self.continued[o], *alignment.splits[o]]
            related = [self.old_ids[o]]
        elif kind == SPLIT and o is not None:
            news = [n, *alignment.splits[o]]
            related = [self.ids[p] for p in alignment.splits[o]]
        elif kind == MERGED and o is not None:
            olds = [o, *alignment.merges[n]]
            related = [self.old_ids[p] for p in alignment.merges[n]]
        row = self._row(self.ids[n], kind, olds, news, related, o, n)
        return (*row, *self.alignment.evidence_new(n))

    def ending(self, o: int, kind: str) -> tuple[Any, ...]:
        """The event row of an old clause that does not continue: removed, or merged."""
        target = self.merged_into.get(o)
        news = [target] if target is not None else []
        related = [self.ids[n] for n in news]
        row = self._row(self.old_ids[o], kind, [o], news, related, o, target)
        return (*row, *self.alignment.evidence_old(o))

    def _row(
        self,
        lineage_id: int,
        kind: str,
        olds: list[int],
        news: list[int],
        related: list[int],
        o: int | None,
        n: int | None,
    ) -> tuple[Any, ...]:
        return (
            lineage_id,
            self.release,
            kind,
            _json_list(tuple(self.old[i].label for i in olds)),
            _json_list(tuple(self.new[i].label for i in news)),
            self.old[o].part_id if o is not None and kind != ADDED else None,
            self.new[n].part_id if n is not None else None,
            _json_list(tuple(related)),
            self.alignment.similarity.get(n) if n is not None else None,
        )


@cache
def _json_list(items: tuple[str | int, ...]) -> str:
    """A JSON list of numbers, terms or lineage ids: the same few recur in thousands of event
    rows (a whole build writes 80,000 such lists, of a few thousand kinds)."""
    return json.dumps(list(items))
