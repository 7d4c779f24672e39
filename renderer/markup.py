"""The texts' own markup on pages: `_Magic_` (the CR's plain-text italics) becomes <em>Magic</em>.

Emphasis is applied to text that is already HTML-escaped, so nothing inside the underscores
can become markup: `_<script>_` is shown as the words "<script>" in italics.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from markupsafe import Markup, escape

# An underscore that opens (no word character before it, a visible character after it) and
# one that closes (a visible character before it, no word character after it), with no
# underscore or line break between: "_Magic: The Gathering_(R)" is emphasis; the lone "_" of
# "DCI_(R)" or of an address such as "x=UTR_Intro" is left as it is. A trademark sign that
# lost its brackets may follow directly ("_Odyssey_TM", 2008-02-01).
_ITALIC = re.compile(r"(?<!\w)_([^\s_](?:[^_\n]*[^\s_])?)_(?:(?=TM\b)|(?!\w))")


def emphasis_escaped(escaped: str) -> str:
    """`_words_` as <em>words</em> in text that is already escaped.

    >>> emphasis_escaped("Most _Magic_ tournaments; DCI_(R); x=UTR_Intro; _Odyssey_TM block")
    'Most <em>Magic</em> tournaments; DCI_(R); x=UTR_Intro; <em>Odyssey</em>TM block'
    """
    return _ITALIC.sub(r"<em>\1</em>", escaped)


TEXTS_KEPT = 100_000  # texts shown with emphasis, kept: pages repeat the same wordings


@lru_cache(maxsize=TEXTS_KEPT, typed=True)  # typed: a Markup text is not escaped again
def emphasis(text: str | None) -> Markup:
    """Escape `text`, then show its `_italic_` markup as emphasis (the Jinja filter).

    >>> str(emphasis("_Magic: The Gathering_(R) & _<b>_"))
    '<em>Magic: The Gathering</em>(R) &amp; <em>&lt;b&gt;</em>'
    """
    return Markup(emphasis_escaped(str(escape(text or ""))))


def _marks(text: str) -> tuple[set[int], set[int]]:
    """The positions in `text` of emphasis underscores, and of the characters they enclose."""
    markers: set[int] = set()
    inside: set[int] = set()
    for match in _ITALIC.finditer(text):
        markers.update((match.start(), match.end() - 1))
        inside.update(range(match.start(1), match.end(1)))
    return markers, inside


def emphasis_in_diff(ops: Sequence[tuple[int, str]]) -> list[str]:
    """Each op's text of a word diff as escaped HTML, with emphasis where its side reads so.

    Markup is found in the old text (kept and deleted pieces) and the new text (kept and
    inserted pieces) as a whole, so emphasis that a change cuts in two is still found; each
    piece gets its own <em> elements, so they nest inside the page's <del> and <ins>. A kept
    piece is shown as the new text has it.

    >>> emphasis_in_diff([(-1, "Magic"), (1, "_Magic"), (0, ": The "), (1, "Gathering_")])
    ['Magic', '<em>Magic</em>', '<em>: The </em>', '<em>Gathering</em>']
    """
    if not any("_" in text for _op, text in ops):
        return [str(escape(text)) for _op, text in ops]
    old = _marks("".join(text for op, text in ops if op <= 0))
    new = _marks("".join(text for op, text in ops if op >= 0))
    shown = []
    at = {-1: 0, 1: 0}  # where each op's text starts in the old and in the new text
    for op, text in ops:
        side, start = (old, at[-1]) if op < 0 else (new, at[1])
        markers, inside = side
        html: list[str] = []
        run: list[str] = []
        emphasised = False
        for offset, char in enumerate(text):
            if start + offset in markers:
                continue
            flag = start + offset in inside
            if flag != emphasised and run:
                html.append(_run("".join(run), emphasised))
                run = []
            run.append(char)
            emphasised = flag
        if run:
            html.append(_run("".join(run), emphasised))
        shown.append("".join(html))
        if op <= 0:
            at[-1] += len(text)
        if op >= 0:
            at[1] += len(text)
    return shown


def _run(text: str, emphasised: bool) -> str:
    return f"<em>{escape(text)}</em>" if emphasised else str(escape(text))
