"""Names as readers type them: a section or keyword title, or a glossary term, compared loosely.

One definition, used by the command line's lookup (`archive.lookup`) and by the in-browser
compare, whose JavaScript receives these characters and patterns generated from here
(`renderer.vocabulary_js`).
"""

from __future__ import annotations

import re
import unicodedata

# Dashes a name may be written with ("face-down", "face–down"): each reads as a space.
DASHES = "-\u2010\u2011\u2012\u2013\u2014"
# Quotation marks, straight or curly, that a name may or may not carry ("“Morph”").
QUOTES = "\"'\u2018\u2019\u201c\u201d"
# The notes a name may end with ("In Play (Obsolete)"): named without them, it is still found.
NOTE = r"(?:\s*\([^)]*\))+$"
# How a suggestion names a glossary entry ("Flying (glossary)"), and how a reader asks for the
# entry rather than the keyword or section of the same name, which a bare name finds first.
# Matched without regard to case.
GLOSSARY_MARK = r"\s*\(glossary\)$"

_NOTE = re.compile(NOTE)
_GLOSSARY_MARK = re.compile(GLOSSARY_MARK, re.IGNORECASE)
_FOLDED = str.maketrans({**dict.fromkeys(DASHES, " "), **dict.fromkeys(QUOTES, None)})


def as_typed(text: str) -> str:
    """What a reader typed, in its compatibility form (NFKC): full-width digits, letters and
    dots are ASCII ("７０２.３７" is 702.37), as the site's scripts read it (static/names.js).

    >>> as_typed("７０２．３７ａ")
    '702.37a'
    """
    return unicodedata.normalize("NFKC", text)


def fold(text: str) -> str:
    """A name compared loosely: case, dashes, curly quotes and spacing folded.

    >>> fold("Face-Down  Spells and  Permanents"), fold("“Morph”"), fold("face–down")
    ('face down spells and permanents', 'morph', 'face down')
    """
    text = as_typed(text).casefold().translate(_FOLDED)
    return " ".join(text.split())


def name_key(name: str) -> str:
    """What two names are compared by when they are not the same: folded (`fold`), the
    trailing notes such as "(Obsolete)" or "(Informal)" dropped. The site's lookup box keys
    its names so (renderer.names, static/lookup.js).

    >>> name_key("In Play (Obsolete)"), name_key("Face-Down"), name_key("“Storm”")
    ('in play', 'face down', 'storm')
    >>> name_key("Mana Burn (Obsolete) (Informal)")
    'mana burn'
    """
    return _NOTE.sub("", fold(name)).strip()


def without_glossary_mark(name: str) -> tuple[str, bool]:
    """The name without its "(glossary)" mark, and whether it had one.

    >>> without_glossary_mark("Flying (Glossary)"), without_glossary_mark("Flying")
    (('Flying', True), ('Flying', False))
    """
    mark = _GLOSSARY_MARK.search(name)
    return (name[: mark.start()], True) if mark else (name, False)


# A comma that parts two terms of one glossary entry: one outside quotation marks
# ('Partner, “Partner—[text],” “Partner with [name]”' names three).
_UNQUOTED = r"[^\u201c\u201d]*"
_TERM_COMMA = re.compile(rf",\s*(?=(?:{_UNQUOTED}\u201c{_UNQUOTED}\u201d)*{_UNQUOTED}$)")


def glossary_terms(title: str) -> list[str]:
    """Each term of a glossary entry whose title names several, as a reader types one; [] for
    an entry of one term.

    >>> glossary_terms("Control, Controller"), glossary_terms("Flying")
    (['Control', 'Controller'], [])
    >>> glossary_terms("Partner, “Partner—[text],” “Partner with [name]”")
    ['Partner', 'Partner—[text]', 'Partner with [name]']
    """
    # a comma set inside the closing quotation mark, the American way, parts terms too
    title = title.replace(",\u201d", "\u201d,")
    terms = [term.strip().strip(QUOTES).strip() for term in _TERM_COMMA.split(title)]
    terms = [term for term in terms if term]
    return terms if len(terms) > 1 else []
