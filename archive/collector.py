"""CPython's cyclic garbage collector, kept off data that is built to stay.

A full collection walks every tracked object, and one starts whenever the objects that
survived since the last one reach a quarter of those it kept before. Loading a model of
hundreds of thousands of tuples and dicts that all stay alive, none of them in a cycle,
therefore walks them again and again and finds nothing. The pipeline's writing stages
(ingest, lineage, derived answers, examples) and the site build pause it for that reason.
The work here makes no cycle that matters: the few it makes are collected later, when the
collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection while the block builds its data. Nor once more when it ends:
    what it built joins the oldest generation unwalked (`gc.freeze` then `gc.unfreeze` move
    every tracked object there at no cost), where a full collection, much later, sees it;
    walking it at once, at the first allocation after, would cost as much as a collection
    inside the block."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            resume_collection()


def resume_collection() -> None:
    """Collect again, what was built while paused joining the oldest generation unwalked
    (`collector_paused`; and a process forked inside such a block, which never leaves it)."""
    gc.freeze()
    gc.unfreeze()
    gc.enable()


@contextmanager
def heap_frozen() -> Iterator[None]:
    """Every object alive now is left out of each collection while the block runs: in this
    process, and in the processes it forks, whose collections would otherwise walk (and so
    write to, and copy page by page) all that they share with their parent."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
