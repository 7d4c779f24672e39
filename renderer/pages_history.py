"""Clause history pages, one per lineage (lineage.store): /history/FIRST_RELEASE/FIRST_NUMBER/.

Every wording with the releases it was in force and the numbers it had, the word diff from the
wording before, the events (renumbered, split, merged...), blame (since when the words read as
they do) and witnesses when archive.witnesses has them. The URL is made of the clause's first
release and first number, so it stays the same when later releases are added.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from functools import lru_cache
from itertools import groupby
from typing import Any

from markupsafe import Markup

from archive.gaps import gap_between, gap_ending
from archive.printings import printed_note
from archive.witnesses import witnesses_for
from lineage.compare import compared_with
from lineage.copy_printings import outside_official
from renderer.citations import citations
from renderer.context import Site
from renderer.environment import clause_anchor, long_date, rule_url
from renderer.explained import explained_lineage
from renderer.model import Member, Wording
from renderer.names import is_term, label
from renderer.pictures.spans import NumberSpan, WordingMark, spans_svg
from renderer.writer import context_key
from vocabulary.kind_names import shown_change_kind, shown_kind
from vocabulary.kinds import FORMATTING
from vocabulary.numbers import is_rule_number


def build_histories(site: Site) -> tuple[dict[int, dict[str, Any]], list[dict[str, Any]]]:
    """Queue every clause history page; returns the histories (the home page tells some)
    and the search records."""
    model = site.model
    members = model.members
    wording = model.texts
    base = compared_with(site.dates, set(site.derived))  # events are of the official chain
    previous = {day: old for day, old in base.items() if old and day not in site.derived}
    following = {old: day for day, old in previous.items()}
    histories: dict[int, dict[str, Any]] = {}
    records: list[dict[str, Any]] = []
    for lineage_id, rows in members.items():
        url = model.history_url[lineage_id]
        h = _history(
            model.lineages[lineage_id],
            rows,
            model.events.get(lineage_id, []),
            (previous, following),
            site,
        )
        _mark_derived(h, model.wordings[lineage_id], site.derived)
        for w in h["wordings"]:  # replaced across a gap: perhaps earlier (lineage.trace)
            w["gap"] = gap_between(model.gaps, w["last"], w["replaced_by"])
        h["url"] = url
        h["lineage_id"] = lineage_id
        h["title"] = model.history_title(lineage_id)
        h["explained"] = explained_lineage(site, lineage_id)
        # An explanation of a change that began no wording (a renumbering) is shown with its
        # event: every one `trace` shows is on the page.
        starts = {w["first"] for w in h["wordings"]}
        h["explained_events"] = {
            day: items for day, items in h["explained"].items() if day not in starts
        }
        histories[lineage_id] = h
        # Pages of clauses still in force never name the newest release (they say "today"),
        # so that a new release re-renders only the histories it changes. The texts are left
        # out of the key: each wording's version is the hash of its text.
        key_data = {"h": {k: v for k, v in h.items() if k != "years"}}
        records.append(_record(h, wording))

        def context(h: dict[str, Any] = h) -> dict[str, Any]:
            return _finish(site, h, wording)

        site.clause_page(
            url.strip("/") + "/index.html",
            "history.html",
            context,
            context_key(key_data),
            lineage_id,
        )
    return histories, records


def _mark_derived(h: dict[str, Any], stored: tuple[Wording, ...], copies: frozenset[str]) -> None:
    """A wording read only from a derived copy says so (`derived`)."""
    for w, wording in zip(h["wordings"], stored, strict=True):
        w["derived"] = wording.first == wording.last and wording.first in copies


def _record(h: dict[str, Any], wording: dict[str, str]) -> dict[str, Any]:
    """The search record of one clause: its numbers (a glossary entry: its terms), each
    distinct wording, and what a result shows (`meta`: numbers, title, years, and the
    `expect` key that tests/data/search_queries.csv names results by)."""
    seen: dict[str, str] = {}
    for w in h["wordings"]:
        seen.setdefault(w["normalised"] or w["version"], wording.get(w["version"], ""))
    years = h["years"]
    span = f"{years[0]}–{'today' if h['current'] else years[-1]}"
    newest_text = wording.get(h["wordings"][-1]["version"], "")
    if h["numbered"]:
        chain = " → ".join(h["numbers"])
        title = label(newest_text)
        state = "today" if h["current"] else "retired"
        meta = {
            "chain": chain,
            "label": title,
            "kind": "rule",
            "expect": f"{h['numbers'][-1]} ({state})",
        }
    else:
        terms = list(dict.fromkeys(t for t in reversed(h["numbers"]) if is_term(t)))
        terms = terms or [label(h["numbers"][-1])]  # no clean term: its first words
        chain = ""
        title = terms[0]
        meta = {"chain": "", "label": title, "kind": "glossary", "expect": f"glossary: {title}"}
    return {
        "url": h["url"],
        "title": f"{chain} {title}".strip(),
        "content": " ".join([chain, *h["numbers"], *seen.values()]),
        "years": years,
        "meta": {**meta, "span": span},
    }


@lru_cache(maxsize=4096)
def _numbers(data: str) -> tuple[Any, ...]:
    """A JSON list of an event's numbers or lineages: the same few strings recur thousands of
    times, so each is parsed once."""
    return tuple(json.loads(data))


def _official_numbers(spans: list[dict[str, Any]]) -> list[str]:
    """The numbers a clause had, in order, as the official releases printed them: the title
    names no number only a derived copy printed (2003-05-26's 410.4, where its garbled text
    put 409.4's words), as the events, of the official chain, name none."""
    official = [span["number"] for span in spans if not span["derived"]]
    return [number for number, _ in groupby(official)] or [spans[0]["number"]]


def _history(
    lineage: dict[str, Any],
    rows: list[Member],
    found_events: list[dict[str, Any]],
    neighbours: tuple[dict[str, str], dict[str, str]],
    site: Site,
) -> dict[str, Any]:
    """`neighbours`: each release's official release before, and each one's after."""
    newest = site.dates[-1]
    previous, following = neighbours
    numbered = is_rule_number(lineage["first_number"] or "")
    stored = site.model.wordings[lineage["id"]]
    releases = [row[0] for row in rows]  # in order: the rows are sorted by release
    wordings = [
        _wording(w, rows, releases, newest, site.model.anchor, site.model.printed_numbers)
        for w in stored
    ]
    # Blame, as `rules-history blame` gives it for the clause's newest member.
    since = stored[-1].since
    spans = []
    for number, group in groupby(rows, key=lambda row: row[1]):
        items = list(group)
        last = items[-1][0]
        spans.append(
            {
                "number": number,
                "first": items[0][0],
                "last": None if last == newest else last,
                "replaced_by": following.get(last),
                "anchor": site.model.anchor(items[0][3], number),
                "end_anchor": site.model.anchor(items[-1][3], number),
                # a number only a derived copy printed (the re-extracted 2003-05-26 text)
                "derived": all(item[0] in site.derived for item in items),
            }
        )
    ending = [e for e in found_events if e["release"] == following.get(lineage["last_release"])]
    events = []
    for e in found_events:
        related = [
            {"url": site.model.history_url.get(other), "title": site.model.history_title(other)}
            for other in _numbers(e["related_lineages"])
            if other in site.model.lineages
        ]
        old_numbers = [n for n in _numbers(e["old_numbers"]) if n]
        new_numbers = [n for n in _numbers(e["new_numbers"]) if n]
        # the lineage's own change on the diff page (two changes may name one number)
        anchor = site.model.change_anchors.get((e["release"], lineage["id"]))
        link = (
            f"/diff/{previous[e['release']]}/{e['release']}/" + (f"#{anchor}" if anchor else "")
            if e["release"] in previous
            else f"/releases/{e['release']}/"
        )
        events.append(
            {
                **e,
                "shown": shown_change_kind(e["kind"], old_numbers, new_numbers),
                "old_numbers": old_numbers,
                "new_numbers": new_numbers,
                "related": related,
                "link": link,
            }
        )
    return {
        "numbered": numbered,
        "numbers": _official_numbers(spans),
        "number_spans": spans,
        # where the re-extracted copy prints it outside that span, as `trace` says
        "copy_printings": outside_official(
            ((row[0], row[1]) for row in rows),
            lineage["first_release"],
            lineage["last_release"],
            site.derived,
        ),
        "first_release": lineage["first_release"],
        # the release after a gap in the archive: it may have begun in a release it lacks
        "first_gap": gap_ending(site.model.gaps, lineage["first_release"]),
        "since_gap": gap_ending(site.model.gaps, since),
        "first_number": lineage["first_number"],
        "first_anchor": site.model.anchor(rows[0][3], lineage["first_number"] or "x"),
        "last_release": None if lineage["last_release"] == newest else lineage["last_release"],
        "last_number": lineage["last_number"],
        "last_anchor": site.model.anchor(rows[-1][3], lineage["last_number"] or "x"),
        "current": lineage["last_release"] == newest,
        "ended": ending[0]["kind"] if ending else None,
        # what a merge that ended it is numbered today, as `trace` says (lineage.trace.merges)
        "merged_into": site.model.merged_into_today(lineage["id"]),
        "ended_in": ending[0]["release"] if ending else None,
        "release_count": None if lineage["last_release"] == newest else len(rows),
        "years": sorted({row[0][:4] for row in rows}),
        "axis_end": _axis_end(lineage["last_release"] == newest, spans[-1], newest),
        "since": since,
        "text_since": stored[-1].text_since,  # counting references, typography, examples
        "wordings": wordings,
        # the formatting-only wordings, which the page and the home page count apart from
        # the others (as the picture and the events do), and those the page folds: all but
        # the one in force
        "formatting_only": sum(1 for w in wordings if w["kind"] == FORMATTING),
        "folded": sum(1 for w in wordings if w["kind"] == FORMATTING and not w["current"]),
        "events": events,
        # the decisions on weak evidence its history rests on (lineage.evidence), which the
        # headline names: "today it is X" may rest on one
        "weak_events": [e for e in events if e["weak"]],
    }


def _axis_end(current: bool, last_span: dict[str, Any], newest: str) -> int:
    """The year on whose 1 January the picture's time axis ends (renderer.pictures.spans):
    the year after the newest release's for a clause in force (so that its page changes once
    a year, not with each release), else the year after the clause was last printed."""
    until = newest if current else last_span["replaced_by"] or last_span["last"] or newest
    return int(until[:4]) + 1


def _wording(
    w: Wording,
    rows: list[Member],
    releases: list[str],
    newest: str,
    anchor: Callable[[int, str], str],
    printed_numbers: Mapping[int, str],
) -> dict[str, Any]:
    """A stored wording as the history page shows it (`releases`: each row's, in order;
    `anchor`: a clause's id on its release page, SiteModel.anchor; `printed_numbers`: part
    -> its number as printed, where read otherwise, said as `show` says it). One still in
    force names neither its last release nor its count, so that a new release that keeps it
    leaves the page as is."""
    current = w.last == newest
    numbers = list(w.numbers)  # each once, in order of first use: a number may come back
    # the rows that printed it: from `first` to `last` (read in place, not copied)
    first, end = bisect_left(releases, w.first), bisect_right(releases, w.last)
    last_number = rows[end - 1][1] if end > first else numbers[-1]
    cite_release = w.first  # since when it has had that number without a break
    for at in range(end - 1, first - 1, -1):
        if rows[at][1] != last_number:
            break
        cite_release = rows[at][0]
    return {
        "version": w.version,
        "normalised": w.normalised,
        "first": w.first,
        "last": None if current else w.last,
        "replaced_by": w.replaced_by,
        "current": current,
        "count": None if current else w.releases,
        "numbers": numbers,
        "anchor": anchor(rows[first][3], numbers[0]) if end > first else clause_anchor(numbers[0]),
        "end_anchor": anchor(rows[end - 1][3], last_number)
        if end > first
        else clause_anchor(last_number),
        "kind": w.kind,
        "shown": shown_kind(w.kind, numbers[0]),  # a glossary entry's is "renamed"
        "since": w.since,
        "url": rule_url(numbers[0], w.first),
        "cite_number": last_number,
        "cite_release": cite_release,
        "printed": _printed_otherwise(rows[first:end], printed_numbers),
    }


def _printed_otherwise(
    rows: list[Member], printed_numbers: Mapping[int, str]
) -> list[dict[str, Any]]:
    """The releases among `rows` whose text printed the number otherwise than it is read,
    each run of them with one note (2005-08-01 to 2007-05-01 print "606. 8b")."""
    found: list[dict[str, Any]] = []
    for row in rows:
        printed = printed_numbers.get(row[3])
        if printed is None:
            continue
        note = printed_note(row[1], printed)
        if found and found[-1]["note"] == note:
            found[-1]["last"], found[-1]["count"] = row[0], found[-1]["count"] + 1
        else:
            found.append({"first": row[0], "last": row[0], "count": 1, "note": note})
    return found


def _finish(site: Site, h: dict[str, Any], wording: dict[str, str]) -> dict[str, Any]:
    """Add texts, word diffs, witnesses and the citation (the costly part) to a history.

    Each wording's diff is from the official wording before it: a wording read only from a
    derived copy is shown, and diffed from the one before it, but the next is not diffed from
    it (the copy's re-extraction changed words no release printed), as `trace` and the
    release and diff pages compare official releases."""
    before, copy = None, None
    for w in h["wordings"]:
        if (
            w["url"] not in site.model.run_urls
        ):  # a number printed twice: the other one has the page
            w["url"] = rule_url(w["numbers"][0])
        w["text"] = wording.get(w["version"], "")
        # the official words before a derived copy's own, printed again: the day of the copy
        # (the page says so rather than show a diff with no change)
        w["restores"] = copy if w["text"] == before else None
        restored = w["restores"] is not None
        w["ops"] = (
            site.diffs.diff(before, w["text"]) if before is not None and not restored else None
        )
        w["witnesses"] = _witnesses(site, w["first"], w["numbers"][0]) if h["numbered"] else []
        if not w["derived"]:
            before = w["text"]
        copy = w["first"] if w["derived"] else None
    words = h["wordings"]
    # what the page folds: formatting-only wordings (counted in `folded`) and events
    h["quiet_events"] = [e for e in h["events"] if e["kind"] == FORMATTING]
    h["loud_events"] = [e for e in h["events"] if e["kind"] != FORMATTING]
    h["first_last_ops"] = (
        site.diffs.diff(words[0]["text"], words[-1]["text"]) if len(words) > 2 else None
    )
    last = words[-1]
    path = rule_url(last["cite_number"], last["cite_release"])
    if path not in site.model.run_urls:
        path = rule_url(last["cite_number"])
    name = site.model.names.get(last["cite_release"])
    copy = last["cite_release"] in site.derived
    cite = citations(
        last["cite_number"], last["cite_release"], path, site.base_url, name, derived=copy
    )
    return {
        # the first release too: several clauses have had the same numbers (309.4 three)
        "title": f"History of {' → '.join(h['numbers'])} (from {long_date(h['first_release'])})",
        "h": h,
        "cite": cite,
        "picture": _picture(h),
    }


def _picture(h: dict[str, Any]) -> Markup:
    """The clause's numbers as bands across the years, its wordings marked on them."""
    spans = h["number_spans"]
    bands = [
        NumberSpan(
            span["number"],
            span["first"],
            spans[i + 1]["first"]
            if i + 1 < len(spans)
            else None
            if h["current"]
            else span["replaced_by"] or span["last"],
        )
        for i, span in enumerate(spans)
    ]
    marks = [
        WordingMark(i, w["first"], w["kind"] or "") for i, w in enumerate(h["wordings"], start=1)
    ]
    name = ("rule " if h["numbered"] else "") + " → ".join(h["numbers"])
    return spans_svg(bands, marks, h["axis_end"], name, "numbers" if h["numbered"] else "names")


def _witnesses(site: Site, release: str, number: str) -> list[dict[str, Any]]:
    """Pages that quote this wording (archive.witnesses)."""
    if number not in site.model.witnessed:
        return []
    found = []
    for data in witnesses_for(site.db, release, number):
        url = data.get("url") or ""
        when = (data.get("capture_time") or data.get("page_date") or "")[:10]
        quoted = data.get("quoted_date") or data.get("release") or ""
        note = f"quotes the rule as of {quoted}" if quoted else ""
        if data.get("agreement"):
            note += f"; {data['agreement']}"
        found.append(
            {
                "url": url,
                "title": f"{data.get('source')} ({when})",
                "note": note,
                "capture_time": data.get("capture_time"),
                "day": when,
            }
        )
    return found
