"""A site rebuilt after one new release, as `rules-history update` and the bench's rebuild do
it: the pages the release changes are rendered again from histories of which only those
pages' are finished (renderer.pages_history), and what the others show must be read from the
cheap part. The home page once read a count only a finished history holds, and the rebuild
stopped there."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SMALL_RELEASES, make_captures_dir

from archive.store import open_reader, open_store
from renderer.build import build_site
from rules_history.pipeline import update_store

# The small store's last three releases (2021's move of 707 to 708, then 2024's face-down
# rules): the site of all ten was built three times here, two minutes of a slow machine.
RELEASES = SMALL_RELEASES[-3:]
BEFORE = RELEASES[:-1]  # then the newest is added, as the bench's rebuild does


def test_a_rebuild_after_one_new_release_renders_what_a_build_from_nothing_does(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rules.db"
    update_store(open_store(path), make_captures_dir(tmp_path / "before", BEFORE))
    out = tmp_path / "site"
    build_site(open_reader(str(path)), out, search=False)
    update_store(open_store(path), make_captures_dir(tmp_path / "after", RELEASES))
    report = build_site(open_reader(str(path)), out, search=False)
    assert 0 < report.pages_rendered < report.pages_rendered + report.pages_skipped
    fresh = tmp_path / "fresh"
    build_site(open_reader(str(path)), fresh, search=False)
    home, expected = (out / "index.html").read_text(), (fresh / "index.html").read_text()
    assert home == expected
    counted = re.search(r"<p>(\d+ wordings?[^;]*); ", home)
    assert counted, "the home page counts the face-down rule's wordings"
    # Every file, not only the home page: a page the rebuild skipped must be the page a
    # build from nothing writes.
    rebuilt, built = _files(out), _files(fresh)
    assert sorted(rebuilt) == sorted(built)
    differ = [name for name in built if rebuilt[name] != built[name]]
    assert not differ, f"{len(differ)} files differ, among them {differ[:5]}"


def _files(site: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(site)): path.read_bytes() for path in site.rglob("*") if path.is_file()
    }
