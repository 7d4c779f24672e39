"""`renderer.writer.write_if_changed`: a page is written when its bytes are new, its folders
made as needed, and a file that already holds those bytes is left as it is (its inode and
time kept). A build writes every page through it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renderer.writer import write_if_changed

FOLDERS = ["", "rule", "rule/702.37", "rule/702.37/2024-06-07", "history/2001-07-23/504.2"]


def test_a_page_in_new_folders_is_written(tmp_path: Path) -> None:
    assert write_if_changed(tmp_path, "rule/702.37/2024-06-07/index.html", b"morph")
    assert (tmp_path / "rule/702.37/2024-06-07/index.html").read_bytes() == b"morph"
    assert write_if_changed(tmp_path, "rule/702.37/index.html", b"number")  # folder exists
    assert write_if_changed(tmp_path, "index.html", b"home")  # in the publish folder itself


def test_the_same_bytes_leave_the_file_as_it_was(tmp_path: Path) -> None:
    write_if_changed(tmp_path, "rule/504.2/index.html", b"face-down")
    page = tmp_path / "rule/504.2/index.html"
    before = page.stat()
    assert not write_if_changed(tmp_path, "rule/504.2/index.html", b"face-down")
    after = page.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_other_bytes_of_the_same_length_or_not_are_written(tmp_path: Path) -> None:
    write_if_changed(tmp_path, "diff/a/index.html", b"in play")
    assert write_if_changed(tmp_path, "diff/a/index.html", b"in hand")  # same length
    assert (tmp_path / "diff/a/index.html").read_bytes() == b"in hand"
    assert write_if_changed(tmp_path, "diff/a/index.html", b"on the battlefield")
    assert (tmp_path / "diff/a/index.html").read_bytes() == b"on the battlefield"


def test_an_empty_folder_left_by_an_earlier_build_gets_its_page(tmp_path: Path) -> None:
    (tmp_path / "keyword/morph").mkdir(parents=True)
    assert write_if_changed(tmp_path, "keyword/morph/index.html", b"morph")
    assert (tmp_path / "keyword/morph/index.html").read_bytes() == b"morph"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(FOLDERS), st.sampled_from([b"", b"a", b"b", b"ab", b"ba"])),
        max_size=30,
    )
)
def test_the_tree_holds_the_last_bytes_and_only_changes_are_written(
    tmp_path_factory: pytest.TempPathFactory, writes: list[tuple[str, bytes]]
) -> None:
    out = tmp_path_factory.mktemp("site")
    last: dict[str, bytes] = {}
    for folder, data in writes:
        path = f"{folder}/index.html" if folder else "index.html"
        assert write_if_changed(out, path, data) == (last.get(path) != data)
        last[path] = data
    for path, data in last.items():
        assert (out / path).read_bytes() == data
