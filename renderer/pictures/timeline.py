"""The releases page's picture: every release's changes from the one before, one stacked bar
per release in date order, a colour per kind. Formatting-only changes (quote and dash styles)
are left out of the bars, as the diff pages fold them: a typographic sweep is not a rewrite.
The tallest bars are labelled with their date, so that the renumberings and the big rewrites
stand out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from renderer.pictures.palette import GRID, INK, colour
from renderer.pictures.svg import element, figure_svg, nice_step, num, text, tooltip
from vocabulary.kinds import FORMATTING

WIDTH, HEIGHT = 640, 300  # viewBox: wide enough for 150 bars, scaled to the page's width
LEFT, RIGHT, TOP, BOTTOM = 52, 8, 44, 28  # room for counts, year labels and date labels
GRIDLINES = 5  # at most this many count lines across the plot
LABELLED = 5  # the tallest bars get their date written above them
LABEL_WIDTH = 84  # a 'YYYY-MM-DD' label at the picture's font size, with a margin
LABEL_RISE = 16  # how far a label that would overlap another moves up
YEAR_GAP = 40  # least distance between two year labels on the axis
THINNEST = 0.5  # a kind with a single change still shows as a sliver of its bar
FONT_TOP = 14  # a label's baseline no higher than this: it stays inside the picture


@dataclass(frozen=True)
class ReleaseBar:
    """One release: its date, its set name if known, its counts of changes by kind."""

    date: str
    name: str | None
    counts: dict[str, int]  # by kind, a derived copy's unconfirmed ones as `unconfirmed`
    # the formatting-only changes, which the bar leaves out: confirmed or not, they are the
    # `formatting` of `counts` and those of its `unconfirmed`
    formatting: int

    @property
    def shown(self) -> dict[str, int]:
        return {kind: n for kind, n in self.counts.items() if kind != FORMATTING and n}

    @property
    def total(self) -> int:
        return sum(self.shown.values())


def timeline_svg(bars: Sequence[ReleaseBar]) -> Markup:
    """The stacked bars of `bars` (in date order) as an accessible inline SVG."""
    largest = max((bar.total for bar in bars), default=0)
    step = nice_step(largest, GRIDLINES)
    top = max(step, -(-largest // step) * step)  # the highest gridline, at or above the tallest
    plot = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / max(len(bars), 1)
    scale = plot / top
    body = [_grid(top, step, scale)]
    for i, bar in enumerate(bars):
        body.append(_bar(bar, LEFT + i * slot, max(slot - 1, 1), scale))
    body.append(_years(bars, slot))
    body.append(_labels(bars, slot, scale))
    first, last = (bars[0].date[:4], bars[-1].date[:4]) if bars else ("", "")
    title = f"Changes in each release of the Comprehensive Rules, {first}–{last}"
    return figure_svg(
        "timeline", WIDTH, HEIGHT, title, _description(bars), "".join(body), "release-chart"
    )


def _description(bars: Sequence[ReleaseBar]) -> str:
    biggest = sorted(bars, key=lambda bar: -bar.total)[:LABELLED]
    named = ", ".join(f"{bar.date} ({bar.total:,})" for bar in biggest)
    return (
        f"One bar per release, {len(bars)} in date order, stacked by kind of change from the "
        "official release before; formatting-only changes are left out. The most changes:"
        f" {named}. The table below gives every count."
    )


def _grid(top: int, step: int, scale: float) -> str:
    lines = []
    for value in range(0, top + 1, step):
        y = HEIGHT - BOTTOM - value * scale
        lines.append(element("line", x1=LEFT, x2=WIDTH - RIGHT, y1=num(y), y2=num(y), stroke=GRID))
        lines.append(text(LEFT - 6, y + 5, f"{value:,}", text_anchor="end", fill=INK))
    return element("g", "".join(lines), class_="grid")


def _bar(bar: ReleaseBar, x: float, width: float, scale: float) -> str:
    y: float = HEIGHT - BOTTOM
    rects = []
    for kind, n in bar.shown.items():
        height = n * scale
        y -= height
        rects.append(
            element(
                "rect",
                x=num(x),
                y=num(y),
                width=num(width),
                height=num(max(height, THINNEST)),
                fill=colour(kind),
                data_kind=kind,
                data_count=n,
            )
        )
    return element(
        "g",
        tooltip(_bar_label(bar)) + "".join(rects),
        class_="bar",
        data_release=bar.date,
        data_total=bar.total,
    )


def _bar_label(bar: ReleaseBar) -> str:
    named = f"{bar.date} ({bar.name})" if bar.name else bar.date
    if not bar.counts and not bar.formatting:
        return f"{named}: first release, or no clause changed"
    kinds = ", ".join(f"{kind} {n:,}" for kind, n in bar.shown.items())
    tail = f"; and {bar.formatting:,} formatting-only" if bar.formatting else ""
    return f"{named}: {bar.total:,} changes ({kinds or 'none'}){tail}"


def _years(bars: Sequence[ReleaseBar], slot: float) -> str:
    """A tick and a label at the first release of each year, where there is room."""
    marks = []
    last_label: float = -YEAR_GAP
    seen: set[str] = set()
    for i, bar in enumerate(bars):
        year = bar.date[:4]
        if year in seen:
            continue
        seen.add(year)
        x = LEFT + i * slot
        marks.append(
            element(
                "line", x1=num(x), x2=num(x), y1=HEIGHT - BOTTOM, y2=HEIGHT - BOTTOM + 5, stroke=INK
            )
        )
        if x - last_label >= YEAR_GAP and x + YEAR_GAP / 2 <= WIDTH:
            marks.append(text(x, HEIGHT - 8, year, text_anchor="middle", fill=INK))
            last_label = x
    axis = element(
        "line", x1=LEFT, x2=WIDTH - RIGHT, y1=HEIGHT - BOTTOM, y2=HEIGHT - BOTTOM, stroke=INK
    )
    return element("g", axis + "".join(marks), class_="years")


def _labels(bars: Sequence[ReleaseBar], slot: float, scale: float) -> str:
    """The dates of the tallest bars above them, moved up where two would overlap."""
    ranked = sorted(range(len(bars)), key=lambda i: -bars[i].total)[:LABELLED]
    placed: list[tuple[float, float]] = []  # (centre x, baseline y) of each label so far
    out = []
    for i in ranked:  # the tallest first: it keeps its place
        if not bars[i].total:
            continue
        half = LABEL_WIDTH / 2
        x = min(max(LEFT + i * slot + slot / 2, LEFT + half), WIDTH - RIGHT - half)
        y = HEIGHT - BOTTOM - bars[i].total * scale - 6
        while any(abs(x - px) < LABEL_WIDTH and abs(y - py) < LABEL_RISE for px, py in placed):
            y -= LABEL_RISE
        y = max(y, FONT_TOP)
        placed.append((x, y))
        out.append(text(x, y, bars[i].date, text_anchor="middle", fill=INK, class_="peak"))
    return element("g", "".join(out), class_="peaks")
