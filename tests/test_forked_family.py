"""The rule pages, prepared and rendered in a process of their own beside the rest of a
rebuild (renderer.forked_family): the same site as a build in one process, never forked for
a build from nothing, and a failure on either side stops the build and leaves no process
behind."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

import renderer.build
from renderer.build import FORKED_STEP, build_site
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


def _forked(heard: StagesHeard) -> bool:
    return any(name.startswith(f"{FORKED_STEP} (begun in a process") for name in heard.heard)


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
    assert _forked(heard)
    assert (beside.pages_rendered, beside.files_changed) == (0, 0)
    pages = json.loads((site_state(out) / MANIFEST).read_text())["pages"]
    assert sum(path.startswith("rule/") for path in pages) > 1000
    alone = build_site(small_lineage, out, search=False, workers=1)
    assert (alone.pages_rendered, alone.files_changed) == (0, 0)


def test_a_build_from_nothing_forks_no_family(tiny_lineage: Database, tmp_path: Path) -> None:
    """Every page of a first build is rendered: the render workers share the cores, and no
    process prepares a family beside them (one would only copy the model as it reads it)."""
    heard = StagesHeard()
    first = build_site(tiny_lineage, tmp_path / "_site", search=False, workers=2, progress=heard)
    assert first.pages_rendered > 0 and not _forked(heard)
    heard = StagesHeard()
    build_site(tiny_lineage, tmp_path / "_site", search=False, workers=2, progress=heard)
    assert _forked(heard)


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
