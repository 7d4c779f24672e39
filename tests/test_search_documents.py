"""The documents Pagefind indexes stay between builds: a rebuild writes only what changed."""

from __future__ import annotations

from pathlib import Path

from renderer.search import _documents


def _record(url: str, content: str) -> dict[str, object]:
    return {"title": url, "url": url, "years": ["2024"], "content": content, "meta": {}}


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """name -> (inode, modification time) of each file in `folder`."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.iterdir()}


def test_a_rebuild_rewrites_only_the_records_that_changed(tmp_path: Path) -> None:
    folder = tmp_path / "documents"
    records = [_record(f"/history/2024-06-07/708.{i}/", f"wording {i}") for i in range(1, 6)]
    _documents(folder, records)
    before = _files(folder)
    assert len(before) == 5

    records[2] = _record("/history/2024-06-07/708.3/", "a new wording")
    _documents(folder, records)
    after = _files(folder)

    assert len(after) == 5
    assert len(set(before.items()) & set(after.items())) == 4  # untouched: same file, same time
    (changed,) = set(after) - set(before)
    assert "a new wording" in (folder / changed).read_text(encoding="utf-8")


def test_what_a_killed_build_left_is_removed_and_each_name_matches_its_record(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "0123.html.partial").write_text("cut short")
    (folder / "stray.html").write_text("from another build")
    records = [_record("/history/2002-10-01/502.26/", "Morph"), _record("/rule/708.2/", "x")]

    _documents(folder, records)

    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 2 and all(name.endswith(".html") for name in names)
    bodies = [(folder / name).read_text(encoding="utf-8") for name in names]
    assert sorted("502.26" in body for body in bodies) == [False, True]
