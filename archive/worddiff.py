"""Word-level diffs with diff-match-patch.

Each word (and each run of spaces, each punctuation mark) is mapped to one character, the way
diff-match-patch's line mode maps lines, so the diff works on words and never cuts one in two.
The diff itself runs in diff-match-patch's compiled build (`fast-diff-match-patch`, the same
algorithm, about five times faster than the pure-Python one), the semantic clean-up in the
pure-Python build, whose tie-breaking the compiled one does not share; with no time limit the
result is independent of the machine's speed, and identical to the pure-Python engine's
(tests/test_worddiff.py checks both on generated and real text).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache

import fast_diff_match_patch
from diff_match_patch import diff_match_patch

from archive.workers import die_with_parent
from vocabulary.numbers import PLAIN_WORD, SENTENCE_BREAK, tokens

# A word (with inner apostrophes, hyphens and dots: "isn't", "face-down", "702.34") or a run
# of other characters, each with the white space after it; leading white space alone. They
# cover every character of a text, and cost diff-match-patch one character per word.
_BOUNDARY = re.compile(SENTENCE_BREAK)
_WORDS = re.compile(PLAIN_WORD)
_SURROGATES = range(0xD800, 0xE000)

DELETE, EQUAL, INSERT = -1, 0, 1
_OPS = {"-": DELETE, "=": EQUAL, "+": INSERT}  # the compiled engine's operation names
PARALLEL_FROM = 300  # pairs; below this, starting worker processes costs more than it saves
# pairs given to a worker at a time, at most: an interrupted caller waits for the chunks in
# hand (a worker leaves the interrupt to it, archive.workers), a fraction of a second each
CHUNK_PAIRS = 250
TEXTS_KEPT = 10_000  # texts cut into sentences and words: each is diffed against many
KNOWN_PAIRS = 20_000  # diffs kept for pairs that come again (site builds, long-lived callers)


def _encode(pieces: Sequence[str], codes: dict[str, str], vocabulary: list[str]) -> str:
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


@lru_cache(maxsize=TEXTS_KEPT)
def _sentences_of(text: str) -> tuple[str, ...]:
    return tuple(sentences(text))


@lru_cache(maxsize=TEXTS_KEPT)
def _tokens_of(text: str) -> tuple[str, ...]:
    return tuple(tokens(text))


def sentences(text: str) -> list[str]:
    r"""The text cut after each sentence's end and each line break; joined, the text again.

    >>> sentences("Morph is an ability. See rule 702.34.\nIt works")
    ['Morph is an ability. ', 'See rule 702.34.\n', 'It works']
    """
    pieces, start = [], 0
    for boundary in _BOUNDARY.finditer(text):
        pieces.append(text[start : boundary.end()])
        start = boundary.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def word_diff(a: str, b: str) -> list[tuple[int, str]]:
    """The word diff of `a` into `b`: `(op, text)` with op -1 (only in a), 0 (both), 1 (only in b).

    Like diff-match-patch's line mode, a first pass over whole sentences finds what is
    unchanged; only the sentences that differ are diffed word by word.

    >>> word_diff("face-down permanents in play", "face-down permanents on the battlefield")
    [(0, 'face-down permanents '), (-1, 'in play'), (1, 'on the battlefield')]
    """
    merged: list[tuple[int, str]] = []
    deleted, inserted = "", ""
    for op, text in _diff_units(_sentences_of(a), _sentences_of(b), cleanup=False):
        if op == DELETE:
            deleted += text
        elif op == INSERT:
            inserted += text
        else:
            _append_all(merged, _diff_changed(deleted, inserted))
            _append(merged, EQUAL, text)
            deleted, inserted = "", ""
    _append_all(merged, _diff_changed(deleted, inserted))
    return merged


def _diff_changed(deleted: str, inserted: str) -> list[tuple[int, str]]:
    """Word diff of a run of changed sentences, sentence by sentence where they correspond.

    Sentences correspond when they begin with the same words (or, with as many on both sides,
    by position). Every sentence touched by one small edit ("he or she" -> "they") then costs
    a short diff instead of a share of one long diff over the whole clause.
    """
    olds, news = _sentences_of(deleted), _sentences_of(inserted)
    if len(olds) < 2 and len(news) < 2:
        return _diff_units(_tokens_of(deleted), _tokens_of(inserted), cleanup=True)
    if len(olds) == len(news):
        pairs = list(zip(olds, news, strict=True))
    else:
        pairs = _corresponding(olds, news)
    return [
        piece
        for old, new in pairs
        for piece in _diff_units(_tokens_of(old), _tokens_of(new), cleanup=True)
    ]


def _corresponding(olds: Sequence[str], news: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of (old text, new text): sentences with the same opening words face each other,
    and what lies between two such pairs is compared as one piece."""
    keyed = _diff_units([_opening(s) for s in olds], [_opening(s) for s in news], cleanup=False)
    pairs, i, j = [], 0, 0
    pending_old, pending_new = "", ""
    for op, text in keyed:
        count = text.count("\n")
        if op == DELETE:
            pending_old += "".join(olds[i : i + count])
            i += count
        elif op == INSERT:
            pending_new += "".join(news[j : j + count])
            j += count
        else:
            if pending_old or pending_new:
                pairs.append((pending_old, pending_new))
                pending_old, pending_new = "", ""
            pairs.extend(zip(olds[i : i + count], news[j : j + count], strict=True))
            i, j = i + count, j + count
    if pending_old or pending_new:
        pairs.append((pending_old, pending_new))
    return pairs


def _opening(sentence: str) -> str:
    """A sentence's first four words, one line: the key that pairs sentences."""
    return " ".join(_WORDS.findall(sentence.lower())[:4]) + "\n"


def _diff_units(left: Sequence[str], right: Sequence[str], cleanup: bool) -> list[tuple[int, str]]:
    """diff-match-patch over units (words or sentences), each mapped to one character."""
    if not left or not right:
        return [(DELETE, "".join(left))] if left else [(INSERT, "".join(right))] if right else []
    codes: dict[str, str] = {}
    vocabulary = [""]  # code point 0 is never used, as in diff-match-patch's line mode
    left_code = _encode(left, codes, vocabulary)
    right_code = _encode(right, codes, vocabulary)
    diffs = [
        (_OPS[op], code)
        for op, code in fast_diff_match_patch.diff(
            left_code, right_code, timelimit=0, checklines=False, cleanup="No", counts_only=False
        )
    ]
    if cleanup:
        # The compiled engine's own semantic clean-up breaks some ties differently; Python's
        # keeps every diff identical to what the pure-Python engine gave.
        diff_match_patch().diff_cleanupSemantic(diffs)
    return [(op, _decode(code, vocabulary)) for op, code in diffs]


def units_differing(left: Sequence[str], right: Sequence[str]) -> int:
    """How many units (lines, words) of either sequence a shortest diff of the two leaves
    unmatched: what each lacks of the other, a changed unit counted once on each side.

    >>> units_differing(["b", "d", "b"], ["d", "a", "b"])
    2
    """
    codes: dict[str, str] = {}
    vocabulary = [""]
    left_code = _encode(left, codes, vocabulary)
    right_code = _encode(right, codes, vocabulary)
    counts = fast_diff_match_patch.diff(
        left_code, right_code, timelimit=0, checklines=False, cleanup="No", counts_only=True
    )
    return sum(size for op, size in counts if op != "=")


def _append_all(merged: list[tuple[int, str]], diffs: list[tuple[int, str]]) -> None:
    for op, text in diffs:
        _append(merged, op, text)


def _append(merged: list[tuple[int, str]], op: int, text: str) -> None:
    if not text:
        return
    if merged and merged[-1][0] == op:
        merged[-1] = (op, merged[-1][1] + text)
    elif op == DELETE and merged and merged[-1][0] == INSERT:
        # keep deletions before insertions, as diff-match-patch does
        if len(merged) > 1 and merged[-2][0] == DELETE:
            merged[-2] = (DELETE, merged[-2][1] + text)
        else:
            merged.insert(len(merged) - 1, (DELETE, text))
    else:
        merged.append((op, text))


Diff = list[tuple[int, str]]
_KNOWN: OrderedDict[tuple[str, str], Diff] = OrderedDict()  # (old, new) -> diff, least recent first


def word_diffs(pairs: list[tuple[str, str]], workers: int = 2) -> list[Diff]:
    """`word_diff` of each pair, in order; many pairs are shared between worker processes.

    Pairs with an empty or unchanged side, and pairs diffed before in this process, are not
    diffed again.
    """
    with WordDiffs(pairs, workers) as job:
        return job.results()


class WordDiffs:
    """`word_diffs` started now and collected later (`results`): a big job runs in `workers`
    processes while the caller does other work (one worker beside a busy caller keeps two
    cores busy). As a context manager, the workers are stopped on the way out, whether or
    not the results were collected."""

    def __init__(self, pairs: list[tuple[str, str]], workers: int = 2) -> None:
        self.pairs = pairs
        self.known = [_known(a, b) for a, b in pairs]
        self.waiting = [i for i, diff in enumerate(self.known) if diff is None]
        self.todo = todo = [pairs[i] for i in self.waiting]
        self.pool: ProcessPoolExecutor | None = None
        self.hands: list[list[int]] = []
        self.chunks: list[Future[list[Diff]]] = []
        if len(todo) < PARALLEL_FROM or workers < 1 or (os.cpu_count() or 1) < 2:
            return  # diffed here, when asked: starting processes would cost more
        # dealt costliest pairs first, so that no worker is left with the longest at the end
        order = sorted(range(len(todo)), key=lambda i: -len(todo[i][0]) - len(todo[i][1]))
        hands = max(workers * 4, -(-len(todo) // CHUNK_PAIRS))
        self.hands = [order[k::hands] for k in range(hands)]
        # a killed caller (SIGKILL: no cleanup) must not leave a worker holding its files
        self.pool = ProcessPoolExecutor(
            max_workers=workers, initializer=die_with_parent, initargs=(os.getpid(),)
        )
        self.chunks = [
            self.pool.submit(_diff_chunk, [todo[i] for i in hand]) for hand in self.hands
        ]

    def __enter__(self) -> WordDiffs:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def results(self) -> list[Diff]:
        """Each pair's diff, in order (waiting for the workers)."""
        if self.pool is None:
            computed = [word_diff(a, b) for a, b in self.todo]
        else:
            computed = [[] for _ in self.todo]
            for hand, chunk in zip(self.hands, self.chunks, strict=True):
                for i, diff in zip(hand, chunk.result(), strict=True):
                    computed[i] = diff
        results = list(self.known)
        for i, diff in zip(self.waiting, computed, strict=True):
            results[i] = diff
            _remember(self.pairs[i], diff)
        return [list(diff) for diff in results if diff is not None]


def needs_diffing(a: str, b: str) -> bool:
    """Only two different, non-empty texts need a word diff (the others are one operation)."""
    return bool(a) and bool(b) and a != b


def one_operation(a: str, b: str) -> Diff | None:
    """The diff of `a` into `b` when it needs no diffing (`needs_diffing`), else None.

    >>> one_operation("", "new rule"), one_operation("old rule", "")
    ([(1, 'new rule')], [(-1, 'old rule')])
    """
    if needs_diffing(a, b):
        return None
    if a == b:
        return [(EQUAL, a)] if a else []
    return [(INSERT, b)] if b else [(DELETE, a)]


def _known(a: str, b: str) -> Diff | None:
    """The diff of `a` into `b` when it needs no diffing, or was diffed before; else None."""
    diff = one_operation(a, b)
    if diff is not None:
        return diff
    diff = _KNOWN.get((a, b))
    if diff is not None:
        _KNOWN.move_to_end((a, b))
    return diff


def _remember(pair: tuple[str, str], diff: Diff) -> None:
    _KNOWN[pair] = diff
    if len(_KNOWN) > KNOWN_PAIRS:
        _KNOWN.popitem(last=False)


def _diff_chunk(pairs: list[tuple[str, str]]) -> list[Diff]:
    return [word_diff(a, b) for a, b in pairs]


_SIGN = {DELETE: "-", EQUAL: "=", INSERT: "+"}
_SHAPE_SIGN = re.compile(r"([-=+])")  # splits a shape into signs and lengths


# How texts are cut into sentences and words; part of every kept diff's key, so that diffs
# kept by another cutting (in a store, in a build's cache) are never read as this one's.
# Bump it when `word_diff` can give another result for the same two texts.
WORD_DIFF_VERSION = 2


def pair_key(a: str, b: str) -> str:
    """The key of the diff of `a` into `b` where diffs are kept (sha1 of both texts and
    WORD_DIFF_VERSION)."""
    return hashlib.sha1(f"{WORD_DIFF_VERSION}\x00{a}\x00{b}".encode()).hexdigest()


def diff_shape(diff: Diff) -> str:
    """A diff without its texts: each operation and its length, as in "=12-3+5".

    The texts come back from the two sides (`diff_of_shape`), so a stored diff costs a few
    bytes.

    >>> diff_shape([(0, "face-down "), (-1, "in play"), (1, "on the battlefield")])
    '=10-7+18'
    """
    return "".join(f"{_SIGN[op]}{len(text)}" for op, text in diff)


def diff_of_shape(shape: str, a: str, b: str) -> Diff:
    """The diff of `a` into `b` that `diff_shape` gave `shape`.

    >>> diff_of_shape("=10-7+18", "face-down in play", "face-down on the battlefield")
    [(0, 'face-down '), (-1, 'in play'), (1, 'on the battlefield')]
    """
    diff: Diff = []
    i = j = 0
    steps = _SHAPE_SIGN.split(shape)  # "", sign, length, sign, length...
    for k in range(1, len(steps), 2):
        sign, size = steps[k], int(steps[k + 1])
        if sign == "=":
            diff.append((EQUAL, a[i : i + size]))
            i, j = i + size, j + size
        elif sign == "-":
            diff.append((DELETE, a[i : i + size]))
            i += size
        else:
            diff.append((INSERT, b[j : j + size]))
            j += size
    return diff


def old_side(diff: list[tuple[int, str]]) -> str:
    return "".join(text for op, text in diff if op != INSERT)


def new_side(diff: list[tuple[int, str]]) -> str:
    return "".join(text for op, text in diff if op != DELETE)
