"""Release pages: the list, one page per release (full text), diffs and renumbering tables."""

from __future__ import annotations

from typing import Any

from renderer.changes import Change, changes, counts
from renderer.context import Site
from renderer.fulltext import fulltext_html
from renderer.queries import part_texts, release_parts
from renderer.writer import context_key
from vocabulary.kinds import RENUMBERING_KINDS


def build_releases(site: Site) -> None:
    rows = site.releases
    by_release = {}
    for i, row in enumerate(rows):
        previous = rows[i - 1]["date"] if i else None
        by_release[row["date"]] = changes(site.db, previous, row["date"])
    site.changes = by_release
    listing = [
        {
            **row,
            "previous": rows[i - 1]["date"] if i else None,
            "counts": counts(by_release[row["date"]]),
        }
        for i, row in enumerate(rows)
    ]
    site.page("releases/index.html", "releases.html", title="Releases", rows=listing)
    for i, row in enumerate(rows):
        previous = rows[i - 1] if i else None
        following = rows[i + 1] if i + 1 < len(rows) else None
        _release_page(site, row, previous, following, by_release[row["date"]])
        if previous:
            _diff_page(site, previous, row, by_release[row["date"]])
    _renumbering_pages(site, by_release)


def _release_page(
    site: Site, row: dict[str, Any], previous: Any, following: Any, found: list[Change]
) -> None:
    marks = {c.new_numbers[0]: c.kind for c in found if c.new_numbers}
    key_data = {
        "release": row,
        "previous": previous and previous["date"],
        "next": following and following["date"],
        "marks": marks,
    }

    def context() -> dict[str, Any]:
        return {
            "title": f"Comprehensive Rules, {row['date']}",
            "release": row,
            "previous": previous and previous["date"],
            "next": following and following["date"],
            "fulltext": fulltext_html(
                release_parts(site.db, row["date"]),
                marks,
                f"/diff/{previous['date']}/{row['date']}/" if previous else None,
            ),
            "counts": counts(found),
            "changed": [c for c in found if c.kind != "formatting"],
            "renumbered": any(c.renumbers for c in found),
            "marks": marks,
        }

    site.lazy_page(
        f"releases/{row['date']}/index.html", "release.html", context, context_key(key_data)
    )


def _diff_page(site: Site, old: dict[str, Any], new: dict[str, Any], found: list[Change]) -> None:
    key = context_key([old["sha256"], new["sha256"], [c.__dict__ for c in found]])

    def context() -> dict[str, Any]:
        wanted = {p for c in found for p in (c.old_part, c.new_part) if p}
        text = part_texts(site.db, wanted)
        groups: dict[str, list[dict[str, Any]]] = {}
        for c in found:
            before, after = text.get(c.old_part or 0), text.get(c.new_part or 0)
            item = {
                "anchor": c.anchor,
                "old_numbers": c.old_numbers,
                "new_numbers": c.new_numbers,
                "ops": site.diffs.diff(before, after)
                if before and after and before != after
                else None,
                "text": after or before,
                "history": site.history_urls.get(c.new_part or c.old_part or 0),
            }
            groups.setdefault(c.kind, []).append(item)
        order: list[str] = [
            k
            for k in (
                "reworded",
                "renumbered+reworded",
                "added",
                "removed",
                "split",
                "merged",
                "reference",
                "renumbered",
                "formatting",
            )
            if k in groups
        ]
        order += [k for k in groups if k not in order]
        return {
            "title": f"Diff {old['date']} → {new['date']}",
            "old": old["date"],
            "new": new["date"],
            "counts": counts(found),
            "groups": [(k, groups[k]) for k in order],
        }

    site.lazy_page(f"diff/{old['date']}/{new['date']}/index.html", "diff.html", context, key)


def _renumbering_pages(site: Site, by_release: dict[str, list[Change]]) -> None:
    dates = [row["date"] for row in site.releases]
    index = []
    for i, day in enumerate(dates):
        rows = [c for c in by_release[day] if c.renumbers and c.kind in RENUMBERING_KINDS]
        if not rows or not i:
            continue
        index.append({"date": day, "count": len(rows)})
        site.page(
            f"renumbering/{day}/index.html",
            "renumbering.html",
            title=f"Renumbering {day}",
            old=dates[i - 1],
            new=day,
            rows=rows,
        )
    site.renumbered = {row["date"] for row in index}
    site.page("renumbering/index.html", "renumbering_index.html", title="Renumbering", rows=index)
