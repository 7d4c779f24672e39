"""The derived 2003-05-26 copy in lineage, diff and blame: its artefacts are no rule changes.

The official releases are chained 2003-03-15 -> 2003-07-01 directly; the copy's clauses join
their lineages, and its differences are stored apart, confirmed only by 2003-07-01.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from conftest import make_captures_dir, run_stages
from sqlite_utils import Database

from archive.ingest import ingest_captures
from archive.store import open_store
from lineage.blame import blame
from lineage.compare import diff_releases
from lineage.derived import DERIVED_NOTE, derived_releases
from rules_history.cli import main

SCOURGE = ("2003-03-15", "2003-05-26", "2003-07-01")


@pytest.fixture(scope="module")
def scourge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    root = tmp_path_factory.mktemp("scourge")
    db = open_store(root / "rules.db")
    assert not ingest_captures(db, make_captures_dir(root / "captures", SCOURGE)).failed
    run_stages(db)  # lineage, derived answers, examples: what the readers need
    yield db
    db.close()


def lineage(db: Database, release: str, number: str) -> int:
    row = db.execute(
        "SELECT lineage_id FROM lineage_members WHERE release = ? AND number = ?",
        [release, number],
    ).fetchone()
    return int(row[0])


def test_the_official_releases_are_chained_past_the_copy(scourge):
    assert derived_releases(scourge) == {"2003-05-26"}
    previous = dict(scourge.execute("SELECT release, previous_release FROM lineage_alignments"))
    assert previous["2003-07-01"] == "2003-03-15" and previous["2003-05-26"] == "2003-03-15"
    assert scourge.execute(
        "SELECT count(*) FROM lineage_events WHERE release = '2003-05-26'"
    ).fetchone() == (0,)


def test_the_copys_clauses_join_the_official_lineages(scourge):
    for number in ("504.2", "502.26a", "100.1"):
        ids = {lineage(scourge, day, number) for day in SCOURGE}
        assert len(ids) == 1, number
    # Storm is new in the copy (Scourge) and in 2003-07-01: one lineage, added in both
    assert lineage(scourge, "2003-05-26", "502.30a") == lineage(scourge, "2003-07-01", "502.30a")


def test_the_copys_differences_are_unconfirmed_unless_2003_07_01_has_them(scourge):
    counts = dict(
        ((kind, confirmed), n)
        for kind, confirmed, n in scourge.execute(
            "SELECT kind, confirmed, count(*) FROM derived_events GROUP BY 1, 2"
        )
    )
    # 228 rewordings (dropped mana symbols, dashes, typos): 2003-07-01 has none of them word
    # for word; the Scourge additions that 2003-07-01 keeps (storm, landcycling) are confirmed
    assert counts[("reworded", 0)] == 228 and ("reworded", 1) not in counts
    storm = lineage(scourge, "2003-05-26", "502.30a")
    assert scourge.execute(
        "SELECT kind, confirmed FROM derived_events WHERE lineage_id = ?", [storm]
    ).fetchall() == [("added", 1)]
    typo = lineage(scourge, "2003-05-26", "100.3")  # "required ina deck"
    assert scourge.execute(
        "SELECT kind, confirmed FROM derived_events WHERE lineage_id = ?", [typo]
    ).fetchall() == [("reworded", 0)]


def test_diff_with_the_copy_keeps_its_artefacts_out_of_the_summary(scourge):
    result = diff_releases(scourge, "2003-03-15", "2003-05-26")
    assert "reworded" not in result["summary"] and result["unconfirmed"]["reworded"] == 228
    assert (
        result["note"] == f"2003-05-26: {DERIVED_NOTE}" and result["confirmed_by"] == "2003-07-01"
    )
    storm = next(c for c in result["changes"] if c["new"] == ["502.30a"])
    assert storm["kind"] == "added" and storm["confirmed"] is True
    official = diff_releases(scourge, "2003-03-15", "2003-07-01")
    assert "note" not in official and "unconfirmed" not in official
    assert official["summary"]["reworded"] > 300


def test_blame_never_dates_a_wording_from_the_copy(scourge):
    rows = blame(scourge, "2003-07-01")
    assert rows and not [row for row in rows if row["since"] == "2003-05-26"]
    copy = blame(scourge, "2003-05-26")
    assert all(row["derived"] for row in copy)
    assert {row["since"] for row in copy} <= {"2003-03-15", "2003-05-26"}


def test_the_cli_diff_says_which_changes_are_unconfirmed(scourge):
    path = scourge.execute("PRAGMA database_list").fetchone()[2]
    out = CliRunner().invoke(
        main, ["diff", "2003-03-15", "2003-05-26", "--rule", "100", "--db", path]
    )
    assert out.exit_code == 0, out.output
    assert (
        f"note: 2003-05-26: {DERIVED_NOTE}; unconfirmed (checked against 2003-07-01)" in out.output
    )
    assert "reworded (unconfirmed): 100.3 -> 100.3" in out.output
    as_json = CliRunner().invoke(main, ["diff", "2003-03-15", "2003-05-26", "--json", "--db", path])
    assert json.loads(as_json.output)["unconfirmed"]["reworded"] == 228
