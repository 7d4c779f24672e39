"""The generated `vocabulary.js` is kept in the build's cache: the same bytes as generating
it, read back on the next build, and a copy made from other code is replaced."""

from __future__ import annotations

from pathlib import Path

from renderer.vocabulary_js import cached_vocabulary_js, vocabulary_js


def test_the_kept_vocabulary_is_the_generated_one_and_is_read_back(tmp_path: Path) -> None:
    (tmp_path / "vocabulary-0000000000000000.js").write_text("made by other code")
    first = cached_vocabulary_js(tmp_path)
    assert first == vocabulary_js()
    kept = list(tmp_path.glob("vocabulary-*.js"))
    assert len(kept) == 1 and kept[0].read_bytes() == first  # the other copy is gone
    kept[0].write_bytes(b"// kept")
    assert cached_vocabulary_js(tmp_path) == b"// kept"
