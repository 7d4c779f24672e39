"""Pages no build of this site recorded are removed from the page folders, unless the build
made those folders itself (then nothing else can be in them, and they are not walked)."""

from __future__ import annotations

from pathlib import Path

from renderer.writer import SiteWriter


def _build_one_page(out: Path, state: Path) -> list[str]:
    writer = SiteWriter(out, "code", state)
    writer.page("rule/100.1/index.html", lambda: "<p>100.1</p>", "key")
    list(writer.render_all(1))
    return writer.finish()


def test_a_page_left_in_a_page_folder_with_no_manifest_is_removed(tmp_path: Path) -> None:
    out, state = tmp_path / "out", tmp_path / "state"
    state.mkdir()
    left = out / "rule" / "999.9" / "index.html"  # say, of a build whose state folder is gone
    left.parent.mkdir(parents=True)
    left.write_text("<p>a rule this archive never had</p>")
    assert _build_one_page(out, state) == ["rule/999.9/index.html"]
    assert not left.exists()
    assert (out / "rule" / "100.1" / "index.html").read_text() == "<p>100.1</p>"


def test_a_build_into_an_empty_folder_keeps_every_file_it_wrote(tmp_path: Path) -> None:
    out, state = tmp_path / "out", tmp_path / "state"
    state.mkdir()
    (out / "notes").mkdir(parents=True)  # a folder the site does not own stays as it is
    (out / "notes" / "index.html").write_text("mine")
    assert _build_one_page(out, state) == []
    assert (out / "rule" / "100.1" / "index.html").exists()
    assert (out / "notes" / "index.html").read_text() == "mine"
