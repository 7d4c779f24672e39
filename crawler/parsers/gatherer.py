"""Gatherer card rulings: dated rulings (`11/12/2019`), no rule numbers.

Gatherer's card page lists rulings in `table.rulingsTable`, one `tr.post` per ruling with
cells whose ids end in `rulingDate` and `rulingText`; mana symbols in a ruling are images
(`Image.ashx?...&name=3&type=symbol`). The text form has `date |` and `text |` lines.
"""

from __future__ import annotations

import re

from archive.witnesses import WitnessClause
from crawler.parsers.common import decode_text, is_html, iso_date, replace_mana_images, soup_of

DATE_LINE = re.compile(r"^(\d{1,2}/\d{1,2}/\d{4})\s*\|\s*$")


def parse_rulings(data: bytes) -> list[WitnessClause]:
    """Every ruling with its date."""
    pairs = _html_pairs(data) if is_html(data) else _text_pairs(data)
    return [
        WitnessClause(
            "ruling", text, quoted_date=iso_date(day), date_basis="ruling date", position=i
        )
        for i, (day, text) in enumerate(pairs)
    ]


def _text_pairs(data: bytes) -> list[tuple[str, str]]:
    lines = [line.strip() for line in decode_text(data).split("\n")]
    pairs = []
    for index, line in enumerate(lines[:-1]):
        match = DATE_LINE.match(line)
        if match and lines[index + 1].endswith("|") and lines[index + 1] != "|":
            pairs.append((match[1], lines[index + 1][:-1].strip()))
    return pairs


def _html_pairs(data: bytes) -> list[tuple[str, str]]:
    soup = soup_of(data)
    pairs = []
    for row in soup.select("table.rulingsTable tr, tr.post"):
        day = row.find(id=re.compile(r"rulingDate$")) or row.find(class_="rulingDate")
        text = row.find(id=re.compile(r"rulingText$")) or row.find(class_="rulingText")
        if day is None or text is None:
            continue
        replace_mana_images(text)
        pair = (" ".join(day.get_text().split()), " ".join(text.get_text().split()))
        if pair not in pairs:
            pairs.append(pair)
    return pairs
