"""Page families prepared and rendered in a process of their own beside the rest of a build
(renderer.forked_family): the rule pages in a rebuild, the rule and keyword pages in a build
from nothing; either way the same site as a build in one process, and a failure on either
side stops the build and leaves no process behind."""

from __future__ import annotations

import filecmp
import json
import multiprocessing
import shutil
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

import renderer.build
from renderer.build import FAMILY_FROM_NOTHING, FAMILY_IN_A_REBUILD, build_site
from renderer.progress import Progress
from renderer.state import MANIFEST, site_state


class StagesHeard(Progress):
    """A progress bar that shows nothing and keeps the names of the stages it was told."""

    def __init__(self) -> None:
        super().__init__(disable=True)
        self.heard: list[str] = []

    def stage(self, name: str) -> None:
        self.heard.append(name)
        super().stage(name)


def _forked(heard: StagesHeard, families: tuple[str, ...]) -> bool:
    label = " and ".join(families)
    return any(name == f"{label} (begun in a process of its own)" for name in heard.heard)


def test_a_rebuild_prepares_the_rule_pages_beside_and_agrees_with_one_process(
    small_site: Path, small_lineage: Database, tmp_path: Path
) -> None:
    """Over a copy of the test run's site, a rebuild with two workers prepares and renders
    the rule pages in a process of its own, and a rebuild in one process does all in this
    one: both compute every key alike (nothing to render), and the rule pages are in the
    manifest the forked process added to."""
    out = tmp_path / "_site"
    shutil.copytree(small_site, out)
    shutil.copytree(site_state(small_site), site_state(out))
    heard = StagesHeard()
    beside = build_site(small_lineage, out, search=False, workers=2, progress=heard)
    assert _forked(heard, FAMILY_IN_A_REBUILD)
    assert (beside.pages_rendered, beside.files_changed) == (0, 0)
    pages = json.loads((site_state(out) / MANIFEST).read_text())["pages"]
    assert sum(path.startswith("rule/") for path in pages) > 1000
    alone = build_site(small_lineage, out, search=False, workers=1)
    assert (alone.pages_rendered, alone.files_changed) == (0, 0)


def test_a_build_from_nothing_shares_the_pages_out_and_writes_what_one_process_does(
    tiny_lineage: Database, tmp_path: Path
) -> None:
    """A first build with two workers renders the rule and keyword pages in a process of its
    own (the next build, a rebuild, forks the rule pages alone); every file it writes, and
    its manifest, are the ones a build in one process writes."""
    heard = StagesHeard()
    shared = build_site(tiny_lineage, tmp_path / "two", search=False, workers=2, progress=heard)
    assert shared.pages_rendered > 0 and _forked(heard, FAMILY_FROM_NOTHING)
    alone = build_site(tiny_lineage, tmp_path / "one", search=False, workers=1)
    assert (shared.pages_rendered, shared.files_changed) == (
        alone.pages_rendered,
        alone.files_changed,
    )
    _assert_same_files(tmp_path / "two", tmp_path / "one")
    manifests = [
        json.loads((site_state(tmp_path / name) / MANIFEST).read_text()) for name in ("two", "one")
    ]
    assert manifests[0]["pages"] == manifests[1]["pages"]
    assert any(path.startswith("keyword/") for path in manifests[0]["pages"])
    heard = StagesHeard()
    build_site(tiny_lineage, tmp_path / "two", search=False, workers=2, progress=heard)
    assert _forked(heard, FAMILY_IN_A_REBUILD)


def _assert_same_files(left: Path, right: Path) -> None:
    """Every file under `left` and `right` the same, by name and byte for byte."""
    names = [
        sorted(p.relative_to(top) for p in top.rglob("*") if p.is_file()) for top in (left, right)
    ]
    assert names[0] == names[1]
    _match, mismatch, errors = filecmp.cmpfiles(left, right, names[0], shallow=False)
    assert (mismatch, errors) == ([], [])


def _built(db: Database, out: Path) -> Path:
    """`out` built once, so that the next build is a rebuild (the one that forks a family)."""
    build_site(db, out, search=False, workers=2)
    return out


def test_a_failure_beside_the_build_stops_it(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_site: object) -> None:
        raise LookupError("no runs for 702.37")

    out = _built(tiny_lineage, tmp_path / "_site")
    monkeypatch.setattr(renderer.build, "build_rules", broken)
    with pytest.raises(LookupError, match="no runs for 702.37"):
        build_site(tiny_lineage, out, search=False, workers=2)
    assert not multiprocessing.active_children()


def test_a_failure_in_the_build_ends_the_process_beside_it(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def endless(_site: object) -> None:
        time.sleep(3600)  # still preparing when the build fails

    def broken(_site: object, _histories: object) -> None:
        raise RuntimeError("the home page failed")

    out = _built(tiny_lineage, tmp_path / "_site")
    monkeypatch.setattr(renderer.build, "build_rules", endless)
    monkeypatch.setattr(renderer.build, "build_home", broken)
    with pytest.raises(RuntimeError, match="the home page failed"):
        build_site(tiny_lineage, out, search=False, workers=2)
    assert not multiprocessing.active_children()
