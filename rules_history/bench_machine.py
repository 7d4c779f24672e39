"""How fast the machine running `rules-history bench` is, so its figures can be read beside
those of another machine.

The targets are seconds on two cores, but two machines with two cores are not alike: the
same code's lineage build took 8.8 s on one and 13.4 s on the next, the full site build 29 s
and 40 s. A fixed piece of interpreter work, timed before the rest, says how much of such a
difference is the machine: figures from two machines compare once each is divided by its
yardstick.
"""

from __future__ import annotations

import os
import platform
import re
import statistics
import time
from collections import Counter
from typing import Any

# The work, shaped like the pipeline's (words counted, matched and sorted in pure Python):
# this many pseudo-random "sentences" of SENTENCE_WORDS words from a small vocabulary.
SENTENCES = 40_000
SENTENCE_WORDS = 12
_WORDS = (
    "the a creature player spell ability permanent card turn step phase counter target each "
    "that its under control battlefield graveyard library exile face-down morph 702.37 708.2 "
    "rule cost mana attack block damage"
)
VOCABULARY = tuple(_WORDS.split())
YARDSTICK_RUNS = 3  # its figure is their median: one run is moved by the machine's noise
_NUMBER = re.compile(r"\b\d{3}\.\d+[a-z]?\b")


def _interpreter_work() -> int:
    """Counts words and matches rule numbers in text made by a fixed linear congruential
    sequence (the same text on every machine); returns a checksum so none of it is idle."""
    seed, total, counts = 12345, 0, Counter[str]()
    for _sentence in range(SENTENCES):
        words = []
        for _word in range(SENTENCE_WORDS):
            seed = (seed * 1103515245 + 12345) % 2**31
            words.append(VOCABULARY[seed % len(VOCABULARY)])
        text = " ".join(words)
        counts.update(text.split())
        total += len(_NUMBER.findall(text))
    return total + len(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def machine_figures() -> dict[str, Any]:
    """The machine's cores, Python and the seconds of the fixed interpreter work (median)."""
    runs = []
    for _run in range(YARDSTICK_RUNS):
        start = time.perf_counter()
        _interpreter_work()
        runs.append(time.perf_counter() - start)
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "cpu_yardstick_seconds": round(statistics.median(runs), 3),
        "cpu_yardstick_work": f"{SENTENCES} sentences of {SENTENCE_WORDS} words counted",
    }
