"""The few SVG pieces the pictures share: escaped elements, the accessible frame, year axes.

Hand-written rather than drawn with a charting library: the pictures are a few rectangles,
lines and labels each, thousands of history pages draw one (so each must cost microseconds,
not the tens of milliseconds a plotting library takes), and the markup must carry what a
library does not give: role="img" with <title>/<desc> for screen readers, data attributes the
tests read, and colours chosen for contrast.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from html import escape

from markupsafe import Markup

FONT_SIZE = 14  # label size in viewBox units: still about 8 px when a 640-wide picture fits a phone
DAYS_KEPT = 4096  # days placed once: the pictures name a few hundred release dates
DAYS_PER_YEAR = 365.2425  # the Gregorian year, to place a date within its year


def attrs(**values: object) -> str:
    """' name="value"' pairs, escaped; an underscore in a name becomes a hyphen and a trailing
    one is dropped (class_ -> class)."""
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for name, value in values.items()
        if value is not None
    )  # html.escape: several times faster than markupsafe's here, as thousands of pages draw


def element(tag: str, body: str = "", **values: object) -> str:
    """<tag attrs>body</tag>, or <tag attrs/> without a body (the body is already markup)."""
    return f"<{tag}{attrs(**values)}>{body}</{tag}>" if body else f"<{tag}{attrs(**values)}/>"


def text(x: float, y: float, label: str, **values: object) -> str:
    return element("text", escape(label), x=num(x), y=num(y), **values)


def tooltip(label: str) -> str:
    """A <title> child: the browser shows it on hover (screen readers read the frame's)."""
    return f"<title>{escape(label)}</title>"


def num(value: float) -> str:
    """A coordinate with at most one decimal: smaller pages, same picture."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def figure_svg(
    ident: str, width: int, height: int, title: str, description: str, body: str, class_: str
) -> Markup:
    """The accessible frame: role="img", labelled by its own <title> and <desc>."""
    head = (
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(description)}</desc>'
    )
    return Markup(
        element(
            "svg",
            head + body,
            xmlns="http://www.w3.org/2000/svg",
            viewBox=f"0 0 {width} {height}",
            role="img",
            aria_labelledby=f"{ident}-title {ident}-desc",
            class_=f"picture {class_}",
            font_size=FONT_SIZE,
        )
    )


@lru_cache(maxsize=DAYS_KEPT)
def year_of(day: str) -> float:
    """'2009-07-08' -> 2009.52: a date as a point on a time axis measured in years."""
    when = date.fromisoformat(day)
    return when.year + (when.timetuple().tm_yday - 1) / DAYS_PER_YEAR


def year_step(years: int, most: int) -> int:
    """The smallest of 1, 2, 5, 10, 20 years between labels that labels `years` years with at
    most `most` labels."""
    for step in (1, 2, 5, 10, 20):
        if years / step <= most:
            return step
    return 50


def nice_step(largest: int, most: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving at most `most` gridlines up to
    `largest`.

    >>> nice_step(2095, 5), nice_step(7, 5), nice_step(0, 5)
    (500, 2, 1)
    """
    power = 1
    while True:
        for factor in (1, 2, 5):
            if largest / (factor * power) <= most:
                return factor * power
        power *= 10
