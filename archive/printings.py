"""Which printing of a number a reader means, when a release prints the number more than once.

The official text sometimes gives two clauses one number (2024-09-17 prints 702.175 for both
Offspring and Impending, each with its own 702.175a). A number names its first printing; a
title names the printing it heads (`archive.lookup.Found.part`). A printing owns the clauses
numbered under it from its place in the text up to the next printing of the same number:
that is what the text shows a reader, and what `show`, `trace` and `blame` keep to.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from sqlite_utils import Database

ORDINALS = {1: "first", 2: "second", 3: "third"}  # how a note names a printing
T = TypeVar("T")


@dataclass(frozen=True)
class Printing:
    """One printing of a number in a release."""

    number: str
    nth: int  # from 1, in document order
    count: int  # how many times the release prints the number
    part_id: int
    start: int  # its position in the release
    end: int | None  # the position of the next printing of the number; None for the last

    def owns(self, position: int) -> bool:
        """Does a clause at `position`, numbered under this number, belong to this printing?"""
        return self.start <= position and (self.end is None or position < self.end)


def printed_note(number: str, printed: str) -> str:
    """What `show` and the release pages say of a number the text printed otherwise
    (`parts.printed_number`): the archive reads it as the rules number it, and says so.

    >>> printed_note("408.2f", "408.f")
    'the text prints this number as "408.f"; it is read as 408.2f, the number its place gives it'
    """
    return (
        f'the text prints this number as "{printed}"; it is read as {number},'
        " the number its place gives it"
    )


def ordinal(nth: int) -> str:
    """How a note names the `nth` printing.

    >>> ordinal(2), ordinal(4)
    ('second', '4th')
    """
    return ORDINALS.get(nth, f"{nth}th")


def printing_of(db: Database, release: str, number: str, part: int | None) -> Printing | None:
    """The printing of `number` in `release` that `part` is (the first when `part` is None or
    not one of them); None when the release does not print the number."""
    rows = db.execute(
        "SELECT part_id, position FROM clauses WHERE release = ? AND number = ? ORDER BY position",
        [release, number],
    ).fetchall()
    printed = _printings(number, rows)
    return next((p for p in printed if p.part_id == part), printed[0] if printed else None)


def titled_printing(
    db: Database, release: str, number: str | None, part: int | None
) -> Printing | None:
    """The printing a title names (`part`, archive.lookup.Found.part), when `release` prints
    its `number` more than once; None otherwise: a number, or a title of a number printed
    once, keeps every clause numbered under it."""
    if number is None or part is None:
        return None
    printing = printing_of(db, release, number, part)
    return printing if printing is not None and printing.count > 1 else None


def _printings(number: str, places: list[tuple[int, int]]) -> list[Printing]:
    """Each printing of `number`, given (part, position) of each in document order."""
    ends = [position for _part, position in places[1:]]
    return [
        Printing(number, i + 1, len(places), part, start, ends[i] if i < len(ends) else None)
        for i, (part, start) in enumerate(places)
    ]


def repeated_printings(db: Database) -> dict[str, dict[int, Printing]]:
    """Release -> part id -> its printing, for every number a release prints more than once
    (a handful in the whole archive), in one query: what a reader of every release's names
    needs. Read from the lineages' members (their index by release and number): the store's
    lineages are built before anything reads names so."""
    rows = db.execute(
        """SELECT m.release, m.number, m.part_id, p.position FROM lineage_members m
           JOIN parts p ON p.id = m.part_id
           WHERE (m.release, m.number) IN (
               SELECT release, number FROM lineage_members INDEXED BY lineage_members_release
               GROUP BY release, number HAVING count(*) > 1)
           ORDER BY m.release, m.number, p.position"""
    ).fetchall()
    places: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for release, number, part, position in rows:
        places.setdefault((release, number), []).append((part, position))
    found: dict[str, dict[int, Printing]] = {}
    for (release, number), printed in places.items():
        found.setdefault(release, {}).update((p.part_id, p) for p in _printings(number, printed))
    return found


def examples_by_owner(
    rules: Iterable[tuple[int, str | None, int]], examples: Iterable[tuple[str | None, int, T]]
) -> dict[int, list[T]]:
    """Part id -> what is given of each of its examples, in order. `rules`: (part, number,
    position) of a release's rules and subrules; `examples`: (the number the example follows,
    its position, what to keep of it). An example belongs to the last printing of its number
    before it: 2006-05-01 prints 501.2 for Evasion and again for Status, and the Evasion
    example ("A creature with flying and shadow...") is Evasion's alone.

    >>> examples_by_owner([(1, "501.2", 10), (2, "501.2", 20)], [("501.2", 11, "e")])
    {1: ['e']}
    """
    printed: dict[str | None, list[tuple[int, int]]] = {}
    for part, number, position in rules:
        printed.setdefault(number, []).append((position, part))
    for sorted_places in printed.values():
        sorted_places.sort()
    found: dict[int, list[T]] = {}
    for parent, position, kept in examples:
        places = printed.get(parent, [])
        at = bisect_left(places, (position, -1)) - 1
        if at >= 0:
            found.setdefault(places[at][1], []).append(kept)
    return found
