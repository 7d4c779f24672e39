"""Cross-references in a release's text as links to the clause they name, in the same release.

The rules refer to each other as "See rule 418.5", "rules 601.2e–g", "see section 8",
"rules 403.3, 603.6a, and 614.12" or "(see 601.3d)". A reference becomes a link to the
anchor of that clause on the release page (`#418.5`) only when the release has that clause;
a range links its first clause. A number written like a rule ("601.3d") is a reference
wherever it stands; a bare section or chapter number ("503", "8") only after a word that
says so ("rule", "section", "see"...), and in the list that follows it.
"""

from __future__ import annotations

import re
from collections.abc import Container

# A clause number as the texts write one: "418.5", "702.34a", a section "503" or a chapter "8".
_NUMBER = r"\d{3}(?:\.\d+[a-z]*)?|\d"
# The other end of a range: "–g" (601.2e–g), "–10" (712.9–10), "-514" or "-702.5".
_RANGE = r"\s?[-\u2013]\s?(?:\d{3}(?:\.\d+[a-z]*)?|\d+[a-z]*|[a-z])"
_ITEM = rf"(?<![\w.])(?:{_NUMBER})(?:{_RANGE})?(?![\w])"
# A dotted number ("601.3d") names a clause wherever it stands.
_DOTTED_ITEM = rf"(?<![\w.])\d{{3}}\.\d+[a-z]*(?:{_RANGE})?(?![\w])"
_KEYWORD = r"\b(?P<word>[Rr]ules?|[Ss]ections?|[Cc]hapters?|[Ss]ee)\s+"
# Only these words can name a chapter by its one digit ("section 8"; not "see 2 cards").
_CHAPTER_WORDS = ("section", "chapter")
_SEPARATOR = r"(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
_REFERENCE = re.compile(
    rf"(?P<list>{_KEYWORD}{_ITEM}(?:{_SEPARATOR}{_ITEM})*)|(?P<item>{_DOTTED_ITEM})"
)
_ONE = re.compile(rf"(?P<first>{_NUMBER})(?:{_RANGE})?")
_ITEMS = re.compile(_ITEM)


def _link(item: str, anchors: Container[str], chapters: bool = False) -> str:
    first = _ONE.match(item)
    if first is None or first["first"] not in anchors:
        return item
    if len(first["first"]) == 1 and not chapters:
        return item
    return f'<a class="xref" href="#{first["first"]}">{item}</a>'


# Texts linked so far, with the numbers each asked about: consecutive releases repeat nearly
# every text, and a text's links depend on `anchors` only through those numbers.
LINKED_LIMIT = 200_000  # texts (and answers) kept before starting afresh, some tens of MB
_asked: dict[str, tuple[str, ...]] = {}
_linked: dict[tuple[str, tuple[bool, ...]], str] = {}


class _Questions:
    """Anchors that hold nothing and note what they were asked (the same for any anchors)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __contains__(self, number: object) -> bool:
        self.asked.append(str(number))
        return False


def link_references(escaped: str, anchors: Container[str]) -> str:
    """Each cross-reference in `escaped` (text already HTML-escaped) that names a clause in
    `anchors` as a link to `#NUMBER`; a range links its first clause.

    >>> here = {"418.5", "503", "601.2e", "8", "702.34", "601.3d", "614.12", "403.3"}
    >>> link_references('See rule 418.5, "Interaction" and rule 999.1.', here)
    'See rule <a class="xref" href="#418.5">418.5</a>, "Interaction" and rule 999.1.'
    >>> link_references("rules 601.2e\u2013g; see section 8; (see 601.3d)", here)
    ... # doctest: +NORMALIZE_WHITESPACE
    'rules <a class="xref" href="#601.2e">601.2e\u2013g</a>; see section
     <a class="xref" href="#8">8</a>; (see <a class="xref" href="#601.3d">601.3d</a>)'
    >>> link_references("rules 403.3, 503, and 614.12; 503 cards; see 8 cards", here)
    ... # doctest: +NORMALIZE_WHITESPACE
    'rules <a class="xref" href="#403.3">403.3</a>, <a class="xref" href="#503">503</a>,
     and <a class="xref" href="#614.12">614.12</a>; 503 cards; see 8 cards'
    """

    asked = _asked.get(escaped)
    if asked is None:
        questions = _Questions()
        _link_all(escaped, questions)
        if len(_asked) > LINKED_LIMIT:
            _asked.clear()
            _linked.clear()
        asked = _asked[escaped] = tuple(questions.asked)
    if not asked:
        return escaped  # no reference in it
    key = (escaped, tuple(number in anchors for number in asked))
    found = _linked.get(key)
    if found is None:
        found = _linked[key] = _link_all(escaped, anchors)
    return found


def _link_all(escaped: str, anchors: Container[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        if match["item"]:
            return _link(match["item"], anchors)
        chapters = match["word"].lower().startswith(_CHAPTER_WORDS)
        return _ITEMS.sub(lambda item: _link(item[0], anchors, chapters), match["list"])

    return _REFERENCE.sub(replace, escaped)
