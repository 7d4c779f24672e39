"""Derived releases: a release known only from a re-extracted copy (`role: derived`).

Such a copy (2003-05-26, Scourge) drops mana symbols, changes dashes and carries typos the
official files lack, so its own differences must not become rule changes. It takes part in
lineage this way:

- The official releases are chained among themselves: each official release is aligned
  with the previous *official* release (2003-03-15 -> 2003-07-01 directly), so `lineage_events`,
  blame and every change list hold no event of a derived copy, and never date a wording from it.
- A derived release is aligned with its official predecessor (and, for the clauses that
  alignment leaves new, with its official successor). Its clauses join those lineages as
  members (`lineage_members`), so `show`, `export`, `diff` and the history pages can read it;
  a clause neither official neighbour has starts a lineage of its own.
- Those lineages of its own take ids from a range of their own, named by the release
  (`first_own_id`: 2003-05-26's from 200305260000 on), above every official lineage's: an id
  never depends on the order releases were added in, so a store built at once and one built
  release by release hold the same ids.
- Its differences from the predecessor are stored in `derived_events` (the columns of
  `lineage_events`, plus `confirmed`): a difference is confirmed only when the next official
  release has it too (the same words, or the clause present or absent alike), otherwise it
  stays unconfirmed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from sqlite_utils import Database

from archive.query import release_dates
from lineage.align import align
from lineage.alignment import Alignment
from lineage.alignment_rows import record_alignment
from lineage.clause import Clause
from vocabulary.kinds import ADDED, MERGED, REMOVED, SPLIT

DERIVED_ROLE = "derived"
DERIVED_NOTE = "from a re-extracted copy; wording less certain"
OLDER_END, NEWER_END = "old", "new"  # the ends of a diff a derived copy can be
PRESENCE, WORDS = "presence", "words"  # what a change of the copy is checked by
BY_PRESENCE = (ADDED, REMOVED, SPLIT, MERGED)  # kinds whose check is the clause's presence
OWN_IDS_PER_COPY = 10_000  # a release has some 5,000 clauses: room for all to be its own
OWN_IDS_FROM = 10**11  # official lineages are numbered below this, a copy's own above it


def first_own_id(release: str) -> int:
    """The first id of the lineages a derived release begins.

    >>> first_own_id("2003-05-26")
    200305260000
    """
    first = int(release.replace("-", "")) * OWN_IDS_PER_COPY
    assert first >= OWN_IDS_FROM, release
    return first


def derived_releases(db: Database) -> set[str]:
    """The releases read from a derived capture."""
    return {
        row[0]
        for row in db.execute(
            "SELECT releases.date FROM releases JOIN captures ON captures.id = releases.capture_id"
            " WHERE captures.role = ?",
            [DERIVED_ROLE],
        )
    }


def is_derived(db: Database, release: str) -> bool:
    return release in derived_releases(db)


def neighbours(official: list[str], release: str) -> tuple[str | None, str | None]:
    """The official releases just before and just after `release`.

    >>> neighbours(["2003-03-15", "2003-07-01"], "2003-05-26")
    ('2003-03-15', '2003-07-01')
    >>> neighbours(["2003-03-15"], "2003-05-26")
    ('2003-03-15', None)
    """
    before = [day for day in official if day < release]
    after = [day for day in official if day > release]
    return (before[-1] if before else None, after[0] if after else None)


def forget_derived(db: Database, release: str) -> None:
    """Drop what was stored for a derived release (it is always recomputed whole)."""
    db.conn.execute("DELETE FROM derived_events WHERE release = ?", [release])
    db.conn.execute("DELETE FROM lineage_events WHERE release = ?", [release])  # older stores
    db.conn.execute("DELETE FROM lineage_members WHERE release = ?", [release])
    db.conn.execute("DELETE FROM lineage_alignments WHERE release = ?", [release])
    db.conn.execute(
        "DELETE FROM lineages WHERE first_release = ? AND last_release = ?", 2 * [release]
    )


def store_derived(
    db: Database,
    release: str,
    official: list[str],
    load: Callable[[str], list[Clause]],
    step: Callable[..., list[tuple[Any, ...]]],
    aligned: DerivedAlignments | None = None,
) -> dict[str, int]:
    """Align and store one derived release; returns its counts.

    `load(release)` reads a release's clauses and `step(...)` makes event rows (both
    from `lineage.store`, passed in so that the two modules do not import each other).
    `aligned` is `align_derived`'s answer when a worker process has computed it already.
    """
    forget_derived(db, release)
    previous, following = neighbours(official, release)
    old, new, later = around_derived(load, release, official)
    old_ids = _ids(db, previous, old)
    later_ids = _ids(db, following, later)
    first, second = aligned or align_derived(old, new, later)
    ids: list[int] = []
    used: set[int] = set()
    from_later = _later_lineage(later_ids, second)
    new_lineages = []
    next_id = first_own_id(release)
    for n, clause in enumerate(new):
        o = first.matches.get(n)
        lineage = old_ids[o] if o is not None else from_later.get(n)
        if lineage is None or lineage in used:
            lineage, next_id = next_id, next_id + 1
            new_lineages.append(
                (lineage, release, release, clause.label, clause.label, clause.kind)
            )
        used.add(lineage)
        ids.append(lineage)
    db.conn.executemany(
        "INSERT INTO lineage_members (part_id, lineage_id, release, number, kind)"
        " VALUES (?, ?, ?, ?, ?)",
        [(c.part_id, ids[n], release, c.label, c.kind) for n, c in enumerate(new)],
    )
    db.conn.executemany(
        """INSERT INTO lineages (id, first_release, last_release, first_number, last_number,
           kind) VALUES (?, ?, ?, ?, ?, ?)""",
        new_lineages,
    )
    events = step(release, old, old_ids, new, ids, first)
    attested = _attested(new, ids, later, later_ids)
    alive, later_alive = set(ids), set(later_ids)
    # the first nine columns of an event row are those `derived_events` keeps (not the
    # evidence columns of `lineage_events`)
    rows = [(*row[:9], int(_confirmed(row, alive, attested, later_alive))) for row in events]
    db.conn.executemany(
        """INSERT INTO derived_events (lineage_id, release, kind, old_numbers, new_numbers,
           old_part_id, new_part_id, related_lineages, similarity, confirmed)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )
    captures = dict(
        db.execute(
            "SELECT date, capture_id FROM releases WHERE date IN (?, ?)", [release, previous]
        ).fetchall()
    )
    counts = first.counts()
    record_alignment(
        db,
        release,
        previous,
        (captures[release], captures.get(previous)),
        -1,  # not part of the official chain: recomputed with it, never checked alone
        {**counts, "derived": True},
    )
    assert next_id <= first_own_id(release) + OWN_IDS_PER_COPY, release
    return counts


def _ids(db: Database, release: str | None, clauses: list[Clause]) -> list[int]:
    if release is None:
        return []
    stored = dict(
        db.execute(
            "SELECT part_id, lineage_id FROM lineage_members WHERE release = ?", [release]
        ).fetchall()
    )
    return [stored[clause.part_id] for clause in clauses]


class DerivedAlignments(NamedTuple):
    """What a derived release is stored from: its alignment with its official predecessor,
    and its official successor's with it when the first leaves some of its clauses new."""

    first: Alignment
    second: Alignment | None


def around_derived(
    load: Callable[[str], list[Clause]], release: str, official: list[str]
) -> tuple[list[Clause], list[Clause], list[Clause]]:
    """The clauses of the official predecessor, of the derived release, of the successor."""
    previous, following = neighbours(official, release)
    old = load(previous) if previous else []
    later = load(following) if following else []
    return old, load(release), later


def align_derived(old: list[Clause], new: list[Clause], later: list[Clause]) -> DerivedAlignments:
    """The alignments a derived release `new` is stored from (see `DerivedAlignments`):
    pure, so a worker process may compute them while the official chain is written."""
    first = align(old, new)
    if not later or len(first.matches) == len(new):
        return DerivedAlignments(first, None)
    return DerivedAlignments(first, align(new, later))


def _later_lineage(later_ids: list[int], second: Alignment | None) -> dict[int, int]:
    """Derived clause -> the lineage of its successor clause (`second`: the successor aligned
    with the derived release); read for the clauses the predecessor lacks."""
    if second is None:
        return {}
    return {n: later_ids[m] for m, n in second.matches.items()}


def _attested(
    new: list[Clause], ids: list[int], later: list[Clause], later_ids: list[int]
) -> dict[int, bool]:
    """Lineage -> whether the next official release has the derived clause's very words."""
    words = {later_ids[m]: clause.normalised for m, clause in enumerate(later)}
    return {ids[n]: words.get(ids[n]) == clause.normalised for n, clause in enumerate(new)}


def _confirmed(
    row: tuple[Any, ...], alive: set[int], attested: dict[int, bool], alive_later: set[int]
) -> bool:
    """An event of the derived release is confirmed when the next official release agrees:
    a clause that ends in the copy is gone there too, one the copy adds is there, and a
    changed clause has there the copy's very words."""
    lineage, kind = row[0], row[2]
    if lineage not in alive:  # removed from the copy, or merged into another clause
        return lineage not in alive_later
    if kind == ADDED:
        return lineage in alive_later
    return attested.get(lineage, False)


def annotate_diff(db: Database, result: dict[str, Any]) -> dict[str, Any]:
    """Mark a diff whose end is a derived release: each change `confirmed` or not.

    A change is confirmed when the derived copy agrees, for that clause, with the official
    release on the far side of it (the next one when the copy is the newer end, the previous
    one when it is the older end): the same words, or the clause present or absent alike
    (`unconfirmed_lineages`). Unconfirmed changes leave `summary` for `unconfirmed`, counted
    by kind.
    """
    derived = derived_releases(db)
    ends = [day for day in (result["old"], result["new"]) if day in derived]
    if not ends:
        return result
    result["derived"] = ends
    result["note"] = f"{', '.join(ends)}: {DERIVED_NOTE}"
    if len(ends) == 2:
        return result
    day = ends[0]
    side = NEWER_END if day == result["new"] else OLDER_END
    differs = unconfirmed_lineages(db)[day][side]
    presence, words = set(differs[PRESENCE]), set(differs[WORDS])
    unconfirmed: dict[str, int] = {}
    for change in result["changes"]:
        agrees = change["lineage"] not in (presence if change["kind"] in BY_PRESENCE else words)
        change["confirmed"] = agrees
        if not agrees:
            unconfirmed[change["kind"]] = unconfirmed.get(change["kind"], 0) + 1
            result["summary"][change["kind"]] -= 1
    result["summary"] = {kind: n for kind, n in result["summary"].items() if n}
    result["unconfirmed"] = dict(sorted(unconfirmed.items()))
    result["confirmed_by"] = differs["confirmed_by"]
    return result


def unconfirmed_lineages(db: Database) -> dict[str, dict[str, dict[str, Any]]]:
    """For each derived copy and each end of a diff it can be (`OLDER_END`, `NEWER_END`): the
    official release that confirms its differences (the one before it, the one after it),
    the lineages present in one of the two and not the other (`PRESENCE`: what an added,
    removed, split or merged change is checked by), and those whose words differ (`WORDS`:
    any other change). `annotate_diff` and the in-browser compare read the same lists."""
    derived = derived_releases(db)
    if not derived:
        return {}
    dates = release_dates(db)
    official = [release for release in dates if release not in derived]
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for day in sorted(derived):
        previous, following = neighbours(official, day)
        copy_words = _words_by_lineage(db, day)
        found[day] = {}
        for side, reference in ((OLDER_END, previous), (NEWER_END, following)):
            official_words = _words_by_lineage(db, reference) if reference else {}
            either = sorted(set(copy_words) | set(official_words))
            found[day][side] = {
                "confirmed_by": reference,
                PRESENCE: [i for i in either if (i in copy_words) != (i in official_words)],
                WORDS: [i for i in either if copy_words.get(i) != official_words.get(i)],
            }
    return found


def _words_by_lineage(db: Database, release: str) -> dict[int, str]:
    """Lineage -> normalised words of its clause in `release`."""
    return dict(
        db.execute(
            """SELECT m.lineage_id, v.normalised FROM lineage_members m
               JOIN parts p ON p.id = m.part_id
               JOIN clause_versions v ON v.hash = p.version_hash
               WHERE m.release = ?""",
            [release],
        ).fetchall()
    )
