"""A new release does not re-render every page; a renamed release does (names are on every page)."""

from __future__ import annotations

from pathlib import Path

from renderer.writer import SiteWriter


def _build(out: Path, state: Path, names: dict[str, str | None]) -> SiteWriter:
    writer = SiteWriter(out, "code", state, names)
    writer.page("a/index.html", lambda: "<p>a</p>", "key-a")
    list(writer.render_all(1))
    writer.finish()
    return writer


def test_an_added_release_keeps_the_pages_and_a_renamed_one_renders_them_again(
    tmp_path: Path,
) -> None:
    out, state = tmp_path / "out", tmp_path / "state"
    state.mkdir()
    first = _build(out, state, {"2009-07-08": "Magic 2010"})
    assert first.rendered == 1
    added = _build(out, state, {"2009-07-08": "Magic 2010", "2009-10-05": None})
    assert (added.rendered, added.skipped) == (0, 1)
    renamed = _build(out, state, {"2009-07-08": "M10", "2009-10-05": None})
    assert (renamed.rendered, renamed.skipped) == (1, 0)
