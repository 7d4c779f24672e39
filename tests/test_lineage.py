"""Lineages against the face-down and morph history read by hand (tests/data), and the store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_stages
from sqlite_utils import Database

from lineage.answers import first_stale
from lineage.store import build_lineage
from vocabulary.kinds import WORDING_CHANGES

EXPECTED = json.loads((Path(__file__).parent / "data" / "facedown_lineage.json").read_text())
LINEAGES = EXPECTED["lineages"]


def lineage_of(db: Database, release: str, number: str) -> int:
    row = db.execute(
        "SELECT lineage_id FROM lineage_members WHERE release = ? AND number = ?",
        [release, number],
    ).fetchone()
    assert row is not None, f"no member {number} in {release}"
    return int(row[0])


def expected_number(numbers: dict[str, str], release: str) -> str:
    return numbers[max(date for date in numbers if date <= release)]


def check(db: Database, spec: dict[str, Any]) -> list[str]:
    """What differs between the stored lineage and the expected one (empty when right)."""
    first_release, first_number = next(iter(spec["numbers"].items()))
    lineage = lineage_of(db, first_release, first_number)
    problems = []
    members = dict(
        db.execute(
            "SELECT release, number FROM lineage_members WHERE lineage_id = ?", [lineage]
        ).fetchall()
    )
    releases = [
        r[0] for r in db.execute("SELECT date FROM releases WHERE date >= ?", [first_release])
    ]
    for release in releases:
        wanted = expected_number(spec["numbers"], release)
        if members.get(release) != wanted:
            problems.append(f"{release}: {members.get(release)} instead of {wanted}")
    events = list(
        db.query(
            "SELECT release, kind FROM lineage_events WHERE lineage_id = ? ORDER BY release",
            [lineage],
        )
    )
    born = events[0] if events else {"release": None, "kind": None}
    if (born["release"], born["kind"]) != (first_release, spec.get("born", "added")):
        problems.append(f"born {born} instead of {first_release} {spec.get('born', 'added')}")
    wording = [e["release"] for e in events[1:] if e["kind"] in WORDING_CHANGES]
    if wording != spec["wording"]:
        problems.append(f"wording changes {wording} instead of {spec['wording']}")
    references = [e["release"] for e in events if e["kind"] == "reference"]
    if references != spec["references"]:
        problems.append(f"reference changes {references} instead of {spec['references']}")
    return problems


@pytest.mark.parametrize("spec", LINEAGES, ids=[spec["clause"] for spec in LINEAGES])
def test_facedown_and_morph_lineages_match_the_releases(
    full_lineage: Database, spec: dict[str, Any]
) -> None:
    assert check(full_lineage, spec) == []


@pytest.mark.parametrize("split", EXPECTED["splits"], ids=lambda s: s["old"])
def test_2009_splits_link_the_pieces(full_lineage: Database, split: dict[str, Any]) -> None:
    source = lineage_of(full_lineage, "2009-05-01", split["old"])
    pieces = [lineage_of(full_lineage, split["release"], number) for number in split["new"]]
    assert pieces[0] == source  # the first piece continues the old clause
    event = next(
        full_lineage.query(
            "SELECT * FROM lineage_events WHERE lineage_id = ? AND release = ?",
            [source, split["release"]],
        )
    )
    assert event["kind"] == "split"
    assert json.loads(event["new_numbers"]) == split["new"]
    assert sorted(json.loads(event["related_lineages"])) == sorted(pieces[1:])
    for piece in pieces[1:]:
        first = next(
            full_lineage.query(
                "SELECT * FROM lineage_events WHERE lineage_id = ? ORDER BY release", [piece]
            )
        )
        assert (first["kind"], json.loads(first["old_numbers"])) == ("split", [split["old"]])
        assert json.loads(first["related_lineages"]) == [source]


def test_603_2e_merged_into_603_2d(full_lineage: Database) -> None:
    """2025-11-14: 603.2e (a triggered ability of an object) became the end of 603.2d."""
    kept = lineage_of(full_lineage, "2025-09-19", "603.2d")
    absorbed = lineage_of(full_lineage, "2025-09-19", "603.2e")
    assert lineage_of(full_lineage, "2025-11-14", "603.2d") == kept
    events = {
        row["lineage_id"]: row
        for row in full_lineage.query(
            "SELECT * FROM lineage_events WHERE release = '2025-11-14' AND lineage_id IN (?, ?)",
            [kept, absorbed],
        )
    }
    assert events[kept]["kind"] == events[absorbed]["kind"] == "merged"
    assert json.loads(events[kept]["old_numbers"]) == ["603.2d", "603.2e"]
    assert json.loads(events[kept]["related_lineages"]) == [absorbed]
    assert json.loads(events[absorbed]["new_numbers"]) == ["603.2d"]
    # 603.2f moved up to 603.2e: the number is reused by another clause
    assert lineage_of(full_lineage, "2025-11-14", "603.2e") == lineage_of(
        full_lineage, "2025-09-19", "603.2f"
    )


def test_every_merge_links_the_absorbed_lineage(full_lineage: Database) -> None:
    merges = list(
        full_lineage.query(
            "SELECT * FROM lineage_events WHERE kind = 'merged' AND new_part_id IS NOT NULL"
            " AND json_array_length(old_numbers) > 1 ORDER BY release LIMIT 50"
        )
    )
    assert merges, "no merge at all in 124 releases"
    for merge in merges:
        absorbed = json.loads(merge["related_lineages"])
        ends = list(
            full_lineage.query(
                "SELECT * FROM lineage_events WHERE release = ? AND kind = 'merged'"
                " AND lineage_id IN (SELECT value FROM json_each(?))",
                [merge["release"], json.dumps(absorbed)],
            )
        )
        assert len(ends) == len(absorbed)
        for end in ends:
            assert json.loads(end["related_lineages"]) == [merge["lineage_id"]]
            last = full_lineage.execute(
                "SELECT last_release FROM lineages WHERE id = ?", [end["lineage_id"]]
            ).fetchone()[0]
            assert last < merge["release"]  # the absorbed lineage ends; it is not lost


def test_a_reused_number_is_not_identity(full_lineage: Database) -> None:
    """708 was Split Cards until 2021-06-09 and is Face-Down Spells and Permanents after."""
    split_cards = lineage_of(full_lineage, "2021-06-09", "708")
    face_down = lineage_of(full_lineage, "2021-06-09", "707")
    assert lineage_of(full_lineage, "2021-07-12", "709") == split_cards
    assert lineage_of(full_lineage, "2021-07-12", "708") == face_down
    assert lineage_of(full_lineage, "2021-07-12", "707") not in (split_cards, face_down)


def test_every_clause_of_every_release_has_one_lineage(full_lineage: Database) -> None:
    clauses = full_lineage.execute(
        "SELECT count(*) FROM clauses WHERE kind IN"
        " ('chapter', 'section', 'rule', 'subrule', 'glossary')"
    ).fetchone()[0]
    members = full_lineage.execute("SELECT count(*) FROM lineage_members").fetchone()[0]
    assert members == clauses
    twice = full_lineage.execute(
        "SELECT count(*) FROM (SELECT lineage_id, release FROM lineage_members"
        " GROUP BY lineage_id, release HAVING count(*) > 1)"
    ).fetchone()[0]
    assert twice == 0


def test_build_is_incremental(small_lineage: Database) -> None:
    assert build_lineage(small_lineage)["aligned"] == 0
    before = small_lineage.execute("SELECT count(*) FROM lineage_events").fetchone()[0]
    small_lineage.execute("UPDATE lineage_alignments SET version = 0 WHERE release = '2021-06-09'")
    small_lineage.conn.commit()
    report = build_lineage(small_lineage)
    assert report["aligned"] == 3  # 2021-06-09, 2021-07-12 and 2024-06-07
    assert small_lineage.execute("SELECT count(*) FROM lineage_events").fetchone()[0] == before
    # The answers computed from those releases' lineages are stale until computed again:
    # the shared store is left current, as the pipeline would leave it.
    assert first_stale(small_lineage) == "2021-06-09"
    run_stages(small_lineage)
    assert first_stale(small_lineage) is None


def test_small_store_renumberings(small_lineage: Database) -> None:
    """With releases missing in between, 2009-05-01 -> 2009-07-08 and 2021 still align."""
    assert lineage_of(small_lineage, "2008-02-01", "504.2") == lineage_of(
        small_lineage, "2024-06-07", "708.2"
    )
    assert lineage_of(small_lineage, "2002-10-07", "502.26a") == lineage_of(
        small_lineage, "2024-06-07", "702.37a"
    )
