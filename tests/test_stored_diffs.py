"""The diff of any two releases reads its word diffs from the store (`word_diffs`, written by
the pipeline) and gets exactly what diffing the two texts gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_captures_dir, run_stages
from sqlite_utils import Database

from archive.ingest import ingest_captures
from archive.store import open_store
from archive.worddiff import Diff, needs_diffing, new_side, old_side, word_diff
from lineage import answers, stored_diffs
from lineage.compare import diff_releases


def _dates(db: Database) -> list[str]:
    return [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]


def _refuse_to_diff(pairs: list[tuple[str, str]]) -> list[Diff]:
    computed = [(a, b) for a, b in pairs if needs_diffing(a, b)]
    assert not computed, f"{len(computed)} pairs diffed although the store has them"
    return [word_diff(a, b) for a, b in pairs]


@pytest.mark.parametrize(
    ("old", "new", "rule"),
    [(0, -1, None), (1, 4, None), (2, 3, None), (0, -1, "504"), (1, -2, "7")],
)
def test_any_two_releases_read_the_word_diffs_diffing_would_give(
    small_lineage: Database,
    monkeypatch: pytest.MonkeyPatch,
    old: int,
    new: int,
    rule: str | None,
) -> None:
    dates = _dates(small_lineage)
    monkeypatch.setattr(stored_diffs, "word_diffs", _refuse_to_diff)
    result = diff_releases(small_lineage, dates[old], dates[new], rule)
    worded = [c for c in result["changes"] if old_side(c["diff"]) and new_side(c["diff"])]
    assert worded
    for change in result["changes"]:
        before, after = old_side(change["diff"]), new_side(change["diff"])
        assert change["diff"] == word_diff(before, after), change["old"]


def test_a_pair_the_store_lacks_is_diffed(small_lineage: Database) -> None:
    pairs = [("face-down permanents in play", "face-down permanents on the battlefield")]
    assert stored_diffs.stored_word_diffs(small_lineage, pairs) == [word_diff(*pairs[0])]


def test_the_pipeline_stored_every_two_texts_of_a_clause_once(small_lineage: Database) -> None:
    stored = small_lineage.execute("SELECT count(*), count(DISTINCT key) FROM word_diffs")
    rows, keys = stored.fetchone()
    assert rows == keys > 1000


def test_a_new_release_adds_the_pairs_of_its_changed_texts_and_states(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    releases = ("2008-02-01", "2009-10-05", "2024-06-07")
    folder = make_captures_dir(tmp_path / "caps", releases[:2])
    db = open_store(tmp_path / "rules.db")
    ingest_captures(db, folder)
    run_stages(db)
    before, kinds_before = db["word_diffs"].count, db["change_kinds"].count
    make_captures_dir(folder, releases)
    ingest_captures(db, folder)
    run_stages(db)
    assert db["word_diffs"].count > before
    # the kinds of change too: the pairs of states a full recompute would name, no more
    assert db["change_kinds"].count > kinds_before
    every_pair = answers._pairs_of_states(
        db, releases[0], answers._MemberStates(db, answers._Examples(db))
    )
    assert {row[0] for row in db.execute("SELECT key FROM change_kinds")} == set(every_pair)
    monkeypatch.setattr(stored_diffs, "word_diffs", _refuse_to_diff)
    for old in releases[:2]:  # the new release against each one before it
        assert diff_releases(db, old, releases[-1])["changes"]
