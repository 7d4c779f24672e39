"""The derived answers, computed once from the lineages and stored: the pipeline stage after
`lineage.store.build_lineage`. The CLI and the site read these tables; neither computes them.

- `wordings`: each wording of each lineage (consecutive releases in which the clause kept one
  exact text), with its span named the same everywhere: `first` (the first release that
  printed it), `last` (the last release that printed it) and `replaced_by` (the release after
  `last`: the one that printed a new wording, or removed or merged the clause; NULL while it
  is still in force), the number of releases, its numbers, the kind of change that began it,
  and its blame.
- `blame`: for each clause of each release, `since` (the last change of wording: renumbering,
  cross-references that follow one, and typography ignored, see `vocabulary.kinds.
  WORDING_CHANGES`) and `text_since` (the last change of its text of any kind).
- `release_counts`: what a release's clause count counts: `clauses` are the clauses that have
  a history (chapters, sections, rules, subrules and glossary entries: the lineage members);
  `rules` the rules and subrules among them; `glossary` the glossary entries; `examples` the
  examples, which follow their rule and are not counted as clauses; `unchanged` the clauses
  kept as they were in the release it is compared with (the change list's "unchanged").
- `release_changes`: the change list from the release before to each release,
  `lineage.compare.diff_releases` without word diffs (THE change list; the CLI's `diff` prints
  the same for neighbours).
- `word_diffs`: the word diff of every two texts of one clause (its words and examples) that
  two releases can set against each other, an earlier one into a later one: the diff of any
  two releases reads them (`lineage.stored_diffs`) instead of diffing (kept by the key of the
  two texts, so a row never goes stale; a full recompute drops the rows no clause needs).
- `change_kinds`: the kind of change between every two states of one clause that two releases
  can set against each other (`lineage.stored_kinds`): the diff of any two releases reads them
  instead of naming them (kept by the key of the two states; a full recompute drops the rows
  no clause needs).
- `headings`: each titled clause (chapter, section, keyword rule) of each release, with the
  clauses printed under it (a section: its rules and subrules; `lineage.headings`).
- `number_runs`: the stretches of consecutive releases in which a clause number kept one
  wording, each the page a citation names (`lineage.runs`).
- `derived_state`: which lineage alignment each release's answers were computed from.

Incremental like the lineages: from the first release whose alignment changed, everything
later is recomputed; wordings are recomputed for the lineages alive from the release before.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from itertools import groupby
from typing import Any

from sqlite_utils import Database

from archive.collector import collector_paused
from archive.keyed import keyed_rows, keyed_values
from archive.query import examples_of_parts, release_dates
from archive.store import alignment_identities
from archive.worddiff import Diff, WordDiffs, diff_of_shape, diff_shape, needs_diffing, pair_key
from lineage.clause import GROUP, Clause, joined_examples
from lineage.compare import compare_members, compared_with, load_members
from lineage.derived import derived_releases
from lineage.headings import store_headings
from lineage.runs import store_runs
from lineage.stored_diffs import member_text
from lineage.stored_kinds import both_kinds, clause_state, kinds_key
from vocabulary.kinds import (
    ADDED,
    EXAMPLE,
    FORMATTING,
    MERGED,
    REFERENCE,
    RENUMBERED,
    RENUMBERED_EXAMPLE,
    SPLIT,
    UNCHANGED,
    WORDING_CHANGES,
)

DERIVED_VERSION = 22  # bump when a derived answer's definition changes: they are recomputed
TEXT_CHANGES = frozenset({*WORDING_CHANGES, REFERENCE, FORMATTING, EXAMPLE, RENUMBERED_EXAMPLE})
# Kinds of change that may leave a clause's own words as they were (a renumbering; a split or
# a merge, where the clause gave a piece away or took another in): blame reads its texts.
SAME_WORDS_POSSIBLE = frozenset({RENUMBERED, SPLIT, MERGED})
RULE_KINDS = ("rule", "subrule")


def signature(db: Database) -> dict[str, str]:
    """Release -> what its derived answers depend on: its alignment row and DERIVED_VERSION.

    Any change of the lineage of an official release or of one before it aligns it again
    (build_lineage redoes every later release; a derived copy is aligned again beside the
    chain), and every alignment writes its row with a new token (`lineage.alignment_rows`),
    so equal signatures mean equal inputs."""
    rows = alignment_identities(db)
    return {str(row[0]): json.dumps([*row, DERIVED_VERSION]) for row in rows}


def first_stale(db: Database) -> str | None:
    """The first release whose derived answers are missing or stale (None: all current)."""
    wanted = signature(db)
    done = dict(db.execute("SELECT release, signature FROM derived_state").fetchall())
    stale = [release for release in sorted(wanted) if done.get(release) != wanted[release]]
    extra = set(done) - set(wanted)
    if extra:
        stale.append(min(extra))
    return min(stale) if stale else None


@collector_paused()  # every release's members, states and texts are kept to the end
def build_derived(db: Database) -> dict[str, Any]:
    """Compute and store the derived answers of every release that needs them."""
    start = first_stale(db)
    dates = release_dates(db)
    report: dict[str, Any] = {"releases": len(dates), "computed": 0}
    if start is None:
        return report
    redo = [day for day in dates if day >= start]
    before = [day for day in dates if day < start]
    with db.atomic():
        for table in ("blame", "release_counts", "release_changes", "derived_state"):
            db.conn.execute(f"DELETE FROM {table} WHERE release >= ?", [start])
        examples = _Examples(db)
        # The word diffs (half the work of a whole archive) run in a worker process while
        # this one computes the rest: they read only members and texts.
        todo = _word_diffs_to_do(db, start, not before, examples)
        with WordDiffs([pair for _key, pair in todo], workers=1) as diffing:
            _store_counts(db, redo)
            report["runs"] = store_runs(db, dates, start)
            report["headings"] = store_headings(db, start)
            _store_blame(db, start)
            report["change_kinds"] = _store_change_kinds(db, start, not before, examples)
            _store_changes(db, redo)  # after the kinds: it reads them
            report["wordings"] = _store_wordings(db, before[-1] if before else None)
            _store_word_diffs(db, todo, diffing.results())
        report["word_diffs"] = len(todo)
        wanted = signature(db)
        db.conn.executemany(
            "INSERT OR REPLACE INTO derived_state (release, signature) VALUES (?, ?)",
            [(day, wanted[day]) for day in redo if day in wanted],
        )
    report["computed"] = len(redo)
    return report


def _store_counts(db: Database, dates: list[str]) -> None:
    for day in dates:
        kinds: dict[str, int] = dict(
            db.execute(
                "SELECT kind, count(*) FROM lineage_members WHERE release = ? GROUP BY kind",
                [day],
            ).fetchall()
        )
        examples = db.execute(
            """SELECT count(*) FROM releases JOIN parts ON parts.capture_id = releases.capture_id
               WHERE releases.date = ? AND parts.kind = 'example'""",
            [day],
        ).fetchone()[0]
        db.conn.execute(
            """INSERT INTO release_counts (release, clauses, rules, glossary, examples)
               VALUES (?, ?, ?, ?, ?)""",
            [
                day,
                sum(kinds.values()),
                sum(kinds.get(kind, 0) for kind in RULE_KINDS),
                kinds.get("glossary", 0),
                examples,
            ],
        )


def _new_examples_only(db: Database, events: list[tuple[Any, ...]]) -> set[tuple[int, int]]:
    """(old part, new part) of each event that kept its rule's words (`SAME_WORDS_POSSIBLE`)
    while its examples changed, if only in typography: its text changed all the same (2009:
    202.2b renumbered 201.2b, whose example went "into play" -> "onto the battlefield"; the
    change is named by its number, which says more). Only these events are read for their
    examples: the rest say by their kind or their text whether the text changed."""
    pairs = [
        (old, new)
        for _lineage, _release, kind, words_changed, old, new in events
        if kind in SAME_WORDS_POSSIBLE and not words_changed and old is not None and new is not None
    ]
    examples = examples_of_parts(db, [part for pair in pairs for part in pair])
    return {(old, new) for old, new in pairs if examples[old] != examples[new]}


def _store_blame(db: Database, start: str) -> None:
    """`since` and `text_since` of every member of the releases from `start` on."""
    rows_read = db.execute(
        """SELECT e.lineage_id, e.release, e.kind, old.version_hash IS NOT new.version_hash,
                  e.old_part_id, e.new_part_id
           FROM lineage_events e
           LEFT JOIN parts old ON old.id = e.old_part_id
           LEFT JOIN parts new ON new.id = e.new_part_id
           ORDER BY e.lineage_id, e.release, e.id"""
    ).fetchall()
    examples_changed = _new_examples_only(db, rows_read)
    events: dict[int, list[tuple[str, str, bool, bool]]] = defaultdict(list)
    for lineage_id, release, kind, words_changed, old_part, new_part in rows_read:
        text_changed = bool(words_changed) or (old_part, new_part) in examples_changed
        events[lineage_id].append((release, kind, bool(words_changed), text_changed))
    copies = derived_releases(db)
    rows = []
    members = db.execute(
        """SELECT m.part_id, m.lineage_id, m.release, m.number, l.first_release
           FROM lineage_members m JOIN lineages l ON l.id = m.lineage_id
           WHERE m.release >= ? ORDER BY m.lineage_id, m.release""",
        [start],
    )
    for lineage_id, group in groupby(members, key=lambda row: row[1]):
        history = events.get(lineage_id, [])
        since = text_since = None
        i = 0
        for part_id, _lineage, release, number, first_release in group:
            while i < len(history) and history[i][0] <= release:
                when, kind, words_changed, text_changed = history[i]
                # A clause that took in another, or gave a piece away, with its own words as
                # they were (2009: the heading 406 "Mana Abilities" took in 411 as 605) kept
                # its wording: a split or a merge dates it only when its words changed.
                if kind in WORDING_CHANGES and (kind not in SAME_WORDS_POSSIBLE or words_changed):
                    since = when
                # A renumbering whose cross-references moved with it changed the text too
                # (2021: 707.2's "rule 706" became 708.2's "rule 707").
                if (kind in TEXT_CHANGES and kind not in SAME_WORDS_POSSIBLE) or text_changed:
                    text_since = when
                i += 1
            dated = since or first_release
            if release in copies:  # a clause a derived copy shares with a later official
                dated = min(dated, release)  # release only dates from the copy
            rows.append((part_id, lineage_id, release, number, dated, text_since or dated))
    # In part order, each row lands at the end of the table (its key is the part), and next
    # to the one before in the release index; in lineage order every row went to a page of
    # its own: the archive's 355,000 rows took 4.5 s to write, 2 s so.
    rows.sort()
    db.conn.executemany(
        """INSERT INTO blame (part_id, lineage_id, release, number, since, text_since)
           VALUES (?, ?, ?, ?, ?, ?)""",
        rows,
    )


def _store_changes(db: Database, dates: list[str]) -> None:
    """The change list of each release in `dates` from the release it is compared with
    (`compared_with`); a derived copy's changes carry whether the next official release
    confirms them (lineage.derived.annotate_diff)."""
    every = release_dates(db)
    bases = compared_with(every, derived_releases(db))
    loaded: dict[str, Any] = {}

    def members(day: str) -> Any:
        if day not in loaded:
            if len(loaded) > 2:
                loaded.clear()
            loaded[day] = load_members(db, day)
        return loaded[day]

    for day in dates:
        base = bases.get(day)
        if base is None:
            continue
        result = compare_members(db, (base, members(base)), (day, members(day)), words=False)
        db.conn.execute(
            "UPDATE release_counts SET unchanged = ? WHERE release = ?",
            [result["summary"].get(UNCHANGED, 0), day],
        )
        db.conn.executemany(
            """INSERT INTO release_changes (release, position, previous_release, kind,
               old_numbers, new_numbers, lineage_id, old_part_id, new_part_id,
               related_lineages, unconfirmed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            [
                (
                    day,
                    position,
                    base,
                    change["kind"],
                    json.dumps(change["old"]),
                    json.dumps(change["new"]),
                    change["lineage"],
                    change["old_part"],
                    change["new_part"],
                    json.dumps(change["related_lineages"]),
                    int(not change.get("confirmed", True)),
                )
                for position, change in enumerate(result["changes"])
            ],
        )


def _keep_only(db: Database, table: str, keys: Iterable[str]) -> None:
    """Delete the rows of `table` (keyed by `key`) whose key is not among `keys`: a full
    recompute keeps what is still needed and drops what no clause asks for any more."""
    db.conn.execute("DROP TABLE IF EXISTS temp.needed_keys")
    db.conn.execute("CREATE TEMP TABLE needed_keys (key TEXT PRIMARY KEY) WITHOUT ROWID")
    db.conn.executemany("INSERT INTO temp.needed_keys VALUES (?)", [(k,) for k in keys])
    db.conn.execute(f"DELETE FROM {table} WHERE key NOT IN temp.needed_keys")
    db.conn.execute("DROP TABLE temp.needed_keys")


def _word_diffs_to_do(
    db: Database, start: str, everything: bool, examples: _Examples
) -> list[tuple[str, tuple[str, str]]]:
    """(key, pair) of each text of a clause in the releases from `start` on and each earlier
    text of that clause (see `word_diffs` above) that the store lacks; when `everything` is
    redone, the stored diffs no pair needs are dropped."""
    needed = _texts_to_diff(db, start, examples)
    if everything:
        _keep_only(db, "word_diffs", needed)
    have = {row[0] for row in db.execute("SELECT key FROM word_diffs")}
    return [(key, pair) for key, pair in needed.items() if key not in have]


def _store_word_diffs(
    db: Database, todo: list[tuple[str, tuple[str, str]]], diffs: list[Diff]
) -> None:
    """Store each diff by its pair's key, as its shape (a few bytes: `diff_shape`)."""
    rows = []
    for (key, (a, b)), diff in zip(todo, diffs, strict=True):
        shape = diff_shape(diff)
        if diff_of_shape(shape, a, b) == diff:  # else the reader diffs it: never a wrong one
            rows.append((key, shape))
    rows.sort()  # by key: each row at the end of the table, not on a random page of it
    db.conn.executemany("INSERT INTO word_diffs (key, shape) VALUES (?, ?)", rows)


def _store_change_kinds(db: Database, start: str, everything: bool, examples: _Examples) -> int:
    """Name, and store, the kinds of change from each earlier state of a clause to each of
    its states in the releases from `start` on (see `change_kinds` above); returns how many
    pairs were named."""
    states = _MemberStates(db, examples)
    needed = _pairs_of_states(db, start, states)
    if everything:
        _keep_only(db, "change_kinds", needed)
    have = {row[0] for row in keyed_rows(db, "change_kinds", "key", [], needed)}
    todo = {key: pair for key, pair in needed.items() if key not in have}
    clauses = states.clauses({member for pair in todo.values() for member in pair})
    rows = [(key, *both_kinds(clauses[old], clauses[new])) for key, (old, new) in todo.items()]
    rows.sort()  # by key, as `_store_word_diffs` writes
    db.conn.executemany("INSERT INTO change_kinds (key, follows, otherwise) VALUES (?, ?, ?)", rows)
    return len(rows)


# A member's part, as a Clause is made of it: id, kind, number, parent, title, version, position.
_StateRow = tuple[int, str, str | None, str | None, str | None, str, int]
_STATE_COLUMNS = "p.id, p.kind, p.number, p.parent, p.title, p.version_hash, p.position"
_MemberRef = tuple[str, _StateRow]  # a release and a member's part in it


class _Examples:
    """The examples of every rule of every capture, read once for the stages that need them:
    (capture, rule number) -> the versions of its examples, in order."""

    def __init__(self, db: Database) -> None:
        self.captures: dict[str, int] = dict(
            db.execute("SELECT date, capture_id FROM releases").fetchall()
        )
        found: dict[tuple[int, str | None], list[str]] = defaultdict(list)
        for capture, parent, version in db.execute(
            "SELECT capture_id, parent, version_hash FROM parts WHERE kind = 'example'"
            " ORDER BY capture_id, position"
        ):
            found[(capture, parent)].append(version)
        self.versions = {owner: tuple(versions) for owner, versions in found.items()}

    def of(self, release: str, kind: str, number: str | None) -> tuple[str, ...]:
        """The versions of the examples of clause `number` (of `kind`) in `release`: a rule's
        own, in order; none for anything else."""
        if GROUP[kind] != "rule":
            return ()
        return self.versions.get((self.captures[release], number), ())


class _MemberStates:
    """The state (`lineage.stored_kinds.clause_state`) and the clause of a lineage member, as
    `lineage.compare.load_members` reads them."""

    def __init__(self, db: Database, examples: _Examples) -> None:
        self.db = db
        self.example_versions = examples.of

    def state(self, release: str, row: _StateRow) -> str:
        _part, kind, number, _parent, title, version, _position = row
        examples = self.example_versions(release, kind, number)
        return clause_state(kind, number or title or "", version, examples)

    def clauses(self, members: set[_MemberRef]) -> dict[_MemberRef, Clause]:
        """The clause of each member, its examples' words part of it; the words of only the
        versions these need are read."""
        owned = {member: self.example_versions(member[0], *member[1][1:3]) for member in members}
        versions = {row[5] for _release, row in members}
        versions.update(version for examples in owned.values() for version in examples)
        normalised = keyed_values(self.db, "clause_versions", "hash", "normalised", versions)
        found = {}
        for member in members:
            part, kind, number, parent, title, version, position = member[1]
            clause = Clause(
                part, kind, number, parent, title, version, normalised[version], position
            )
            clause.examples = joined_examples(normalised[example] for example in owned[member])
            clause.example_versions = tuple(owned[member])
            found[member] = clause
        return found

    def of_release(self, release: str) -> dict[int, str]:
        """Lineage -> its clause's state in `release`."""
        rows = self.db.execute(
            f"""SELECT m.lineage_id, {_STATE_COLUMNS} FROM lineage_members m
                JOIN parts p ON p.id = m.part_id WHERE m.release = ?""",
            [release],
        )
        return {row[0]: self.state(release, row[1:]) for row in rows}


def _pairs_of_states(
    db: Database, start: str, states: _MemberStates
) -> dict[str, tuple[_MemberRef, _MemberRef]]:
    """Key -> (earlier member, later member) of one lineage in two states, for its states
    from `start` on (each state stands for the first member found in it)."""
    members = db.execute(
        f"""SELECT m.lineage_id, m.release, {_STATE_COLUMNS}
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.lineage_id IN (SELECT value FROM json_each(?))
           ORDER BY m.lineage_id, m.release, p.position""",
        [json.dumps(sorted(_changed_lineages(db, start, states.of_release)))],
    )
    needed: dict[str, tuple[_MemberRef, _MemberRef]] = {}
    for _lineage, group in groupby(members, key=lambda row: row[0]):
        earlier: dict[str, _MemberRef] = {}  # its states so far, in order, with their members
        state: str | None = None
        for _id, release, *part in group:
            row: _StateRow = tuple(part)  # type: ignore[assignment]
            previous, state = state, states.state(release, row)
            member = earlier.setdefault(state, (release, row))
            if release >= start and state != previous:
                for old_state, old_member in earlier.items():
                    if old_state != state:
                        needed[kinds_key(old_state, state)] = (old_member, member)
    return needed


class _MemberTexts:
    """The texts `lineage.compare.load_members` reads for the clauses of a release: words,
    then a rule's examples."""

    def __init__(self, db: Database, examples: _Examples) -> None:
        self.db = db
        self.words = dict(db.execute("SELECT hash, text FROM clause_versions").fetchall())
        self.examples = examples

    def text(self, release: str, kind: str, number: str | None, version: str) -> str:
        owned = self.examples.of(release, kind, number)
        return member_text(self.words[version], [self.words[example] for example in owned])

    def of_release(self, release: str) -> dict[int, str]:
        """Lineage -> its clause's text in `release`."""
        rows = self.db.execute(
            """SELECT m.lineage_id, p.kind, p.number, p.version_hash
               FROM lineage_members m JOIN parts p ON p.id = m.part_id WHERE m.release = ?""",
            [release],
        )
        return {row[0]: self.text(release, *row[1:]) for row in rows}


def _texts_to_diff(db: Database, start: str, examples: _Examples) -> dict[str, tuple[str, str]]:
    """Key -> (earlier text, later text) of one clause, for its texts from `start` on."""
    texts = _MemberTexts(db, examples)
    members = db.execute(
        """SELECT m.lineage_id, m.release, p.kind, p.number, p.version_hash
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.lineage_id IN (SELECT value FROM json_each(?))
           ORDER BY m.lineage_id, m.release, p.position""",
        [json.dumps(sorted(_changed_lineages(db, start, texts.of_release)))],
    )
    needed: dict[str, tuple[str, str]] = {}
    for _lineage, group in groupby(members, key=lambda row: row[0]):
        earlier: dict[str, None] = {}  # its texts so far, in order
        text: str | None = None
        for _id, release, kind, number, version in group:
            previous, text = text, texts.text(release, kind, number, version)
            if release >= start and text != previous:
                for old in earlier:
                    if needs_diffing(old, text):
                        needed[pair_key(old, text)] = (old, text)
            earlier[text] = None
    return needed


def _changed_lineages(
    db: Database, start: str, of_release: Callable[[str], dict[int, str]]
) -> set[int]:
    """The lineages whose clause in a release from `start` on differs from their clause in
    the release before (or that were not in it), as `of_release` (lineage -> its text, or its
    state, in a release) tells them: only they can need new pairs."""
    dates = release_dates(db)
    before = [day for day in dates if day < start]
    if not before:  # every lineage
        return {row[0] for row in db.execute("SELECT id FROM lineages")}
    previous = of_release(before[-1])
    changed: set[int] = set()
    for day in (day for day in dates if day >= start):
        current = of_release(day)
        changed.update(
            lineage for lineage, found in current.items() if previous.get(lineage) != found
        )
        previous = current
    return changed


def _store_wordings(db: Database, previous: str | None) -> int:
    """Recompute the wordings that the releases after `previous` may change: those that
    reached `previous` or later (extended or replaced now) and those of new lineages; the
    closed wordings before stay as they are (every wording, when `previous` is None).

    A wording that ends at `previous` and is its lineage's last is carried on as stored
    (a new release only extends it or follows it): only the members after it are read,
    not its every member again."""
    since = previous or ""
    offsets, carried = _forget_open_wordings(db, since)
    dates = release_dates(db)
    following = dict(zip(dates, dates[1:], strict=False))
    # The kind that began each wording: its lineage's first event in that release (or, in a
    # derived copy, the copy's, which the chain's events do not hold).
    kinds = {
        (row[0], row[1]): row[2]
        for table in ("derived_events", "lineage_events")
        for row in db.execute(
            f"SELECT lineage_id, release, kind FROM {table} WHERE release > ? ORDER BY id DESC",
            [since],
        )
    }
    members = _members_to_redo(db, following.get(since))
    rows = []
    for lineage_id, group in groupby(members, key=lambda row: row[0]):
        runs = [(version, list(items)) for version, items in groupby(group, key=lambda r: r[3])]
        position = offsets.get(lineage_id, 0)
        kept = carried.pop(lineage_id, None)
        if kept is not None:
            if runs[0][0] == kept[2]:  # the same words go on
                rows.append(_extended(kept, runs.pop(0)[1], following))
            else:
                rows.append(_replaced(kept, following))
            position += 1
        for version, items in runs:
            first = items[0][1]
            if not position:
                kind: str = ADDED
            else:
                kind = kinds.get((lineage_id, first)) or _kind_before(db, lineage_id, first)
            head = (lineage_id, position, version, items[0][4], first)
            rows.append(_wording(head, str(kind), items, following))
            position += 1
    rows.extend(_replaced(kept, following) for kept in carried.values())  # no member after
    db.conn.executemany(
        """INSERT INTO wordings (lineage_id, position, version_hash, normalised_hash, first,
           last, replaced_by, releases, numbers, kind, since, text_since)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )
    for table in ("open_wordings", "carried", "redone"):
        db.conn.execute(f"DROP TABLE temp.{table}")
    return len(rows)


def _forget_open_wordings(
    db: Database, since: str
) -> tuple[dict[int, int], dict[int, tuple[Any, ...]]]:
    """Delete the wordings that reached `since` or later, and any a rebuild left without
    their lineage; keep in temporary tables what the recomputation starts from: each open
    lineage's first open position (`open_wordings`) and the wordings carried on as stored
    (`carried`). Returns both: lineage -> position, lineage -> carried row."""
    db.conn.execute("DROP TABLE IF EXISTS temp.open_wordings")
    db.conn.execute(
        """CREATE TEMP TABLE open_wordings AS SELECT w.lineage_id, min(w.position) AS position,
           min(w.first) AS first FROM wordings w JOIN lineages l ON l.id = w.lineage_id
           WHERE w.last >= ? AND l.first_release <= ? GROUP BY w.lineage_id""",
        # Only lineages that began by `since` keep their ids; a later one may reuse the id
        # of a lineage forgotten by the rebuild, whose wordings go below.
        [since, since],
    )
    db.conn.execute("DROP TABLE IF EXISTS temp.carried")
    db.conn.execute(
        """CREATE TEMP TABLE carried AS SELECT w.* FROM wordings w
           JOIN temp.open_wordings o ON o.lineage_id = w.lineage_id AND o.position = w.position
           JOIN lineages l ON l.id = w.lineage_id
           WHERE w.last = ? AND NOT EXISTS
             (SELECT 1 FROM wordings x WHERE x.lineage_id = w.lineage_id
              AND x.position > w.position)
           AND EXISTS (SELECT 1 FROM wordings z WHERE z.lineage_id = w.lineage_id
                       AND z.position = 0 AND z.first = l.first_release)""",
        [since],
    )
    db.conn.execute("DELETE FROM wordings WHERE last >= ?", [since])
    db.conn.execute("DELETE FROM wordings WHERE lineage_id NOT IN (SELECT id FROM lineages)")
    # A lineage rebuilt under an id that held another one (a derived copy's lineages are
    # made again with each rebuild) starts elsewhere: its rows go, and it is done whole below.
    db.conn.execute(
        """DELETE FROM wordings WHERE lineage_id IN (SELECT w.lineage_id FROM wordings w
           JOIN lineages l ON l.id = w.lineage_id WHERE w.position = 0
           AND w.first != l.first_release)"""
    )
    offsets = {row[0]: row[1] for row in db.execute("SELECT * FROM temp.open_wordings")}
    carried = {row[0]: row for row in db.execute("SELECT * FROM temp.carried")}
    return offsets, carried


def _members_to_redo(db: Database, after_since: str | None) -> Iterable[tuple[Any, ...]]:
    """The members of the lineages to do, in order of lineage, release and place, each
    from the release its first open wording began (a new lineage: whole; a carried one:
    from `after_since`, the release after the last one done), with what a wording keeps of
    each: release, number, version, normalised hash and blame. They are read through the
    index by lineage (`temp.redone`), not by a scan."""
    db.conn.execute("DROP TABLE IF EXISTS temp.redone")
    db.conn.execute(
        """CREATE TEMP TABLE redone AS
           SELECT lineage_id, first FROM temp.open_wordings
           WHERE lineage_id NOT IN (SELECT lineage_id FROM temp.carried)
           UNION ALL
           SELECT lineage_id, ? FROM temp.carried
           UNION ALL
           SELECT id, first_release FROM lineages
           WHERE id NOT IN (SELECT lineage_id FROM temp.open_wordings)
             AND id NOT IN (SELECT DISTINCT lineage_id FROM wordings)""",
        [after_since],
    )
    members: Iterable[tuple[Any, ...]] = db.execute(
        """SELECT m.lineage_id, m.release, m.number, p.version_hash, cv.normalised_hash,
                  b.since, b.text_since
           FROM temp.redone r
           JOIN lineage_members m ON m.lineage_id = r.lineage_id AND m.release >= r.first
           JOIN parts p ON p.id = m.part_id
           LEFT JOIN clause_versions cv ON cv.hash = p.version_hash
           LEFT JOIN blame b ON b.part_id = m.part_id
           ORDER BY m.lineage_id, m.release, p.position"""
    )
    return members


def _wording(
    head: tuple[Any, ...],
    kind: str,
    items: list[tuple[Any, ...]],
    following: dict[str, str],
    releases: int = 0,
    numbers: Iterable[str | None] = (),
) -> tuple[Any, ...]:
    """A `wordings` row: its lineage, position, version, normalised hash and first release
    (`head`), then what the members `items` (after `releases` members with `numbers`, when
    it goes on a stored wording) make of it: last release, the one that replaced it, count,
    numbers, and the blame of its last member."""
    last = items[-1][1]
    return (
        *head,
        last,
        following.get(last),
        releases + len(items),
        json.dumps(list(dict.fromkeys([*numbers, *(item[2] for item in items)]))),
        kind,
        items[-1][5],
        items[-1][6],
    )


def _extended(
    kept: tuple[Any, ...], items: list[tuple[Any, ...]], following: dict[str, str]
) -> tuple[Any, ...]:
    """A carried wording (a `wordings` row) that the members `items` read on: its numbers
    and count of releases grow, its last release and blame are theirs."""
    return _wording(kept[:5], kept[9], items, following, kept[7], json.loads(kept[8]))


def _replaced(kept: tuple[Any, ...], following: dict[str, str]) -> tuple[Any, ...]:
    """A carried wording that ends where it did: the release after it now exists."""
    return (*kept[:6], following.get(kept[5]), *kept[7:])


def _kind_before(db: Database, lineage_id: int, release: str) -> str:
    """The kind of the event that began a wording older than the releases redone."""
    for table in ("lineage_events", "derived_events"):
        row = db.execute(
            f"SELECT kind FROM {table} WHERE lineage_id = ? AND release = ? ORDER BY id",
            [lineage_id, release],
        ).fetchone()
        if row:
            return str(row[0])
    return str(UNCHANGED)
