"""The pipeline's writing stages pause the cyclic garbage collector (archive.collector).

Each stage builds data that stays alive to its end (the known text hashes of the ingest, the
releases' clauses and members of the lineage, the states and texts of the derived answers,
the eras of the examples), none of it in a cycle. A collection would walk all of it again and
again and find nothing: on the whole archive, 26 full collections in the derived answers
alone. So no collection runs in this process while a stage runs, and the stage gives the
collector back as it was, nothing left frozen."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import make_captures_dir

from archive.ingest import ingest_captures
from archive.store import open_store
from facedown.store import store_examples
from lineage.answers import build_derived
from lineage.store import build_lineage

# three releases: enough for the ingest to parse in worker processes, as on the archive
INGESTED = ("1999-04-23", "1999-11-01", "2001-07-23")


@pytest.fixture
def collections(collector_on: None) -> Iterator[list[int]]:
    """The generation of each collection that starts in this process, the collector on."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)


def runs_without_collection(stage: Callable[[], object], seen: list[int]) -> None:
    seen.clear()
    stage()
    assert seen == [], f"{len(seen)} collections ran during the stage"
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_each_writing_stage_runs_without_a_collection(
    tmp_path: Path, collections: list[int]
) -> None:
    """Every stage of a new store of a few releases, each in full (the pipeline's order)."""
    captures = make_captures_dir(tmp_path / "captures", INGESTED)
    db = open_store(tmp_path / "rules.db")
    runs_without_collection(lambda: ingest_captures(db, captures), collections)
    for stage in (build_lineage, build_derived, store_examples):
        runs_without_collection(lambda stage=stage: stage(db), collections)
    assert db.execute("SELECT count(*) FROM lineage_alignments").fetchone()[0] == len(INGESTED)
    assert db.execute("SELECT count(*) FROM derived_state").fetchone()[0] == len(INGESTED)
    assert db.execute("SELECT count(*) FROM example_state").fetchone()[0] == len(INGESTED)
