"""Gaps: releases the archive knows of, or has reason to expect, but holds no text of.

They are data, the `gap` lines of the source catalogue (`crawler/catalogue.jsonl`), each
with what is known of it: the archived releases around it, how sure we are that a release
is missing (`expected`, `possible`), what is known, the evidence in the texts (a rule that
first appears after the gap and is absent before it) and the sources that say so. Ingest
stores them in `release_gaps`, so the site and the CLI read them from the store. A diff
whose two releases lie on either side of a gap spans it: the changes it lists may have
come in a release the archive lacks, and every diff output says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive.errors import RulesHistoryError

GAP_KIND = "gap"
STATUSES = ("expected", "possible")  # a release surely missing / one that may have existed


class GapError(RulesHistoryError):
    """A gap line of the catalogue that cannot be read."""


@dataclass(frozen=True)
class Gap:
    """A stretch between two archived releases in which a release is missing."""

    id: str
    after: str  # the last archived release before the gap
    before: str  # the first archived release after it
    title: str
    status: str
    known: str
    evidence: tuple[dict[str, str], ...] = ()
    sources: tuple[str, ...] = ()

    def as_row(self) -> dict[str, Any]:
        row = asdict(self)
        row["after_release"], row["before_release"] = row.pop("after"), row.pop("before")
        row["evidence"] = json.dumps(list(self.evidence), ensure_ascii=False)
        row["sources"] = json.dumps(list(self.sources), ensure_ascii=False)
        return row


def load_gaps(path: Path) -> list[Gap]:
    """The gap lines of a catalogue file, in file order; a bad one raises naming its line."""
    gaps = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if f'"kind": "{GAP_KIND}"' not in line:
            continue
        try:
            data = json.loads(line)
            gap = Gap(
                id=data["id"],
                after=data["after"],
                before=data["before"],
                title=data["title"],
                status=data["status"],
                known=data["known"],
                evidence=tuple(data.get("evidence", ())),
                sources=tuple(data.get("sources", ())),
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise GapError(f"{path}, line {number}: not a gap entry ({exc!r})") from exc
        if gap.status not in STATUSES:
            raise GapError(f"{path}, line {number}: status must be one of {', '.join(STATUSES)}")
        if not gap.after < gap.before:
            raise GapError(f"{path}, line {number}: 'after' must be before 'before'")
        gaps.append(gap)
    return gaps


def store_gaps(db: Database, gaps: list[Gap]) -> list[str]:
    """Replace the stored gaps; returns a warning for each gap a stored release now fills."""
    with db.atomic():
        db.execute("DELETE FROM release_gaps")
        db.table("release_gaps").insert_all(gap.as_row() for gap in gaps)
    warnings = []
    for gap in gaps:
        inside = [
            row[0]
            for row in db.execute(
                "SELECT date FROM releases WHERE date > ? AND date < ? ORDER BY date",
                [gap.after, gap.before],
            )
        ]
        if inside:
            warnings.append(
                f"gap {gap.id}: release {', '.join(inside)} lies inside it;"
                " update or remove its line in the catalogue"
            )
    return warnings


def stored_gaps(db: Database) -> list[dict[str, Any]]:
    """Every stored gap, oldest first, with its evidence and sources as lists."""
    rows = list(db.query("SELECT * FROM release_gaps ORDER BY after_release, before_release"))
    for row in rows:
        row["after"], row["before"] = row.pop("after_release"), row.pop("before_release")
        row["evidence"] = json.loads(row["evidence"])
        row["sources"] = json.loads(row["sources"])
    return rows


def gaps_between(db: Database, old: str, new: str) -> list[dict[str, Any]]:
    """The gaps a comparison of release `old` with release `new` spans.

    A gap is spanned when `old` is on or before the release it follows and `new` on or after
    the release that follows it."""
    return [gap for gap in stored_gaps(db) if old <= gap["after"] and gap["before"] <= new]


def gap_between(
    gaps: Iterable[dict[str, Any]], last: str | None, following: str | None
) -> dict[str, Any] | None:
    """The gap that lies between release `last` and release `following` (the next one in
    the store), as `gap_brief` gives it: a wording last printed by `last` and replaced in
    `following` may have been replaced earlier, by a release the archive lacks."""
    if last is None:  # still in force: replaced by nothing
        return None
    for gap in gaps:
        if (gap["after"], gap["before"]) == (last, following):
            return gap_brief(gap)
    return None


def gap_notice(gap: dict[str, Any]) -> str:
    """One line for text output: what is missing and how sure we are.

    >>> gap_notice({"title": "Releases of 2000", "status": "expected",
    ...             "after": "1999-11-01", "before": "2001-07-23"})[:80]
    'spans a gap in the archive: Releases of 2000 (expected, between 1999-11-01 and 2'
    """
    return (
        f"spans a gap in the archive: {gap['title']} ({gap['status']}, between"
        f" {gap['after']} and {gap['before']}): changes listed here may have come in a"
        " release the archive lacks"
    )


def gap_on(db: Database, day: str) -> dict[str, Any] | None:
    """The gap whose days hold `day`, or None.

    A gap's days are those after the release it follows and before the release that follows
    it: on them a release the archive lacks may have been in force, so the answer read from
    the newest archived release may be out of date. The day of the release it follows is not
    one of them: that release was new that day."""
    for gap in gaps_by_day(db):
        if gap["after"] < day < gap["before"]:
            return gap
    return None


def gaps_by_day(db: Database) -> list[dict[str, Any]]:
    """The stored gaps whose two releases are both in the store, oldest first: those that an
    answer for a day can say it falls in (`gap_on`). In a store that lacks a gap's releases,
    the answer for its days comes from a release before it, and the gap's notice, which
    names the release it follows, would not describe it."""
    stored = {row[0] for row in db.execute("SELECT date FROM releases")}
    return [gap for gap in stored_gaps(db) if gap["after"] in stored and gap["before"] in stored]


def gap_ending(gaps: Iterable[dict[str, Any]], release: str | None) -> dict[str, Any] | None:
    """The gap that ends at `release` (`gap_brief`), or None: what began in `release` may
    have begun earlier, in a release the archive lacks (July 23, 2001 follows the gap of
    2000: 143 clauses are "first" there).

    >>> gap_ending([{"id": "g", "title": "Releases of 2000", "status": "expected",
    ...              "after": "1999-11-01", "before": "2001-07-23"}], "2001-07-23")["after"]
    '1999-11-01'
    """
    for gap in gaps:
        if gap["before"] == release:
            return gap_brief(gap)
    return None


def gap_brief(gap: dict[str, Any]) -> dict[str, Any]:
    """What an answer that spans or falls in a gap carries of it where the whole row would be
    repeated (each row of `blame --json`, the browser compare's index): no evidence or
    sources, which the releases page gives."""
    return {key: gap[key] for key in ("id", "title", "status", "after", "before")}


def day_gap_notice(gap: dict[str, Any], day: str) -> str:
    """One line for an answer about a day inside a gap (`gap_on`).

    >>> day_gap_notice({"title": "Releases of 2000", "status": "expected",
    ...                 "after": "1999-11-01", "before": "2001-07-23"}, "2000-06-01")[:72]
    '2000-06-01 falls in a gap in the archive: Releases of 2000 (expected, no'
    """
    return (
        f"{day} falls in a gap in the archive: {gap['title']} ({gap['status']}, no release"
        f" between {gap['after']} and {gap['before']}): a release the archive lacks may have"
        " been in force that day"
    )
