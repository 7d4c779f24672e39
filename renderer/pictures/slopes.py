"""A renumbering's picture: the sections of the release before on the left, those of the
release on the right, and a line from each old section to each new one that received its
clauses, as thick as the number of clauses that moved (a slope chart). Lines that change
section are drawn in the link colour, moves within a section in grey."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from markupsafe import Markup

from renderer.pictures.palette import INK, MOVED, SAME
from renderer.pictures.svg import element, figure_svg, num, text, tooltip
from vocabulary.numbers import is_rule_number, sort_key

WIDTH = 640  # viewBox width: two columns of labels and the lines between, scaled to the page
COLUMN = 110  # where each column's labels end (left) or begin (right), from its edge
TOP, BOTTOM = 34, 8  # room for the column headings
ROW = 22  # the least height per section label
THINNEST, THICKEST = 1.5, 12.0  # line widths for one clause and for the largest move
TOLD = 8  # the description names this many of the largest moves across sections


def section_of(number: str) -> str | None:
    """The section a clause number belongs to ('702.34a' -> '702'; a chapter is its own);
    None for a glossary term.

    >>> section_of("702.34a"), section_of("7"), section_of("Morph")
    ('702', '7', None)
    """
    return number.partition(".")[0] if is_rule_number(number) else None


def section_moves(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> Counter[tuple[str, str]]:
    """(old section, new section) -> how many renumbered clauses went that way; a split or
    merge counts once for each pair of sections it joins."""
    moves: Counter[tuple[str, str]] = Counter()
    for old_numbers, new_numbers in pairs:
        olds = {s for s in map(section_of, old_numbers) if s}
        news = {s for s in map(section_of, new_numbers) if s}
        for old in olds:
            for new in news:
                moves[(old, new)] += 1
    return moves


def slopes_svg(moves: Counter[tuple[str, str]], old: str, new: str) -> Markup:
    """The slope chart of `moves` from release `old` to release `new`."""
    lefts = _column({o for o, _ in moves}, moves, 0)
    rights = _column({n for _, n in moves}, moves, 1)
    height = TOP + max(len(lefts), len(rights), 1) * ROW + BOTTOM
    place_left = _places(lefts, height)
    place_right = _places(rights, height)
    x0, x1 = COLUMN, WIDTH - COLUMN
    largest = max(moves.values(), default=1)
    lines = []
    for (o, n), count in sorted(moves.items(), key=lambda item: -item[1]):
        y0, y1 = place_left[o], place_right[n]
        middle = (x0 + x1) / 2
        lines.append(
            element(
                "path",
                tooltip(f"{o} → {n}: {count} clause{'s' if count != 1 else ''}"),
                d=f"M{x0} {num(y0)}C{num(middle)} {num(y0)} {num(middle)} {num(y1)} {x1} {num(y1)}",
                fill="none",
                stroke=SAME if o == n else MOVED,
                stroke_width=num(THINNEST + (THICKEST - THINNEST) * count / largest),
                stroke_opacity=0.85,
                class_="move",
                data_old=o,
                data_new=n,
                data_count=count,
            )
        )
    labels = [
        text(4, TOP - 14, f"Old ({old})", fill=INK, font_weight="bold"),
        text(WIDTH - 4, TOP - 14, f"New ({new})", text_anchor="end", fill=INK, font_weight="bold"),
    ]
    labels += [
        text(x0 - 6, y + 5, f"{s} · {lefts[s]}", text_anchor="end", fill=INK)
        for s, y in place_left.items()
    ]
    labels += [text(x1 + 6, y + 5, f"{s} · {rights[s]}", fill=INK) for s, y in place_right.items()]
    return figure_svg(
        "renumbering-picture",
        WIDTH,
        height,
        f"Sections renumbered from {old} to {new}",
        _description(moves),
        "".join(lines) + "".join(labels),
        "slopes",
    )


def _column(sections: set[str], moves: Counter[tuple[str, str]], side: int) -> dict[str, int]:
    """Each section of one side, in reading order, with the clauses it sent or received."""
    totals: Counter[str] = Counter()
    for pair, count in moves.items():
        totals[pair[side]] += count
    return {s: totals[s] for s in sorted(sections, key=sort_key)}


def _places(column: dict[str, int], height: float) -> dict[str, float]:
    """Spread a column's labels evenly down the picture."""
    room = (height - TOP - BOTTOM) / max(len(column), 1)
    return {s: TOP + (i + 0.5) * room for i, s in enumerate(column)}


def _description(moves: Counter[tuple[str, str]]) -> str:
    across = sorted(((c, o, n) for (o, n), c in moves.items() if o != n), reverse=True)
    within = sum(c for (o, n), c in moves.items() if o == n)
    told = "; ".join(f"{o} → {n}: {c}" for c, o, n in across[:TOLD])
    more = " and more" if len(across) > TOLD else ""
    return (
        f"Clauses that moved to another section: {told or 'none'}{more}. "
        f"{within} kept their section under a new number. The table below lists every clause."
    )
