"""What the witness parsers share: HTML to text lines, mana symbol images, dates, CR lines."""

from __future__ import annotations

import re
from datetime import datetime

from bs4 import BeautifulSoup, Tag

# A quoted CR line: "707.2a If ...", "**502.26a** Morph ...", "504.1 - Two cards ...".
CR_LINE = re.compile(
    r"^\s*(?:[•*\-]\s*)?\**(?P<number>\d{3}(?:\.\d+[a-z]?)?)\.?\**\s*(?:-\s+)?\**\s*(?P<text>\S.*)$"
)
SECTION_NUMBER = re.compile(r"^\d{3}$")
_SYMBOL_FILE = re.compile(r"(?:manasymbols/|[?&]name=)([a-z0-9]+?)(?:\.gif|\.png|&|$)", re.I)
_COLOURS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "tap": "T"}
_MONTH_DAY_YEAR = ("%B %d, %Y", "%b %d, %Y", "%m/%d/%Y", "%Y/%m/%d")


def is_html(data: bytes) -> bool:
    head = data[:2048].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head", b"<body", b"<div"))


def decode_text(data: bytes) -> str:
    """Text forms of pages are UTF-8 (the seeds are); a BOM is dropped, CRLF becomes LF."""
    text = data.decode("utf-8-sig", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def soup_of(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data, "html.parser")


def mana_symbol(src: str, alt: str = "") -> str | None:
    """`.../manasymbols/colorless3.gif` -> `{3}`, `red.gif` -> `{R}`, Gatherer `name=3` -> `{3}`.

    >>> mana_symbol("http://x/manasymbols/colorless3.gif"), mana_symbol("/m/red.gif?x", "")
    ('{3}', None)
    >>> mana_symbol("/Handlers/Image.ashx?size=small&name=R&type=symbol")
    '{R}'
    """
    match = _SYMBOL_FILE.search(src)
    if not match:
        return None
    name = match[1].lower()
    if name.startswith("colorless") and name[9:].isdigit():
        return "{" + name[9:] + "}"
    if name in _COLOURS:
        return "{" + _COLOURS[name] + "}"
    if name.isdigit() or name in {"w", "u", "b", "r", "g", "x", "t", "c"}:
        return "{" + name.upper() + "}"
    return "{" + (alt or name) + "}"


def replace_mana_images(root: Tag) -> None:
    """Turn each mana symbol image into its `{…}` text, in place."""
    for img in root.find_all("img"):
        symbol = mana_symbol(str(img.get("src") or ""), str(img.get("alt") or ""))
        if symbol:
            img.replace_with(symbol)


_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def replace_markdown_mana(text: str) -> str:
    """Markdown image links of mana symbols (the article's text form) become `{…}`."""
    return _MARKDOWN_IMAGE.sub(lambda m: mana_symbol(m[1]) or m[0], text)


def iso_date(text: str) -> str | None:
    """'January 24, 2020', '11/12/2019', '2006/10/01' -> ISO; None when unreadable.

    >>> iso_date("January 24, 2020"), iso_date("11/12/2019"), iso_date("2006/10/01")
    ('2020-01-24', '2019-11-12', '2006-10-01')
    """
    cleaned = " ".join(text.replace("\u00a0", " ").split())
    for layout in _MONTH_DAY_YEAR:
        try:
            return datetime.strptime(cleaned, layout).date().isoformat()
        except ValueError:
            continue
    return None


BLOCKS = ("p", "li", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6")


def block_lines(root: Tag) -> list[str]:
    """The text of each paragraph-like element (p, li, dd, dt, h1-h6), in document order.

    A nested list's items are lines of their own, not part of their parent item's line;
    `<br>` breaks a line (glossary entries number their senses that way).
    """
    for br in root.find_all("br"):
        br.replace_with("\n")
    lines: list[str] = []
    for element in root.find_all(BLOCKS):
        raw = "".join(str(p) for p in element.find_all(string=True) if _owner(p) is element)
        lines.extend(" ".join(line.split()) for line in raw.split("\n") if line.strip())
    return lines


def _owner(piece: object) -> Tag | None:
    return piece.find_parent(BLOCKS)  # type: ignore[attr-defined,no-any-return]
