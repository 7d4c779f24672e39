"""What a rule number meant on every day: its wording runs and the stretches between them.

`/rule/N/DATE/` answers for any date. A page per (number, day) cannot be written, so the
number page carries its *segments*: date ranges over which the answer reads the same apart
from the date itself and the release in force that day. A segment is either a wording run
(the number printed one wording) or a stretch when the number was not in use; the latter is
cut wherever the clause the number last named (or first names) changed number, so that it
can say what that clause was numbered on the day asked. The lineage tables say which clause
that is (renderer.model: `part_lineage`, `members`); nothing here is computed afresh.

The answer for a day is rendered once per segment with placeholders (renderer.asof_view
fills them in `serve`, static/asof.js in the browser): the day, the release in force then,
the permalink and the access date.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from lineage.evidence import NO_EVIDENCE, evidence
from lineage.runs import Run
from renderer.model import SiteModel
from vocabulary.numbers import sort_key

# The first segment starts here: any date before the archive's first release falls in it.
BEFORE_ARCHIVE = "0001-01-01"


@dataclass(frozen=True)
class Segment:
    """Days `start` (inclusive) to `until` (exclusive; None: to today) with one answer.

    kind: "archive" (before the first release), "run" (a wording in force: `run`),
    "unused" (the number not in use: `numbers` is what the clause it `before` or `after`
    names carried in those days, empty when that clause was not in the rules).
    """

    start: str
    until: str | None
    kind: str
    run: dict[str, Any] | None = None
    numbers: tuple[str, ...] = ()
    previous: dict[str, Any] | None = None  # the run before (what the number was)
    following: dict[str, Any] | None = None  # the run after (when it is used again)
    history: str | None = None  # the history page of the clause the segment talks of
    # how certain the link from the number's run to that clause is (lineage.evidence): the
    # first weak decision of its lineage between them, else NO_EVIDENCE
    link: dict[str, Any] = field(default_factory=lambda: NO_EVIDENCE)
    merged: bool = False  # `numbers` are those of the clause it had been merged into
    # what else that clause had become by then: the numbers of the pieces split off it since
    # the number's run (SiteModel.descendants), as `show` and `trace` add them
    pieces: tuple[str, ...] = ()
    # the gap in the archive (archive.gaps) whose days these are: a release the archive lacks
    # may have been in force on them (`day_segments`)
    gap: dict[str, Any] | None = None


def number_segments(
    model: SiteModel, runs: list[Run], items: list[dict[str, Any]]
) -> list[Segment]:
    """Every day from the archive's start to today, for one number, cut into segments.

    `runs` are the number's runs (lineage.runs.number_runs) and `items` the same runs as
    the number page shows them (pages_rules._run_dict), in the same order.
    """
    dates = model.dates
    segments = [Segment(BEFORE_ARCHIVE, dates[0], "archive")]
    place = model.date_index
    before: dict[str, Any] | None = None
    for run, item in zip(runs, items, strict=True):
        first = place[before["replaced_by"]] if before else 0
        lineage = model.part_lineage.get(run.part_id if before is None else _part(before))
        segments += _unused(model, first, place[run.start], lineage, before, item)
        until = None if item["current"] else item["replaced_by"]
        segments.append(Segment(run.start, until, "run", run=item))
        before = {**item, "part_id": run.part_id}
    if before is not None and not before["current"]:
        first, lineage = place[before["replaced_by"]], model.part_lineage.get(_part(before))
        segments += _unused(model, first, len(dates), lineage, before, None)
    return segments


def _part(item: dict[str, Any]) -> int:
    return int(item["part_id"])


def _unused(
    model: SiteModel,
    first: int,
    end: int,
    lineage: int | None,
    previous: dict[str, Any] | None,
    following: dict[str, Any] | None,
) -> list[Segment]:
    """The releases `first` to `end` (excluded; places in `model.dates`) in which the number
    was not in use, cut where the numbers of the clause it names (`lineage`: the one it last
    named, or else the one it names next) change. The last segment runs to today when the
    stretch reaches the newest release."""
    if first >= end:
        return []
    dates = model.dates
    steps = model.number_changes.get(lineage) if lineage is not None else None
    changes = steps.between(first, end) if steps is not None else [(first, ())]
    marked = [(at, numbers, False) for at, numbers in changes]
    merge = model.merges.get(lineage) if previous is not None and lineage is not None else None
    if merge is not None:  # after its merge, what the clause it went into was numbered
        marked = _through_merge(model, marked, end, model.date_index[merge[0]], merge[1])
    others = (
        [found for found in model.descendants(lineage, previous["last"]) if found != lineage]
        if previous is not None and lineage is not None
        else []
    )
    pieces = _with_pieces(model, marked, end, others)
    history = model.history_url.get(lineage) if lineage is not None else None
    last = following["first"] if following else (dates[end] if end < len(dates) else None)
    ends: list[str | None] = [dates[at] for at, _numbers, _merged, _pieces in pieces[1:]]
    ends.append(last)
    events = model.events.get(lineage, []) if lineage is not None else []
    return [
        Segment(
            dates[at],
            until,
            "unused",
            None,
            numbers,
            previous,
            following,
            history,
            _link(events, dates[at], previous, following) if numbers else NO_EVIDENCE,
            merged,
            split_off,
        )
        for (at, numbers, merged, split_off), until in zip(pieces, ends, strict=True)
    ]


def _with_pieces(
    model: SiteModel,
    marked: list[tuple[int, tuple[str, ...], bool]],
    end: int,
    others: list[int],
) -> list[tuple[int, tuple[str, ...], bool, tuple[str, ...]]]:
    """`marked` (place, numbers, merged) cut also where the numbers of `others` (what else
    the clause became) change before `end`, each with those numbers at its place less its
    own: `show`'s "pieces split off it since are ..." for each day."""
    places = {at for at, _numbers, _merged in marked}
    for other in others:
        steps = model.number_changes.get(other)
        if steps is not None:
            places.update(at for at, _numbers in steps.between(marked[0][0], end))
    starts = [item[0] for item in marked]  # in order, the first at the stretch's start
    found: list[tuple[int, tuple[str, ...], bool, tuple[str, ...]]] = []
    for at in sorted(places):
        _start, numbers, merged = marked[bisect_right(starts, at) - 1]
        split_off = {
            number
            for other in others
            if other in model.number_changes
            for number in model.number_changes[other].at(at)
        }
        item = (at, numbers, merged, tuple(sorted(split_off - set(numbers), key=sort_key)))
        if not found or found[-1][1:] != item[1:]:
            found.append(item)
    return found


def _through_merge(
    model: SiteModel, marked: list[tuple[int, tuple[str, ...], bool]], end: int, at: int, into: int
) -> list[tuple[int, tuple[str, ...], bool]]:
    """`marked` (place, numbers, merged) with the places from `at` on, where the clause is in
    the rules no more, read as the numbers of the clause `into` it was merged into."""
    steps = model.number_changes.get(into)
    if steps is None or at >= end:
        return marked
    before = [item for item in marked if item[0] < at]
    after = [(place, numbers, True) for place, numbers in steps.between(max(at, marked[0][0]), end)]
    merged = before + after
    return [item for i, item in enumerate(merged) if i == 0 or item[1:] != merged[i - 1][1:]]


def _link(
    events: list[dict[str, Any]],
    day: str,
    previous: dict[str, Any] | None,
    following: dict[str, Any] | None,
) -> dict[str, Any]:
    """The evidence of the link between the number's run and the clause in release `day`:
    the first weak decision of the clause's lineage after the run before and up to `day`
    (or after `day` and up to the run after), else NO_EVIDENCE. What `rules-history trace`
    says of a number no longer in use ("an uncertain link") the page says too."""
    if previous is not None:
        after, upto = previous["last"], day
    elif following is not None:
        after, upto = day, following["first"]
    else:
        return NO_EVIDENCE
    for event in events:  # in release order
        if after < event["release"] <= upto and event["weak"]:
            return evidence(event["method"], event["score"], event["weak"])
    return NO_EVIDENCE


def gaps_within(segment: Segment, gaps: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The gaps in the archive whose days lie in `segment`: the answer it gives for them is
    that of the newest release the archive holds, which a release it lacks may have changed.

    A gap lies between two archived releases that follow each other, and a segment starts
    and ends on releases, so a segment holds a gap's days whole or none of them."""
    start, until = segment.start, segment.until
    return [g for g in gaps if start <= g["after"] and (until is None or g["before"] <= until)]


def day_segments(segments: list[Segment], gaps: tuple[dict[str, Any], ...]) -> list[Segment]:
    """`segments` cut for the answers by day: the days of each gap (archive.gaps.gap_on:
    after the release it follows, before the one that follows it) become a segment of their
    own that carries the gap, so that /rule/N/DAY/ says the answer may be out of date, as
    `rules-history show` does for such a day."""
    found: list[Segment] = []
    for segment in segments:
        rest = segment
        for gap in gaps_within(segment, gaps):
            first = (date.fromisoformat(gap["after"]) + timedelta(days=1)).isoformat()
            found.append(replace(rest, until=first))
            found.append(replace(rest, start=first, until=gap["before"], gap=gap))
            rest = replace(rest, start=gap["before"])
        if rest.start != rest.until:
            found.append(rest)
    return found
