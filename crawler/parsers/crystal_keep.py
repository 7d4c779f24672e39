"""Crystal Keep "General Rulings" pages: each rule with the CR release its wording dates from.

Lines read `504.2 - <text> [CompRules 2007/05/01]`; the page states the release of the
rulings it was built from ("based on the March 17, 2008 release of the Rulings"). The HTML
pages list the clauses as `<li>` items under the section heading.
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

TAG = re.compile(r"\s*\[CompRules (\d{4}/\d{2}/\d{2})\]\s*$")
PAGE_DATE = re.compile(r"based on the (\w+ \d{1,2}, \d{4}) release", re.I)


def page_lines(data: bytes) -> list[str]:
    if is_html(data):
        return block_lines(soup_of(data).body or soup_of(data))
    return [line.strip() for line in decode_text(data).split("\n") if line.strip()]


def page_date(data: bytes) -> str | None:
    text = soup_of(data).get_text(" ") if is_html(data) else decode_text(data)
    match = PAGE_DATE.search(" ".join(text.split()))
    return iso_date(match[1]) if match else None


def parse_crystal_keep(data: bytes) -> list[WitnessClause]:
    """Every `NNN.N - text [CompRules YYYY/MM/DD]` clause, and the section heading.

    The heading carries no tag: it is dated by the page (the rulings release it is from).
    """
    clauses: list[WitnessClause] = []
    dated = page_date(data)
    for line in page_lines(data):
        match = CR_LINE.match(line)
        if not match:
            continue
        number, body = match["number"], match["text"]
        tag = TAG.search(body)
        if SECTION_NUMBER.match(number):
            title = body.strip()
            clauses.append(
                WitnessClause("section", title, number, title, dated, "page date", len(clauses))
            )
            continue
        if not tag:
            continue
        clauses.append(
            WitnessClause(
                kind="rule",
                number=number,
                text=body[: tag.start()].strip(),
                quoted_date=iso_date(tag[1]),
                date_basis="[CompRules] tag",
                position=len(clauses),
            )
        )
    return clauses
