"""Witnesses: secondary sources that quote the CR, stored beside the archive and cross-checked.

A witness clause (a rule a web page quotes, a glossary entry, a ruling) is stored with the
release it quotes, found by date (the release in force on the date the witness gives), and
compared with the archive's wording of that rule in that release: it `agrees` when the two
are the same once typography is folded (`archive.normalise`, and mana symbols written `{3}`
or `3`), else it `differs` and the word diff is kept. A difference is a finding, not an
error: the 2002 morph article quotes rules that were reworded before the Onslaught CR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

AGREES, DIFFERS, NOT_IN_RELEASE, NOT_A_QUOTE = "agrees", "differs", "not-in-release", "not-a-quote"


@dataclass(frozen=True)
class WitnessClause:
    """One clause as a witness gives it."""

    kind: str  # "section", "rule", "glossary" or "ruling"
    text: str
    number: str | None = None  # the rule number the witness quotes it under
    title: str | None = None  # section title or glossary term
    quoted_date: str | None = None  # the date of the CR wording, as the witness states it
    date_basis: str | None = None  # where that date comes from (heading, tag, ruling date)
    position: int = 0


@dataclass
class WitnessDocument:
    """A witness capture parsed: the page's own date and the clauses it quotes."""

    source: str
    parser: str
    sha256: str
    file: str
    url: str | None = None
    title: str | None = None
    page_date: str | None = None
    clauses: list[WitnessClause] = field(default_factory=list)
