"""Characters a conversion lost in a text: what `show` and the site say of a copy's text.

Some copies in the archive were converted lossily (the 1999-2002 texts hold U+FFFD where a
curly quote, a dash or a trade mark was; the 2008-05-01 and 2009-05-01 copies hold "?" for a
dash). The comparison already reads such a character as formatting (`archive.normalise`);
a reader of the text is told too, with the count, so that "refers to a \ufffdcard,\ufffd" is
not taken for the official wording.
"""

from __future__ import annotations

import re

from archive.normalise import _SPACED_LOST_MARK as LOST_MARK  # the comparison's definition

# A "?" that opens a web address's query ("default.asp?x=dci/doccenter/home"): its own.
ADDRESS_QUERY = re.compile(r"\?\w+=")


def lost_characters(text: str) -> int:
    """How many characters a conversion lost in `text`, as the comparison reads them:
    U+FFFD, or a "?" standing for a dash or a mark ("Portal Three Kingdoms? set" in
    2009-07-08), not one that opens a web address's query.

    >>> lost_characters("refers to a \ufffdcard,\ufffd"), lost_characters("cards?even")
    (2, 1)
    >>> lost_characters("www.wizards.com/default.asp?x=dci/doccenter/home. Is it legal?")
    0
    """
    if "\ufffd" not in text and "?" not in text:  # nearly every text: no search needed
        return 0
    return sum(
        1
        for mark in LOST_MARK.finditer(text)
        if not ADDRESS_QUERY.match(text, mark.start() + len(mark[1]))
    )


def lost_note(count: int, what: str = "its text") -> str:
    """What `show` and the site say of a text whose copy lost `count` characters."""
    many = count != 1
    return (
        f"{count:,} character{'s' if many else ''} of {what} {'were' if many else 'was'} lost"
        ' in the copy the archive holds: \ufffd or "?" stands where a conversion lost a'
        " quotation mark, an apostrophe, a dash or a symbol"
    )
