"""Release pages: the list, one page per release (full text), diffs and renumbering tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from archive.capture_diffs import release_captures
from archive.gaps import stored_gaps
from archive.lost_marks import lost_characters, lost_note
from lineage.compare import compared_with
from renderer.changes import (
    UNCONFIRMED,
    Change,
    charted_counts,
    counts,
    unconfirmed_formatting,
)
from renderer.context import Site
from renderer.environment import clause_anchor
from renderer.explained import explained, unmatched
from renderer.fulltext import fulltext_html, history_urls_by_release
from renderer.pictures.legend import legend
from renderer.pictures.slopes import section_moves, slopes_svg
from renderer.pictures.timeline import ReleaseBar, timeline_svg
from renderer.queries import clause_words, release_parts
from renderer.toc import contents
from renderer.writer import context_key
from vocabulary.kinds import (
    ADDED,
    EXAMPLE,
    FORMATTING,
    MERGED,
    REFERENCE,
    REMOVED,
    RENUMBERED,
    RENUMBERED_EXAMPLE,
    RENUMBERED_REWORDED,
    REWORDED,
    SPLIT,
)

# The groups of a diff page, in order: changes of words first, the quietest last.
DIFF_GROUPS = (
    REWORDED,
    RENUMBERED_REWORDED,
    ADDED,
    REMOVED,
    SPLIT,
    MERGED,
    EXAMPLE,
    RENUMBERED_EXAMPLE,
    REFERENCE,
    RENUMBERED,
    FORMATTING,
)

MOST_RENUMBERED = 3  # the releases the renumbering index names in its opening sentence


def build_releases(site: Site) -> None:
    rows = site.releases
    base = compared_with(site.dates, set(site.derived))
    by_release = {row["date"]: site.changes.get(row["date"], []) for row in rows}
    gaps = stored_gaps(site.db)
    listing = [
        {
            **row,
            "previous": base[row["date"]],
            # counted past the release listed before it (a derived copy): the row says so
            "skips": base[row["date"]] != (site.dates[i - 1] if i else None),
            "derived": row["date"] in site.derived,
            "counts": counts(by_release[row["date"]]),
            "unconfirmed_formatting": unconfirmed_formatting(by_release[row["date"]]),
            "charted": charted_counts(by_release[row["date"]]),
        }
        for i, row in enumerate(rows)
    ]
    site.page(
        "releases/index.html",
        "releases.html",
        title="Releases",
        rows=listing,
        entries=_with_gaps(listing, gaps),
        gaps=gaps,
        archived=[row["date"] for row in rows],  # gaps link only to releases in the store
        timeline=timeline_svg(
            [
                ReleaseBar(
                    row["date"],
                    row.get("name"),
                    row["charted"],
                    sum(1 for c in by_release[row["date"]] if c.kind == FORMATTING),
                )
                for row in listing
            ]
        ),
        legend=legend([kind for row in listing for kind in row["charted"]]),
    )
    by_date = {row["date"]: row for row in rows}
    wording = site.model.texts
    history = history_urls_by_release(site.model.members, site.model.history_url)
    for i, row in enumerate(rows):
        previous = by_date.get(base[row["date"]] or "")
        following = rows[i + 1] if i + 1 < len(rows) else None
        spanned = _spanned(gaps, previous, row)
        page_row = {
            **row,
            "derived": row["date"] in site.derived,
            "captures": release_captures(site.db, row["date"]),
            "before": rows[i - 1]["date"] if i else None,  # the pager: the release before
        }
        _release_page(
            site,
            page_row,
            previous,
            following,
            by_release[row["date"]],
            spanned,
            wording,
            history.get(row["date"], {}),
        )
        if previous:
            _diff_page(site, previous, page_row, by_release[row["date"]], spanned)
    _renumbering_pages(site, by_release)


def _with_gaps(listing: list[dict[str, Any]], gaps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Releases and gaps in date order, each gap right after the release it follows."""
    entries = [{"kind": "release", "sort": (row["date"], 0), **row} for row in listing]
    entries += [{"kind": "gap", "sort": (gap["after"], 1), **gap} for gap in gaps]
    return sorted(entries, key=lambda entry: entry["sort"])


def _spanned(gaps: list[dict[str, Any]], previous: Any, row: dict[str, Any]) -> list[dict]:
    """The gaps between a release and the one before it."""
    if not previous:
        return []
    return [g for g in gaps if previous["date"] <= g["after"] and g["before"] <= row["date"]]


def _release_page(
    site: Site,
    row: dict[str, Any],
    previous: Any,
    following: Any,
    found: list[Change],
    gaps: list[dict[str, Any]],
    wording: Mapping[str, str],
    history: Mapping[int, str],
) -> None:
    marks = _marks(site, found)
    key_data = {
        "release": row,
        "previous": previous and previous["date"],
        "next": following and following["date"],
        "marks": sorted(marks.items()),
        "gaps": gaps,
        "weak": [c.anchor for c in found if c.weak],
        "history": sorted(history.items()),  # where its clause numbers link
    }

    def context() -> dict[str, Any]:
        parts = release_parts(site.db, row["date"], wording)
        return {
            "title": f"Comprehensive Rules, {row['date']}",
            "release": row,
            "previous": previous and previous["date"],
            "next": following and following["date"],
            "toc": contents(parts),
            "fulltext": fulltext_html(
                parts,
                marks,
                f"/diff/{previous['date']}/{row['date']}/" if previous else None,
                history,
                site.model.printing_anchors,
            ),
            "counts": counts(found),
            # characters its copy lost, said once at the top, as `show` says it of a clause
            "lost": _lost_note(parts),
            "unconfirmed_formatting": unconfirmed_formatting(found),
            "changed": [c for c in found if c.kind != FORMATTING],
            "renumbered": any(c.renumbers for c in found) and not row["derived"],
            "gaps": gaps,
        }

    site.lazy_page(
        f"releases/{row['date']}/index.html", "release.html", context, context_key(key_data)
    )


def _lost_note(parts: list[dict[str, Any]]) -> str | None:
    """What the page says of the characters its copy lost (archive.query.lost_note), or
    None when it lost none."""
    lost = sum(lost_characters(part["text"]) for part in parts if part["text"])
    return lost_note(lost, "this text") if lost else None


def _marks(site: Site, found: list[Change]) -> dict[int, tuple[str, str]]:
    """New part -> the kind of its change and that change's id on the diff page; by part,
    not number, since a release may print a number twice (2024-09-17's 702.175: Offspring
    unchanged, Impending added). Where several changes end in one clause (two merged into
    402), the change of the lineage the clause continues, whose kind is the clause's own."""
    marks: dict[int, tuple[str, str]] = {}
    for change in found:
        part = change.new_part
        if part is not None and change.new_numbers:
            own = site.model.part_lineage.get(part) == change.lineage
            if own or part not in marks:
                marks[part] = (change.kind, change.anchor)
    return marks


def _diff_page(
    site: Site,
    old: dict[str, Any],
    new: dict[str, Any],
    found: list[Change],
    gaps: list[dict[str, Any]],
) -> None:
    notes = [explained(site, c.new_part or c.old_part, new["date"]) for c in found]
    findings = unmatched(site, new["date"])
    key = context_key(
        [
            old["sha256"],
            new["sha256"],
            new["unchanged"],
            [c.__dict__ for c in found],
            gaps,
            notes,
            findings,
        ]
    )

    def context() -> dict[str, Any]:
        wanted = {p for c in found for p in (c.old_part, c.new_part) if p}
        # each clause with its examples, as the CLI's `diff` and the in-browser compare diff
        # them: an example's change is its rule's, shown where it happened
        words = clause_words(site.db, wanted)
        groups: dict[str, list[dict[str, Any]]] = {}
        for c, note in zip(found, notes, strict=True):
            before, after = words.get(c.old_part or 0), words.get(c.new_part or 0)
            item = {
                "anchor": c.anchor,
                "old_numbers": c.old_numbers,
                "new_numbers": c.new_numbers,
                # where each end stands in its release's text: a later printing of a number
                # has an id of its own (2006-05-01's second 501.2 is 501.2-2)
                "old_anchor": _end_anchor(site, c.old_part, c.old_numbers),
                "new_anchor": _end_anchor(site, c.new_part, c.new_numbers),
                "ops": site.diffs.diff(before, after)
                if before and after and before != after
                else None,
                "text": after or before,
                "history": site.model.history_url.get(c.lineage),
                "kind": c.kind,
                "shown": c.shown,
                "explained": note,
                "weak": c.weak,
                "method": c.method,
                "score": c.score,
            }
            groups.setdefault(UNCONFIRMED if c.unconfirmed else c.kind, []).append(item)
        order: list[str] = [k for k in DIFF_GROUPS if k in groups]
        order += [k for k in groups if k not in order]
        return {
            "title": f"Diff {old['date']} → {new['date']}",
            "old": old["date"],
            "new": new["date"],
            "counts": counts(found),
            "unconfirmed_formatting": unconfirmed_formatting(found),
            "unchanged": new["unchanged"],
            "groups": [(k, groups[k]) for k in order],
            "gaps": gaps,
            "derived": new.get("derived"),
            "findings": findings,
        }

    site.lazy_page(f"diff/{old['date']}/{new['date']}/index.html", "diff.html", context, key)


def _end_anchor(site: Site, part: int | None, numbers: list[str]) -> str | None:
    """The id, on its release's page, of a change's end: its part's (a later printing of a
    number has its own), else its first number's; None when the change has no such end."""
    return site.model.anchor(part, numbers[0]) if numbers else None


def _ends(site: Site, part: int | None, numbers: list[str]) -> list[tuple[str, str | None]]:
    """(number, its id on the release page) of each number of a change's end: the first is
    the change's own part (`_end_anchor`), the others the clauses a split or merge names."""
    return [
        (n, _end_anchor(site, part, numbers) if i == 0 else clause_anchor(n))
        for i, n in enumerate(numbers)
    ]


def _renumbering_pages(site: Site, by_release: dict[str, list[Change]]) -> None:
    dates = [row["date"] for row in site.releases]
    base = compared_with(dates, site.derived)
    index = []
    for i, day in enumerate(dates):
        rows = [c for c in by_release[day] if c.renumbers]
        if not rows or not i or day in site.derived:
            continue
        # clauses, not rows: a clause split into several pieces has a row for each (2009-07-08
        # has 1,382 rows for 1,258 clauses)
        clauses = len({c.old_numbers[0] for c in rows})
        index.append({"date": day, "count": clauses})
        moves = section_moves((c.old_numbers, c.new_numbers) for c in rows)
        site.page(
            f"renumbering/{day}/index.html",
            "renumbering.html",
            title=f"Renumbering {day}",
            old=base[day],
            new=day,
            rows=[
                {
                    "old": _ends(site, c.old_part, c.old_numbers),
                    "new": _ends(site, c.new_part, c.new_numbers),
                    "shown": c.shown,
                }
                for c in rows
            ],
            clauses=clauses,
            picture=slopes_svg(moves, base[day] or "", day) if moves else None,
            moves=sorted(moves.items(), key=lambda item: (-item[1], item[0])),
            across=sum(1 for old, new in moves if old != new),  # the rest stayed in theirs
        )
    # the releases that renumbered the most clauses, as the table counts them
    most = sorted(index, key=lambda row: (-row["count"], row["date"]))[:MOST_RENUMBERED]
    site.page(
        "renumbering/index.html",
        "renumbering_index.html",
        title="Renumbering",
        rows=index,
        most=most,
    )
