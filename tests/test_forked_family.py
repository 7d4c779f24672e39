"""The rule pages, prepared and rendered in a process of their own beside the rest of the
build (renderer.forked_family): the same site as a build in one process, and a failure on
either side stops the build and leaves no process behind."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

import renderer.build
from renderer.build import build_site
from renderer.state import MANIFEST, site_state


def test_a_build_in_one_process_finds_the_pages_made_beside_it_current(
    small_site: Path, small_lineage: Database, tmp_path: Path
) -> None:
    """The test run's site was built with this machine's workers: with two or more, its rule
    pages were prepared and rendered beside the rest. A build in one process over a copy of
    it computes every key alike (nothing to render) and writes each file it makes with the
    same bytes; and the rule pages are in the manifest the forked process added to."""
    out = tmp_path / "_site"
    shutil.copytree(small_site, out)
    shutil.copytree(site_state(small_site), site_state(out))
    report = build_site(small_lineage, out, search=False, workers=1)
    assert (report.pages_rendered, report.files_changed) == (0, 0)
    pages = json.loads((site_state(out) / MANIFEST).read_text())["pages"]
    assert sum(path.startswith("rule/") for path in pages) > 1000


def test_a_failure_beside_the_build_stops_it(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_site: object) -> None:
        raise LookupError("no runs for 702.37")

    monkeypatch.setattr(renderer.build, "build_rules", broken)
    with pytest.raises(LookupError, match="no runs for 702.37"):
        build_site(tiny_lineage, tmp_path / "_site", search=False, workers=2)
    assert not multiprocessing.active_children()


def test_a_failure_in_the_build_ends_the_process_beside_it(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def endless(_site: object) -> None:
        time.sleep(3600)  # still preparing when the build fails

    def broken(_site: object, _histories: object) -> None:
        raise RuntimeError("the home page failed")

    monkeypatch.setattr(renderer.build, "build_rules", endless)
    monkeypatch.setattr(renderer.build, "build_home", broken)
    with pytest.raises(RuntimeError, match="the home page failed"):
        build_site(tiny_lineage, tmp_path / "_site", search=False, workers=2)
    assert not multiprocessing.active_children()
