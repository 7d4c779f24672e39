"""A comparison form of rules text: the same words in the same typography, whatever the era.

Releases differ in typography that carries no meaning: curly or straight quotes, `—` or `-`,
`™`, `(tm)` or nothing, `{Tap}` or `{T}`, font-letter mana (`o2, ocT`) in 1999, doubled
spaces. `normalise` maps all of them to one form, so that two clauses compare equal exactly
when their words do. The 2019-01-25 release, set in plain ASCII, normalises to the same
clauses as 2018-10-05 wherever the rules did not change.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Bump when `normalise` gives another form for some text: the store's forms are then made
# again (archive.stored_texts). 2: runs of spaced dashes are one dash in one pass.
NORMALISE_VERSION = 2
_CHARACTERS = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\u2022": "*",
        "\u00b7": "*",
        "\u2122": "",
        "\u00ae": "",
        "\u00a9": "(c)",
        "\ufeff": "",
    }
)
_TRADEMARKS = re.compile(r"\((?:tm|TM|r|R)\)")
# Spaced or doubled dashes, and runs of them ("a - - b"), are one "-": in one pass, so that a
# normalised text is final (a run read one dash at a time left "--" for a second pass).
_DOUBLE_DASH = re.compile(r"\s*-(?:\s*-)+\s*|\s+-\s+")
_ELLIPSIS = re.compile(r"\u2026")
# Font-letter mana of the 1999-11-01 conversion: "o2" is {2}, "ocT" is {T}, "oW" is {W}.
_FONT_MANA = re.compile(r"(?<![A-Za-z0-9])o(c?)([0-9]{1,2}|[WUBRGXYZST])(?![A-Za-z0-9])")
_MANA_WORDS = {"{Tap}": "{T}", "{tap}": "{T}", "{Untap}": "{Q}", "{untap}": "{Q}"}
_MANA_WORD = re.compile("|".join(re.escape(word) for word in _MANA_WORDS))
_SPACE = re.compile(r"[ \t]+")
_SPACE_BEFORE_PUNCTUATION = re.compile(r" +([,.;:!?)])")


def normalise(text: str) -> str:
    """The comparison form of a clause's text.

    >>> normalise("Magic: The Gathering\u2014Conspiracy\u2122 isn\u2019t \u201cfun\u201d")
    'Magic: The Gathering-Conspiracy isn\\'t "fun"'
    >>> normalise('Magic: The Gathering-Conspiracy(tm) isn\\'t "fun"')
    'Magic: The Gathering-Conspiracy isn\\'t "fun"'
    >>> normalise("Pay o2, ocT:  draw a card")
    'Pay {2}, {T}: draw a card'
    """
    text = unicodedata.normalize("NFC", text).translate(_CHARACTERS)
    text = _TRADEMARKS.sub("", text)
    text = _ELLIPSIS.sub("...", text)
    text = _FONT_MANA.sub(lambda m: "{" + m[2] + "}", text)
    text = _MANA_WORD.sub(lambda m: _MANA_WORDS[m[0]], text)
    text = _DOUBLE_DASH.sub("-", text)
    lines = [_SPACE.sub(" ", line).strip() for line in text.split("\n")]
    text = "\n".join(line for line in lines if line)
    return _SPACE_BEFORE_PUNCTUATION.sub(r"\1", text)


# What a capture may lose or mark up without a change of words: `_italic_` markup (2008-2014),
# U+FFFD where a conversion lost a quote, an apostrophe or a dash, "?" standing for a lost
# dash, URLs in <angle> or [square] brackets or none, placeholders in <angle> or [square]
# brackets, runs of font-letter mana, font-letter mana in
# braces (2003-07-01 to 2004-10-01 wrote {3} as "{o3}", which `normalise` reads as "{{3}}"),
# line breaks. A numeral that becomes a symbol ("paying 3" -> "paying {3}") is a change of
# words.
_MARKUP = re.compile(r"(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")
_BRACED_FONT_MANA = re.compile(r"\{\{([0-9]{1,2}|[WUBRGXYZST])\}\}")
_URL_BRACKETS = re.compile(
    r"[<\[]((?:https?://|www\.|[\w-]+\.com/|(?:[\w-]+\.)+(?:com|net|org)\b)[^\s>\]]*)[>\]]"
)
_URL_TELLTALES = ("://", "www.", ".com", ".net", ".org")  # where a URL may stand
# A trademark sign a conversion spelt out glued to its word ("_Odyssey_TM", 2011-07-15, for
# "_Odyssey_(TM)"), once the markup is gone; `normalise` takes away "(TM)" and "™" already.
_GLUED_TRADEMARK = re.compile(r"(?<=[a-z])_?TM\b")
# A reference with its space lost ("See rule702.72", 2009-09-04): the words are the same.
_GLUED_REFERENCE = re.compile(r"\b(rules?)(?=[0-9]{3}\b|[0-9]{3}\.)")
# Placeholders were set in angle brackets until 1999-04-23 ("<This creature> can't block"),
# in square ones after: the same words.
_ANGLE_BRACKETS = str.maketrans("<>", "[]")
_FONT_MANA_RUN = re.compile(r"(?<![A-Za-z0-9])(?:oc?(?:[0-9]{1,2}|[WUBRGXYZST]))+(?![A-Za-z0-9])")
_FONT_SYMBOL = re.compile(r"oc?([0-9]{1,2}|[WUBRGXYZST])")
_LOST = re.compile(r"[\s'\"\-?\ufffd]+")
# A rule number whose dot was mistyped or lost ("rule 419,8", fixed in 2003-12-01; "4091f-h",
# fixed in 2006-10-01): three digits, then the rest of the number.
_RULE_NUMBER_DOT = re.compile(r"(?<![\d.,])(\d{3})[.,]?(?=\d)")


def formatting_key(normalised: str) -> str:
    """The normalised text less everything a formatting change can touch, for finding
    candidates: two clauses with the same key differ at most in markup, lost characters,
    quotes, dashes, spacing and rule numbers' dots (`same_but_formatting` then decides
    whether that is all).

    >>> formatting_key("The _Magic_ game") == formatting_key("The Magic game")
    True
    >>> formatting_key("can\ufffdt - ever") == formatting_key("can't ? ever")
    True
    >>> formatting_key("Pay o3oUoU.") == formatting_key("Pay {3}{U}{U}.")
    True
    >>> formatting_key("his or her") == formatting_key("their")
    False
    """
    return _RULE_NUMBER_DOT.sub(r"\1.", _LOST.sub("", fold_markup(normalised)))


# Quotation marks: double ones, and single ones outside a word (an apostrophe, "isn't",
# "it's", is a letter of its word). 2004-02-01 wrote the "intervening 'if' clause" with a
# double quote on one side, 2004-06-01 with single ones again: no word changed.
_QUOTES = re.compile(r"\"|(?<![A-Za-z0-9])'|'(?![A-Za-z0-9])")
_SPACES = re.compile(r"\s+")
# Spaces beside a dash are how it was set, not words: `normalise` closes up a dash spaced on
# both sides, and a double one, but not one spaced on one side ("Choose one -" before a quote,
# 2003-12-01, against "Choose one-" in 2004-02-01).
_SPACED_DASH = re.compile(r"\s*-\s*")
# A lost character, with the spaces beside it (they go with it when it was a dash: see
# _SPACED_DASH): U+FFFD, or a "?" after a word or a space that goes on with a word, a bracket
# or a mark a question never comes before ("Choose one ?," and "Suspend N?[cost]" in 2008 are
# em dashes a conversion lost), or a closing parenthesis ('chooses one ?")' in 2008, whose
# quote `_plain` has taken away).
_SPACED_LOST_MARK = re.compile(r"(\s*)(?:\ufffd|(?<=[\w\s])\?(?=\s*[\w\[,.;:)]))(\s*)")


def same_but_formatting(old: str, new: str) -> bool:
    """True when two normalised texts differ only in markup, quotation marks (double, or
    single outside a word), spacing, or characters a conversion lost: U+FFFD for a quote,
    an apostrophe or a dash, "?" for a dash. A space put in or taken out is typography, the
    words' letters all kept ("player ( or" -> "player (or", 2005-10-01; "found atwww." and
    back, 2005), and so is a rule number's dot mistyped ("rule 419,8"); a hyphen is not a
    space ("face-down" -> "face down" is a change of spelling), nor is an apostrophe in a
    word a quotation mark.

    >>> same_but_formatting("The _Magic_ game", 'The "Magic" game')
    True
    >>> same_but_formatting("can\ufffdt stop\ufffdever", "can't stop-ever")
    True
    >>> same_but_formatting("Gathering?Tempest", "Gathering-Tempest")
    True
    >>> same_but_formatting('"Choose one ?," "N?[cost]"', '"Choose one -," "N-[cost]"')
    True
    >>> same_but_formatting("intervening 'if' clause", "intervening " + '"' + "if' clause")
    True
    >>> same_but_formatting("Artifact ? Equipment", "Artifact-Equipment")
    True
    >>> same_but_formatting('Choose one -"', 'Choose one-"')
    True
    >>> same_but_formatting('(phrase "chooses one ?")', '(phrase "chooses one -")')
    True
    >>> same_but_formatting("triggered,unless it", "triggered, unless it")
    True
    >>> same_but_formatting("See rule 419,8.", "See rule 419.8.")
    True
    >>> same_but_formatting("See rule 419.8.", "See rule 419.9.")
    False
    >>> same_but_formatting("a player's hand", "a players hand")
    False
    >>> same_but_formatting("turned face-down.", "turned face down.")
    False
    >>> same_but_formatting("Is it legal?", "Is it legal.")
    False
    """
    before, after = _plain(old), _plain(new)
    if before == after or _slips_fixed(before) == _slips_fixed(after):
        return True
    if formatting_key(old) != formatting_key(new):
        return False
    return _matches_lost(before, after) or _matches_lost(after, before)


def _slips_fixed(plain: str) -> str:
    """A `_plain` text with its typing slips undone: no spaces (one put in or left out is
    typography, every letter kept), and each rule number's dot written as a dot."""
    return _RULE_NUMBER_DOT.sub(r"\1.", plain.replace(" ", ""))


def _plain(normalised: str) -> str:
    text = _SPACES.sub(" ", _QUOTES.sub("", fold_markup(normalised))).strip()
    return _SPACED_DASH.sub("-", text)


def _restored(left: str, right: str) -> tuple[str, ...]:
    """What a lost character with the spaces `left` and `right` beside it may have been:
    nothing (its spaces, one at most, stay: a lost quote between two words), an apostrophe
    (inside a word), or a dash (its spaces go, as `_plain` closes up a dash)."""
    return (" " if left or right else "", f"{left}'{right}", "-")


def _matches_lost(pattern_text: str, text: str) -> bool:
    """Does `text` read as `pattern_text` with each lost character restored (`_restored`)?
    Both are `_plain` texts.

    Each comparison is of other texts, so a regular expression built for it would be
    compiled once per call: the pieces between lost characters are matched in order here.

    >>> _matches_lost("can\ufffdt stop?ever", "can't stop-ever")
    True
    >>> _matches_lost("controller\ufffd chooses", "controller-chooses")
    True
    >>> _matches_lost("the \ufffd Legend rule", "the Legend rule")
    True
    >>> _matches_lost("can\ufffdt", "can t")
    False
    """
    parts = _SPACED_LOST_MARK.split(pattern_text)
    if len(parts) == 1:
        return False
    marks = [_restored(left, right) for left, right in zip(parts[1::3], parts[2::3], strict=True)]
    return _pieces_match(parts[::3], marks, text, 0, 0)


def _pieces_match(
    pieces: list[str], marks: list[tuple[str, ...]], text: str, piece: int, at: int
) -> bool:
    """True when `pieces[piece:]`, each after one of what its lost character may have been
    (`marks`), are the rest of `text` from `at` (the first of them right there)."""
    if not text.startswith(pieces[piece], at):
        return False
    at += len(pieces[piece])
    if piece == len(pieces) - 1:
        return at == len(text)
    return any(
        _pieces_match(pieces, marks, text, piece + 1, at + len(mark))
        for mark in marks[piece]
        if text.startswith(mark, at)
    )


# Texts remembered by `fold_markup`: comparing every pair of a clause's wordings folds each of
# them many times over, and a clause has at most a few dozen.
FOLDED_REMEMBERED = 4096


@lru_cache(maxsize=FOLDED_REMEMBERED)
def fold_markup(normalised: str) -> str:
    """The normalised text without markup: `_italics_`, URL brackets, angle brackets (as
    square ones), font-letter mana runs and braced font-letter mana, a spelt-out trademark
    sign glued to its word, a reference's lost space (what `formatting_key` folds besides
    characters and spaces).

    >>> fold_markup("some _Future Sight_ cards; see <www.wizards.com>")
    'some Future Sight cards; see www.wizards.com'
    >>> fold_markup('"<This creature> blocks" (<Wizards.com/WPN/Events/Rules.aspx>)')
    '"[This creature] blocks" (Wizards.com/WPN/Events/Rules.aspx)'
    >>> fold_markup(normalise("a mana cost of {o0} by paying {o3}"))
    'a mana cost of {0} by paying {3}'
    >>> fold_markup("at <MTGCommander.net>. _Odyssey_TM cards; see rule702.72")
    'at MTGCommander.net. Odyssey cards; see rule 702.72'
    """
    text = normalised
    # each pattern only where its telltale is (a scan with look-arounds costs 20 times more)
    if _FONT_SYMBOL.search(text):
        text = _FONT_MANA_RUN.sub(lambda m: _FONT_SYMBOL.sub(r"{\1}", m[0]), text)
    if "{{" in text:
        text = _BRACED_FONT_MANA.sub(r"{\1}", text)
    if "_" in text:
        text = _MARKUP.sub("", text)
    if any(telltale in text for telltale in _URL_TELLTALES):
        text = _URL_BRACKETS.sub(r"\1", text)
    if "TM" in text:
        text = _GLUED_TRADEMARK.sub("", text)
    if "rule" in text:
        text = _GLUED_REFERENCE.sub(r"\1 ", text)
    if "<" in text:
        text = text.translate(_ANGLE_BRACKETS)
    return text
