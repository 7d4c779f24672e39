"""Word-level diffs with diff-match-patch.

Each word (and each run of spaces, each punctuation mark) is mapped to one character, the way
diff-match-patch's line mode maps lines, so the diff works on words and never cuts one in two.
`Diff_Timeout = 0` makes the result independent of the machine's speed.
"""

from __future__ import annotations

import re

from diff_match_patch import diff_match_patch

# Words (with inner apostrophes and hyphens), runs of white space, single other characters:
# together they cover every character of a text.
_TOKEN = re.compile(r"\s+|\w+(?:['\u2019-]\w+)*|[^\w\s]")
_SURROGATES = range(0xD800, 0xE000)

DELETE, EQUAL, INSERT = -1, 0, 1


def tokens(text: str) -> list[str]:
    """The pieces `word_diff` compares; joined, they are the text again.

    >>> tokens("see rule 504.2.")
    ['see', ' ', 'rule', ' ', '504', '.', '2', '.']
    """
    return _TOKEN.findall(text)


def _encode(pieces: list[str], codes: dict[str, str], vocabulary: list[str]) -> str:
    chars = []
    for piece in pieces:
        code = codes.get(piece)
        if code is None:
            point = len(vocabulary)
            if point >= _SURROGATES.start:
                point += len(_SURROGATES)
            code = chr(point)
            codes[piece] = code
            vocabulary.append(piece)
        chars.append(code)
    return "".join(chars)


def _decode(code: str, vocabulary: list[str]) -> str:
    pieces = []
    for char in code:
        point = ord(char)
        if point >= _SURROGATES.stop:
            point -= len(_SURROGATES)
        pieces.append(vocabulary[point])
    return "".join(pieces)


def word_diff(a: str, b: str) -> list[tuple[int, str]]:
    """The word diff of `a` into `b`: `(op, text)` with op -1 (only in a), 0 (both), 1 (only in b).

    >>> word_diff("face-down permanents in play", "face-down permanents on the battlefield")
    [(0, 'face-down permanents '), (-1, 'in play'), (1, 'on the battlefield')]
    """
    codes: dict[str, str] = {}
    vocabulary = [""]  # code point 0 is never used, as in diff-match-patch's line mode
    left = _encode(tokens(a), codes, vocabulary)
    right = _encode(tokens(b), codes, vocabulary)
    engine = diff_match_patch()
    engine.Diff_Timeout = 0
    diffs = engine.diff_main(left, right, False)
    engine.diff_cleanupSemantic(diffs)
    merged: list[tuple[int, str]] = []
    for op, code in diffs:
        text = _decode(code, vocabulary)
        if merged and merged[-1][0] == op:
            merged[-1] = (op, merged[-1][1] + text)
        elif text:
            merged.append((op, text))
    return merged


def old_side(diff: list[tuple[int, str]]) -> str:
    return "".join(text for op, text in diff if op != INSERT)


def new_side(diff: list[tuple[int, str]]) -> str:
    return "".join(text for op, text in diff if op != DELETE)
