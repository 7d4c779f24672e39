"""What the in-browser compare needs to compare any two releases as `rules-history diff` does.

`lineage.compare.diff_releases` pairs the clauses of two releases by lineage, names each
change from the lineage events (splits, merges) or from the two clauses (`kind_of_change`),
and word-diffs their texts. The browser does the same from files published under `compare/`,
and decides no kind itself: every kind is computed here, by the engine.

A lineage's clause takes a few distinct *states* over the releases (its wording, number,
examples...). For every pair of states of a lineage (the older first), the kind is the one
the pipeline stored (`lineage.stored_kinds`), or `kind_of_change` run here. It depends on
the two releases compared only through the rule numbers that follow their rules (a
`reference` change), so where that matters both answers are published with the numbers to
check, and the browser checks them against the pair of releases it compares.

- `compare/index.json`: the other files, the split and merge events, the text chunks, and
  for a derived copy the lineages whose differences are unconfirmed (`lineage.derived`);
- `compare/lineages.json`: per lineage, its states (`[text, label]`, `[..., 1]` for a
  glossary entry) and the kind of each pair of them (`KIND_CODES`, `.` for a pair that never
  occurs, `?` when it depends on the references: then `[if they follow, if not, pairs]`);
- `compare/r/DATE.json`: each clause of the release in document order, `[lineage, state]`;
- `compare/n/DATE.json`: the names a reader may give the release's clauses (section and
  keyword titles, glossary terms: `archive.lookup.names_in`, in its order), each folded
  (`vocabulary.names.fold`) with the clause's label, `[folded, label]` (`[..., 1]` for a
  glossary entry), so that the browser finds "morph" as `diff --rule morph` does
  (`archive.lookup.resolve`), in each of the two releases;
- `compare/t/N.json`: the texts, each once, in order of first appearance, cut into chunks of
  about `CHUNK_CHARS` so a new release adds a chunk and rewrites none.

Everything is read from the store. A build after a new release continues from where the
last one ended (`Resume`): reading the members, examples and names of every release was
most of a rebuild's compare data, and a release the archive already had gives the same files
as long as its alignment, and every one before it, is the one it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlite_utils import Database

from archive.collector import collector_paused
from archive.gaps import gap_brief, stored_gaps
from archive.keyed import keyed_rows
from archive.lookup import names_in
from archive.normalise import fold_markup
from archive.printings import Printing, examples_by_owner, repeated_printings
from archive.store import alignment_identities
from lineage.change_kind import compared_texts, reference_end_pairs
from lineage.clause import GROUP, Clause, joined_examples
from lineage.derived import unconfirmed_lineages
from lineage.stored_diffs import member_text
from lineage.stored_kinds import both_kinds, clause_state, kinds_key, stored_both_kinds
from vocabulary.kinds import CHANGE_KINDS, MERGED, SPLIT
from vocabulary.names import fold

FOLDER = "compare"
INDEX = f"{FOLDER}/index.json"
CHUNK_CHARS = 120_000  # texts per chunk file: a few dozen requests for the whole archive
FORMAT = 3  # bump when the files' layout changes (compare.js reads it)
KIND_CODES = "".join(chr(ord("a") + i) for i in range(len(CHANGE_KINDS)))
NEVER, DEPENDS = ".", "?"


@dataclass
class CompareData:
    """The published files: path (under the site) -> bytes."""

    files: dict[str, bytes] = field(default_factory=dict)
    kinds: dict[str, Any] = field(default_factory=dict)  # the memo entries used (see below)
    resume: Resume | None = None  # where the next computation may continue from

    @property
    def size(self) -> int:
        return sum(len(data) for data in self.files.values())


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def versioned(path: str, data: bytes) -> str:
    """The URL of a file with its content hash, so a browser cache never serves an old one."""
    return f"/{path}?v={hashlib.sha256(data).hexdigest()[:10]}"


@dataclass
class _Lineage:
    keys: dict[tuple[Any, ...], int] = field(default_factory=dict)
    states: list[list[Any]] = field(default_factory=list)
    clauses: list[Clause] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)  # of each state's key
    named: list[str] = field(default_factory=list)  # each state as lineage.stored_kinds names it
    first: list[int] = field(default_factory=list)  # release index each state first appears
    last: list[int] = field(default_factory=list)  # and last

    def memo_key(self) -> str:
        """What the kinds of its pairs depend on: its states and which come before which."""
        order = "".join("1" if first <= last else "0" for first in self.first for last in self.last)
        return hashlib.sha1(f"{','.join(self.digests)}|{order}".encode()).hexdigest()[:20]


Kinds = tuple[str, dict[int, list[Any]]]


@dataclass
class Resume:
    """What the reading of the releases left: a computation for releases that begin with the
    same ones continues from it instead of reading them again.

    `chain` names each release read by its date and alignment and every one before it
    (`release_chain`): equal prefixes mean equal members, examples and names, so equal
    files and states. Any other change (a release aligned again, removed, or inserted
    before the last) starts again from the first release."""

    chain: list[str]
    files: dict[str, tuple[bytes, bytes]]  # release -> (its names file, its members file)
    lineages: dict[int, _Lineage]
    texts: dict[str, int]  # each wording -> its index among the texts


def release_chain(db: Database, dates: list[str]) -> list[str]:
    """A key per release of `dates`: its date and alignment row (`alignment_identities`:
    the captures, the aligner's version and the token of that alignment), with those of the
    releases before it. A lineage aligned again from some release on gives every key from
    there on anew."""
    rows = {str(row[0]): row for row in alignment_identities(db)}
    digest = hashlib.sha256(str(FORMAT).encode())
    chain = []
    for date in dates:
        digest.update(repr((date, rows.get(date))).encode())
        chain.append(digest.hexdigest()[:20])
    return chain


def _pairs(lineage: _Lineage) -> Iterator[tuple[int, int]]:
    """The pairs of states (older, newer) that two releases can set against each other."""
    for i in range(len(lineage.clauses)):
        for j in range(len(lineage.clauses)):
            if lineage.first[i] <= lineage.last[j]:
                yield i, j


def _pair_keys(lineage: _Lineage) -> dict[tuple[int, int], str]:
    """The key (`lineage.stored_kinds.kinds_key`) of each pair of states two releases can
    set against each other."""
    return {(i, j): kinds_key(lineage.named[i], lineage.named[j]) for i, j in _pairs(lineage)}


def _kinds(
    lineage: _Lineage, keys: dict[tuple[int, int], str], stored: dict[str, tuple[str, str]]
) -> Kinds:
    """The kind of each pair of states (row: older, column: newer) and those that depend on
    the references: as `stored` (the pipeline's, by `keys`) has it, else named here."""
    count = len(lineage.clauses)
    codes = [NEVER] * (count * count)
    depends: dict[int, list[Any]] = {}
    for (i, j), key in keys.items():
        old, new = lineage.clauses[i], lineage.clauses[j]
        found = stored.get(key)
        follows, otherwise = found if found else both_kinds(old, new)
        if follows == otherwise:
            codes[i * count + j] = KIND_CODES[CHANGE_KINDS.index(follows)]
            continue
        # the numbers the engine checks (`kind_of_change`), each end of a range on its own;
        # the two kinds differ only when they can follow, so there always are such pairs
        before, after = compared_texts(old, new)  # (a glossary term is a label, not words)
        pairs = reference_end_pairs(fold_markup(before), fold_markup(after))
        assert pairs is not None, f"{old.label} -> {new.label}: kinds differ, no references"
        codes[i * count + j] = DEPENDS
        depends[i * count + j] = [
            KIND_CODES[CHANGE_KINDS.index(follows)],
            KIND_CODES[CHANGE_KINDS.index(otherwise)],
            [[a, b] for a, b in pairs],
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


# A member of a release: lineage, part id, kind, number, parent, title, version, position.
_Row = tuple[int, int, str, str | None, str | None, str | None, str, int]


def _release_members(db: Database, release: str) -> list[_Row]:
    """The release's clauses that belong to a lineage, in document order: ids and hashes
    only (a text is read once, when its state is first met)."""
    rows = db.execute(
        """SELECT m.lineage_id, p.id, p.kind, p.number, p.parent, p.title, p.version_hash,
                  p.position
           FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.release = ?""",
        [release],
    ).fetchall()
    return sorted(rows, key=lambda row: row[7])


def _release_examples(db: Database, release: str, rows: list[_Row]) -> dict[int, tuple[str, ...]]:
    """The version hashes of each rule's examples in `release` (by the rule's part: a number
    printed twice has two rules, `archive.printings.examples_by_owner`); `rows`: its members."""
    rules = [(row[1], row[3], row[7]) for row in rows if GROUP[row[2]] == "rule"]
    examples = db.execute(
        """SELECT p.parent, p.position, p.version_hash
           FROM releases r JOIN parts p ON p.capture_id = r.capture_id
           WHERE r.date = ? AND p.kind = 'example' ORDER BY p.position""",
        [release],
    )
    return {part: tuple(found) for part, found in examples_by_owner(rules, examples).items()}


def _versions(db: Database, hashes: set[str]) -> dict[str, tuple[str, str]]:
    """Version hash -> (normalised, text)."""
    rows = keyed_rows(db, "clause_versions", "hash", ["normalised", "text"], hashes)
    return {version: (normalised, text) for version, normalised, text in rows}


def _state(
    row: _Row, examples: tuple[str, ...], versions: dict[str, tuple[str, str]]
) -> tuple[Clause, str]:
    """A member's clause and its text, its examples part of its wording (as
    `lineage.compare.load_members` reads them)."""
    _lineage, part, kind, number, parent, title, version, position = row
    normalised, text = versions[version]
    clause = Clause(part, kind, number, parent, title, version, normalised, position)
    if examples:
        clause.examples = joined_examples(versions[example][0] for example in examples)
        clause.example_versions = examples
        text = member_text(text, [versions[example][1] for example in examples])
    return clause, text


_folded = cache(fold)  # the releases repeat nearly every name


def _names(
    db: Database, release: str, texts: dict[str, str], printings: dict[int, Printing]
) -> list[list[Any]]:
    """`compare/n/DATE.json`: each name of the release's clauses, folded, with its label (and
    1 for a glossary entry), in the order `archive.lookup.resolve` prefers them; a name that
    repeats one before it, for the same clause, is left out (it changes no answer). A title
    of a number the release prints more than once (`printings`: part -> its printing) also
    gives which printing it heads, as [folded, label, 0, nth]."""
    entries: dict[tuple[str, str, bool, int], None] = {}
    for title, found in names_in(db, release, texts):
        printing = printings.get(found.part) if found.part is not None else None
        nth = printing.nth if printing is not None else 0
        entries.setdefault((_folded(title), found.label, found.kind == "glossary", nth))
    return [
        [folded, label, 0, nth] if nth else [folded, label, 1] if glossary else [folded, label]
        for folded, label, glossary, nth in entries
    ]


def compare_data(
    db: Database,
    dates: list[str],
    memo: dict[str, Kinds] | None = None,
    resume: Resume | None = None,
) -> CompareData:
    """Every file the in-browser compare reads, built from the store's lineages.

    `memo` (memo key of a lineage -> the kinds of its pairs, as an earlier call left them in
    `CompareData.kinds`) saves naming the kinds again for lineages met before: naming them is
    most of the work, and a new release adds states to a few hundred lineages only.
    `resume` (an earlier call's `CompareData.resume`) saves reading the releases it read,
    when they are still the first of `dates`, as they were."""
    with collector_paused():  # tens of thousands of states, all kept to the end
        return _compare_data(db, dates, memo or {}, resume)


def _resumed(resume: Resume | None, chain: list[str]) -> Resume:
    """`resume` when its releases are the first of `chain`, as they were; else nothing read."""
    if resume is not None and resume.chain == chain[: len(resume.chain)]:
        return resume
    return Resume([], {}, {}, {})


def _compare_data(
    db: Database, dates: list[str], memo: dict[str, Kinds], resume: Resume | None
) -> CompareData:
    data = CompareData()
    chain = release_chain(db, dates)
    done = _resumed(resume, chain)
    texts, lineages = done.texts, done.lineages
    read = dict(done.files)  # release -> its (names, members) files
    releases: dict[str, str] = {}
    names: dict[str, str] = {}
    for date in dates[: len(done.chain)]:
        names_body, members_body = read[date]
        for folder, body, urls in (("n", names_body, names), ("r", members_body, releases)):
            path = f"{FOLDER}/{folder}/{date}.json"
            data.files[path] = body
            urls[date] = versioned(path, body)
    headings: dict[str, str] = {}  # the rules' texts the names are read from (`names_in`)
    printed = repeated_printings(db)  # which printing a title heads, where that matters
    for number, date in enumerate(dates[len(done.chain) :], start=len(done.chain)):
        path = f"{FOLDER}/n/{date}.json"
        data.files[path] = names_body = _dump(_names(db, date, headings, printed.get(date, {})))
        names[date] = versioned(path, names_body)
        members = _release_members(db, date)
        examples = _release_examples(db, date, members)
        rows: list[list[int]] = []
        # A state is what the clause is, not where it stands (its part id and position are
        # left out); the version hashes stand for the texts, which are read only for the
        # states met for the first time (a release brings a few hundred among thousands).
        unseen: list[tuple[list[int], _Row, tuple[str, ...], tuple[Any, ...], _Lineage]] = []
        for row in members:
            lineage_id = row[0]
            lineage = lineages.get(lineage_id)
            if lineage is None:
                lineage = lineages[lineage_id] = _Lineage()
            owned = examples.get(row[1], ())
            key = (*row[2:7], owned)
            state = lineage.keys.get(key)
            rows.append(member := [lineage_id, -1 if state is None else state])
            if state is None:
                unseen.append((member, row, owned, key, lineage))
            else:
                lineage.last[state] = number
        new_versions = {version for _, row, owned, _, _ in unseen for version in (row[6], *owned)}
        versions = _versions(db, new_versions) if new_versions else {}
        for member, row, owned, key, lineage in unseen:  # in document order, as they came
            state = lineage.keys.get(key)  # (met twice in this release: the first made it)
            if state is None:
                clause, wording = _state(row, owned, versions)
                state = lineage.keys[key] = len(lineage.states)
                text = texts.setdefault(wording, len(texts))
                glossary = [1] if clause.kind == "glossary" else []
                lineage.states.append([text, clause.label, *glossary])
                lineage.clauses.append(clause)
                lineage.digests.append(hashlib.sha1(repr(key).encode()).hexdigest()[:16])
                lineage.named.append(clause_state(clause.kind, clause.label, row[6], owned))
                lineage.first.append(number)
                lineage.last.append(number)
            lineage.last[state] = number
            member[1] = state
        path = f"{FOLDER}/r/{date}.json"
        data.files[path] = body = _dump(rows)
        releases[date] = versioned(path, body)
        read[date] = (names_body, body)
    data.resume = Resume(chain, read, lineages, texts)
    table = {}
    memo_keys = {lineage_id: lineage.memo_key() for lineage_id, lineage in lineages.items()}
    pair_keys = {  # of the lineages whose kinds are named anew: read from the store at once
        lineage_id: _pair_keys(lineage)
        for lineage_id, lineage in lineages.items()
        if memo_keys[lineage_id] not in memo
    }
    stored = stored_both_kinds(db, (key for keys in pair_keys.values() for key in keys.values()))
    for lineage_id, lineage in sorted(lineages.items()):
        memo_key = memo_keys[lineage_id]
        found = memo.get(memo_key)
        if found is None:
            found = _kinds(lineage, pair_keys[lineage_id], stored)
        data.kinds[memo_key] = found
        kinds, depends = found
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
        "names": names,
        "lineages": versioned(lineages_path, lineages_body),
        "events": _events(db),
        "chunks": chunks,
        # a derived copy's differences its official neighbour does not confirm are set
        # apart from the summary, as `rules-history diff` sets them (lineage.derived)
        "derived": unconfirmed_lineages(db),
        # the releases the archive lacks: a comparison that spans one says so, as
        # `rules-history diff` does (archive.gaps.gaps_between)
        "gaps": [gap_brief(gap) for gap in stored_gaps(db)],
    }
    data.files[INDEX] = _dump(index_data)
    return data
