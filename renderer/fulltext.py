"""The full text of a release as HTML, one element per part with an anchor per clause.

Written in Python rather than as a template loop: a release has up to 5,000 parts and 124
releases are rendered, so this is the hottest loop of the build (about 4x faster this way).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from functools import lru_cache
from html import escape
from typing import Any

from markupsafe import Markup

from renderer.crossrefs import link_references
from renderer.environment import clause_anchor
from renderer.markup import emphasis_escaped
from renderer.model import Member
from renderer.toc import GLOSSARY_TITLE

ANCHORED_KINDS = ("chapter", "section", "rule", "subrule")  # the parts with id = number
TEXTS_KEPT = 100_000  # escaped texts kept: the releases rendered by one worker share most


@lru_cache(maxsize=TEXTS_KEPT, typed=True)
def _shown(text: str) -> str:
    """A text escaped, its `_italic_` markup as emphasis (releases repeat their texts)."""
    return emphasis_escaped(escape(text))


def history_urls_by_release(
    members: Mapping[int, list[Member]], urls: Mapping[int, str]
) -> dict[str, dict[int, str]]:
    """Release -> part id -> history URL, of each clause that has one (`members`: each
    lineage's members, as the model holds them; `urls`: each lineage's history URL). One
    pass over the model rather than a query per release."""
    found: dict[str, dict[int, str]] = defaultdict(dict)
    for lineage, rows in members.items():
        url = urls.get(lineage)
        if url is not None:
            for release, _number, _version, part_id, _normalised in rows:
                found[release][part_id] = url
    return found


def fulltext_html(
    parts: list[dict[str, Any]],
    marks: Mapping[int, tuple[str, str]],
    diff_url: str | None,
    history: Mapping[int, str] | None = None,
    printings: Mapping[int, str] | None = None,
) -> Markup:
    """Chapters as h3, sections as h4, rules and subrules as p with id = number.

    A clause's number links to its history (`history`: part id -> URL; /rule/NUMBER/ for
    a part it lacks); each cross-reference in the text links to the clause it names here
    (the first, where the text prints a number twice: `printings`, part id -> the id of a
    later one, renderer.model.printing_anchors). `marks`: part id -> the kind of its change
    and the change's id on the diff page `diff_url`."""
    history = history or {}
    printings = printings or {}
    anchors = {p["number"] for p in parts if p["kind"] in ANCHORED_KINDS and p["number"]}
    out = []
    for p in parts:
        kind, number, text = p["kind"], p["number"], p["text"] or ""
        term = p["title"] or ""
        if kind == "glossary" and term and text.startswith(term):
            text = text[len(term) :]  # the term is shown apart, in bold
        mark = marks.get(p["id"]) if number and diff_url else None
        url = None
        if kind in LINKED_KINDS and number:
            url = history.get(p["id"]) or f"/rule/{number}/"
        out.append(
            _part_html(
                kind,
                number,
                p["title"],
                p["parent"],
                link_references(_shown(text), anchors),
                (f"{diff_url}#{mark[1]}", mark[0]) if mark else None,
                url,
                printings.get(p["id"]),
                p.get("printed"),
            )
        )
    return Markup("\n".join(out))


LINKED_KINDS = ("chapter", "section", "rule", "subrule")  # numbers that link to a history
PARTS_KEPT = 100_000  # parts' HTML kept: consecutive releases print nearly every part alike


@lru_cache(maxsize=PARTS_KEPT)
def _part_html(
    kind: str,
    number: str | None,
    title: str | None,
    parent: str | None,
    linked: str,
    mark: tuple[str, str] | None,
    url: str | None,
    anchor: str | None,
    printed: str | None = None,
) -> str:
    """One part as HTML (`linked`: its text escaped, references linked; `mark`: the link to
    its change on the diff page and that change's kind; `url`: where its number links;
    `anchor`: its id when not its number or term, for a number printed twice; `printed`: its
    number as the text printed it, where read otherwise, said after the number read)."""
    if kind == "chapter" and number:  # "1. Game Concepts", as the rules print it
        n = escape(number)
        return (
            f'<h3 class="chapter" id="{escape(anchor or number)}" data-n="{n}">'
            f'<a class="n" href="{escape(url or "")}">{n}.</a> {linked}</h3>'
        )
    if kind == "chapter":
        return f'<h3 class="chapter">{linked}</h3>'
    if kind == "section" and number:
        n = escape(number)
        shown = emphasis_escaped(escape(title)) if title else linked
        return (
            f'<h4 class="section" id="{escape(anchor or number)}" data-n="{n}">'
            f'<a class="n" href="{escape(url or "")}">{n}.</a> {shown}</h4>'
        )
    if kind in ("rule", "subrule") and number:
        n = escape(number)
        shown_mark = ""
        if mark:
            shown_mark = f' <a class="mark" href="{escape(mark[0])}">{escape(mark[1])}</a>'
        as_printed = ""
        if printed:
            as_printed = f' <small class="printed">(printed “{escape(printed)}”)</small>'
        return (
            f'<p class="{kind}" id="{escape(anchor or number)}" data-n="{n}">'
            f'<a class="n" href="{escape(url or "")}">{n}</a>{as_printed} {linked}{shown_mark}</p>'
        )
    if kind == "example":
        return f'<p class="example" data-n="{escape(parent or "")}:ex">{linked}</p>'
    if kind == "glossary-heading":
        return f'<h3 id="glossary">{linked or GLOSSARY_TITLE}</h3>'
    if kind == "glossary":
        term = title or ""
        return (
            f'<p class="glossary" id="{escape(anchor or clause_anchor(term or "x"))}"'
            f' data-n="g:{escape(term)}">'
            f"<b>{emphasis_escaped(escape(term))}</b> {linked}</p>"
        )
    return f'<p class="{escape(kind)}">{linked}</p>'
