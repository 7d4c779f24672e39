"""Compare any two releases, neighbours or not, through the stored lineages.

A clause of the old release and a clause of the new one are the same clause when they share
a lineage; a lineage only in the old release was removed (or merged into one that goes on),
one only in the new release was added (or split off one that was there).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal

from sqlite_utils import Database

from archive.collector import collector_paused
from archive.errors import LookupFailed
from archive.keyed import keyed_values
from archive.lookup import Found, find
from archive.printings import Printing, examples_by_owner, titled_printing
from archive.query import release_dates, resolve_release
from lineage.change_kind import kind_of_change
from lineage.clause import GROUP, Clause, joined_examples
from lineage.derived import annotate_diff, derived_releases
from lineage.evidence import add_evidence
from lineage.stored_diffs import member_text, stored_word_diffs
from lineage.stored_kinds import clause_state, kinds_key, stored_kinds
from lineage.trace import require_lineage
from vocabulary.kinds import ADDED, MERGED, REMOVED, SPLIT, UNCHANGED


@dataclass(slots=True)
class _Member:
    """A lineage's clause in one release: what a change list reads of it. Its words are read
    only when needed (`read_words`): the text of a changed clause for its word diff, the
    normalised text of one whose kind is named here (`clause`)."""

    fields: tuple[Any, ...]  # part id, kind, number, parent, title, version, position
    examples: str = ""  # the normalised text of its examples, one a line
    example_versions: tuple[str, ...] = ()
    example_texts: tuple[str, ...] = ()
    text: str | None = None  # its words (`read_words`)
    normalised: str | None = None  # and their normalised form (`read_words`)
    _clause: Clause | None = None

    @property
    def part_id(self) -> int:
        return int(self.fields[0])

    @property
    def number(self) -> str | None:
        return self.fields[2]  # type: ignore[no-any-return]

    @property
    def label(self) -> str:
        """The number, or a glossary entry's term (`Clause.label`)."""
        return self.fields[2] or self.fields[4] or ""

    @property
    def version(self) -> str:
        return str(self.fields[5])

    @property
    def position(self) -> int:
        return int(self.fields[6])

    @property
    def state(self) -> str:
        """What its kind of change depends on (`lineage.stored_kinds.clause_state`)."""
        return clause_state(self.fields[1], self.label, self.version, self.example_versions)

    @property
    def words(self) -> str:
        """What its word diff covers: its text, then its examples (`read_words` first)."""
        assert self.text is not None, "read_words(db, members, 'text') first"
        return member_text(self.text, list(self.example_texts))

    @property
    def clause(self) -> Clause:
        """The clause, as the alignment knows it (`read_words(db, members, 'normalised')`
        first)."""
        if self._clause is None:
            assert self.normalised is not None, "read_words(db, members, 'normalised') first"
            part, kind, number, parent, title, version, position = self.fields
            self._clause = Clause(
                part, kind, number, parent, title, version, self.normalised, position
            )
            self._clause.examples = self.examples
            self._clause.example_versions = self.example_versions
        return self._clause


def read_words(
    db: Database, members: Iterable[_Member], column: Literal["text", "normalised"]
) -> None:
    """Read the `text` or the `normalised` text (`column`) of each of `members`, in one query."""
    wanted = [member for member in members if getattr(member, column) is None]
    if not wanted:
        return
    found = keyed_values(
        db, "clause_versions", "hash", column, (member.version for member in wanted)
    )
    for member in wanted:
        setattr(member, column, found[member.version])


@dataclass(frozen=True)
class RuleFilter:
    """The clauses a change list keeps under a rule, in each of its two releases: the ones
    numbered so or under it, or the glossary entry of that term (`archive.lookup.Found`;
    None: nothing on that side). A number is the same prefix on both sides; a title or a
    term is read in each release as `show` reads it ("morph": 502.26 in 2008, 702.37 in
    2024), so that what it names is followed across a renumbering both ways."""

    name: str
    old: Found | None
    new: Found | None
    # On a side whose release prints the title's number more than once (2024-09-17: Offspring
    # and Impending are both 702.175), the printing the title heads (archive.printings): it
    # keeps only the clauses that printing owns. A number keeps every printing: a prefix.
    old_printing: Printing | None = None
    new_printing: Printing | None = None

    @classmethod
    def of(cls, db: Database, rule: str, old_release: str, new_release: str) -> RuleFilter:
        sides: list[Found | None] = []
        printings: list[Printing | None] = []
        for release in (old_release, new_release):
            try:
                found = find(db, release, rule)  # a number is found as it is written
            except LookupFailed:
                found = None
            sides.append(found)
            printings.append(
                titled_printing(db, release, found.number, found.part) if found else None
            )
        if sides == [None, None]:
            find(db, new_release, rule)  # raises: nothing is called so, with suggestions
        found = sides[1] or sides[0]
        name = found.label if found is not None and found.kind == "number" else rule
        return cls(name, sides[0], sides[1], printings[0], printings[1])

    def keeps(
        self, change: dict[str, Any], before: dict[int, _Member], after: dict[int, _Member]
    ) -> bool:
        """Does the list keep `change` (`before`, `after`: the two releases' members)?"""
        lineage = change["lineage"]
        return _side_keeps(self.old, self.old_printing, change["old"], before.get(lineage)) or (
            _side_keeps(self.new, self.new_printing, change["new"], after.get(lineage))
        )

    def numbers(self) -> dict[str, str | None]:
        """What the rule is in each release: its number, or its glossary term."""
        return {
            "old": self.old.label if self.old else None,
            "new": self.new.label if self.new else None,
        }


def _side_keeps(
    found: Found | None, printing: Printing | None, labels: list[str], member: _Member | None
) -> bool:
    if found is None or not any(found.covers(label) for label in labels):
        return False
    return printing is None or (member is not None and printing.owns(member.position))


def diff_releases(
    db: Database, old: str, new: str, rule_prefix: str | None = None, words: bool = True
) -> dict[str, Any]:
    """Every change from release `old` to release `new` (dates), optionally under a rule
    (`rule_prefix`: a number, or a title or term: `RuleFilter`).

    This is THE change list: the CLI's `diff`, the site's diff, release and home pages (through
    the `release_changes` table that `lineage.answers` fills from it) all use it. Without
    `words`, no word diffs (the site diffs the words itself, lazily, per page)."""
    require_lineage(db)
    old_release, new_release = resolve_release(db, old), resolve_release(db, new)
    if old_release > new_release:
        raise LookupFailed(f"{_named(old, old_release)} is newer than {_named(new, new_release)}")
    rule = RuleFilter.of(db, rule_prefix, old_release, new_release) if rule_prefix else None
    with collector_paused():
        before = load_members(db, old_release)
        after = load_members(db, new_release)
        return compare_members(
            db,
            (old_release, before),
            (new_release, after),
            rule,
            words,
            _stored_kinds(db, old_release, new_release),
        )


def _named(asked: str, release: str) -> str:
    """What the user wrote, with the release it names when that is not the same text.

    >>> _named("ONS", "2002-10-07"), _named("2008-02-01", "2008-02-01")
    ('ONS (2002-10-07)', '2008-02-01')
    """
    return asked if asked == release else f"{asked} ({release})"


def _stored_kinds(db: Database, old: str, new: str) -> dict[int, str] | None:
    """Lineage -> kind of change from `old` to `new` when `release_changes` holds them (`old`
    is the release `new` is compared with: `compared_with`), else None. A lineage of both
    releases that the table does not list is unchanged."""
    dates = release_dates(db)
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
    rule: RuleFilter | None = None,
    words: bool = True,
    kinds: dict[int, str] | None = None,
) -> dict[str, Any]:
    """The change list of two releases' loaded members (see `diff_releases`); `kinds`, when
    given, are the kinds of change already computed (`release_changes`)."""
    (old_release, before), (new_release, after) = old, new
    links = _links(db, old_release, new_release)
    listed = [_change(lineage_id, before, after, links) for lineage_id in _in_order(before, after)]
    if rule is not None:
        listed = [change for change in listed if rule.keeps(change, before, after)]
    undecided = [change for change in listed if change["kind"] is None]
    if kinds is not None:
        for change in undecided:
            change["kind"] = kinds.get(change["lineage"], UNCHANGED)
    else:
        _name_kinds(db, undecided, before, after)
    summary = Counter(change["kind"] for change in listed)
    changes = [change for change in listed if change["kind"] != UNCHANGED]
    add_evidence(db, old_release, new_release, changes)  # method, score, weak: how certain
    if words:
        ends = [(before.get(change["lineage"]), after.get(change["lineage"])) for change in changes]
        read_words(db, (member for pair in ends for member in pair if member), "text")
        pairs = [(a.words if a else "", b.words if b else "") for a, b in ends]
        for change, diff in zip(changes, stored_word_diffs(db, pairs), strict=True):
            change["diff"] = diff
    return annotate_diff(
        db,
        {
            "old": old_release,
            "new": new_release,
            "rule_prefix": rule.name if rule else None,
            **({"rule_numbers": rule.numbers()} if rule else {}),
            "summary": dict(sorted(summary.items())),
            "changes": changes,
        },
    )


def _name_kinds(
    db: Database,
    changes: list[dict[str, Any]],
    before: dict[int, _Member],
    after: dict[int, _Member],
) -> None:
    """The kind of each change of a lineage both releases have, unlinked: unchanged when its
    state is the same, else as stored (`lineage.stored_kinds`), else named here."""
    keys: dict[int, str] = {}
    for change in changes:
        lineage_id = change["lineage"]
        old_state, new_state = before[lineage_id].state, after[lineage_id].state
        if old_state == new_state:
            change["kind"] = UNCHANGED
        else:
            keys[lineage_id] = kinds_key(old_state, new_state)
    stored = stored_kinds(db, keys.values()) if keys else {}
    unnamed = [change for change in changes if change["lineage"] in keys]
    for change in unnamed:
        change["kind"] = stored.get(keys[change["lineage"]])
    unnamed = [change for change in unnamed if change["kind"] is None]
    if not unnamed:
        return
    ends = [(before[change["lineage"]], after[change["lineage"]]) for change in unnamed]
    read_words(db, (member for pair in ends for member in pair), "normalised")
    number_map = {before[lid].number: after[lid].number for lid in before.keys() & after.keys()}
    for change, (old, new) in zip(unnamed, ends, strict=True):
        change["kind"] = kind_of_change(old.clause, new.clause, number_map)


def load_members(db: Database, release: str) -> dict[int, _Member]:
    """Lineage id -> its clause in `release`, its examples part of its wording (their words
    read with them; the clause's own words are read when needed: `read_words`)."""
    rows = db.execute(
        """SELECT m.lineage_id, p.id, p.kind, p.number, p.parent, p.title, p.version_hash,
                  p.position
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.release = ?""",
        [release],
    )
    members = {row[0]: _Member(row[1:]) for row in rows}
    rules = [
        (member.part_id, member.number, member.position)
        for member in members.values()
        if GROUP[member.fields[1]] == "rule"
    ]
    examples = examples_by_owner(rules, _examples(db, release))
    if examples:
        for member in members.values():
            found = examples.get(member.part_id)
            if found:
                member.examples = joined_examples(normalised for normalised, _t, _v in found)
                member.example_texts = tuple(text for _n, text, _v in found)
                member.example_versions = tuple(version for _n, _t, version in found)
    return members


def _examples(db: Database, release: str) -> list[tuple[str | None, int, tuple[str, str, str]]]:
    """The examples of `release`, in order: the number each follows, its position, and its
    normalised text, text and version (`archive.printings.examples_by_owner` gives each to
    its rule)."""
    return [
        (parent, position, (normalised, text, version))
        for parent, position, normalised, text, version in db.execute(
            """SELECT p.parent, p.position, v.normalised, v.text, p.version_hash
               FROM releases r JOIN parts p ON p.capture_id = r.capture_id
               JOIN clause_versions v ON v.hash = p.version_hash
               WHERE r.date = ? AND p.kind = 'example' ORDER BY p.position""",
            [release],
        )
    ]


# Lineage -> its splits and merges between two releases, in release order: each event's kind
# and the lineages it names.
Links = dict[int, list[tuple[str, list[int]]]]


def _links(db: Database, old: str, new: str) -> Links:
    """Lineage -> its split and merged events in (old, new], in release order."""
    links: Links = {}
    for lineage_id, kind, related in db.execute(
        """SELECT lineage_id, kind, related_lineages FROM lineage_events
           WHERE release > ? AND release <= ? AND kind IN (?, ?) ORDER BY release""",
        [old, new, SPLIT, MERGED],
    ):
        links.setdefault(lineage_id, []).append((kind, json.loads(related)))
    return links


def _reached(lineage_id: int, kind: str, side: dict[int, _Member], links: Links) -> list[int]:
    """The lineages of `side` that `lineage_id` reaches through the events of `kind` between
    the two releases (a split: the clauses of the old release it came from; merged: those of
    the new one it went into), through lineages `side` lacks: a piece split off a clause
    added since came from what that clause came from, or from nothing in the old release
    (2003's glossary entry "Tournament", split in 2009, is added since 2002); a clause merged
    into one removed since went nowhere in the new release. `site/static/compare.js` walks
    them in the same order."""
    found: list[int] = []
    seen, todo = {lineage_id}, [lineage_id]
    while todo:
        for event_kind, related in links.get(todo.pop(), []):
            if event_kind != kind:
                continue
            for other in related:
                if other not in seen:
                    seen.add(other)
                    (found if other in side else todo).append(other)
    return found


def _in_order(before: dict[int, _Member], after: dict[int, _Member]) -> list[int]:
    """Lineages in the new release's order, each removed one after the clause it followed."""
    order = sorted(after, key=lambda lid: after[lid].position)
    removed = sorted(
        (lid for lid in before if lid not in after), key=lambda lid: before[lid].position
    )
    return order + removed


def _change(
    lineage_id: int,
    before: dict[int, _Member],
    after: dict[int, _Member],
    links: Links,
) -> dict[str, Any]:
    """The change of one lineage; its kind is None when both releases have it, unlinked.
    A clause only one release has is split or merged when it reaches a clause of the other
    through the splits or merges between (`_reached`), else added or removed."""
    old, new = before.get(lineage_id), after.get(lineage_id)
    events = links.get(lineage_id, [])
    link_kind = events[0][0] if events else None
    related = [other for _kind, named in events for other in named]
    olds = [old.label] if old else []
    news = [new.label] if new else []
    kind: str | None
    if old is None:
        olds = [before[r].label for r in _reached(lineage_id, SPLIT, before, links)]
        kind = SPLIT if olds else ADDED
    elif new is None:
        news = [after[r].label for r in _reached(lineage_id, MERGED, after, links)]
        kind = MERGED if news else REMOVED
    else:
        kind = link_kind
    return {
        "kind": kind,
        "old": olds,
        "new": news,
        "lineage": lineage_id,
        "related_lineages": related,
        "old_part": old.part_id if old else None,
        "new_part": new.part_id if new else None,
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
