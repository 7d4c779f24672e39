"""What a number page says a clause was numbered on the days the number was unused: the
steps of its numbers over the releases agree with reading them release by release."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from renderer.model import NumberSteps

RELEASES = 30
NUMBERS = st.sampled_from([(), ("702.36",), ("702.37",), ("702.37", "702.37a")])
TABLES = st.dictionaries(st.integers(0, RELEASES - 1), NUMBERS, max_size=RELEASES)
STRETCHES = st.tuples(st.integers(0, RELEASES), st.integers(0, RELEASES)).filter(
    lambda stretch: stretch[0] < stretch[1]
)


def _release_by_release(table: dict[int, tuple[str, ...]], first: int, end: int) -> list:
    """Each release from `first` where the numbers differ from the release before."""
    found: list[tuple[int, tuple[str, ...]]] = []
    for at in range(first, end):
        numbers = table.get(at, ())
        if not found or found[-1][1] != numbers:
            found.append((at, numbers))
    return found


@given(TABLES, STRETCHES)
def test_the_steps_say_what_each_release_says(table, stretch) -> None:
    first, end = stretch
    assert NumberSteps.of(table).between(first, end) == _release_by_release(table, first, end)


def test_a_clause_that_left_and_came_back_has_a_step_for_each() -> None:
    steps = NumberSteps.of({2: ("502.26",), 3: ("502.26",), 7: ("702.36",)})
    assert steps.between(0, 10) == [(0, ()), (2, ("502.26",)), (4, ()), (7, ("702.36",)), (8, ())]
    assert steps.between(3, 7) == [(3, ("502.26",)), (4, ())]
