"""Permalinks by number: /rule/N/ (every clause that carried N, by date) and /rule/N/DATE/.

A page /rule/N/DATE/ is written for each DATE on which N's wording began (a new wording, or
the number coming back into use): about 30,000 pages instead of the 250,000 (number, release)
pairs, let alone one per day. Any other day (e.g. /rule/504.2/2008-03-17/) is answered with
the number's page /rule/N/, which carries what N was on every day (renderer.asof_segments)
and lists it without JavaScript: `rules-history serve` shows it as of the day asked
(renderer.asof_view), a static host does through the rewrite rule of renderer.host_rules and
static/asof.js, and a host without rewrites through /404.html, whose script goes to
/rule/N/?date=DAY.
"""

from __future__ import annotations

import json
from typing import Any

from archive.effect import (
    early_effect_notice,
    effect_notice,
    states_earlier_effect,
    states_later_effect,
)
from archive.gaps import gap_between, gap_ending
from archive.lost_marks import lost_characters, lost_note
from lineage.runs import Run, first_official_release, restored_runs
from renderer.asof_segments import Segment, day_segments, gaps_within, number_segments
from renderer.asof_view import slot
from renderer.citations import citations, day_citation, release_words
from renderer.context import Site
from renderer.environment import long_date, rule_url
from renderer.explained import explained
from renderer.names import write_numbers
from renderer.queries import examples
from renderer.rule_index import write_rule_index
from renderer.writer import context_key
from vocabulary.numbers import sort_key


def build_rules(site: Site) -> dict[str, list[dict[str, Any]]]:
    """Write every number page and wording page; return number -> its runs as dicts."""
    dates = site.dates
    runs = site.model.runs
    wording = site.model.texts
    example_texts = examples(site.db)
    following = {day: dates[i + 1] for i, day in enumerate(dates[:-1])}
    newest = dates[-1]
    effects = effect_notices(site)
    # a wording's page says so when its first release is not yet in effect that day
    later = {day: found for day, found in effects.items() if states_later_effect(day, found[0])}
    site.env.globals["slot"] = slot
    site.env.globals["day_citation"] = day_citation
    names = site.model.names
    twice = _printed_again(site)
    result: dict[str, list[dict[str, Any]]] = {}
    for number, found in runs.items():
        items = [
            _run_dict(site, run, wording, example_texts, following, newest, later) for run in found
        ]
        # words a derived copy garbled between two runs that print them alike (101.3's of
        # 1999 and of 2003-07-01): the later run's pages say they are the earlier's words
        for i, j in restored_runs(found, site.derived, site.model.part_lineage.get).items():
            items[i]["restores"] = {"first": items[j]["first"], "url": items[j]["url"]}
        keys = []
        for i, item in enumerate(items):
            item["prev_url"] = items[i - 1]["url"] if i else None
            item["next_url"] = items[i + 1]["url"] if i + 1 < len(items) else None
            # the number's wording before or after may be another clause's (702.37a was
            # provoke's, then amplify's): the pager says so
            item["prev_other"] = bool(i) and items[i - 1]["history"] != item["history"]
            item["next_other"] = i + 1 < len(items) and items[i + 1]["history"] != item["history"]
            keys.append(_run_key(item, found[i].version))
        # The number's page first: its folder holds its wordings' folders, and a page
        # written before its folder's parent costs three calls to make them, not one.
        segments = number_segments(site.model, found, items)
        _number_page(site, number, items, keys, segments, twice.get(number, []))
        for run, item, key in zip(found, items, keys, strict=True):
            _run_page(site, number, item, key, site.model.part_lineage.get(run.part_id), names)
        result[number] = items
    numbers = sorted(result, key=sort_key)
    write_rule_index(site, result)
    write_numbers(site, result)
    site.writer.file("rule/numbers.json", json.dumps(numbers).encode())
    site.writer.file("rule/releases.json", releases_json(site, effects))
    return result


def releases_json(site: Site, effects: dict[str, tuple[str, str]]) -> bytes:
    """[date, label, stated, notice] of every release, oldest first: which release was in
    force on a day (renderer.asof_view.values, and static/asof.js), named as a
    citation names it (a derived copy marked as such: the day's citation is filled from it);
    and, for a release whose text states another day for it to take effect, that day and the
    sentence the days between add (`effects`), else two empty strings: a later day, for
    the days before it; an earlier one, for the days from it to the file's date."""
    listed = []
    for day in site.dates:
        stated, notice = effects.get(day, ("", ""))
        listed.append([day, _release_label(site, day), stated, notice])
    return json.dumps(listed).encode()


def _release_label(site: Site, day: str) -> str:
    return release_words(day, site.model.names.get(day), day in site.derived)


def effect_notices(site: Site) -> dict[str, tuple[str, str]]:
    """Release -> (the other day its text states it takes effect, the sentence an answer
    for a day between adds: archive.effect), for the releases that state one."""
    found = {}
    for row in site.releases:
        day, stated = row["date"], row["stated_date"]
        label = _release_label(site, day)  # the release named as the page names it
        if states_later_effect(day, stated):
            words = effect_notice(label, long_date(stated))
        elif states_earlier_effect(day, stated):
            words = early_effect_notice(label, long_date(stated))
        else:
            continue
        found[day] = (stated, f"{words[:1].upper()}{words[1:]}.")
    return found


def _run_dict(
    site: Site,
    run: Run,
    wording: dict[str, str],
    example_texts: dict[tuple[str, str], list[str]],
    following: dict[str, str],
    newest: str,
    later: dict[str, tuple[str, str]],
) -> dict[str, Any]:
    lineage = site.model.part_lineage.get(run.part_id)
    takes_effect, effect = later.get(run.start, ("", ""))
    # A wording still in force says so without naming the newest release or counting
    # releases: then a new release leaves its pages as they are unless it changes the wording.
    current = run.end == newest
    return {
        "derived": set(run.releases) <= site.derived,
        "first": run.start,
        # a wording first printed in a derived copy: the official release that first has it
        "first_official": first_official_release(run.releases, site.derived),
        "last": None if current else run.end,
        "replaced_by": following.get(run.end),
        # replaced across a gap in the archive: perhaps earlier (as `trace` says)
        "gap": None if current else gap_between(site.model.gaps, run.end, following.get(run.end)),
        "current": current,
        "count": None if current else len(run.releases),
        "releases": [] if current else run.releases,
        "text": wording.get(run.version, ""),
        # characters its copy lost, as `show` says of it (archive.query.lost_note)
        "lost": _lost(wording.get(run.version, "")),
        "examples": _example_stretches(run, example_texts, current),
        "url": rule_url(run.number, run.start),
        "history": site.model.history_url.get(lineage) if lineage else None,
        "history_title": site.model.history_title(lineage) if lineage else None,
        # a merge that ended the clause, as its history page and `trace` say (shown by the
        # number page beside the clause's numbers, which stop where it ended)
        "merged_into": site.model.merged_into_today(lineage) if lineage else None,
        "explained": explained(site, run.part_id, run.start),
        # its first release states a later day to take effect: its page, the answer for the
        # day it began, says so as the answer for any day before that does, and the number
        # page's list of every day gives that day
        "takes_effect": takes_effect,
        "effect": effect,
        "restores": None,  # the earlier run whose words it prints again (lineage.runs)
        # its first release follows a gap in the archive: it may have begun in the gap
        "first_gap": gap_ending(site.model.gaps, run.start),
    }


def _example_stretches(
    run: Run, example_texts: dict[tuple[str, str], list[str]], current: bool
) -> list[dict[str, Any]]:
    """The examples of a run's rule as its releases printed them: a run is one wording of the
    rule's own words, and its examples may change within it (707.6's Adaptive Automaton
    "enters the battlefield" in 2021, "enters" from August 2024). Each stretch of releases
    with the same examples: its first release, its last (None for the stretch in force
    today, so that a new release leaves the page as it is), its texts."""
    stretches: list[dict[str, Any]] = []
    for day in run.releases:
        texts = example_texts.get((day, run.number), [])
        if stretches and stretches[-1]["texts"] == texts:
            stretches[-1]["last"] = day
        else:
            stretches.append({"first": day, "last": day, "texts": texts})
    if current and stretches:
        stretches[-1]["last"] = None
    if len(stretches) == 1 and not stretches[0]["texts"]:
        return []  # a rule with no examples
    return stretches


def _lost(text: str) -> str | None:
    lost = lost_characters(text)
    return lost_note(lost) if lost else None


def _run_key(item: dict[str, Any], version: str) -> dict[str, Any]:
    """What a run's pages show of it, for their keys: its text stands there as its version
    hash (the hash of the text), which is far cheaper to hash than the text itself."""
    return {**{k: v for k, v in item.items() if k != "text"}, "text": version}


def _run_page(
    site: Site,
    number: str,
    item: dict[str, Any],
    shown: dict[str, Any],
    lineage: int | None,
    names: dict[str, str | None],
) -> None:
    def context() -> dict[str, Any]:
        return {
            "title": f"Rule {number}, {item['first']}",
            "number": number,
            "run": item,
            "cite": citations(
                number,
                item["first"],
                item["url"],
                site.base_url,
                names.get(item["first"]),
                derived=item["first"] in site.derived,  # the release cited is the copy
            ),
        }

    # The run page shows neither the history's title nor the merge: leave them out of the key.
    key = context_key([{k: v for k, v in shown.items() if k not in ON_NUMBER_PAGE}, site.base_url])
    path = f"rule/{number}/{item['first']}/index.html"
    site.clause_page(path, "rule_run.html", context, key, lineage)


# What a run's item holds for its number page only (its group's heading and note).
ON_NUMBER_PAGE = frozenset({"history_title", "merged_into"})


def _printed_again(site: Site) -> dict[str, list[dict[str, Any]]]:
    """Number -> each clause that a release numbers so after an earlier one, an error of its
    text (2024-09-17 prints 702.175 for Offspring, then for Impending): the number's page
    follows the first, as `show` does, and names the other, as `show`'s note does."""
    found: dict[str, list[dict[str, Any]]] = {}
    for printing in site.model.printings:
        lineage = site.model.part_lineage.get(printing.part)
        found.setdefault(printing.number, []).append(
            {
                "release": printing.release,
                "anchor": printing.anchor,
                "history": site.model.history_url.get(lineage) if lineage else None,
                "title": site.model.history_title(lineage) if lineage else None,
            }
        )
    return found


def _number_page(
    site: Site,
    number: str,
    items: list[dict[str, Any]],
    keys: list[dict[str, Any]],
    segments: list[Segment],
    printed_again: list[dict[str, Any]],
) -> None:
    def context() -> dict[str, Any]:
        groups: list[dict[str, Any]] = []
        for item in items:
            if groups and groups[-1]["history"] == item["history"]:
                groups[-1]["runs"].append(item)
            else:
                title = item["history_title"] or f"Rule {number} from {item['first']}"
                groups.append(
                    {
                        "history": item["history"],
                        "title": title,
                        "merged_into": item["merged_into"],
                        "runs": [item],
                    }
                )
        resolver = [
            {
                "first": i["first"],
                "replaced_by": i["replaced_by"],
                "current": i["current"],
                "url": i["url"],
            }
            for i in items
        ]
        return {
            "title": f"Rule {number}",
            "number": number,
            "runs": items,
            "groups": groups,
            # a clause the number named again later (715.3a: 2019, then 2023) is one clause
            "clauses": len({group["history"] or group["title"] for group in groups}),
            "runs_json": json.dumps(resolver).replace("</", "<\\/"),
            "segments": day_segments(segments, site.model.gaps),  # one answer by day each
            "days": list(zip(segments, spanned, strict=True)),  # the list of every day
            "breaks": _breaks(segments),
            "printed_again": printed_again,
        }

    # Everything the page shows comes from its runs (`keys`: each as its pages show it), its
    # segments, which name their runs by URL, and the gaps in the archive each spans (most
    # none): the context is made only when the page is.
    spanned = [gaps_within(segment, site.model.gaps) for segment in segments]
    key = context_key(
        [number, keys, [_segment_key(segment) for segment in segments], spanned, printed_again]
    )
    site.lazy_page(f"rule/{number}/index.html", "rule.html", context, key)


def _breaks(segments: list[Segment]) -> list[tuple[str, str]]:
    """(first day, day it was used again) of each stretch between two uses of the number in
    which it named nothing: its "unused" segments (cut where the clause it had named took
    another number) from one run to the next."""
    found: list[tuple[str, str]] = []
    start, previous = None, None
    for segment in segments:
        if segment.kind == "unused" and previous == "run":
            start = segment.start
        elif segment.kind == "run" and start is not None:
            found.append((start, segment.start))
            start = None
        previous = segment.kind
    return found


def _segment_key(segment: Segment) -> tuple[Any, ...]:
    def url(run: dict[str, Any] | None) -> str | None:
        return run["url"] if run else None

    return (
        segment.start,
        segment.until,
        segment.kind,
        url(segment.run),
        segment.numbers,
        segment.merged,
        segment.pieces,
        url(segment.previous),
        url(segment.following),
        segment.history,
        tuple(sorted(segment.link.items())),
    )
