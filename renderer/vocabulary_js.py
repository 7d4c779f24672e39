"""`static/vocabulary.js`: the shared vocabulary, generated for the browser at build time.

The word tokeniser, the sentence cuts of the word diff, the rule-number pattern, the change
kinds and how names are folded come from `vocabulary` and are never retyped in JavaScript.
Python's `\\w`, `\\s` and `\\d` match Unicode letters, spaces and digits, JavaScript's only
ASCII: each is written out as the exact set of code points Python's `re` matches, so both read
every text alike. The same goes for the character classes diff-match-patch's semantic clean-up
scores (`str.isalnum`, `str.isspace` in Python, ASCII regexes in JavaScript), which
`compare.js` replaces.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

import vocabulary.days
import vocabulary.kind_names
import vocabulary.kinds
import vocabulary.names
import vocabulary.numbers
from vocabulary.days import IN_FORCE, NOT_YET_IN_EFFECT, OVERTAKEN, TO_COME
from vocabulary.kind_names import term_label
from vocabulary.kinds import CHANGE_KINDS, QUIET_KINDS
from vocabulary.names import DASHES, GLOSSARY_MARK, NOTE, QUOTES
from vocabulary.numbers import PLAIN_WORD, RULE_NUMBER, SENTENCE_BREAK, WORD_TOKEN

NAME = "vocabulary.js"
LAST_CODE_POINT = 0x10FFFF
SURROGATES = range(0xD800, 0xE000)
# Escapes JavaScript's RegExp keeps in unicode mode; any other escaped character stands for
# itself there only without the backslash (unicode mode refuses `\"`).
KEPT_ESCAPES = set("^$\\.*+?()[]{}|/-nrtfvbB")
SHORTHANDS = ("w", "s", "d")


@cache
def _every_character() -> str:
    """Every code point but the surrogates, in order."""
    return "".join(chr(c) for c in range(LAST_CODE_POINT + 1) if c not in SURROGATES)


def _class_body(points: Iterable[int]) -> str:
    """`\\u{..}-\\u{..}` ranges covering the given code points (sorted)."""
    body: list[str] = []
    start = end = -2
    for point in points:
        if point == end + 1:
            end = point
            continue
        if start >= 0:
            body.append(_range(start, end))
        start = end = point
    if start >= 0:
        body.append(_range(start, end))
    return "".join(body)


def _range(start: int, end: int) -> str:
    if start == end:
        return f"\\u{{{start:X}}}"
    return f"\\u{{{start:X}}}-\\u{{{end:X}}}"


@cache
def shorthand_class(letter: str) -> str:
    """The body of a character class matching what Python's `\\w`, `\\s` or `\\d` match."""
    runs = re.finditer(f"\\{letter}+", _every_character())
    return _class_body(ord(c) for run in runs for c in run.group())


def predicate_class(test: Callable[[str], bool]) -> str:
    return _class_body(ord(c) for c in _every_character() if test(c))


def to_javascript(pattern: str, shorthand: Callable[[str], str] = shorthand_class) -> str:
    """A Python regex source as a JavaScript RegExp source for the `u` flag, same matches.

    `shorthand` gives what stands for `\\w`, `\\s` or `\\d` (a class body)."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escaped = pattern[i + 1]
            i += 2
            if escaped in SHORTHANDS:
                body = shorthand(escaped)
                out.append(body if in_class else f"[{body}]")
            elif escaped == "u":
                out.append("\\u" + pattern[i : i + 4])
                i += 4
            elif escaped in KEPT_ESCAPES:
                out.append("\\" + escaped)
            else:
                out.append(escaped)
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        out.append(char)
        i += 1
    return "".join(out)


def _expression(source: str) -> str:
    """A JavaScript expression for the pattern: string literals joined with the class
    variables `w`, `s` and `d` (each class is written once in the file)."""
    marker = "\0"
    translated = to_javascript(source, lambda letter: marker + letter + marker)
    pieces = translated.split(marker)
    # Pieces alternate: literal, class letter, literal, ...
    return (
        " + ".join(
            piece if odd else json.dumps(piece)
            for odd, piece in ((i % 2 == 1, piece) for i, piece in enumerate(pieces))
            if odd or piece
        )
        or '""'
    )


@cache
def casefold_exceptions() -> dict[str, str]:
    """Lower-case character -> its case fold, where Python's `str.casefold` goes further than
    lower-casing ("ß" is "ss"): JavaScript has `toLowerCase` only, and `vocabulary.names.fold`
    folds case."""
    found: dict[str, str] = {}
    for char in _every_character():
        lower, folded = char.lower(), char.casefold()
        if folded != lower and len(lower) == 1:
            assert found.get(lower, folded) == folded, f"two case folds of {lower!r}"
            found[lower] = folded
    return found


def vocabulary_js() -> bytes:
    """The generated file's bytes."""
    patterns = {
        "nameNote": NOTE,
        "glossaryMark": GLOSSARY_MARK,
        "wordToken": WORD_TOKEN,
        "sentenceBreak": SENTENCE_BREAK,
        "plainWord": PLAIN_WORD,
        "ruleNumber": RULE_NUMBER.pattern,
    }
    kinds = [
        {"value": kind.value, "label": kind.label, "termLabel": term_label(kind)}
        for kind in CHANGE_KINDS
    ]
    # how a day's answer names its release (vocabulary.days.day_standing; static/asof.js)
    standings = {"inForce": IN_FORCE, "notYet": NOT_YET_IN_EFFECT, "overtaken": OVERTAKEN}
    lines = [
        "// Generated at build time from the Python package `vocabulary`: do not edit.",
        "(function () {",
        *(f"  var {letter} = {json.dumps(shorthand_class(letter))};" for letter in SHORTHANDS),
        "  window.rulesVocabulary = {",
        *(f"    {name}: {_expression(source)}," for name, source in sorted(patterns.items())),
        f"    alnum: {json.dumps(predicate_class(str.isalnum))},",
        f"    space: {json.dumps(predicate_class(str.isspace))},",
        f"    nameDashes: {json.dumps(DASHES)},",
        f"    nameQuotes: {json.dumps(QUOTES)},",
        f"    caseFolds: {json.dumps(casefold_exceptions(), ensure_ascii=False, sort_keys=True)},",
        f"    kinds: {json.dumps(kinds)},",
        f"    quiet: {json.dumps(sorted(kind.value for kind in QUIET_KINDS))},",
        f"    toCome: {json.dumps(TO_COME)},",
        f"    standings: {json.dumps(standings)}",
        "  };",
        "})();",
        "",
    ]
    return "\n".join(lines).encode("utf-8")


def cached_vocabulary_js(folder: Path) -> bytes:
    """`vocabulary_js()`, kept in `folder` (the build's cache) under a key of what it is made
    from: scanning every code point takes a second or two, on every build otherwise."""
    digest = hashlib.sha256(f"{sys.version}|{unicodedata.unidata_version}".encode())
    modules = (
        vocabulary.days,
        vocabulary.kinds,
        vocabulary.kind_names,
        vocabulary.names,
        vocabulary.numbers,
    )
    for module in (sys.modules[__name__], *modules):
        digest.update(Path(str(module.__file__)).read_bytes())
    kept = folder / f"vocabulary-{digest.hexdigest()[:16]}.js"
    if kept.is_file():
        return kept.read_bytes()
    data = vocabulary_js()
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("vocabulary-*.js"):
        old.unlink()
    partial = kept.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(kept)
    return data
