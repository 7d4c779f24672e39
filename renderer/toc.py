"""A release page's table of contents: its chapters and their sections, each with the anchor
the full text gives it, and the glossary. Plain links, so it works without JavaScript."""

from __future__ import annotations

from typing import Any

from vocabulary.numbers import is_rule_number

# The parser keeps the glossary's heading line as a part with no text: without a title the
# heading and its contents entry would be empty (a heading and a link nobody can read).
GLOSSARY_TITLE = "Glossary"


def contents(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chapters in order, each with its sections; a section before any chapter (none in the
    archive) gets a chapter entry of its own. The glossary comes last when there is one.

    >>> parts = [{"kind": "chapter", "number": "1", "title": "The Game", "text": "The Game"},
    ...          {"kind": "section", "number": "100", "title": "General", "text": "General"},
    ...          {"kind": "rule", "number": "100.1", "title": None, "text": "..."},
    ...          {"kind": "glossary-heading", "number": None, "title": None, "text": None}]
    >>> [(c["number"], c["title"], [s["number"] for s in c["sections"]]) for c in contents(parts)]
    [('1', 'The Game', ['100']), ('', 'Glossary', [])]
    """
    chapters: list[dict[str, Any]] = []
    for part in parts:
        number = part["number"] or ""
        title = part["title"] or part["text"] or ""
        if part["kind"] == "chapter" and is_rule_number(number):
            chapters.append({"number": number, "anchor": number, "title": title, "sections": []})
        elif part["kind"] == "section" and is_rule_number(number):
            if not chapters:
                chapters.append({"number": "", "anchor": "", "title": "", "sections": []})
            chapters[-1]["sections"].append({"number": number, "anchor": number, "title": title})
        elif part["kind"] == "glossary-heading":
            chapters.append(
                {
                    "number": "",
                    "anchor": "glossary",
                    "title": part["text"] or GLOSSARY_TITLE,
                    "sections": [],
                }
            )
    return chapters
