"""How right the lineages are: the engine measured against ground truth written by reading.

The truth lives in `tests/data/lineage_truth/*.csv` (format in that folder's README): one row
per decision, `old_release,new_release,old,new,kind,reason`, where `old` and `new` are clause
labels (the number, or a glossary entry's term) separated by " | ". This module reads those
rows and a store whose lineages are built, and counts, per kind of the truth, how many rows the
engine gets right.

A row is **linked right** when the engine links exactly the same old and new clauses:

- the engine's links between two consecutive releases are (a) every old and new clause of the
  same lineage (a continuation, the clause's identity) and (b) every event that names an old
  and a new part without continuing it (a piece split off an old clause, an old clause merged
  away into a new one); between two releases with others captured between them, a link is a
  path of such links through every release between (the truth names two texts; the archive
  may gain releases between them after the truth was written);
- `added` (no old label): no link touches the new clause;
- `removed` (no new label): no link touches the old clause;
- any other row (a pairing, a split, a merge): the links that touch any clause of the row are
  exactly every old label of the row with every new label of the row, and the FIRST old and
  the FIRST new label are the same lineage (for a split the piece that carries the old
  statement keeps the identity, for a merge the clause named first is the one that continues).

A row is **named right** when it is linked right and the engine's kind for it is the truth's
kind. The engine's kind for a row is the kind of the event of its first new clause in that
clause's own lineage (`unchanged` when there is none); for a `removed` row, the event of its
old clause in the old clause's lineage. Over several alignments the kinds of the lineage's
steps are composed (`compose`).

A label must name one clause of its release (`check_truth`); where a parser defect gives two
clauses one number, the measure would take the first in document order.

`python -m lineage.accuracy [--db PATH] [--write]` prints the table per kind and, with
`--write`, stores the figures in `lineage/data/accuracy.json`: package data, because the site
publishes them (`published_figures`) and an installed copy has no `tests/`; the test
recomputes them from the truth and requires equality.

`official_agreement` is the other measure the site publishes: how many entries of the
official "Comprehensive Rules changes" articles matched a change of the lineages.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.explanations import CALLED_NEW, MATCHED, called_new
from vocabulary.kinds import (
    ADDED,
    CHANGE_KINDS,
    EXAMPLE,
    FORMATTING,
    MERGED,
    REFERENCE,
    REMOVED,
    RENUMBERED,
    RENUMBERED_EXAMPLE,
    RENUMBERED_REWORDED,
    REWORDED,
    SPLIT,
    UNCHANGED,
)

TRUTH_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "lineage_truth"
FIGURES = Path(__file__).resolve().parent / "data" / "accuracy.json"
COLUMNS = ("old_release", "new_release", "old", "new", "kind", "reason")
SEPARATOR = " | "
ALL = "all"  # the key of the figures over every kind


@dataclass(frozen=True)
class TruthRow:
    """One judged decision of a truth file."""

    source: str  # file name
    line: int  # line in that file (the header is line 1)
    old_release: str
    new_release: str
    olds: tuple[str, ...]
    news: tuple[str, ...]
    kind: str
    reason: str

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


def _labels(cell: str) -> tuple[str, ...]:
    return tuple(label.strip() for label in cell.split(SEPARATOR.strip())) if cell.strip() else ()


def read_truth(path: Path) -> list[TruthRow]:
    """The rows of one truth file; a wrong header is one clear error naming the file."""
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None or tuple(header) != COLUMNS:
            raise ValueError(f"{path.name}:1: header must be {','.join(COLUMNS)}")
        rows = []
        for number, record in enumerate(reader, start=2):
            if len(record) != len(COLUMNS):
                raise ValueError(f"{path.name}:{number}: {len(record)} columns, not 6")
            old_release, new_release, old, new, kind, reason = record
            rows.append(
                TruthRow(
                    path.name,
                    number,
                    old_release,
                    new_release,
                    _labels(old),
                    _labels(new),
                    kind,
                    reason.strip(),
                )
            )
    return rows


def truth_files(folder: Path = TRUTH_DIR) -> list[Path]:
    return sorted(folder.glob("*.csv"))


def read_all(folder: Path = TRUTH_DIR) -> list[TruthRow]:
    return [row for path in truth_files(folder) for row in read_truth(path)]


def chain_between(previous: dict[str, str | None], old_release: str, new_release: str) -> list[str]:
    """The releases from `old_release` to `new_release`, each aligned with the one before.

    A truth file names two releases; releases captured later may sit between them, so the
    engine's answer for the pair is the composition of its consecutive alignments.
    """
    chain = [new_release]
    while chain[-1] != old_release:
        before = previous.get(chain[-1])
        if before is None or before < old_release:  # ISO dates compare as text
            raise ValueError(f"{new_release} is not aligned back to {old_release} in this store")
        chain.append(before)
    return chain[::-1]


STRUCTURAL = (SPLIT, MERGED, ADDED, REMOVED)  # a lineage that starts, ends, splits or merges


def compose(kinds: list[str], renumbered: bool) -> str:
    """One kind for several consecutive steps of a lineage (one step: its own kind).

    A split, merge, start or end anywhere is the kind; otherwise any change of words makes it
    reworded (renumbered+reworded if the two ends have different numbers), then a change of
    an example makes it example (renumbered+example), then a different number makes it
    renumbered, then reference, then formatting.

    >>> print(compose(["reworded", "unchanged"], renumbered=True))
    renumbered+reworded
    >>> print(compose(["added", "reworded"], renumbered=False))
    added
    >>> print(compose(["formatting", "reference"], renumbered=False))
    reference
    >>> print(compose(["renumbered+example", "unchanged"], renumbered=False))
    example
    """
    if len(kinds) == 1:
        return kinds[0]
    for kind in kinds:
        if kind in STRUCTURAL:
            return kind
    if any(kind in (REWORDED, RENUMBERED_REWORDED) for kind in kinds):
        return RENUMBERED_REWORDED if renumbered else REWORDED
    if any(kind in (EXAMPLE, RENUMBERED_EXAMPLE) for kind in kinds):
        return RENUMBERED_EXAMPLE if renumbered else EXAMPLE
    if renumbered:
        return RENUMBERED
    for kind in (REFERENCE, FORMATTING):
        if kind in kinds:
            return kind
    return UNCHANGED


@dataclass
class _Transition:
    """The engine's links from one release to a later one, composed along the alignments."""

    chain: list[str]
    old_parts: dict[str, int]  # label -> part id (first in document order)
    new_parts: dict[str, int]
    lineage: dict[int, int]  # part id -> lineage id, every release of the chain
    member: dict[tuple[int, str], int] = field(default_factory=dict)  # (lineage, release)
    links: dict[int, set[tuple[int, int]]] = field(default_factory=dict)  # part -> its links
    step_kind: dict[tuple[str, int], str] = field(default_factory=dict)  # (release, lineage)
    label: dict[int, str] = field(default_factory=dict)  # part id -> label

    @classmethod
    def load(cls, db: Database, old_release: str, new_release: str) -> _Transition:
        previous = dict(db.execute("SELECT release, previous_release FROM lineage_alignments"))
        chain = chain_between(previous, old_release, new_release)
        marks = ", ".join("?" for _ in chain)
        members = db.execute(
            f"""SELECT lineage_members.release, lineage_members.number, part_id, lineage_id
                FROM lineage_members JOIN parts ON parts.id = part_id
                WHERE release IN ({marks}) ORDER BY parts.position""",
            chain,
        )
        parts: dict[str, dict[str, int]] = defaultdict(dict)
        step = cls(chain, {}, {}, {})
        for release, label, part_id, lineage_id in members:
            parts[release].setdefault(label, part_id)
            step.lineage[part_id] = lineage_id
            step.member[(lineage_id, release)] = part_id
            step.label[part_id] = label
        step.old_parts, step.new_parts = parts[old_release], parts[new_release]
        reach: dict[int, set[int]] = {part: {part} for part in step.old_parts.values()}
        for before, after in zip(chain, chain[1:], strict=False):
            onward: dict[int, set[int]] = defaultdict(set)
            for (lineage_id, release), part in step.member.items():
                if release == before and (lineage_id, after) in step.member:
                    onward[part].add(step.member[(lineage_id, after)])
            events = db.execute(
                "SELECT old_part_id, new_part_id, lineage_id, kind FROM lineage_events"
                " WHERE release = ?",
                [after],
            )
            for old_part, new_part, lineage_id, kind in events:
                if old_part is not None and new_part is not None:
                    onward[old_part].add(new_part)
                if lineage_id in (step.lineage.get(new_part), step.lineage.get(old_part)):
                    step.step_kind[(after, lineage_id)] = kind  # its own event, or its end
            reach = {
                start: set().union(*(onward.get(part, set()) for part in ends))
                for start, ends in reach.items()
            }
        for start, ends in reach.items():
            for end in ends:
                for part in (start, end):
                    step.links.setdefault(part, set()).add((start, end))
        return step

    def kind_of(self, part: int, other: int | None) -> str:
        """The engine's kind for a part's lineage over the chain (`other`: the part at the far
        end of the row, to tell whether the number changed)."""
        lineage_id = self.lineage[part]
        kinds = []
        for before, after in zip(self.chain, self.chain[1:], strict=False):
            here = (lineage_id, before) in self.member, (lineage_id, after) in self.member
            if any(here):
                kinds.append(self.step_kind.get((after, lineage_id), UNCHANGED))
        renumbered = other is not None and self.label[part] != self.label[other]
        return compose(kinds, renumbered) if kinds else UNCHANGED


@dataclass(frozen=True)
class Verdict:
    """The engine against one truth row."""

    row: TruthRow
    linked: bool
    named: bool
    engine_kind: str


def judge(step: _Transition, row: TruthRow) -> Verdict:
    """Whether the engine links the row's clauses as the truth does, and names its kind."""
    olds = [step.old_parts[label] for label in row.olds]
    news = [step.new_parts[label] for label in row.news]
    touched = set().union(*(step.links.get(part, set()) for part in olds + news))
    expected = {(o, n) for o in olds for n in news}
    linked = touched == expected
    if olds and news:
        linked = linked and step.lineage[olds[0]] == step.lineage[news[0]]
    if news:
        engine_kind = step.kind_of(news[0], olds[0] if olds else None)
    else:
        engine_kind = step.kind_of(olds[0], None)
    return Verdict(row, linked, linked and engine_kind == row.kind, engine_kind)


def check_truth(db: Database, rows: Iterable[TruthRow]) -> list[str]:
    """Every reason a truth row is malformed, one line each naming file and line.

    A row is well formed when its newer release is aligned back to its older one (through
    any releases between), each label names exactly one clause of its release, its kind is a
    known kind whose shape it has (`added` has no old clause, `removed` no new one, a split one
    old and several new clauses, a merge several old and one new), its reason is given, and no
    clause of the transition is judged in another row.
    """
    problems = []
    counts: dict[str, Counter[str]] = {}
    previous = dict(db.execute("SELECT release, previous_release FROM lineage_alignments"))
    seen: dict[tuple[str, str, str], str] = {}

    def known(release: str) -> Counter[str]:
        if release not in counts:
            found = db.execute("SELECT number FROM lineage_members WHERE release = ?", [release])
            counts[release] = Counter(label for (label,) in found)
        return counts[release]

    for row in rows:
        try:
            chain_between(previous, row.old_release, row.new_release)
        except ValueError:
            problems.append(f"{row.where}: {row.new_release} does not follow {row.old_release}")
        if row.kind not in CHANGE_KINDS:
            problems.append(f"{row.where}: unknown kind {row.kind!r}")
        if not row.reason:
            problems.append(f"{row.where}: no reason")
        if not row.olds and not row.news:
            problems.append(f"{row.where}: neither an old nor a new clause")
        if (
            (row.kind == ADDED) != (not row.olds)
            or (row.kind == REMOVED) != (not row.news)
            or (row.kind == SPLIT and (len(row.olds) != 1 or len(row.news) < 2))
            or (row.kind == MERGED and (len(row.olds) < 2 or len(row.news) != 1))
            or (row.kind not in (SPLIT, MERGED) and (len(row.olds) > 1 or len(row.news) > 1))
        ):
            problems.append(f"{row.where}: {row.kind} with old {row.olds} and new {row.news}")
        sides = (("old", row.old_release, row.olds), ("new", row.new_release, row.news))
        for side, release, names in sides:
            for label in names:
                found = known(release)[label]
                if found != 1:
                    what = "is not a clause" if not found else f"names {found} clauses"
                    problems.append(f"{row.where}: {side} {label!r} {what} of {release}")
                key = (f"{row.old_release}>{row.new_release}", side, label)
                if key in seen:
                    problems.append(f"{row.where}: {side} {label!r} judged before at {seen[key]}")
                seen[key] = row.where
    return problems


def _tally() -> dict[str, int]:
    return {"rows": 0, "linked": 0, "named": 0}


def measure(db: Database, rows: Iterable[TruthRow]) -> dict[str, Any]:
    """Per kind of the truth: rows, rows linked right, rows linked and named right.

    The figures are given over all truth files (`overall`) and per file (`files`); `links`
    measures the links one by one (`measure_links`).
    """
    rows = list(rows)
    steps: dict[tuple[str, str], _Transition] = {}
    overall: dict[str, dict[str, int]] = defaultdict(_tally)
    files: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(_tally))
    for row in rows:
        pair = (row.old_release, row.new_release)
        if pair not in steps:
            steps[pair] = _Transition.load(db, *pair)
        verdict = judge(steps[pair], row)
        for table in (overall, files[row.source]):
            for key in (row.kind, ALL):
                table[key]["rows"] += 1
                table[key]["linked"] += verdict.linked
                table[key]["named"] += verdict.named
    return {
        "overall": _sorted(overall),
        "files": {name: _sorted(table) for name, table in sorted(files.items())},
        "links": measure_links(db, rows, steps),
    }


def measure_links(
    db: Database, rows: Iterable[TruthRow], steps: dict[tuple[str, str], _Transition]
) -> dict[str, Any]:
    """How far one link can be trusted: the engine's links measured one by one.

    A row counts as wrong when any of its links is, so a split found with three of its four
    pieces is a wrong row; a judge reading one link on a page wants to know how often that
    link is right, and whether the "uncertain link" mark tells the doubtful ones apart.

    In each transition the judged clauses are those the rows name. Every link of the engine
    (`_Transition.links`) that touches one is `right` when one row names both its clauses
    (the truth's links of a row: each old label with each new label), else wrong: a row
    lists every link of its clauses, so a link to a clause no row names is wrong too. A link
    is `uncertain` when the change of either clause it joins is marked so on the site
    (`lineage.evidence.evidence_between`, the mark of the diff pages), else `certain`.
    `truth` counts the truth's links, how many of them the engine `found`, and how many of
    those it missed belong to a split or a merge (`missed_in_splits_and_merges`).
    `methods` counts the links by the method of the decision the site shows with them: the
    change of the lineage the link continues, or, between two lineages, of the piece split
    off (its lineage begins) or of the clause absorbed (its lineage ends); `unchanged` when
    that lineage has no decision there (the same text under the same number).
    """
    from lineage.evidence import evidence_between  # the mark as the diff pages give it

    by_pair: dict[tuple[str, str], list[TruthRow]] = defaultdict(list)
    for row in rows:
        by_pair[(row.old_release, row.new_release)].append(row)
    tally: dict[str, Any] = {
        "certain": {"links": 0, "right": 0},
        "uncertain": {"links": 0, "right": 0},
        "truth": {"links": 0, "found": 0, "missed_in_splits_and_merges": 0},
    }
    methods: dict[str, dict[str, int]] = defaultdict(lambda: {"links": 0, "right": 0})
    for pair, judged in by_pair.items():
        step = steps.get(pair) or _Transition.load(db, *pair)
        olds = {step.old_parts[label] for row in judged for label in row.olds}
        news = {step.new_parts[label] for row in judged for label in row.news}
        truth_kinds = {
            (step.old_parts[o], step.new_parts[n]): row.kind
            for row in judged
            for o in row.olds
            for n in row.news
        }
        truth = set(truth_kinds)
        links = {link for part in olds | news for link in step.links.get(part, set())}
        lineages = {step.lineage[part] for link in links for part in link}
        marks = evidence_between(db, *pair, lineages)
        for o, n in links:
            weak = any(marks.get(step.lineage[part], {}).get("weak") for part in (o, n))
            decided = marks.get(step.lineage[_deciding_end(step, o, n)], {})
            for counted in (
                tally["uncertain" if weak else "certain"],
                methods[decided.get("method") or UNCHANGED.value],
            ):
                counted["links"] += 1
                counted["right"] += (o, n) in truth
        tally["truth"]["links"] += len(truth)
        tally["truth"]["found"] += len(truth & links)
        tally["truth"]["missed_in_splits_and_merges"] += sum(
            1 for link in truth - links if truth_kinds[link] in (SPLIT, MERGED)
        )
    tally["methods"] = dict(sorted(methods.items(), key=lambda item: (-item[1]["links"], item[0])))
    return tally


def _deciding_end(step: _Transition, o: int, n: int) -> int:
    """The part whose lineage's decision links old part `o` to new part `n`: either (one
    lineage), the new piece (its lineage begins after the old release), or the old clause
    absorbed (the new clause's lineage was there before)."""
    if step.lineage[o] == step.lineage[n]:
        return n
    return o if (step.lineage[n], step.chain[0]) in step.member else n


def _sorted(table: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    order = [*CHANGE_KINDS, ALL]
    return {kind: dict(table[kind]) for kind in order if kind in table}


def verdicts(db: Database, rows: Iterable[TruthRow]) -> list[Verdict]:
    """The engine against each row (for reading the failures)."""
    steps: dict[tuple[str, str], _Transition] = {}
    out = []
    for row in rows:
        pair = (row.old_release, row.new_release)
        if pair not in steps:
            steps[pair] = _Transition.load(db, *pair)
        out.append(judge(steps[pair], row))
    return out


def published_figures() -> dict[str, Any]:
    """The figures last written by `--write` (what the site shows): `overall` and `files`,
    each kind -> rows, linked, named. Empty when none were written."""
    if not FIGURES.exists():
        return {}
    figures: dict[str, Any] = json.loads(FIGURES.read_text(encoding="utf-8"))
    return figures


def official_agreement(db: Database) -> dict[str, Any]:
    """How the lineages agree with the official change articles, from the store.

    Per kind of entry (`rule`: it lists rule numbers, `glossary`: terms, `topic`: a heading
    naming a subject), how many entries the articles hold and how many matched a change of
    the release the article accompanies; and the entries that matched nothing, by the reason
    recorded (`listed-unchanged`, `not-in-release`, `term-not-found`, `example-changed`).
    Only the articles whose release the store holds count (a store of a few releases holds
    every article, most with no release to match). Empty when the store has no explanations.
    """
    if "explanations" not in db.table_names():
        return {}
    kinds: dict[str, dict[str, int]] = {}
    for kind, status, n in db.execute(
        """SELECT kind, status, count(*) FROM explanations WHERE release IS NOT NULL
           GROUP BY kind, status ORDER BY kind"""
    ):
        tally = kinds.setdefault(kind, {"entries": 0, "matched": 0})
        tally["entries"] += n
        tally["matched"] += n if status == MATCHED else 0
    reasons: Counter[str] = Counter()
    for (finding,) in db.execute(
        "SELECT finding FROM explanations WHERE status != ? AND release IS NOT NULL", [MATCHED]
    ):
        reasons[(finding or "unknown").split(":", 1)[0]] += 1
    articles = db.execute("SELECT count(*) FROM bulletins WHERE release IS NOT NULL").fetchone()[0]
    # matched entries that call a rule new where the lineage continues an older clause
    disagreements = [
        {"release": release, "heading": heading, "said": called_new({"finding": finding})}
        for release, heading, finding in db.execute(
            """SELECT release, heading, finding FROM explanations
               WHERE status = ? AND release IS NOT NULL AND finding LIKE ?
               ORDER BY release, position""",
            [MATCHED, f"%{CALLED_NEW}%"],
        )
    ]
    return {
        "articles": articles,
        "kinds": kinds,
        "entries": sum(t["entries"] for t in kinds.values()),
        "matched": sum(t["matched"] for t in kinds.values()),
        "findings": dict(reasons.most_common()),
        "disagreements": disagreements,
    }


def format_table(table: dict[str, dict[str, int]]) -> str:
    """A Markdown table: kind, rows judged, linked right, linked and named right."""
    lines = ["| kind | rows | linked right | named right |", "| --- | --- | --- | --- |"]
    for kind, tally in table.items():
        rows = tally["rows"]
        lines.append(
            f"| {kind} | {rows} | {tally['linked']} ({percent(tally['linked'], rows)}) "
            f"| {tally['named']} ({percent(tally['named'], rows)}) |"
        )
    return "\n".join(lines)


def format_links(links: dict[str, Any]) -> str:
    """The links measured one by one (`measure_links`), a line each."""
    lines = []
    for mark in ("certain", "uncertain"):
        tally = links[mark]
        share = percent(tally["right"], tally["links"])
        lines.append(f"links marked {mark}: {tally['right']} of {tally['links']} right ({share})")
    truth = links["truth"]
    share = percent(truth["found"], truth["links"])
    lines.append(f"links of the truth found: {truth['found']} of {truth['links']} ({share})")
    for method, tally in links.get("methods", {}).items():
        share = percent(tally["right"], tally["links"])
        lines.append(f"  by {method}: {tally['right']} of {tally['links']} right ({share})")
    return "\n".join(lines)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    from archive.store import db_path, open_store

    parser = argparse.ArgumentParser(prog="python -m lineage.accuracy", description=__doc__)
    parser.add_argument("--db", type=Path, default=None, help="the store (lineages built)")
    parser.add_argument("--write", action="store_true", help=f"write {FIGURES.name}")
    parser.add_argument("--failures", action="store_true", help="list the rows it gets wrong")
    args = parser.parse_args(argv)
    db = open_store(db_path(args.db))
    rows = read_all()
    problems = check_truth(db, rows)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    figures = measure(db, rows)
    print(format_table(figures["overall"]))
    print(format_links(figures["links"]))
    for name, table in figures["files"].items():
        print(f"\n{name}\n{format_table(table)}")
    if args.failures:
        for verdict in verdicts(db, rows):
            if not verdict.named:
                row = verdict.row
                print(
                    f"{row.where}: {row.kind} {' | '.join(row.olds)} -> {' | '.join(row.news)};"
                    f" engine {verdict.engine_kind}, linked {verdict.linked}"
                )
    if args.write:
        partial = FIGURES.with_suffix(".json.partial")
        partial.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        partial.replace(FIGURES)  # atomic: a reader sees the old figures or the new
    return 0


if __name__ == "__main__":
    sys.exit(main())
