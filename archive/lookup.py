"""Find a clause by what a reader calls it: a number, a section or keyword title, a glossary term.

Titles are read from the release asked about, never from a fixed table, so "morph" is 502.26
in 2002, 702.34 in 2008 and 702.37 in 2024. A name that matches nothing gets the nearest
titles and terms of that release as suggestions.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from rapidfuzz import fuzz, process
from sqlite_utils import Database

from archive.errors import LookupFailed
from vocabulary.numbers import is_rule_number, is_under

SUGGESTIONS = 5  # nearest names offered when a name matches nothing
NAME_SHOWN = 80  # characters of an unknown name an error repeats: it stays one readable line
SUGGEST_FROM = 60.0  # rapidfuzz WRatio (0-100) below which a name is too far to offer
HEADING_WORDS = 6  # a rule whose whole text is a few words and no sentence is a heading
# The note a name may end with ("In Play (Obsolete)"): named without it, it is still found.
NOTE = re.compile(r"\s*\([^)]*\)$")
# How a suggestion names a glossary entry ("Flying (glossary)"), and how a reader asks for the
# entry rather than the keyword or section of the same name, which a bare name finds first.
GLOSSARY_MARK = re.compile(r"\s*\(glossary\)$", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """What a name or number designates in one release."""

    number: str | None  # the clause number, or None for a glossary entry
    term: str | None  # the glossary term, when the name is one
    kind: str
    # What else the release calls so ("General" is 100, 200, ... 900; "Exile" the zone 406
    # and the keyword action 701.13), as a reader asks for each: the name is not one clause.
    also: tuple[str, ...] = ()

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


def fold(text: str) -> str:
    """A name compared loosely: case, dashes, curly quotes and spacing folded.

    >>> fold("Face-Down  Spells and  Permanents"), fold("“Morph”"), fold("face–down")
    ('face down spells and permanents', 'morph', 'face down')
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    for dash in "-\u2010\u2011\u2012\u2013\u2014":
        text = text.replace(dash, " ")
    text = "".join(ch for ch in text if ch not in "\"'\u2018\u2019\u201c\u201d")
    return " ".join(text.split())


def name_key(name: str) -> str:
    """What two names are compared by when they are not the same: folded (`fold`), a
    trailing note such as "(Obsolete)" or "(Informal)" dropped. The site's lookup box keys
    its names so (renderer.names, static/lookup.js).

    >>> name_key("In Play (Obsolete)"), name_key("Face-Down"), name_key("“Storm”")
    ('in play', 'face down', 'storm')
    """
    return NOTE.sub("", fold(name)).strip()


def is_heading(kind: str, text: str) -> bool:
    """A chapter, a section, or a rule that is only a title ("Morph"): what readers name.
    A short rule ending in a period is a sentence, one ending in a colon the lead-in of a
    list ("The state-based actions are as follows:").

    >>> is_heading("rule", "Morph"), is_heading("rule", "There are twelve special actions:")
    (True, False)
    """
    if kind in ("chapter", "section"):
        return True
    words = text.split()
    return kind == "rule" and len(words) <= HEADING_WORDS and not text.rstrip().endswith((".", ":"))


def _names(db: Database, release: str) -> list[tuple[str, Found]]:
    """Every name in the release: chapter, section and keyword-rule titles, glossary terms.

    Numbered clauses come before glossary entries, so a keyword wins over its glossary entry."""
    names: list[tuple[str, Found]] = []
    glossary: list[tuple[str, Found]] = []
    rows = db.query(
        """SELECT kind, number, title, text FROM clauses WHERE release = ?
           AND kind IN ('chapter', 'section', 'rule', 'glossary') ORDER BY position""",
        [release],
    )
    for row in rows:
        if row["kind"] == "glossary" and row["title"]:
            glossary.append((row["title"], Found(None, row["title"], "glossary")))
        elif row["number"] and is_heading(row["kind"], row["text"] or ""):
            name = row["title"] or row["text"]
            names.append((name.strip(), Found(row["number"], None, row["kind"])))
    return names + glossary


def find(db: Database, release: str, name: str) -> Found:
    """The clause `name` designates in `release`: a number as it is, else a title or term
    (a term also without its note: "Mana Burn" finds "Mana Burn (Obsolete)"). A title comes
    before a term of the same name; "Flying (glossary)" is the entry, as suggestions write it."""
    cleaned = name.strip().rstrip(".")
    if is_rule_number(cleaned):
        return Found(cleaned, None, "number")
    names = _names(db, release)
    entry_asked = GLOSSARY_MARK.search(cleaned)
    if entry_asked:  # "Flying (glossary)": the entry, not the keyword 702.9
        cleaned = cleaned[: entry_asked.start()]
        names = [(title, found) for title, found in names if found.kind == "glossary"]
    wanted = fold(cleaned)
    matches = [found for title, found in names if fold(title) == wanted]
    bare = name_key(cleaned)
    if not matches and bare:  # "mana burn" is the entry "Mana Burn (Obsolete)" since 2009
        matches = [found for title, found in names if name_key(title) == bare]
    if not matches:
        raise LookupFailed(_nothing_called(cleaned, release, names))
    first = matches[0]
    others = dict.fromkeys(m.asked_as for m in matches if m.asked_as != first.asked_as)
    return replace(first, also=tuple(others))


def _nothing_called(name: str, release: str, names: list[tuple[str, Found]]) -> str:
    titles = [title for title, _ in names]
    near = process.extract(
        fold(name), [fold(t) for t in titles], scorer=fuzz.WRatio, limit=SUGGESTIONS
    )
    offers = []
    for _folded, score, index in near:
        if score < SUGGEST_FROM:
            continue
        found = names[index][1]
        where = found.number if found.number else "glossary"
        offers.append(f"{titles[index]} ({where})")
    shown = name if len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…"
    message = f"nothing is called {shown!r} in the {release} release"
    if offers:
        return f"{message}; did you mean: {', '.join(offers)}?"
    return f"{message} (give a rule number such as 708.2a, a section or keyword title, or a term)"
