"""/rule/: every number the rules have used, by chapter and section, each with its newest
title or first words and the years it was in use (the section list links to each section)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from renderer.context import Site
from renderer.names import label, span_years
from vocabulary.numbers import sort_key


def _section_of(number: str) -> str:
    """'708.2a' -> '708'; a chapter ('7') is its own group."""
    return number.split(".")[0]


def write_rule_index(site: Site, runs: dict[str, list[dict[str, Any]]]) -> None:
    """The index page of /rule/ from build_rules' runs (number -> its runs, oldest first)."""
    numbers = sorted(runs, key=sort_key)
    sections: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for number in numbers:
        items = runs[number]
        newest = items[-1]
        sections[_section_of(number)].append(
            {
                "number": number,
                "label": label(newest["text"]),
                "years": span_years(
                    items[0]["first"],
                    None if newest["current"] else newest["last"] or newest["first"],
                ),
                "current": newest["current"],
                "depth": number.count(".") + (1 if number[-1].isalpha() else 0),
            }
        )
    chapters: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for section in sorted(sections, key=sort_key):
        own = next((n for n in sections[section] if n["number"] == section), None)
        chapters[section[0]].append(
            {
                "number": section,
                "title": own["label"] if own else "",
                "years": own["years"] if own else "",
                "current": own["current"] if own else False,
                "numbers": [n for n in sections[section] if n["number"] != section],
            }
        )
    site.page(
        "rule/index.html",
        "rule_index.html",
        title="Every rule number",
        count=len(numbers),
        first=site.dates[0],
        chapters=sorted(chapters.items()),
    )
