"""A number's runs: the stretches of consecutive releases in which a clause number named one
clause (one lineage) in one exact wording. Each run has a page, `/rule/NUMBER/START/`, the
permalink the site's citations and `rules-history cite` give. The same words under the same
number may be another clause: in 2009-07-08 sections 300, 400 and 600 each went to another
section, all titled "General", and their wordings begin there.

A derived answer like the others (`lineage.answers`): the pipeline stores the runs in
`number_runs`, and the readers (the site's model, `cite`) read them. Reading them was a scan
and a sort of every numbered part of every release, a second or more per build; storing
them costs the pipeline the releases it redoes, usually one: the runs still open at the
release before are extended, and new ones begin.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from sqlite_utils import Database

NUMBERED_KINDS = ("chapter", "section", "rule", "subrule")


@dataclass
class Run:
    """A stretch of consecutive releases in which a number named one clause in one exact
    wording."""

    number: str
    start: str
    end: str
    version: str
    part_id: int
    releases: list[str] = field(default_factory=list)


def number_runs(db: Database, dates: list[str], number: str | None = None) -> dict[str, list[Run]]:
    """number -> its runs, oldest first (`dates`: every release, oldest first). With
    `number`, that number's runs only."""
    index = {day: i for i, day in enumerate(dates)}
    runs: dict[str, list[Run]] = {}
    rows = db.execute(
        "SELECT number, start, end, version, part_id FROM number_runs"
        f" {'WHERE number = ?' if number is not None else ''} ORDER BY number, start",
        [number] if number is not None else [],
    )
    for found, start, end, version, part_id in rows:
        releases = dates[index[start] : index[end] + 1]
        runs.setdefault(found, []).append(Run(found, start, end, version, part_id, releases))
    return runs


def first_official_release(releases: Sequence[str], copies: Collection[str]) -> str | None:
    """The first official release of a wording whose first release is a derived copy (Storm,
    new in Scourge: the 2003-05-26 copy prints 502.30a, the official history starts on
    2003-07-01); None when the wording begins in an official release, or is the copy's
    alone. A citation of such a wording names the copy, and says which official release
    first printed it.

    >>> first_official_release(["2003-05-26", "2003-07-01"], {"2003-05-26"})
    '2003-07-01'
    >>> first_official_release(["2003-03-15", "2003-05-26"], {"2003-05-26"}) is None
    True
    """
    if not releases or releases[0] not in copies:
        return None
    return next((day for day in releases if day not in copies), None)


def restored_runs(
    runs: Sequence[Run], copies: Collection[str], lineage_of: Callable[[int], int | None]
) -> dict[int, int]:
    """Index of a run -> index of the earlier run whose exact words it prints again, where
    only runs read from a derived copy (`copies`: its releases) stand between them, and the
    clause is the same (`lineage_of` a part). The re-extracted 2003-05-26 copy garbles words
    the official files on both sides print alike (101.3 from 1999 to 2009): the run breaks
    there, but the wording did not change, and its pages say so.

    >>> runs = [Run("101.3", "1999-04-23", "2003-03-15", "v1", 1, ["1999-04-23", "2003-03-15"]),
    ...         Run("101.3", "2003-05-26", "2003-05-26", "v2", 2, ["2003-05-26"]),
    ...         Run("101.3", "2003-07-01", "2009-05-01", "v1", 3, ["2003-07-01", "2009-05-01"])]
    >>> restored_runs(runs, {"2003-05-26"}, lambda part: 7)
    {2: 0}
    """
    copied = frozenset(copies)
    of_copy = [set(run.releases) <= copied for run in runs]  # a run the copy alone prints
    found: dict[int, int] = {}
    for i, run in enumerate(runs):
        j = i - 1
        while j >= 0 and of_copy[j]:
            j -= 1
        if (
            j >= 0
            and j < i - 1  # a copy's run between
            and not of_copy[i]
            and runs[j].version == run.version
            and lineage_of(runs[j].part_id) == lineage_of(run.part_id) is not None
        ):
            found[i] = j
    return found


def store_runs(db: Database, dates: list[str], start: str) -> int:
    """Store the runs of the releases from `start` on, the runs before it kept (those open
    at the release before are extended); returns how many runs were written.

    A gap (the number absent from a release), a new wording or another clause (lineage)
    under the number starts a run. The rows come by number, then release, then place: a
    number printed twice in one release is the row right after its first (and is skipped),
    and each row extends or follows the run before it."""
    if not dates:
        db.conn.execute("DELETE FROM number_runs")
        return 0
    index = {day: i for i, day in enumerate(dates)}
    ends = "SELECT start FROM number_runs UNION SELECT end FROM number_runs"
    if start not in index or not {row[0] for row in db.execute(ends)} <= index.keys():
        start = dates[0]  # a release went: its runs are not worth mending
    before = dates[index[start] - 1] if index[start] else None
    if before is None:
        db.conn.execute("DELETE FROM number_runs")
    else:
        db.conn.execute("DELETE FROM number_runs WHERE start >= ?", [start])
        db.conn.execute("UPDATE number_runs SET end = ? WHERE end > ?", [before, before])
    open_runs: dict[str, tuple[Run, int | None]] = {}  # number -> (run, its lineage)
    for *row, lineage in db.execute(
        """SELECT r.number, r.start, r.end, r.version, r.part_id, m.lineage_id
           FROM number_runs r LEFT JOIN lineage_members m ON m.part_id = r.part_id
           WHERE r.end = ?""",
        [before],
    ):
        open_runs[row[0]] = (Run(*row), lineage)
    rows = db.execute(
        f"""SELECT parts.number, releases.date, parts.version_hash, parts.id, m.lineage_id
            FROM parts JOIN releases ON releases.capture_id = parts.capture_id
            LEFT JOIN lineage_members m ON m.part_id = parts.id
            WHERE parts.number IS NOT NULL AND parts.kind IN {NUMBERED_KINDS}
              AND releases.date >= ?
            ORDER BY parts.number, releases.date, parts.position""",
        [start],
    )
    written: list[Run] = []
    last_number = last_day = None
    previous: Run | None = None
    previous_lineage: int | None = None
    for number, day, version, part_id, lineage in rows:
        if number == last_number and day == last_day:
            continue  # printed twice in one release: the first counts
        if number != last_number:
            previous, previous_lineage = open_runs.get(number, (None, None))
        if (
            previous is not None
            and index[previous.end] + 1 == index[day]  # the release right after its end
            and previous.version == version
            and previous_lineage == lineage
        ):
            previous.end = day
        else:
            previous, previous_lineage = Run(number, day, day, version, part_id), lineage
        if not written or written[-1] is not previous:
            written.append(previous)
        last_number, last_day = number, day
    db.conn.executemany(
        "INSERT OR REPLACE INTO number_runs (number, start, end, version, part_id)"
        " VALUES (?, ?, ?, ?, ?)",
        [(run.number, run.start, run.end, run.version, run.part_id) for run in written],
    )
    return len(written)
