"""A page per keyword, section and chapter title through time: /keyword/SLUG/, and /keyword/.

`/keyword/morph/` follows the heading "Morph" through its numbers (502.26 → 702.34 → … →
702.37): one era per number, each with the heading and the clauses under it as the releases
of that era printed them. The headings and their lineages are the model's
(lineage.headings); the slug is made from the newest title, and a title a heading had
before ("Face-Down Creatures") is listed on the page and in the name index (renderer.names).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from lineage.headings import HeadingMember
from renderer.anchors import distinct
from renderer.citations import release_parenthesis
from renderer.context import Site
from renderer.environment import clause_anchor
from renderer.writer import context_key
from vocabulary.kinds import REMOVED
from vocabulary.names import fold

SHOWN_TEXTS = 400  # clause texts a page prints in full; past it, earlier wordings are links
KIND_NAMES = {"chapter": "chapter", "section": "section", "rule": "keyword or title"}


@dataclass(frozen=True)
class Keyword:
    """One titled lineage as the site names it."""

    lineage: int
    slug: str
    title: str
    former: tuple[str, ...]  # earlier titles, newest first (folded apart from the title)
    kind: str
    numbers: tuple[str, ...]
    first: str
    last: str
    current: bool


def slugify(title: str) -> str:
    """'Face-Down Spells and Permanents' -> 'face-down-spells-and-permanents'.

    >>> slugify("Face-Down Spells and Permanents"), slugify("“Morph”")
    ('face-down-spells-and-permanents', 'morph')
    """
    return re.sub(r"[^a-z0-9]+", "-", fold(title)).strip("-") or "untitled"


def keywords(site: Site) -> list[Keyword]:
    """Every titled lineage with its slug; a slug two titles share gets the newest number."""
    newest = site.dates[-1]
    found: list[Keyword] = []
    for lineage, members in sorted(site.model.headings.items()):
        titles = list(dict.fromkeys(m.title for m in reversed(members)))
        former = tuple(t for t in titles[1:] if fold(t) != fold(titles[0]))
        numbers = tuple(number for number, _ in groupby(m.number for m in members))
        last = members[-1]
        found.append(
            Keyword(
                lineage,
                slugify(titles[0]),
                titles[0],
                tuple(dict.fromkeys(former)),
                last.kind,
                numbers,
                members[0].release,
                last.release,
                last.release == newest,
            )
        )
    shared = {slug for slug, n in _counts(k.slug for k in found).items() if n > 1}
    unique: list[Keyword] = []
    taken: set[str] = set()
    for k in found:
        slug = f"{k.slug}-{k.numbers[-1].replace('.', '-')}" if k.slug in shared else k.slug
        slug = slug if slug not in taken else f"{slug}-{k.lineage}"
        taken.add(slug)
        unique.append(Keyword(**{**k.__dict__, "slug": slug}))
    return unique


def _counts(slugs: Any) -> dict[str, int]:
    counted: dict[str, int] = {}
    for slug in slugs:
        counted[slug] = counted.get(slug, 0) + 1
    return counted


def keyword_url(k: Keyword) -> str:
    return f"/keyword/{k.slug}/"


def build_keywords(site: Site) -> list[Keyword]:
    """Queue every keyword page and the index; return the keywords (for the name index)."""
    found = keywords(site)
    # each release as a date's parenthesis names it: its set, and a derived copy as such (an
    # era may begin with the copy's words: Storm's 502.30, 2003-05-26)
    names = {
        row["date"]: release_parenthesis(row.get("name"), row["date"] in site.derived)
        for row in site.releases
    }
    # a title several headings have (nine sections are "General"): each page's title and
    # heading add its number, so that no two pages are named alike
    titles = Counter(k.title for k in found)
    urls = {k.lineage: keyword_url(k) for k in found}
    for k in found:
        members = site.model.headings[k.lineage]
        eras = _eras(members)
        label = f"{k.title} ({k.numbers[-1]})" if titles[k.title] > 1 else k.title
        shown = _shown(k, eras, site.dates[-1])
        after = _afterwards(site, k, urls)
        key = context_key([*shown, site.model.history_url.get(k.lineage), label, after])

        def context(
            k: Keyword = k,
            eras: list[dict[str, Any]] = eras,
            label: str = label,
            after: dict[str, Any] | None = after,
        ) -> dict[str, Any]:
            return {**_context(site, k, eras, names, label), "after": after}

        site.lazy_page(f"keyword/{k.slug}/index.html", "keyword.html", context, key)
    site.page(
        "keyword/index.html",
        "keyword_index.html",
        title="Keywords, sections and chapters by name",
        groups=_index_groups(found),
    )
    return found


def _afterwards(site: Site, k: Keyword, urls: dict[int, str]) -> dict[str, Any] | None:
    """What became of a heading no longer printed, and in which release: merged into a
    clause still in the rules (its number today, its keyword page or else its history: as
    the history page and `trace` say), its clause still in the rules without its title (a
    heading that became a rule: 418.3 is 611.2 today), or removed. None for a heading in
    force, or one whose clause went where no page follows it today."""
    if k.current:
        return None
    model = site.model
    merged = model.merged_into_today(k.lineage)
    if merged is not None:
        titled = model.headings.get(merged["lineage"])
        return {
            **merged,
            "kind": "merged",
            "title": titled[-1].title if titled else None,
            "url": urls.get(merged["lineage"]) or merged["url"],
        }
    lineage = model.lineages[k.lineage]
    if lineage["last_release"] == site.dates[-1]:
        return {
            "kind": "untitled",
            "release": site.dates[model.date_index[k.last] + 1],
            "number": lineage["last_number"],
            "url": model.history_url.get(k.lineage, ""),
        }
    removed = [e["release"] for e in model.events.get(k.lineage, []) if e["kind"] == REMOVED]
    return {"kind": "removed", "release": removed[-1]} if removed else None


def _shown(
    k: Keyword, eras: list[dict[str, Any]], newest: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What a keyword page shows of its keyword and eras, for its key: a heading in force says
    "today" rather than naming the newest release, and no page shows how many releases printed
    a version; so a new release re-renders only the headings it changes."""

    def last(day: str) -> str:
        return "today" if day == newest else day

    shown_eras = [
        {
            **era,
            "last": last(era["last"]),
            "versions": [{**v, "last": last(v["last"]), "count": None} for v in era["versions"]],
        }
        for era in eras
    ]
    return {**k.__dict__, "last": last(k.last)}, shown_eras


def _eras(members: tuple[HeadingMember, ...]) -> list[dict[str, Any]]:
    """One era per number the heading had (oldest first); within it, each printing of
    heading + clauses."""
    eras = []
    for number, group in groupby(members, key=lambda m: m.number):
        items = list(group)
        versions = []
        for _block, printed in groupby(items, key=lambda m: (m.title, m.version, m.children)):
            same = list(printed)
            versions.append(
                {
                    "first": same[0].release,
                    "last": same[-1].release,
                    "count": len(same),
                    "title": same[0].title,
                    "version": same[0].version,
                    "children": list(same[0].children),
                }
            )
        eras.append(
            {
                "number": number,
                "kind": items[-1].kind,
                "first": items[0].release,
                "last": items[-1].release,
                "versions": versions,
            }
        )
    # its id on the page: a keyword may have one number in two eras (scry's 701.18), and the
    # older era keeps the plain id (renderer.anchors)
    for era, anchor in zip(eras, distinct(f"era-{era['number']}" for era in eras), strict=True):
        era["anchor"] = anchor
    return eras


def _context(
    site: Site, k: Keyword, eras: list[dict[str, Any]], names: dict[str, str], label: str
) -> dict[str, Any]:
    """Texts and links for a keyword page (only when its key changed); `label` names it."""
    newest = site.dates[-1]
    total = sum(len(v["children"]) for era in eras for v in era["versions"])
    wording = site.model.texts
    again = site.model.printed_again
    shown_eras = []
    for era in eras:
        versions = []
        for i, v in enumerate(reversed(era["versions"])):
            full = i == 0 or total <= SHOWN_TEXTS
            versions.append(
                {
                    **v,
                    "current": v["last"] == newest,
                    # printed only by a re-extracted copy (2003-05-26): said so, as elsewhere
                    "derived": v["first"] == v["last"] and v["first"] in site.derived,
                    "first_name": names.get(v["first"], ""),
                    "last_name": names.get(v["last"], ""),
                    # its id, and its rules', on the page of the release that printed them
                    # (702.175 printed twice in 2024-09-17: Impending's are the second)
                    "anchor": again.get((v["first"], era["number"], v["version"]))
                    or clause_anchor(era["number"]),
                    "children": [
                        {
                            "number": n,
                            "text": wording.get(h, ""),
                            "anchor": again.get((v["first"], n, h)) or clause_anchor(n),
                        }
                        for n, h in v["children"]
                    ]
                    if full
                    else None,
                }
            )
        shown_eras.append(
            {
                **era,
                "current": era["last"] == newest,
                "first_name": names.get(era["first"], ""),
                "last_name": names.get(era["last"], ""),
                "versions": versions,
            }
        )
    return {
        "title": f"{label} through the years",
        "label": label,
        "k": k,
        "history": site.model.history_url.get(k.lineage),
        "eras": list(reversed(shown_eras)),
        "kind_name": KIND_NAMES.get(k.kind, k.kind),
    }


def _index_groups(found: list[Keyword]) -> list[dict[str, Any]]:
    """The index: chapters, sections, then keyword titles; each in force first, by name."""
    groups = []
    for kind, heading in (
        ("chapter", "Chapters"),
        ("section", "Sections"),
        ("rule", "Keywords and other titled rules"),
    ):
        items = sorted(
            (k for k in found if k.kind == kind),
            key=lambda k: (not k.current, fold(k.title), k.first),
        )
        groups.append(
            {
                "id": f"kind-{kind}",
                "heading": heading,
                "items": [
                    {
                        **k.__dict__,
                        "url": keyword_url(k),
                        "first_year": k.first[:4],
                        "last_year": None if k.current else k.last[:4],
                    }
                    for k in items
                ],
            }
        )
    return groups
