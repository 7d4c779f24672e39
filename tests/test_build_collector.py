"""The site build pauses the cyclic garbage collector while it prepares its pages and freezes
the heap while its workers render (archive.collector): a process that builds, whether the
build ends well or not, gets the collector back as it was, with nothing left frozen (a
frozen heap is never collected: a long-lived process, `serve` or a test run, would keep
every build's garbage)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from sqlite_utils import Database

import renderer.build
from archive.collector import collector_paused, heap_frozen
from renderer.build import build_site


@pytest.mark.parametrize("workers", [1, 2])
def test_a_build_gives_the_collector_back_as_it_was(
    tiny_lineage: Database, tmp_path: Path, collector_on: None, workers: int
) -> None:
    build_site(tiny_lineage, tmp_path / "_site", search=False, workers=workers)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_build_that_fails_gives_the_collector_back_too(
    tiny_lineage: Database,
    tmp_path: Path,
    collector_on: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(_site: object) -> None:
        raise RuntimeError("a step failed")

    monkeypatch.setattr(renderer.build, "build_rules", broken)  # while the collector pauses
    with pytest.raises(RuntimeError, match="a step failed"):
        build_site(tiny_lineage, tmp_path / "_site", search=False, workers=1)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_paused_collector_stays_off_when_it_was_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
    gc.enable()


def test_a_frozen_heap_is_thawed_after_an_error(collector_on: None) -> None:
    with pytest.raises(KeyError), heap_frozen():
        assert gc.get_freeze_count() > 0
        raise KeyError("the block failed")
    assert gc.get_freeze_count() == 0
