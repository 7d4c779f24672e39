"""Ids that stay distinct on a page, by one rule everywhere: an id given for the k-th time on
a page becomes `id-k`.

Pages name their elements after what they show (a clause by its number, a change by its
clause's number, a keyword's era by the era's number), and the rules sometimes give two
things one number: a release that prints 702.175 twice (2024-09-17), two clauses merged into
402 on one diff page, scry numbered 701.18 in two eras. The first keeps the plain id, which
every existing link names; the others get the suffix, in the order they come (for a release,
document order; for eras, oldest first), so that an id, once published, stays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


def nth_anchor(anchor: str, nth: int) -> str:
    """The id of the `nth` thing (from 1) on a page given `anchor`.

    >>> nth_anchor("702.175", 1), nth_anchor("702.175", 2)
    ('702.175', '702.175-2')
    """
    return anchor if nth == 1 else f"{anchor}-{nth}"


def distinct(anchors: Iterable[str]) -> list[str]:
    """The ids of things given `anchors` in page order, each repeat made distinct.

    >>> distinct(["c-402", "c-402.9", "c-402", "c-402"])
    ['c-402', 'c-402.9', 'c-402-2', 'c-402-3']
    """
    seen: Counter[str] = Counter()
    found = []
    for anchor in anchors:
        seen[anchor] += 1
        found.append(nth_anchor(anchor, seen[anchor]))
    return found
