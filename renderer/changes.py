"""Changes between a release and the one before it, as the site shows them.

Read from `release_changes`, which `lineage.answers` fills from `lineage.compare.diff_releases`:
the one change list, the same as `rules-history diff` prints for two neighbouring releases.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import groupby

from sqlite_utils import Database

from lineage.evidence import NO_EVIDENCE, evidence_by_release
from renderer.anchors import distinct
from renderer.environment import clause_anchor
from renderer.json_column import decode_each
from vocabulary.kind_names import shown_change_kind
from vocabulary.kinds import CHANGE_KINDS, FORMATTING, RENUMBERING_KINDS, UNCHANGED

# Kinds in the order the site lists them.
KINDS = tuple(kind for kind in CHANGE_KINDS if kind != UNCHANGED)
# Counted apart: the differences of a derived copy that no official release confirms.
UNCONFIRMED = "unconfirmed"


@dataclass(frozen=True)
class Change:
    kind: str
    old_numbers: list[str]
    new_numbers: list[str]
    old_part: int | None
    new_part: int | None
    lineage: int
    unconfirmed: bool = False  # a derived copy's difference the next official release lacks
    weak: bool = False  # decided on weak evidence (lineage.evidence): the page marks it
    method: str | None = None
    score: float | None = None
    # its id on the diff page: "c-" and its clause's number, made distinct on the page
    # (renderer.anchors) where two changes name one number (two clauses merged into 402)
    anchor: str = ""

    @property
    def shown(self) -> str:
        """Its kind as the pages name it: a glossary entry's is "renamed" where a rule's is
        "renumbered" (vocabulary.kind_names.shown_change_kind)."""
        return shown_change_kind(self.kind, self.old_numbers, self.new_numbers)

    @property
    def renumbers(self) -> bool:
        """A change in a renumbering table: its number changed, and its kind says so (a
        glossary term that only took curly quotes, "Intervening \"If\" Clause", is a change
        of formatting, not a new number)."""
        return (
            bool(self.old_numbers and self.new_numbers and self.old_numbers != self.new_numbers)
            and self.kind in RENUMBERING_KINDS
        )


def all_changes(db: Database) -> dict[str, list[Change]]:
    """Release -> its changes from the release it is compared with (none for the first)."""
    found: dict[str, list[Change]] = defaultdict(list)
    proof = evidence_by_release(db)  # what `diff` gives each change of neighbouring releases
    rows = db.execute(
        """SELECT release, kind, old_numbers, new_numbers, old_part_id, new_part_id, lineage_id,
                  unconfirmed
           FROM release_changes ORDER BY release, position"""
    ).fetchall()
    olds = decode_each(row[2] for row in rows)
    news = decode_each(row[3] for row in rows)
    for release, listed in groupby(zip(rows, olds, news, strict=True), key=lambda r: r[0][0]):
        items = list(listed)
        bases = ["c-" + clause_anchor((new or old or ["x"])[0]) for _row, old, new in items]
        for (row, old, new), anchor in zip(items, distinct(bases), strict=True):
            _release, kind, _old, _new, old_part, new_part, lineage, unconfirmed = row
            shown = proof.get((release, lineage), NO_EVIDENCE)
            found[release].append(
                Change(
                    kind,
                    old,
                    new,
                    old_part,
                    new_part,
                    lineage,
                    bool(unconfirmed),
                    shown["weak"],
                    shown["method"],
                    shown["score"],
                    anchor,
                )
            )
    return dict(found)


def charted_counts(found: list[Change]) -> dict[str, int]:
    """`counts` as the releases' chart draws them: formatting-only changes left out, those a
    derived copy's unconfirmed differences hold too (the 2003-05-26 copy's 23 of 264)."""
    return counts([change for change in found if change.kind != FORMATTING])


def unconfirmed_formatting(found: list[Change]) -> int:
    """How many of a derived copy's unconfirmed differences are formatting-only: `counts`
    holds them under "unconfirmed", the chart and the list of changed clauses leave them out
    (the 2003-05-26 copy's 23 of 264); each page with the count says so beside it."""
    return sum(1 for change in found if change.unconfirmed and change.kind == FORMATTING)


def counts(found: list[Change]) -> dict[str, int]:
    tally: dict[str, int] = {kind.value: 0 for kind in KINDS}
    for change in found:
        kind = UNCONFIRMED if change.unconfirmed else change.kind
        tally[kind] = tally.get(kind, 0) + 1
    return {kind: n for kind, n in tally.items() if n}
