"""The read-only model of the site: everything the pages show that the store answers,
loaded once, in one place and one order, before any page is prepared. The renderer computes
no answer of its own: change lists, wording spans, blame, counts and the executable examples
are the pipeline's, read from their tables (lineage.answers, facedown.store); what the model
adds is presentation (each clause history's URL and title, the number runs' URLs).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from archive.gaps import gaps_by_day
from archive.keyed import keyed_values
from archive.printings import repeated_printings
from facedown.store import require_examples, stored_examples
from lineage.derived import derived_releases
from lineage.freshness import require_current
from lineage.headings import HeadingMember, load_headings
from lineage.runs import Run, number_runs
from lineage.trace import Links, descendants_among, merges
from renderer.anchors import nth_anchor
from renderer.changes import Change, all_changes
from renderer.environment import clause_anchor, rule_url
from renderer.examples import lineage_examples
from renderer.json_column import decode_each
from renderer.queries import all_texts, releases
from vocabulary.kinds import MERGED, SPLIT

# What a page shows of an official explanation (and what its key covers).
SHOWN = (
    "article",
    "set_name",
    "url",
    "heading",
    "explanation",
    "matched_by",
    "release",
    "finding",  # a matched entry's finding: where the article and the lineage disagree
)


@dataclass(frozen=True)
class Wording:
    """One wording of a lineage, its span named as everywhere: first, last, replaced_by."""

    version: str
    normalised: str | None
    first: str
    last: str
    replaced_by: str | None
    releases: int
    numbers: tuple[str, ...]
    kind: str
    since: str
    text_since: str


# A member of a lineage: (release, number, version hash, part id, normalised hash).
Member = tuple[str, str, str, int, str | None]


@dataclass
class NumberSteps:
    """A step function over the releases' places in `SiteModel.dates`: from `starts[k]`
    (included) to `starts[k + 1]` the clause carried `values[k]` (empty: not in the rules);
    no two neighbouring steps are equal."""

    starts: list[int]
    values: list[tuple[str, ...]]

    @classmethod
    def of(cls, by_release: dict[int, tuple[str, ...]]) -> NumberSteps:
        """The steps of a table of the numbers by release place (a place it lacks: none)."""
        steps = cls([0], [()])
        for at in sorted(by_release):
            steps._set(at, by_release[at])
            if at + 1 not in by_release:  # the clause left the rules after `at`
                steps._set(at + 1, ())
        return steps

    def _set(self, at: int, numbers: tuple[str, ...]) -> None:
        """Let the function be `numbers` from `at` on (`at` after every start so far)."""
        if at == self.starts[-1]:
            self.values[-1] = numbers
            if len(self.values) > 1 and self.values[-2] == numbers:
                self.starts.pop()
                self.values.pop()
        elif numbers != self.values[-1]:
            self.starts.append(at)
            self.values.append(numbers)

    def at(self, place: int) -> tuple[str, ...]:
        """The numbers at release place `place`."""
        return self.values[bisect_right(self.starts, place) - 1]

    def between(self, first: int, end: int) -> list[tuple[int, tuple[str, ...]]]:
        """(place, numbers) where the function starts a step in places `first` to `end`
        (excluded), the first at `first` itself."""
        step = bisect_right(self.starts, first) - 1
        found = [(first, self.values[step])]
        for later in range(step + 1, len(self.starts)):
            if self.starts[later] >= end:
                break
            found.append((self.starts[later], self.values[later]))
        return found


@dataclass(frozen=True)
class SiteModel:
    releases: tuple[dict[str, Any], ...]
    changes: dict[str, list[Change]]
    lineages: dict[int, dict[str, Any]]
    members: dict[int, list[Member]]
    events: dict[int, list[dict[str, Any]]]
    wordings: dict[int, tuple[Wording, ...]]
    history_url: dict[int, str]
    part_lineage: dict[int, int]
    runs: dict[str, list[Run]]
    run_urls: frozenset[str]
    example_rows: tuple[dict[str, Any], ...]
    lineage_examples: dict[int, list[dict[str, Any]]]
    witnessed: frozenset[str]
    derived: frozenset[str]  # releases read from a derived copy (lineage.derived)
    explained: dict[tuple[int, str], list[dict[str, Any]]]
    # lineage -> (release, lineage) of the merge that ended it (lineage.trace.merges): what a
    # number whose clause was merged names on the days after (renderer.asof_segments)
    merges: dict[int, tuple[str, int]]
    headings: dict[int, tuple[HeadingMember, ...]]  # titled lineages (lineage.headings)
    gaps: tuple[dict[str, Any], ...]  # releases the archive lacks (archive.gaps.gaps_by_day)
    texts: dict[str, str]  # version hash -> text, of every clause version (read once)
    # the clauses a release numbers as an earlier one (702.175 twice in 2024-09-17)
    printings: tuple[LaterPrinting, ...]
    # part -> its number as the text printed it, where read otherwise ("408.f": 408.2f)
    printed_numbers: dict[int, str]

    @cached_property
    def printing_anchors(self) -> dict[int, str]:
        """part -> its id on its release page, for a later printing of a number."""
        return {printing.part: printing.anchor for printing in self.printings}

    @cached_property
    def printed_again(self) -> dict[tuple[str, str, str], str]:
        """(release, number, version) -> the id of that later printing on the release page,
        for what knows a clause by its words rather than its part (a keyword's rules)."""
        return {(p.release, p.number, p.version): p.anchor for p in self.printings}

    def anchor(self, part: int | None, label: str) -> str:
        """The id of a clause (`part`, numbered or termed `label`; None when its part is not
        known: the first of its label) on its release's page."""
        found = self.printing_anchors.get(part) if part is not None else None
        return found or clause_anchor(label)

    @cached_property
    def change_anchors(self) -> dict[tuple[str, int], str]:
        """(release, lineage) -> the id of that lineage's change on the release's diff page
        (a release holds at most one change of a lineage)."""
        return {
            (day, change.lineage): change.anchor
            for day, found in self.changes.items()
            for change in found
        }

    @cached_property
    def dates(self) -> list[str]:
        return [row["date"] for row in self.releases]

    @cached_property
    def names(self) -> dict[str, str | None]:
        """release -> its set name (None when unknown): shown on any page that names a
        release, so the site writer re-renders every page when one of them changes
        (renderer.writer.SiteWriter)."""
        return {str(row["date"]): row.get("name") for row in self.releases}

    @cached_property
    def date_index(self) -> dict[str, int]:
        """release -> its place in `dates`."""
        return {day: i for i, day in enumerate(self.dates)}

    @cached_property
    def number_changes(self) -> dict[int, NumberSteps]:
        """lineage -> the numbers the clause carried, as steps over the releases
        (`NumberSteps`): what a number page says that clause was numbered on the days the
        number itself was unused (renderer.asof_segments). Steps rather than a table by
        release: a page asks about stretches of up to a hundred releases, for 46,000
        stretches, and the numbers change in a few places of each."""
        index = self.date_index
        found: dict[int, NumberSteps] = {}
        for lineage, members in self.members.items():
            by_release: dict[int, tuple[str, ...]] = {}
            for member in members:  # in release order, then document order
                at, number = index[member[0]], member[1]
                numbers = by_release.get(at, ())
                if number and number not in numbers:
                    numbers += (number,)
                by_release[at] = numbers
            found[lineage] = NumberSteps.of(by_release)
        return found

    def descendants(self, lineage: int, release: str) -> list[int]:
        """`lineage` and what its clause became after `release` (lineage.trace's one
        definition, read from the model): what a day page adds to the number that clause
        has, as `show` and `trace` do."""
        return descendants_among(
            lambda found: (
                self.lineages[found]["first_release"],
                self.lineages[found]["last_release"],
            ),
            lambda found: self._links.get(found, []),
            lineage,
            release,
        )

    @cached_property
    def _links(self) -> dict[int, Links]:
        """lineage -> its splits and merges that name other lineages, in release order."""
        return {
            lineage: [
                (e["release"], e["kind"], json.loads(e["related_lineages"]))
                for e in events
                if e["kind"] in (SPLIT, MERGED) and e["related_lineages"] != "[]"
            ]
            for lineage, events in self.events.items()
        }

    @cached_property
    def explained_by_lineage(self) -> dict[int, dict[str, list[dict[str, Any]]]]:
        """lineage -> release -> the explanations of its change there (`explained` by lineage,
        indexed once rather than searched once per clause history)."""
        found: dict[int, dict[str, list[dict[str, Any]]]] = {}
        for (lineage, day), items in self.explained.items():
            found.setdefault(lineage, {})[day] = items
        return found

    def merged_into_today(self, lineage: int) -> dict[str, Any] | None:
        """The merge that ended `lineage` (lineage.trace.merges), when the clause it went
        into is in the newest release: the release of the merge, that clause's lineage, its
        number today and its history page. What a history page, a number page and a retired
        heading's keyword page say it is today, as `trace` does."""
        merge = self.merges.get(lineage)
        into = self.lineages.get(merge[1]) if merge else None
        if merge is None or into is None or into["last_release"] != self.dates[-1]:
            return None
        return {
            "release": merge[0],
            "lineage": into["id"],
            "number": into["last_number"],
            "url": self.history_url.get(into["id"], ""),
        }

    def history_title(self, lineage: int) -> str:
        return history_title(self.lineages[lineage])


def history_title(row: dict[str, Any]) -> str:
    """'504.2 → 708.2 (from 2002)': no end year, so that a new release changes the title
    (and every page that shows it) only when it renumbers the clause."""
    first, last = row["first_number"], row["last_number"]
    numbers = first if first == last else f"{first} → {last}"
    return f"{numbers} (from {row['first_release'][:4]})"


def history_urls(lineages: dict[int, dict[str, Any]]) -> dict[int, str]:
    """/history/FIRST-RELEASE/FIRST-NUMBER/, stable as releases are added (a lineage that
    shares both with an older one gets its id appended)."""
    urls: dict[int, str] = {}
    taken: set[str] = set()
    for lineage_id, row in sorted(lineages.items()):
        base = f"/history/{row['first_release']}/{clause_anchor(row['first_number'] or 'x')}/"
        url = base if base not in taken else base.rstrip("/") + f"-{lineage_id}/"
        taken.add(url)
        urls[lineage_id] = url
    return urls


def _wordings(db: Database) -> dict[int, tuple[Wording, ...]]:
    found: dict[int, list[Wording]] = defaultdict(list)
    rows = db.execute(
        """SELECT lineage_id, version_hash, normalised_hash, first, last, replaced_by,
                  releases, numbers, kind, since, text_since
           FROM wordings ORDER BY lineage_id, position"""
    ).fetchall()
    for row, numbers in zip(rows, decode_each(row[7] for row in rows), strict=True):
        lineage, version, normalised, first, last, replaced_by, count = row[:7]
        kind, since, text_since = row[8:]
        found[lineage].append(
            Wording(
                version,
                normalised,
                first,
                last,
                replaced_by,
                count,
                tuple(numbers),
                kind,
                since,
                text_since,
            )
        )
    return {lineage: tuple(items) for lineage, items in found.items()}


def _members(db: Database) -> tuple[dict[int, list[Member]], dict[int, int]]:
    """Each lineage's members, by release then place in the release; and each part's
    lineage. Sorted here rather than by SQLite, and the few thousand texts' normalised hashes
    read apart: both joins and the sort cost SQLite three times as much over 350,000 rows.
    Grouped by lineage before they are sorted: some eighty members each, far fewer
    comparisons than sorting them all at once."""
    normalised_of = dict(db.execute("SELECT hash, normalised_hash FROM clause_versions").fetchall())
    rows = db.execute(
        """SELECT m.lineage_id, m.release, p.position, m.number, p.version_hash, m.part_id
           FROM lineage_members m JOIN parts p ON p.id = m.part_id"""
    ).fetchall()
    grouped: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        grouped[row[0]].append(row)
    members: dict[int, list[Member]] = {}
    for lineage in sorted(grouped):
        found = grouped[lineage]
        found.sort()  # (release, position) is unique: a release has one capture
        members[lineage] = [
            (release, number, version, part, normalised_of.get(version))
            for _lineage, release, _position, number, version, part in found
        ]
    return members, {row[5]: row[0] for row in rows}


@dataclass(frozen=True)
class LaterPrinting:
    """A clause its release numbers (or terms) as an earlier clause of the same release."""

    release: str
    number: str
    part: int
    version: str  # its text's hash: what names it where its part is not at hand (headings)
    anchor: str  # its id on the release page (renderer.anchors): the second 702.175-2


def later_printings(db: Database) -> tuple[LaterPrinting, ...]:
    """Every clause that its release numbers as an earlier one, an error of the official
    text (2024-09-17 prints 702.175 for Offspring and for Impending), in release, number and
    then document order (archive.printings). A handful in the whole archive; the first
    printing of each keeps the plain id, and is not listed."""
    later = [
        (release, printing)
        for release, parts in sorted(repeated_printings(db).items())
        for printing in sorted(parts.values(), key=lambda p: (p.number, p.start))
        if printing.nth > 1
    ]
    versions = keyed_values(db, "parts", "id", "version_hash", (p.part_id for _, p in later))
    return tuple(
        LaterPrinting(
            release,
            printing.number,
            printing.part_id,
            versions[printing.part_id],
            nth_anchor(clause_anchor(printing.number), printing.nth),
        )
        for release, printing in later
    )


def _events(db: Database) -> dict[int, list[dict[str, Any]]]:
    events: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in db.query(
        """SELECT lineage_id, release, kind, old_numbers, new_numbers, related_lineages,
                  method, score, weak
           FROM lineage_events ORDER BY lineage_id, release, id"""
    ):
        events[row["lineage_id"]].append(row)
    return dict(events)


def _explained(db: Database) -> dict[tuple[int, str], list[dict[str, Any]]]:
    """(lineage, release) -> the official explanations of that change (archive.explanations)."""
    from archive.explanations import all_explanations

    found: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for item in all_explanations(db):
        shown = {key: item[key] for key in SHOWN}
        found.setdefault((item["lineage"], item["release"]), []).append(shown)
    return found


def load_model(db: Database) -> SiteModel:
    """Read the model from a store that the pipeline brought up to date (else StaleStore)."""
    require_current(db)
    require_examples(db)
    rows = tuple(releases(db))
    dates = [row["date"] for row in rows]
    changes = all_changes(db)
    lineages = {row["id"]: row for row in db.query("SELECT * FROM lineages")}
    members, part_lineage = _members(db)
    runs = number_runs(db, dates)
    examples = tuple(stored_examples(db))
    anchors = {day: {c.anchor for c in found} for day, found in changes.items()}
    return SiteModel(
        releases=rows,
        changes=changes,
        lineages=lineages,
        members=members,
        events=_events(db),
        wordings=_wordings(db),
        history_url=history_urls(lineages),
        part_lineage=part_lineage,
        runs=runs,
        run_urls=frozenset(
            rule_url(run.number, run.start) for found in runs.values() for run in found
        ),
        example_rows=examples,
        lineage_examples=lineage_examples(db, list(examples), dates, anchors),
        explained=_explained(db),
        merges=merges(db),
        headings=load_headings(db),
        gaps=tuple(gaps_by_day(db)),
        texts=all_texts(db),
        derived=frozenset(derived_releases(db)),
        printings=later_printings(db),
        printed_numbers=dict(
            db.execute(
                "SELECT id, printed_number FROM parts WHERE printed_number IS NOT NULL"
            ).fetchall()
        ),
        witnessed=frozenset(row[0] for row in db.execute("SELECT DISTINCT number FROM witnesses")),
    )
