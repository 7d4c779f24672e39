"""Wizards of the Coast articles: the rules an article quotes, mana symbol images as `{3}`.

The 2002 morph article ends with "The Official Rules for Morph": rule lines such as
`502.26a Morph is ...`. Its HTML (magic.wizards.com, Drupal 7) keeps the article body in
`#content-detail-page-of-an-article` inside `#main-content`; mana costs are images from
`.../wiz_manacost/manasymbols/red.gif`. The text form is a Markdown conversion of that page.
"""

from __future__ import annotations

import re

from bs4 import Tag

from archive.witnesses import WitnessClause
from crawler.parsers.common import (
    CR_LINE,
    SECTION_NUMBER,
    block_lines,
    decode_text,
    is_html,
    iso_date,
    replace_mana_images,
    replace_markdown_mana,
    soup_of,
)

RULES_HEADING = re.compile(r"official rules", re.I)
END = re.compile(r"^\s*\*?(send questions|discuss this article|about the author)", re.I)
MARKDOWN_LINK = re.compile(r"(?<!!)\[([^\]]*)\]\([^)\s]*\)")  # [Camouflage](http://…) -> Camouflage
BODY_SELECTORS = ("#content-detail-page-of-an-article", "#main-content", "article", "body")


def article_lines(data: bytes) -> list[str]:
    """The article body as lines of text, mana symbols written `{…}`."""
    if is_html(data):
        soup = soup_of(data)
        body: Tag = next((t for s in BODY_SELECTORS if (t := soup.select_one(s))), soup)
        replace_mana_images(body)
        return block_lines(body)
    text = MARKDOWN_LINK.sub(r"\1", replace_markdown_mana(decode_text(data)))
    return [line.strip() for line in text.split("\n") if line.strip()]


def parse_article(data: bytes, quoted_date: str | None) -> list[WitnessClause]:
    """The CR clauses after the article's "Official Rules" heading, up to its sign-off."""
    lines = article_lines(data)
    start = next((i for i, line in enumerate(lines) if RULES_HEADING.search(line)), None)
    if start is None:
        return []
    clauses: list[WitnessClause] = []
    for line in lines[start + 1 :]:
        if END.match(line):
            break
        match = CR_LINE.match(line.replace("**", ""))
        if not match:
            continue
        number, text = match["number"], match["text"].strip()
        kind = "section" if SECTION_NUMBER.match(number) else "rule"
        clauses.append(
            WitnessClause(
                kind=kind,
                number=number,
                text=text,
                title=text if kind == "section" else None,
                quoted_date=quoted_date,
                date_basis="catalogue: the release the article announces",
                position=len(clauses),
            )
        )
    return clauses


def article_date(data: bytes) -> str | None:
    """The publication date: the text form's metadata, or the HTML's `on <date>` line."""
    text = decode_text(data[:8000]) if not is_html(data) else soup_of(data).get_text(" ")
    match = re.search(r'publish_date\]:-\s*"(\d{4}-\d{2}-\d{2})"', text)
    if match:
        return match[1]

    match = re.search(r"\bon\s+([A-Z][a-z]+ \d{1,2}, \d{4})", text)
    return iso_date(match[1]) if match else None
