"""The full text of a release as HTML, one element per part with an anchor per clause.

Written in Python rather than as a template loop: a release has up to 5,000 parts and 124
releases are rendered, so this is the hottest loop of the build (about 4x faster this way).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from html import escape
from typing import Any

from markupsafe import Markup
from sqlite_utils import Database

from renderer.crossrefs import link_references
from renderer.environment import clause_anchor
from renderer.markup import emphasis_escaped
from renderer.toc import GLOSSARY_TITLE

ANCHORED_KINDS = ("chapter", "section", "rule", "subrule")  # the parts with id = number
TEXTS_KEPT = 100_000  # escaped texts kept: the releases rendered by one worker share most


@lru_cache(maxsize=TEXTS_KEPT, typed=True)
def _shown(text: str) -> str:
    """A text escaped, its `_italic_` markup as emphasis (releases repeat their texts)."""
    return emphasis_escaped(escape(text))


def release_history_urls(
    db: Database, release: str, part_lineage: Mapping[int, int], urls: Mapping[int, str]
) -> dict[int, str]:
    """Part id -> history URL of each clause of `release` that has one (`part_lineage`: each
    part's lineage; `urls`: each lineage's history URL)."""
    rows = db.execute("SELECT part_id FROM lineage_members WHERE release = ?", [release])
    found = {}
    for (part_id,) in rows:
        lineage = part_lineage.get(part_id)
        if lineage is not None and lineage in urls:
            found[part_id] = urls[lineage]
    return found


def fulltext_html(
    parts: list[dict[str, Any]],
    marks: dict[str, str],
    diff_url: str | None,
    history: Mapping[int, str] | None = None,
) -> Markup:
    """Chapters as h3, sections as h4, rules and subrules as p with id = number.

    A clause's number links to its history (`history`: part id -> URL; /rule/NUMBER/ for
    a part it lacks); each cross-reference in the text links to the clause it names here."""
    history = history or {}
    anchors = {p["number"] for p in parts if p["kind"] in ANCHORED_KINDS and p["number"]}
    out = []
    for p in parts:
        kind, number = p["kind"], p["number"]
        text = link_references(_shown(p["text"] or ""), anchors)
        if kind == "chapter":
            out.append(f'<h3 class="chapter" id="{escape(number or "")}">{text}</h3>')
        elif kind == "section" and number:
            n = escape(number)
            title = emphasis_escaped(escape(p["title"])) if p["title"] else text
            url = escape(history.get(p["id"]) or f"/rule/{number}/")
            out.append(
                f'<h4 class="section" id="{n}" data-n="{n}">'
                f'<a class="n" href="{url}">{n}.</a> {title}</h4>'
            )
        elif kind in ("rule", "subrule") and number:
            n = escape(number)
            mark = ""
            if number in marks and diff_url:
                mark = f' <a class="mark" href="{diff_url}#c-{n}">{escape(marks[number])}</a>'
            url = escape(history.get(p["id"]) or f"/rule/{number}/")
            out.append(
                f'<p class="{kind}" id="{n}" data-n="{n}">'
                f'<a class="n" href="{url}">{n}</a> {text}{mark}</p>'
            )
        elif kind == "example":
            out.append(f'<p class="example" data-n="{escape(p["parent"] or "")}:ex">{text}</p>')
        elif kind == "glossary-heading":
            out.append(f'<h3 id="glossary">{text or GLOSSARY_TITLE}</h3>')
        elif kind == "glossary":
            term = p["title"] or ""
            body = p["text"] or ""
            if term and body.startswith(term):
                body = body[len(term) :]
            anchor = clause_anchor(term or "x")
            out.append(
                f'<p class="glossary" id="{anchor}" data-n="g:{escape(term)}">'
                f"<b>{emphasis_escaped(escape(term))}</b>"
                f" {link_references(_shown(body), anchors)}</p>"
            )
        else:
            out.append(f'<p class="{escape(kind)}">{text}</p>')
    return Markup("\n".join(out))
