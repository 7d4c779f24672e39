"""Witness page parsers, one module per site, and `parse_witness` which picks one by name."""

from __future__ import annotations

from collections.abc import Callable

from archive.witnesses import WitnessClause, WitnessDocument
from crawler.parsers import crystal_keep, gatherer, mtg_wiki, wizards


def _wizards(data: bytes, quotes: str | None) -> tuple[str | None, list[WitnessClause]]:
    return wizards.article_date(data), wizards.parse_article(data, quotes)


def _crystal_keep(data: bytes, quotes: str | None) -> tuple[str | None, list[WitnessClause]]:
    return crystal_keep.page_date(data), crystal_keep.parse_crystal_keep(data)


def _wiki(data: bytes, quotes: str | None) -> tuple[str | None, list[WitnessClause]]:
    return None, mtg_wiki.parse_wiki(data)


def _gatherer(data: bytes, quotes: str | None) -> tuple[str | None, list[WitnessClause]]:
    rulings = gatherer.parse_rulings(data)
    return (rulings[0].quoted_date if rulings else None), rulings


PARSERS: dict[str, Callable[[bytes, str | None], tuple[str | None, list[WitnessClause]]]] = {
    "wizards-article": _wizards,
    "crystal-keep": _crystal_keep,
    "mtg-wiki": _wiki,
    "gatherer-rulings": _gatherer,
}


class UnknownParser(ValueError):
    pass


def parse_witness(
    data: bytes,
    parser: str,
    source: str,
    sha256: str,
    file: str,
    url: str | None = None,
    quotes: str | None = None,
) -> WitnessDocument:
    """Parse one witness capture (HTML or its text form) with the named parser."""
    try:
        parse = PARSERS[parser]
    except KeyError as exc:
        raise UnknownParser(f"{file}: no witness parser named {parser!r}") from exc
    page_date, clauses = parse(data, quotes)
    return WitnessDocument(source, parser, sha256, file, url, None, page_date, clauses)
