"""The build's own process renders a share of the pages beside its forked workers, instead
of waiting while they render: with two cores, one worker and this process. Every page is
written once, by whichever process rendered it, and what each process collected comes back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from renderer.writer import SiteWriter

PAGES = 1_200  # enough for the forked path (200 at least) and several chunks each


def _queue(writer: SiteWriter) -> None:
    for i in range(PAGES):
        writer.page(f"p/{i}/index.html", lambda i=i: f"{i} {os.getpid()}", f"key-{i}")


def _written(out: Path) -> dict[int, int]:
    """Page number -> the process that rendered it."""
    found = {}
    for i in range(PAGES):
        number, pid = (out / f"p/{i}/index.html").read_text().split()
        found[int(number)] = int(pid)
    return found


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the render workers are forked")
def test_this_process_renders_beside_one_worker_on_two_cores(tmp_path: Path) -> None:
    out, state = tmp_path / "out", tmp_path / "state"
    state.mkdir()
    writer = SiteWriter(out, "code", state)
    _queue(writer)
    heard: list[int] = []
    collected = writer.render_all(2, collect=os.getpid, done=heard.append)
    writer.finish()

    renderers = _written(out)
    assert sorted(renderers) == list(range(PAGES))
    here = os.getpid()
    assert here in renderers.values(), "this process rendered none of the pages"
    workers = set(renderers.values()) - {here}
    assert len(workers) == 1, f"two cores want one worker beside this process: {workers}"
    assert set(collected) == {here, *workers}, "each process's collection comes back"
    assert sum(heard) == PAGES
    assert writer.rendered == PAGES and len(writer.changed) == PAGES


def test_one_worker_renders_everything_here(tmp_path: Path) -> None:
    out, state = tmp_path / "out", tmp_path / "state"
    state.mkdir()
    writer = SiteWriter(out, "code", state)
    _queue(writer)
    writer.render_all(1)
    assert set(_written(out).values()) == {os.getpid()}
