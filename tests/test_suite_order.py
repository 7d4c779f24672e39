"""The order the two workers take the test files in (tests/conftest.py, HEAVIEST_FILES)."""

from __future__ import annotations

from pathlib import Path

from conftest import HEAVIEST_FILES


def test_every_heaviest_file_is_a_test_file() -> None:
    """A file renamed or removed would fall silently out of the order."""
    here = Path(__file__).parent
    assert [name for name in HEAVIEST_FILES if not (here / name).is_file()] == []
    assert len(set(HEAVIEST_FILES)) == len(HEAVIEST_FILES)
