"""The compare data, computed in a process of its own beside the site build: the same files as
the build makes itself, and no process left behind when the build fails."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from sqlite_utils import Database

import renderer.build
from renderer import pages_compare
from renderer.build import build_site
from renderer.compare_data import compare_data


def test_the_compare_data_made_beside_the_build_is_the_data_made_in_it(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two workers the compare data comes from a process of its own: the files it
    publishes are the ones `compare_data` makes in this process."""
    started: list[bool] = []
    start_compare = pages_compare.start_compare

    def noted(*args: object, **kwargs: object) -> pages_compare.PendingCompare:
        pending = start_compare(*args, **kwargs)  # type: ignore[arg-type]
        started.append(pending.process is not None)
        return pending

    monkeypatch.setattr(renderer.build, "start_compare", noted)
    out = tmp_path / "_site"
    build_site(tiny_lineage, out, search=False, workers=2)
    assert started == [True]
    dates = [row[0] for row in tiny_lineage.execute("SELECT date FROM releases ORDER BY date")]
    made_here = compare_data(tiny_lineage, dates).files
    published = {
        str(path.relative_to(out)): path.read_bytes() for path in (out / "compare").rglob("*.json")
    }
    assert published == made_here


def test_a_build_that_fails_leaves_no_compare_process(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_site: object) -> None:
        raise RuntimeError("a step failed")

    monkeypatch.setattr(renderer.build, "build_releases", broken)  # a step before the compare
    with pytest.raises(RuntimeError, match="a step failed"):
        build_site(tiny_lineage, tmp_path / "_site", search=False, workers=2)
    assert not multiprocessing.active_children()


def test_an_error_in_the_compare_process_stops_the_build_with_it(
    tiny_lineage: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> None:
        raise ValueError("the compare data could not be made")

    monkeypatch.setattr(pages_compare, "compare_data", broken)  # the fork inherits it
    with pytest.raises(ValueError, match="could not be made"):
        build_site(tiny_lineage, tmp_path / "_site", search=False, workers=2)
    assert not multiprocessing.active_children()
