"""What one release says: its numbered clauses and where the face-down rules live in it.

Clause numbers are reused after renumberings (707 was face-down rules, then copying), so
sections and keyword rules are found by their titles in the release's own text, never by a
fixed number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from sqlite_utils import Database

from vocabulary.numbers import is_under

# Titles of the rules that carry each mechanic, as the CR prints them.
SECTION_TITLES = {
    "face-down": ("Face-Down Spells and Permanents", "Face-Down Creatures"),
    "copy": ("Copying Objects", "Copying Spells and Abilities"),
}
KEYWORD_TITLES = {
    "morph": "Morph",
    "manifest": "Manifest",
    "cloak": "Cloak",
    "disguise": "Disguise",
    "manifest dread": "Manifest Dread",
}


@dataclass(frozen=True)
class Clause:
    number: str
    text: str
    normalised: str
    # which printing of its number (from 1): 2006-05-01 prints 501.3 for Evasion, then again
    # for "Permanents come into play ... face up", which the face-up scenarios cite
    nth: int = 1


@dataclass
class Era:
    """The numbered clauses of one release, in order, and the face-down mechanics it has."""

    release: str
    clauses: list[Clause]
    by_number: dict[str, Clause] = field(default_factory=dict)
    mechanics: dict[str, str] = field(default_factory=dict)
    _under: dict[str, list[Clause]] = field(default_factory=dict, repr=False)

    def under(self, number: str) -> list[Clause]:
        """The clause `number` and everything numbered beneath it (504 -> 504.1, 504.2a...)."""
        if number not in self._under:
            self._under[number] = [c for c in self.clauses if is_under(c.number, number)]
        return self._under[number]

    def rules_of(self, *mechanics: str) -> list[Clause]:
        """All clauses of the given mechanics' rules (the ones this release has)."""
        found: list[Clause] = []
        for name in mechanics:
            if name in self.mechanics:
                found.extend(self.under(self.mechanics[name]))
        return found

    def find(self, pattern: str, within: list[Clause] | None = None) -> list[Clause]:
        """Clauses whose text matches `pattern` (a regex, case-insensitive)."""
        regex = _compiled(pattern)
        pool = self.clauses if within is None else within
        return [c for c in pool if regex.search(c.text)]

    def facing(self) -> list[Clause]:
        """The clauses that mention a face at all: where the face-down rules can hide."""
        if "face" not in self._under:
            self._under["face"] = [c for c in self.clauses if "face" in c.text.lower()]
        return self._under["face"]

    def printing(self, number: str, nth: int = 1) -> Clause:
        """The `nth` printing of `number` (the first when the release prints it once)."""
        if nth == 1:
            return self.by_number[number]
        return next(c for c in self.clauses if c.number == number and c.nth == nth)

    def first(self, pattern: str, within: list[Clause] | None = None) -> Clause | None:
        found = self.find(pattern, within)
        return found[0] if found else None


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def read_era(db: Database, release: str) -> Era:
    """Read one release's numbered clauses from the store (the release's preferred capture)."""
    clauses: list[Clause] = []
    by_number: dict[str, Clause] = {}
    titles: dict[str, str] = {}
    printed: dict[str, int] = {}
    for number, kind, text, normalised in db.execute(
        "SELECT number, kind, text, normalised FROM clauses WHERE release = ?"
        " AND number IS NOT NULL AND kind IN ('section', 'rule', 'subrule') ORDER BY position",
        [release],
    ).fetchall():
        nth = printed[number] = printed.get(number, 0) + 1
        clause = Clause(number, text or "", normalised or "", nth)
        clauses.append(clause)  # a number printed twice (2006-05-01 has two 501s) keeps both
        by_number.setdefault(number, clause)
        if kind in ("section", "rule") and len(clause.text) < 60:
            titles.setdefault(clause.text.strip(), number)
    return Era(release, clauses, by_number, _mechanics(titles, by_number, clauses))


def _mechanics(
    titles: dict[str, str], by_number: dict[str, Clause], clauses: list[Clause]
) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, options in SECTION_TITLES.items():
        for title in options:
            if title in titles:
                found[name] = titles[title]
                break
    for name, title in KEYWORD_TITLES.items():
        if title in titles:
            found[name] = titles[title]
    if "morph" in found:
        for clause in clauses:
            if is_under(clause.number, found["morph"]) and clause.text.startswith("Megamorph"):
                found["megamorph"] = clause.number
                break
    return found
