"""A page's key is a function of its context's values: equal contexts, equal keys."""

from __future__ import annotations

from renderer.writer import context_key


def test_equal_contexts_have_one_key_whether_or_not_they_share_objects() -> None:
    dates = ["2008-02-01", "2024-06-07"]
    shared = {"releases": dates, "shown": dates, "number": "708.2"}
    repeated = {"releases": list(dates), "shown": list(dates), "number": "708.2"}
    assert context_key(shared) == context_key(repeated)


def test_a_change_of_any_value_or_of_order_changes_the_key() -> None:
    context = {"number": "708.2", "spans": [("2024-06-07", None)], "weak": False}
    assert context_key(context) != context_key({**context, "number": "708.3"})
    assert context_key(context) != context_key({**context, "weak": 0})
    assert context_key(context) != context_key({**context, "spans": [["2024-06-07", None]]})
    assert context_key(context) != context_key(dict(reversed(list(context.items()))))
