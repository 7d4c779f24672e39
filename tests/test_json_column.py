"""Decoding a column's JSON texts at once gives what decoding each one gives."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from renderer.json_column import decode_each

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.lists(JSON_VALUES, max_size=20))
def test_decoding_at_once_is_decoding_each(values: list[object]) -> None:
    texts = [json.dumps(value) for value in values]
    assert decode_each(texts) == [json.loads(text) for text in texts]


def test_a_generator_is_read_once() -> None:
    texts = (json.dumps([number]) for number in ("504.2", "708.2"))
    assert decode_each(texts) == [["504.2"], ["708.2"]]
