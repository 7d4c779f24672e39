"""The word-set search gives what rapidfuzz's extract gives over every pair, fewer pairs
scored: random texts over a small vocabulary (so that sets overlap and hold one another)
at the cutoffs the aligner uses, and the 2009 rewrite's clauses themselves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process
from sqlite_utils import Database

from lineage.align import MOVED, MOVED_LEFT
from lineage.store import load_clauses
from lineage.word_sets import WordSetSearch, shared_share
from lineage.words import WordCodes

WORDS = [chr(0x10000 + i) for i in range(12)]  # code characters, as `WordCodes` makes them
texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=14).map("".join)


def extracted(query: str, choices: list[str], cutoff: float, limit: int) -> list[tuple[float, int]]:
    found = process.extract(
        " ".join(query),
        [" ".join(choice) for choice in choices],
        scorer=fuzz.token_set_ratio,
        limit=limit,
        score_cutoff=cutoff,
    )
    return [(score, index) for _choice, score, index in found]


@settings(max_examples=400, deadline=None)
@given(
    queries=st.lists(texts, min_size=1, max_size=6),
    choices=st.lists(texts, min_size=1, max_size=25),
    cutoff=st.sampled_from([MOVED_LEFT, MOVED, 60.0, 95.0]),
    limit=st.integers(min_value=1, max_value=4),
)
def test_the_search_finds_what_extract_finds(
    queries: list[str], choices: list[str], cutoff: float, limit: int
) -> None:
    search = WordSetSearch(choices, cutoff)
    for query in queries:
        assert search.extract(query, limit) == extracted(query, choices, cutoff, limit)


# The share of all pairs scored: at 85 a pair shares 70% of its smaller set, and few do;
# at 70 only 40%, and the common words of short clauses let about half the pairs through.
@pytest.mark.parametrize(("cutoff", "scored_at_most"), [(MOVED_LEFT, 1 / 2), (MOVED, 1 / 4)])
def test_the_search_finds_what_extract_finds_in_the_2009_rewrite(
    full_store: Database, cutoff: float, scored_at_most: float
) -> None:
    codes = WordCodes()
    old = [codes.encode(c.normalised) for c in load_clauses(full_store, "2009-05-01")]
    new = [codes.encode(c.normalised) for c in load_clauses(full_store, "2009-07-08")]
    search = WordSetSearch(old, cutoff)
    scored = 0
    for query in new[::14]:  # one clause in fourteen: every kind of clause, in a few seconds
        assert search.extract(query, 3) == extracted(query, old, cutoff, 3)
        scored += len(search.candidates(query))
    assert scored < len(old) * len(new[::14]) * scored_at_most


def test_a_high_score_needs_most_of_the_smaller_set() -> None:
    """At 85 (a far move) a pair shares at least 70% of its smaller set; at 70, 40%."""
    assert shared_share(MOVED) == pytest.approx(0.7, abs=0.001)
    assert shared_share(MOVED_LEFT) == pytest.approx(0.4, abs=0.001)
