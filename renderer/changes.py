"""Changes between a release and the one before it, as the site shows them.

From the lineage events when the store has them (lineage.store); otherwise a plain
comparison by number, so the site still builds before lineage exists.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from renderer.environment import clause_anchor
from renderer.queries import has_table, release_versions
from vocabulary.kinds import CHANGE_KINDS, UNCHANGED

# Kinds in the order the site lists them.
KINDS = tuple(kind for kind in CHANGE_KINDS if kind != UNCHANGED)
# Counted apart: the differences of a derived copy that no official release confirms.
UNCONFIRMED = "unconfirmed"


@dataclass
class Change:
    kind: str
    old_numbers: list[str]
    new_numbers: list[str]
    old_part: int | None
    new_part: int | None
    unconfirmed: bool = False  # a derived copy's difference the next official release lacks
    weak: bool = False  # decided on weak evidence (lineage.evidence): the page marks it
    method: str | None = None
    score: float | None = None

    @property
    def anchor(self) -> str:
        return "c-" + clause_anchor((self.new_numbers or self.old_numbers or ["x"])[0])

    @property
    def renumbers(self) -> bool:
        return bool(self.old_numbers and self.new_numbers and self.old_numbers != self.new_numbers)


def lineage_ready(db: Database) -> bool:
    return has_table(db, "lineage_events") and bool(db["lineage_events"].count)


def changes(db: Database, old: str | None, new: str) -> list[Change]:
    """Every change from `old` to `new` (consecutive releases), unchanged clauses left out."""
    if old is None:
        return []
    if lineage_ready(db):
        return _from_events(db, new)
    return _by_number(db, old, new)


def _from_events(db: Database, release: str) -> list[Change]:
    """The release's events; a derived copy's come from `derived_events` (lineage.derived)."""
    found = []
    seen: dict[tuple[Any, ...], Change] = {}
    derived = has_table(db, "derived_events") and bool(
        db.execute("SELECT 1 FROM derived_events WHERE release = ? LIMIT 1", [release]).fetchone()
    )
    table, confirmed = ("derived_events", "confirmed") if derived else ("lineage_events", "1")
    # A derived copy's differences keep no evidence of their own (lineage.derived).
    evidence = "NULL AS method, NULL AS score, 0 AS weak" if derived else "method, score, weak"
    for row in db.query(
        f"""SELECT kind, old_numbers, new_numbers, old_part_id, new_part_id,
                   {confirmed} AS confirmed, {evidence}
            FROM {table} WHERE release = ? AND kind != 'unchanged' ORDER BY id""",
        [release],
    ):
        key = (row["kind"], row["old_numbers"], row["new_numbers"])
        if key in seen:  # a split or merge is recorded once per lineage involved
            shown = seen[key]
            if row["weak"] and not shown.weak:  # weak when any of its decisions is
                shown.weak, shown.method, shown.score = True, row["method"], row["score"]
            continue
        seen[key] = Change(
            row["kind"],
            [n for n in json.loads(row["old_numbers"]) if n],
            [n for n in json.loads(row["new_numbers"]) if n],
            row["old_part_id"],
            row["new_part_id"],
            not row["confirmed"],
            bool(row["weak"]),
            row["method"],
            row["score"],
        )
        found.append(seen[key])
    return found


def _by_number(db: Database, old: str, new: str) -> list[Change]:
    before, after = release_versions(db, old), release_versions(db, new)
    found = []
    for number, (version, normalised, part) in after.items():
        if number not in before:
            found.append(Change("added", [], [number], None, part))
        elif before[number][0] != version:
            kind = "formatting" if before[number][1] == normalised else "reworded"
            found.append(Change(kind, [number], [number], before[number][2], part))
    for number, (_version, _normalised, part) in before.items():
        if number not in after:
            found.append(Change("removed", [number], [], part, None))
    return found


def counts(found: list[Change]) -> dict[str, int]:
    tally: dict[str, int] = {kind.value: 0 for kind in KINDS}
    for change in found:
        kind = UNCONFIRMED if change.unconfirmed else change.kind
        tally[kind] = tally.get(kind, 0) + 1
    return {kind: n for kind, n in tally.items() if n}


def compared_with(dates: list[str], derived: set[str]) -> dict[str, str | None]:
    """The release each release's changes are counted from: the official one before it.

    The official chain passes over a derived copy, which is compared with its official
    predecessor (lineage.derived), so no diff page compares anything with the copy but that.

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
