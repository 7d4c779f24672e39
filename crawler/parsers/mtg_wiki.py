"""MTG Wiki pages: rule quotes under "From the Comprehensive Rules (DATE—SET)".

MediaWiki renders the heading as a paragraph and the quote as the (nested) list right after
it; a glossary quote ("From the glossary of the Comprehensive Rules (...)") is a term and
its numbered senses. The text forms of the pages keep the same order: the heading line,
then bulleted rule lines, or the term and its numbered lines.
"""

from __future__ import annotations

import re

from archive.witnesses import WitnessClause
from crawler.parsers.common import (
    CR_LINE,
    SECTION_NUMBER,
    block_lines,
    decode_text,
    is_html,
    iso_date,
    soup_of,
)

HEADING = re.compile(
    r"^From the (?P<glossary>glossary of the )?Comprehensive Rules \((?P<date>[^—–)]+?)\s*[—–-]"
)
SENSE = re.compile(r"^\d+\.\s")
EDIT_LINK = re.compile(r"\[\s*(?:edit\s*\|\s*edit source|\|)\s*\]$")


def wiki_lines(data: bytes) -> list[str]:
    """The page as lines; in HTML each paragraph, list item, term and sense is one line."""
    if not is_html(data):
        return [line.strip() for line in decode_text(data).split("\n") if line.strip()]
    soup = soup_of(data)
    content = soup.select_one(".mw-parser-output") or soup.select_one("#mw-content-text") or soup
    for edit in content.select(".mw-editsection"):
        edit.decompose()

    return block_lines(content)


def parse_wiki(data: bytes) -> list[WitnessClause]:
    """Each quoted rule and glossary entry, dated by the heading it sits under."""
    clauses: list[WitnessClause] = []
    lines = wiki_lines(data)
    index = 0
    while index < len(lines):
        heading = HEADING.match(lines[index])
        index += 1
        if not heading:
            continue
        quoted = iso_date(heading["date"])
        if heading["glossary"]:
            index = _glossary(lines, index, quoted, clauses)
        else:
            index = _rules(lines, index, quoted, clauses)
    return clauses


def _rules(lines: list[str], index: int, quoted: str | None, out: list[WitnessClause]) -> int:
    while index < len(lines) and not HEADING.match(lines[index]):
        match = CR_LINE.match(lines[index].lstrip("•*- \t"))
        if not match:
            break
        number, text = match["number"], match["text"].strip()
        kind = "section" if SECTION_NUMBER.match(number) else "rule"
        out.append(
            WitnessClause(
                kind,
                text,
                number,
                text if kind == "section" else None,
                quoted,
                "From the Comprehensive Rules heading",
                len(out),
            )
        )
        index += 1
    return index


def _glossary(lines: list[str], index: int, quoted: str | None, out: list[WitnessClause]) -> int:
    if index >= len(lines):
        return index
    term = lines[index]
    index += 1
    senses = []
    while index < len(lines) and SENSE.match(lines[index]):
        senses.append(lines[index])
        index += 1
    out.append(
        WitnessClause(
            "glossary",
            "\n".join(senses),
            None,
            term,
            quoted,
            "From the glossary heading",
            len(out),
        )
    )
    return index
