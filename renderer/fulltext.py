"""The full text of a release as HTML, one element per part with an anchor per clause.

Written in Python rather than as a template loop: a release has up to 5,000 parts and 124
releases are rendered, so this is the hottest loop of the build (about 4x faster this way).
"""

from __future__ import annotations

from html import escape
from typing import Any

from markupsafe import Markup

from renderer.environment import clause_anchor
from renderer.markup import emphasis_escaped


def fulltext_html(
    parts: list[dict[str, Any]], marks: dict[str, str], diff_url: str | None
) -> Markup:
    """Chapters as h3, sections as h4, rules and subrules as p with id = number."""
    out = []
    for p in parts:
        kind, number = p["kind"], p["number"]
        text = emphasis_escaped(escape(p["text"] or ""))
        if kind == "chapter":
            out.append(f'<h3 class="chapter" id="{escape(number or "")}">{text}</h3>')
        elif kind == "section" and number:
            n = escape(number)
            title = emphasis_escaped(escape(p["title"])) if p["title"] else text
            out.append(
                f'<h4 class="section" id="{n}" data-n="{n}">'
                f'<a class="n" href="/rule/{n}/">{n}.</a> {title}</h4>'
            )
        elif kind in ("rule", "subrule") and number:
            n = escape(number)
            mark = ""
            if number in marks and diff_url:
                mark = f' <a class="mark" href="{diff_url}#c-{n}">{escape(marks[number])}</a>'
            out.append(
                f'<p class="{kind}" id="{n}" data-n="{n}">'
                f'<a class="n" href="/rule/{n}/">{n}</a> {text}{mark}</p>'
            )
        elif kind == "example":
            out.append(f'<p class="example" data-n="{escape(p["parent"] or "")}:ex">{text}</p>')
        elif kind == "glossary-heading":
            out.append(f'<h3 id="glossary">{text}</h3>')
        elif kind == "glossary":
            term = p["title"] or ""
            body = p["text"] or ""
            if term and body.startswith(term):
                body = body[len(term) :]
            anchor = clause_anchor(term or "x")
            out.append(
                f'<p class="glossary" id="{anchor}" data-n="g:{escape(term)}">'
                f"<b>{emphasis_escaped(escape(term))}</b> {emphasis_escaped(escape(body))}</p>"
            )
        else:
            out.append(f'<p class="{escape(kind)}">{text}</p>')
    return Markup("\n".join(out))
