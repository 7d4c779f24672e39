"""The rule pages, prepared and rendered in a process of their own beside the rest of the
build (renderer.forked_family): the same site as a build in one process, and a failure on
either side stops the build and leaves no process behind."""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path

import pytest
from sqlite_utils import Database

import renderer.build
from renderer.build import build_site
from renderer.state import MANIFEST, site_state


def _files(out: Path) -> dict[str, bytes]:
    """Every file of a built site but its search index (not built here)."""
    return {
        str(p.relative_to(out)): p.read_bytes()
        for p in out.rglob("*")
        if p.is_file() and "pagefind" not in p.parts
    }


def _manifest(out: Path) -> dict[str, dict[str, str]]:
    return json.loads((site_state(out) / MANIFEST).read_text())  # type: ignore[no-any-return]


def test_the_pages_made_beside_the_build_are_the_pages_made_in_it(
    small_site: Path, small_lineage: Database, tmp_path: Path
) -> None:
    """The test run's site was built with the workers of this machine: with two or more,
    its rule pages were made beside the rest; here they are made in one process."""
    alone = tmp_path / "_site"
    build_site(small_lineage, alone, search=False, workers=1)
    assert _files(small_site) == _files(alone)
    pages = [_manifest(out)["pages"] for out in (small_site, alone)]
    assert pages[0] == pages[1] and any(path.startswith("rule/") for path in pages[0])


def test_a_failure_beside_the_build_stops_it(
    small_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_site: object) -> None:
        raise LookupError("no runs for 702.37")

    monkeypatch.setattr(renderer.build, "build_rules", broken)
    with pytest.raises(LookupError, match="no runs for 702.37"):
        build_site(small_lineage, tmp_path / "_site", search=False, workers=2)
    assert not multiprocessing.active_children()


def test_a_failure_in_the_build_ends_the_process_beside_it(
    small_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def endless(_site: object) -> None:
        time.sleep(3600)  # still preparing when the build fails

    def broken(_site: object, _histories: object) -> None:
        raise RuntimeError("the home page failed")

    monkeypatch.setattr(renderer.build, "build_rules", endless)
    monkeypatch.setattr(renderer.build, "build_home", broken)
    with pytest.raises(RuntimeError, match="the home page failed"):
        build_site(small_lineage, tmp_path / "_site", search=False, workers=2)
    assert not multiprocessing.active_children()
