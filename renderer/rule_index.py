"""/rule/ and /numbers/N/: every number the rules have used, by chapter and section, each
with its newest title or first words and the years it was in use.

/rule/ lists the chapters and their sections; each chapter's numbers are on a page of their
own (/numbers/7/), so no page carries all of them (the whole list is near 900 KB, too much
for a phone). Not /rule/chapter/7/: a static host rewrites /rule/A/B/ to a number's page as
of a day (renderer.host_rules)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from renderer.context import Site
from renderer.names import label, span_years
from vocabulary.numbers import sort_key

CHAPTER_PAGES = "numbers"  # /numbers/7/: the numbers of chapter 7


def chapter_url(chapter: str) -> str:
    return f"/{CHAPTER_PAGES}/{chapter}/"


def _section_of(number: str) -> str:
    """'708.2a' -> '708'; a chapter ('7') is its own group."""
    return number.split(".")[0]


def _entry(number: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    newest = items[-1]
    return {
        "number": number,
        "label": label(newest["text"]),
        "years": span_years(
            items[0]["first"],
            None if newest["current"] else newest["last"] or newest["first"],
        ),
        "current": newest["current"],
        "depth": number.count(".") + (1 if number[-1].isalpha() else 0),
    }


def write_rule_index(site: Site, runs: dict[str, list[dict[str, Any]]]) -> None:
    """/rule/ and one page per chapter from build_rules' runs (number -> its runs, oldest
    first)."""
    numbers = sorted(runs, key=sort_key)
    sections: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for number in numbers:
        sections[_section_of(number)].append(_entry(number, runs[number]))
    chapters: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for section in sorted(sections, key=sort_key):
        own = next((n for n in sections[section] if n["number"] == section), None)
        chapters[section[0]].append(
            {
                "number": section,
                "title": own["label"] if own else "",
                "years": own["years"] if own else "",
                "current": own["current"] if own else False,
                # a section number no release printed (only a misnumbered rule under it,
                # 2006-10-01's 432.2b) has no page of its own to link to
                "has_page": own is not None,
                "numbers": [n for n in sections[section] if n["number"] != section],
            }
        )
    listed: list[dict[str, Any]] = [
        {
            "chapter": chapter,
            "url": chapter_url(chapter),
            "count": sum(1 + len(s["numbers"]) for s in chapters[chapter]),
            "sections": chapters[chapter],
        }
        for chapter in sorted(chapters)
    ]
    site.page(
        "rule/index.html",
        "rule_index.html",
        title="Every rule number",
        count=len(numbers),
        first=site.dates[0],
        chapters=[{**c, "sections": _without_numbers(c["sections"])} for c in listed],
    )
    # A neighbour is a link (its chapter and address): the whole of it in the page's key
    # would re-render a chapter's page whenever the chapter beside it changed.
    links = [{"chapter": c["chapter"], "url": c["url"]} for c in listed]
    for position, chapter in enumerate(listed):
        site.page(
            f"{CHAPTER_PAGES}/{chapter['chapter']}/index.html",
            "rule_chapter.html",
            title=f"Rule numbers {chapter['chapter']}00–{chapter['chapter']}99",
            chapter=chapter,
            previous=links[position - 1] if position else None,
            next=links[position + 1] if position + 1 < len(links) else None,
        )


def _without_numbers(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sections as /rule/ lists them: no numbers under them (they are on the chapter's
    page), so the page key does not change with every subrule."""
    return [{k: v for k, v in s.items() if k != "numbers"} for s in sections]
