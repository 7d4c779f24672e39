"""The key to the kinds' colours, as an HTML list under a picture: it wraps on a phone, where
a key drawn inside the SVG would shrink with it."""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

from renderer.changes import KINDS, UNCONFIRMED
from renderer.pictures.palette import colour
from vocabulary.kinds import FORMATTING

SWATCH = 12  # px: a square as tall as a line of small text


def legend(kinds: Iterable[str], left_out: str = FORMATTING) -> Markup:
    """<ul class="legend"> with a swatch and the name of each kind in `kinds` (in the site's
    order of kinds), but `left_out`, which the picture does not draw."""
    present = set(kinds) - {left_out}
    order = [kind for kind in (*KINDS, UNCONFIRMED) if kind in present]
    items = "".join(
        f'<li><svg aria-hidden="true" focusable="false" width="{SWATCH}" height="{SWATCH}">'
        f'<rect width="{SWATCH}" height="{SWATCH}" fill="{colour(kind)}"/></svg> '
        f"{escape(kind)}</li>"
        for kind in order
    )
    return Markup(f'<ul class="legend">{items}</ul>')
