"""The name and number index that the lookup box and the search page read (static/lookup.js).

`search/names.json`: every keyword, section and chapter title (newest and former) and every
glossary term, each with the page it leads to, its numbers and years. `search/numbers/C.json`
(one file per first character of a number, so a lookup fetches a few kilobytes, not all
5,500 numbers): each number with every clause that carried it, today's first. Matching is on
`vocabulary.names.name_key` (the CLI's lookup falls back to it too), which static/lookup.js
computes the same way for what the reader types.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from renderer.context import Site
from renderer.pages_keywords import Keyword, keyword_url
from vocabulary.names import glossary_terms, name_key
from vocabulary.numbers import is_rule_number

TERM_WORDS = 8  # a glossary "term" longer than this is a definition run into its term
LABEL_WORDS = 10  # words of a clause's text shown as its title when it has none


def is_term(name: str) -> bool:
    """False for a glossary 'term' that a release's layout ran into its definition.

    Only its length tells: the parser splits a term run into its first meaning ("Ability1.
    Text on an object...", `archive.parse`), and a sentence break is no sign of one (the
    term "Team vs. Team Variant" has one)."""
    return len(name.split()) <= TERM_WORDS


def label(text: str) -> str:
    """A clause's first words, for a list that shows no full texts."""
    words = text.split(None, LABEL_WORDS)  # the first words, and the rest (if any) unsplit
    return " ".join(words[:LABEL_WORDS]) + ("…" if len(words) > LABEL_WORDS else "")


def span_years(first: str, last: str | None) -> str:
    return f"{first[:4]}–{last[:4] if last else 'today'}"


def write_names(site: Site, found: list[Keyword]) -> None:
    """search/names.json: keyword pages (their every title) and glossary entries."""
    entries: list[dict[str, Any]] = []
    newest = site.dates[-1]
    for k in found:
        for i, title in enumerate((k.title, *k.former)):
            entries.append(
                {
                    "name": title,
                    "key": name_key(title),
                    "kind": k.kind,
                    "url": keyword_url(k),
                    "history": site.model.history_url.get(k.lineage),
                    "title": k.title,
                    "former": i > 0,
                    "numbers": " → ".join(k.numbers),
                    "years": [k.first[:4], None if k.current else k.last[:4]],
                    "expect": keyword_url(k),
                }
            )
    for lineage, members in site.model.members.items():
        row = site.model.lineages[lineage]
        if is_rule_number(row["first_number"] or ""):
            continue
        terms = [t for t in dict.fromkeys(m[1] for m in reversed(members)) if t and is_term(t)]
        if not terms:
            continue
        current = members[-1][0] == newest
        seen: set[str] = set()
        # an entry's heading, then each term it names ("Control, Controller": "Controller"),
        # as `archive.lookup.names_in` reads them
        named = [
            (i, name) for i, term in enumerate(terms) for name in (term, *glossary_terms(term))
        ]
        for i, term in named:
            if name_key(term) in seen:
                continue
            seen.add(name_key(term))
            entries.append(
                {
                    "name": term,
                    "key": name_key(term),
                    "kind": "glossary",
                    "url": site.model.history_url[lineage],
                    "title": terms[0],
                    "former": i > 0,
                    "numbers": "",
                    "years": [members[0][0][:4], None if current else members[-1][0][:4]],
                    "expect": f"glossary: {terms[0]}",
                }
            )
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    site.writer.file("search/names.json", data.encode())


def _ended(item: dict[str, Any]) -> str | None:
    """The year a run ended, None when it is still in force."""
    return None if item["current"] else str(item["last"] or item["first"])[:4]


def write_numbers(site: Site, runs: dict[str, list[dict[str, Any]]]) -> None:
    """search/numbers/C.json: number -> each clause that carried it (today's first, then
    the most recently retired): its history, its title or first words, its years."""
    shards: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(dict)
    for number, items in runs.items():
        clauses: dict[str, dict[str, Any]] = {}
        began: dict[str, str] = {}
        for item in items:
            key = item["history"] or item["url"]
            began.setdefault(key, item["first"])
            clauses[key] = {
                "url": item["history"] or f"/rule/{number}/",
                "title": label(item["text"]),
                "chain": (item["history_title"] or number).split(" (from")[0],
                "years": [began[key][:4], _ended(item)],
                "current": item["current"],
                "expect": f"{number} ({'today' if item['current'] else 'retired'})",
            }
        ordered = sorted(
            clauses.values(), key=lambda c: (not c["current"], -int(c["years"][1] or 0))
        )
        shards[number[0]][number] = ordered
    for first, numbers in sorted(shards.items()):
        data = json.dumps(numbers, ensure_ascii=False, separators=(",", ":"))
        site.writer.file(f"search/numbers/{first}.json", data.encode())
