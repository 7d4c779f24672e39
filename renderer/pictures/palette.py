"""One colour per kind of change, the same in every picture and legend. Each has at least
4.5:1 contrast on the page's background (WCAG asks 3:1 of the parts of a graphic), and
neighbours in a stacked bar differ in hue as well as in lightness."""

from __future__ import annotations

from renderer.changes import UNCONFIRMED
from vocabulary.kinds import ChangeKind

KIND_COLOURS: dict[str, str] = {
    ChangeKind.ADDED: "#1b7837",
    ChangeKind.REMOVED: "#b2182b",
    ChangeKind.REWORDED: "#b35806",
    ChangeKind.RENUMBERED_REWORDED: "#6a51a3",
    ChangeKind.RENUMBERED: "#2166ac",
    ChangeKind.RENUMBERED_EXAMPLE: "#3f4f8f",
    ChangeKind.SPLIT: "#01665e",
    ChangeKind.MERGED: "#8e0152",
    ChangeKind.EXAMPLE: "#7f6000",
    ChangeKind.REFERENCE: "#4d4d4d",
    ChangeKind.FORMATTING: "#767676",
    UNCONFIRMED: "#c51b7d",
}
INK = "#1a1a1a"  # text and axes: the page's own text colour
GRID = "#c8c8c8"  # gridlines: the page's rule colour, quieter than the bars
SAME = "#767676"  # a renumbering within the same section (4.5:1)
MOVED = "#0b4f8a"  # a renumbering into another section: the site's link colour
BAND = "#d7e6f5"  # a span of years a clause had one number: light, so that its marks show
BAND_EDGE = "#0b4f8a"  # the band's outline carries the contrast (8:1)


def colour(kind: str) -> str:
    return KIND_COLOURS.get(kind, INK)
