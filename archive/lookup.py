"""Find a clause by what a reader calls it: a number, a section or keyword title, a glossary term.

Titles are read from the release asked about, never from a fixed table, so "morph" is 502.26
in 2002, 702.34 in 2008 and 702.37 in 2024. A name that matches nothing gets the nearest
titles and terms of that release as suggestions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from rapidfuzz import fuzz, process
from sqlite_utils import Database

from archive.errors import LookupFailed, NotANumber, quoted
from archive.keyed import keyed_values
from vocabulary.names import as_typed, fold, glossary_terms, name_key, without_glossary_mark
from vocabulary.numbers import is_rule_number, is_under

SUGGESTIONS = 5  # nearest names offered when a name matches nothing
SUGGEST_FROM = 60.0  # rapidfuzz WRatio (0-100) below which a name is too far to offer
HEADING_WORDS = 6  # a rule whose whole text is a few words and no sentence is a heading
# How a note left in a section's place ends (a sentence, a bracketed remark); no section
# title of the 135 releases ends so.
SECTION_NOTE_ENDS = (".", "]")
# What a reader means as a number, right or wrong ("10", "1000", "50.2"): digits and dots, and
# a letter at the end
NUMBER_LIKE = re.compile(r"[0-9][0-9.]*[A-Za-z]?")


@dataclass(frozen=True)
class Found:
    """What a name or number designates in one release."""

    number: str | None  # the clause number, or None for a glossary entry
    term: str | None  # the glossary term, when the name is one
    kind: str
    # What else the release calls so ("General" is 100, 200, ... 900; "Exile" the zone 406
    # and the keyword action 701.13), as a reader asks for each: the name is not one clause.
    also: tuple[str, ...] = ()
    # The part named, when a title names it: a release that prints a number twice
    # (2024-09-17: Offspring and Impending are both 702.175) has one title for each printing.
    # None for a number, which names its first printing.
    part: int | None = None

    @property
    def label(self) -> str:
        """The number, or the glossary term: what `lineage_members.number` holds for it."""
        return self.term if self.term is not None else self.number or ""

    @property
    def asked_as(self) -> str:
        """How a reader names this clause alone: its number, or "Term (glossary)"."""
        return f"{self.term} (glossary)" if self.term is not None else self.number or ""

    def covers(self, label: str) -> bool:
        """Is `label` (a number, or a glossary term) this clause, or numbered under it?

        >>> morph, entry = Found("702.37", None, "rule"), Found(None, "Morph", "glossary")
        >>> morph.covers("702.37a"), morph.covers("702.3"), entry.covers("Morph")
        (True, False, True)
        """
        if self.term is not None:
            return label == self.term
        return self.number is not None and is_under(label, self.number)


def is_heading(kind: str, text: str) -> bool:
    """A chapter, a section, or a rule that is only a title ("Morph"): what readers name.
    A short rule ending in a period is a sentence, one ending in a colon the lead-in of a
    list ("The state-based actions are as follows:"). A section whose text is a sentence or
    a bracketed note is what a release left in the place of a section whose rules moved
    (2004-10-01 to 2006-10-01: "215. This section is now empty. See rule 205.4c ...";
    2007-10-01: "211. [This section has been intentionally left blank ...]"): no title.

    >>> is_heading("rule", "Morph"), is_heading("rule", "There are twelve special actions:")
    (True, False)
    >>> is_heading("section", "Legends and Legendary Objects")
    True
    >>> is_heading("section", "This section is now empty. See rule 205.4c.")
    False
    """
    if kind == "chapter":
        return True
    if kind == "section":
        return not text.rstrip().endswith(SECTION_NOTE_ENDS)
    words = text.split()
    return kind == "rule" and len(words) <= HEADING_WORDS and not text.rstrip().endswith((".", ":"))


# Which of the clauses a name designates comes first: the larger part of the rules, then a
# glossary entry (an entry repeats what a rule of the same name says).
RANK = {"chapter": 0, "section": 1, "rule": 2, "glossary": 3}
HEADINGS_KEPT = 16_384  # texts judged by `is_heading` kept: every release repeats its rules'
_is_heading = lru_cache(maxsize=HEADINGS_KEPT)(is_heading)


def names_in(
    db: Database, release: str, texts: dict[str, str] | None = None
) -> list[tuple[str, Found]]:
    """Every name in the release: chapter, section and keyword-rule titles, glossary terms,
    each with the clause it names, in the order `resolve` prefers them: chapters, sections,
    rules, then glossary entries (`RANK`), each in document order. So a keyword wins over its
    glossary entry, and "Card Types" is chapter 3, not the rule 205.2 that has the same title;
    the site's lookup box ranks names so too (static/lookup.js).
    `texts` (version hash -> text) keeps the rules' texts read, for a caller that reads the
    names of many releases: they repeat from one release to the next."""
    texts = {} if texts is None else texts
    rows = db.execute(
        """SELECT p.id, p.kind, p.number, p.title, p.version_hash
           FROM releases r JOIN parts p ON p.capture_id = r.capture_id
           WHERE r.date = ? AND p.kind IN ('chapter', 'section', 'rule', 'glossary')
           ORDER BY p.position""",
        [release],
    ).fetchall()
    unread = {  # a rule's text says whether it is a heading; a title-less one's is its name
        version
        for _part, kind, number, title, version in rows
        if number and (kind == "rule" or not title) and version not in texts
    }
    texts.update(keyed_values(db, "clause_versions", "hash", "text", unread))
    names: list[tuple[str, Found]] = []
    for part, kind, number, title, version in rows:
        if kind == "glossary" and title:
            entry = Found(None, title, "glossary")
            names.append((title, entry))
            # "Control, Controller" is found by either term ("controller") as well
            names.extend((term, entry) for term in glossary_terms(title))
        elif number:
            name = title or texts.get(version) or ""  # only chapters and sections have titles
            if _is_heading(kind, name):
                names.append((name.strip(), Found(number, None, kind, part=part)))
    return sorted(names, key=lambda name: RANK[name[1].kind])  # stable: document order within


def resolve(names: list[tuple[str, Found]], name: str) -> Found | None:
    """The clause `name` designates among a release's `names` (`names_in`), or None: a
    number as it is, else a title or term (a term also without its note: "Mana Burn" finds
    "Mana Burn (Obsolete)"). A title comes before a term of the same name; "Flying
    (glossary)" is the entry, as suggestions write it. The in-browser compare resolves a
    name the same way (static/compare.js), from the same list."""
    name = as_typed(name)  # "７０２.３７" is 702.37, as the site's scripts read it
    cleaned = name.strip().rstrip(".")
    if is_rule_number(cleaned.lower()):  # "704.5J" is 704.5j, as the site's lookup box reads it
        return Found(cleaned.lower(), None, "number")
    cleaned, names = _asked_among(cleaned, names)
    wanted = fold(cleaned)
    matches = [found for title, found in names if fold(title) == wanted]
    bare = name_key(cleaned)
    if not matches and bare:  # "mana burn" is the entry "Mana Burn (Obsolete)" since 2009
        matches = [found for title, found in names if name_key(title) == bare]
    if not matches:
        return None
    first = matches[0]
    others = dict.fromkeys(m.asked_as for m in matches if m.asked_as != first.asked_as)
    return replace(first, also=tuple(others))


def find(db: Database, release: str, name: str) -> Found:
    """The clause `name` designates in `release` (`resolve`); LookupFailed, with the nearest
    names of that release, when it designates none."""
    name = as_typed(name)
    cleaned = name.strip().rstrip(".")
    numbered = is_rule_number(cleaned.lower())  # as `resolve` reads it
    if NUMBER_LIKE.fullmatch(cleaned) and not numbered:
        # no title is made of digits: offering the nearest names ("10": "Roll a d20") misleads
        raise NotANumber(
            f"{quoted(cleaned)} is not a rule number: chapters are numbered 1 to 9, sections 100 to"
            " 999, rules like 504.2 and subrules like 504.2a"
        )
    names = [] if numbered else names_in(db, release)
    found = resolve(names, name)
    if found is None:
        raise LookupFailed(_nothing_called(*_asked_among(cleaned, names), release))
    return found


def _asked_among(name: str, names: list[tuple[str, Found]]) -> tuple[str, list[tuple[str, Found]]]:
    """The name asked, without its "(glossary)" mark, and the names it may designate: only
    the glossary entries when it had the mark ("Flying (glossary)": the entry, not the
    keyword 702.9)."""
    name, entry_asked = without_glossary_mark(name)
    if entry_asked:
        names = [(title, found) for title, found in names if found.kind == "glossary"]
    return name, names


def _nothing_called(name: str, names: list[tuple[str, Found]], release: str) -> str:
    titles = [title for title, _ in names]
    near = process.extract(
        fold(name), [fold(t) for t in titles], scorer=fuzz.WRatio, limit=SUGGESTIONS
    )
    offers = []
    offered: set[Found] = set()
    for _folded, score, index in near:
        found = names[index][1]
        if score < SUGGEST_FROM or found in offered:  # an entry's title and one of its terms
            continue
        offered.add(found)
        where = found.number if found.number else "glossary"
        offers.append(f"{titles[index]} ({where})")
    message = f"nothing is called {quoted(name)} in the {release} release"
    if offers:
        # a title may hold commas ("Control, Controller"): the offers are parted otherwise
        return f"{message}; did you mean: {'; '.join(offers)}?"
    return f"{message} (give a rule number such as 708.2a, a section or keyword title, or a term)"
