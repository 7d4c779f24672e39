"""Compare any two releases, neighbours or not, through the stored lineages.

A clause of the old release and a clause of the new one are the same clause when they share
a lineage; a lineage only in the old release was removed (or merged into one that goes on),
one only in the new release was added (or split off one that was there).
"""

from __future__ import annotations

import gc
import json
from collections import Counter
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from archive.errors import LookupFailed
from archive.query import canonical_number, resolve_release
from lineage.align import ADDED, MERGED, REMOVED, SPLIT, UNCHANGED, Clause, kind_of_change
from lineage.derived import annotate_diff, derived_releases
from lineage.evidence import add_evidence
from lineage.stored_diffs import member_text, stored_word_diffs
from lineage.trace import require_lineage
from vocabulary.numbers import is_under


@dataclass
class _Member:
    clause: Clause
    text: str


def diff_releases(
    db: Database, old: str, new: str, rule_prefix: str | None = None, words: bool = True
) -> dict[str, Any]:
    """Every change from release `old` to release `new` (dates), optionally under a rule.

    This is THE change list: the CLI's `diff`, the site's diff, release and home pages (through
    the `release_changes` table that `lineage.answers` fills from it) all use it. Without
    `words`, no word diffs (the site diffs the words itself, lazily, per page)."""
    require_lineage(db)
    rule_prefix = canonical_number(rule_prefix) if rule_prefix else None
    old_release, new_release = resolve_release(db, old), resolve_release(db, new)
    if old_release > new_release:
        raise LookupFailed(f"{old} ({old_release}) is newer than {new} ({new_release})")
    with _collector_paused():
        before = load_members(db, old_release, words)
        after = load_members(db, new_release, words)
        return compare_members(
            db,
            (old_release, before),
            (new_release, after),
            rule_prefix,
            words,
            _stored_kinds(db, old_release, new_release),
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a change list is made: it allocates tens of
    thousands of small dicts and lists, none in a cycle, which the collector would otherwise
    walk again and again (a quarter of the time of a long diff)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _stored_kinds(db: Database, old: str, new: str) -> dict[int, str] | None:
    """Lineage -> kind of change from `old` to `new` when `release_changes` holds them (`old`
    is the release `new` is compared with: `compared_with`), else None. A lineage of both
    releases that the table does not list is unchanged."""
    dates = [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]
    if compared_with(dates, derived_releases(db)).get(new) != old:
        return None
    return dict(
        db.execute(
            "SELECT lineage_id, kind FROM release_changes WHERE release = ?", [new]
        ).fetchall()
    )


def compare_members(
    db: Database,
    old: tuple[str, dict[int, _Member]],
    new: tuple[str, dict[int, _Member]],
    rule_prefix: str | None = None,
    words: bool = True,
    kinds: dict[int, str] | None = None,
) -> dict[str, Any]:
    """The change list of two releases' loaded members (see `diff_releases`); `kinds`, when
    given, are the kinds of change already computed (`release_changes`)."""
    (old_release, before), (new_release, after) = old, new
    number_map = {
        before[lid].clause.number: after[lid].clause.number for lid in before.keys() & after.keys()
    }
    links = _links(db, old_release, new_release)
    changes, summary = [], Counter[str]()
    for lineage_id in _in_order(before, after):
        change = _change(lineage_id, before, after, links)
        if change["kind"] is None and kinds is not None:
            change["kind"] = kinds.get(lineage_id, UNCHANGED)
        elif change["kind"] is None:
            change["kind"] = kind_of_change(
                before[lineage_id].clause, after[lineage_id].clause, number_map
            )
        if rule_prefix and not any(
            is_under(number, rule_prefix) for number in change["old"] + change["new"]
        ):
            continue
        summary[change["kind"]] += 1
        if change["kind"] != UNCHANGED:
            changes.append(change)
    add_evidence(db, old_release, new_release, changes)  # method, score, weak: how certain
    pairs = [(change.pop("old_text"), change.pop("new_text")) for change in changes]
    if words:
        for change, diff in zip(changes, stored_word_diffs(db, pairs), strict=True):
            change["diff"] = diff
    return annotate_diff(
        db,
        {
            "old": old_release,
            "new": new_release,
            "rule_prefix": rule_prefix,
            "summary": dict(sorted(summary.items())),
            "changes": changes,
        },
    )


def load_members(db: Database, release: str, words: bool = True) -> dict[int, _Member]:
    """Lineage id -> its clause in `release`, its examples part of its wording (with its text
    when `words`)."""
    text = "v.text" if words else "''"
    rows = db.execute(
        f"""SELECT m.lineage_id, p.id, p.kind, p.number, p.parent, p.title, p.version_hash,
                  v.normalised, p.position, {text}
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           JOIN clause_versions v ON v.hash = p.version_hash
           WHERE m.release = ?""",
        [release],
    )
    members = {row[0]: _Member(Clause(*row[1:9]), row[9]) for row in rows}
    examples = _examples(db, release)
    if examples:
        for member in members.values():
            found = examples.get(member.clause.number) if member.clause.group == "rule" else None
            if found:
                member.clause.examples = "\n".join(normalised for normalised, _text in found)
                if words:
                    member.text = member_text(member.text, [t for _normalised, t in found])
    return members


def _examples(db: Database, release: str) -> dict[str | None, list[tuple[str, str]]]:
    """The examples of each rule of `release` (by the rule's number), in order."""
    found: dict[str | None, list[tuple[str, str]]] = {}
    for parent, normalised, text in db.execute(
        """SELECT p.parent, v.normalised, v.text
           FROM releases r JOIN parts p ON p.capture_id = r.capture_id
           JOIN clause_versions v ON v.hash = p.version_hash
           WHERE r.date = ? AND p.kind = 'example' ORDER BY p.position""",
        [release],
    ):
        found.setdefault(parent, []).append((normalised, text))
    return found


def _links(db: Database, old: str, new: str) -> dict[int, tuple[str, list[int]]]:
    """Lineage -> (split | merged, related lineages) for splits and merges in (old, new]."""
    links: dict[int, tuple[str, list[int]]] = {}
    for lineage_id, kind, related in db.execute(
        """SELECT lineage_id, kind, related_lineages FROM lineage_events
           WHERE release > ? AND release <= ? AND kind IN (?, ?) ORDER BY release""",
        [old, new, SPLIT, MERGED],
    ):
        links.setdefault(lineage_id, (kind, []))[1].extend(json.loads(related))
    return links


def _in_order(before: dict[int, _Member], after: dict[int, _Member]) -> list[int]:
    """Lineages in the new release's order, each removed one after the clause it followed."""
    order = sorted(after, key=lambda lid: after[lid].clause.position)
    removed = sorted(
        (lid for lid in before if lid not in after), key=lambda lid: before[lid].clause.position
    )
    return order + removed


def _change(
    lineage_id: int,
    before: dict[int, _Member],
    after: dict[int, _Member],
    links: dict[int, tuple[str, list[int]]],
) -> dict[str, Any]:
    """The change of one lineage; its kind is None when both releases have it, unlinked."""
    old, new = before.get(lineage_id), after.get(lineage_id)
    link_kind, related = links.get(lineage_id, (None, []))
    olds = [old.clause.label] if old else []
    news = [new.clause.label] if new else []
    kind: str | None
    if old is None:
        kind = SPLIT if link_kind == SPLIT else ADDED
        olds = [before[r].clause.label for r in related if r in before] if kind == SPLIT else []
    elif new is None:
        kind = MERGED if link_kind == MERGED else REMOVED
        news = [after[r].clause.label for r in related if r in after] if kind == MERGED else []
    else:
        kind = link_kind
    return {
        "kind": kind,
        "old": olds,
        "new": news,
        "lineage": lineage_id,
        "related_lineages": related,
        "old_part": old.clause.part_id if old else None,
        "new_part": new.clause.part_id if new else None,
        "old_text": old.text if old else "",
        "new_text": new.text if new else "",
    }


def compared_with(dates: list[str], derived: AbstractSet[str]) -> dict[str, str | None]:
    """The release each release's changes are counted from: the official one before it.

    The official chain passes over a derived copy, which is compared with its official
    predecessor (lineage.derived), so no change list compares anything with the copy but that.

    >>> compared_with(["2003-03-15", "2003-05-26", "2003-07-01"], {"2003-05-26"})
    {'2003-03-15': None, '2003-05-26': '2003-03-15', '2003-07-01': '2003-03-15'}
    """
    base: dict[str, str | None] = {}
    official: str | None = None
    for day in dates:
        base[day] = official
        if day not in derived:
            official = day
    return base
