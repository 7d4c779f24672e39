"""A clause history's picture: each number the clause had as a band across the years it had
it (502.26 → 702.34 → … one row each, in order), with a mark where each wording began (a thin
grey one where only the typography changed).

The time axis runs from the start of the clause's first year to the start of the year after
its last release or, for a clause still in force, after the newest release's year: a page
then changes once a year at most, not with every release that keeps the clause as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup

from renderer.pictures.palette import BAND, BAND_EDGE, INK, SAME
from renderer.pictures.svg import element, figure_svg, num, text, tooltip, year_of, year_step
from vocabulary.kinds import FORMATTING

WIDTH = 640  # viewBox width, scaled to the page
Place = Callable[[str | float | None], float]  # a date or year (None: the end) -> its x
LEFT, RIGHT, TOP = 8, 18, 6  # margins; the right one holds the arrow of a clause in force
ROW = 40  # a number's row: its label above its band
BAND_HEIGHT = 14
AXIS = 30  # the year axis under the rows
YEAR_LABELS = 8  # at most this many year labels on the axis
NARROWEST = 3  # a band of a single release still shows
AXES_KEPT = 4096  # axes drawn once: a few hundred (first year, last year, rows) cover all pages
FLIP = 0.55  # a label starting beyond this share of the width is written leftwards from its end


@dataclass(frozen=True)
class NumberSpan:
    """A number and the releases that printed it: from `first` until `until` (the release
    that printed the next number or dropped the clause; None while it is in force)."""

    number: str
    first: str
    until: str | None


@dataclass(frozen=True)
class WordingMark:
    """Where wording `index` (1-based, as on the page) began, and the kind of that change."""

    index: int
    first: str
    kind: str


def spans_svg(
    spans: Sequence[NumberSpan],
    marks: Sequence[WordingMark],
    end_year: int,
    name: str,
    labels: str = "numbers",
) -> Markup:
    """The bands of `spans` (in order) with `marks` on them; the axis ends on 1 January of
    `end_year`. `name` is how the page names the clause ('rule 504.2 → 708.2'), `labels`
    what its bands are ('numbers'; a glossary entry's, 'names')."""
    start = int(spans[0].first[:4])

    def x(day: str | float | None) -> float:
        when = end_year if day is None else day if isinstance(day, float) else year_of(day)
        return _place(start, end_year, when)

    rows = []
    for i, span in enumerate(spans):
        top = TOP + i * ROW
        row_marks = [m for m in marks if _row_of(spans, m.first) == i]
        rows.append(_row(span, top, x, row_marks))
    height = TOP + len(spans) * ROW + AXIS
    axis = _axis(start, end_year, height - AXIS + 4)
    return figure_svg(
        "numbers-picture",
        WIDTH,
        height,
        f"The {labels} of {name} over the years",
        _description(spans, marks),
        "".join(rows) + axis,
        "number-spans",
    )


def _row_of(spans: Sequence[NumberSpan], day: str) -> int:
    """The row whose span holds `day` (the last that began on or before it)."""
    found = 0
    for i, span in enumerate(spans):
        if span.first <= day:
            found = i
    return found


def _row(span: NumberSpan, top: float, place: Place, marks: Sequence[WordingMark]) -> str:
    left, right = place(span.first), place(span.until)
    right = max(right, left + NARROWEST)
    band_top = top + 20
    parts = [
        element(
            "rect",
            x=num(left),
            y=num(band_top),
            width=num(right - left),
            height=BAND_HEIGHT,
            fill=BAND,
            stroke=BAND_EDGE,
        )
    ]
    if span.until is None:  # in force: an arrow past the end of the axis
        mid = band_top + BAND_HEIGHT / 2
        parts.append(
            element(
                "path",
                d=f"M{num(right + 1)} {num(mid - 6)}L{num(right + 10)} {num(mid)}"
                f"L{num(right + 1)} {num(mid + 6)}Z",
                fill=BAND_EDGE,
            )
        )
    for mark in marks:
        at = place(mark.first)
        quiet = mark.kind == FORMATTING
        parts.append(
            element(
                "line",
                tooltip(_mark_label(mark)),
                x1=num(at),
                x2=num(at),
                y1=num(band_top - 3),
                y2=num(band_top + BAND_HEIGHT + 3),
                stroke=SAME if quiet else INK,
                stroke_width=1 if quiet else 2.5,
                class_="wording-mark",
                data_first=mark.first,
                data_kind=mark.kind,
            )
        )
    label = f"{span.number} · {_years(span)}"
    flip = left > LEFT + FLIP * (WIDTH - LEFT - RIGHT)
    parts.append(
        text(
            right if flip else left,
            top + 15,
            label,
            text_anchor="end" if flip else "start",
            fill=INK,
        )
    )
    return element(
        "g",
        tooltip(_span_label(span)) + "".join(parts),
        class_="number-band",
        data_number=span.number,
        data_first=span.first,
        data_until=span.until or "",
    )


def _years(span: NumberSpan) -> str:
    """'2004–2009', '2011' (within one year), '2021–today'."""
    first, until = span.first[:4], span.until[:4] if span.until else "today"
    return first if first == until else f"{first}–{until}"


def _span_label(span: NumberSpan) -> str:
    if span.until is None:
        return f"{span.number}: from {span.first}, in force today"
    return f"{span.number}: from {span.first} until {span.until}"


def _mark_label(mark: WordingMark) -> str:
    what = "formatting only" if mark.kind == FORMATTING else mark.kind
    return f"Wording {mark.index}, from {mark.first}" + (f" ({what})" if what else "")


def _place(start: int, end_year: int, when: float) -> float:
    """The x of a point in time (in years) on an axis from `start` to `end_year`."""
    return LEFT + (when - start) / (end_year - start) * (WIDTH - LEFT - RIGHT)


@lru_cache(maxsize=AXES_KEPT)
def _axis(start: int, end: int, y: float) -> str:
    """The axis line, a tick on each 1 January (one path: thousands of pages draw it), and
    a label every few years."""
    step = year_step(end - start, YEAR_LABELS)
    ticks = [f"M{num(LEFT)} {num(y)}H{num(WIDTH - RIGHT)}"]
    labels = []
    for year in range(start, end):
        at = _place(start, end, float(year))
        labelled = (year - start) % step == 0
        ticks.append(f"M{num(at)} {num(y)}v{5 if labelled else 3}")
        if labelled:
            anchor = "start" if year == start else "middle"
            labels.append(text(at, y + 19, str(year), text_anchor=anchor, fill=INK))
    path = element("path", d="".join(ticks), stroke=INK, fill="none")
    return element("g", path + "".join(labels), class_="years")


def _description(spans: Sequence[NumberSpan], marks: Sequence[WordingMark]) -> str:
    told = "; ".join(_span_label(span) for span in spans)
    quiet = sum(1 for m in marks if m.kind == FORMATTING)
    counted = f"{len(marks)} wording{'s' if len(marks) != 1 else ''}"
    if quiet:
        counted += f" ({quiet} of them formatting-only)"
    return f"{told}. {counted}, each marked where it began."
