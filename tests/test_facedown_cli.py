"""`rules-history examples`: one JSON object per scenario and release."""

from __future__ import annotations

import json

from click.testing import CliRunner
from sqlite_utils import Database

from rules_history.cli import main


def db_file(db: Database) -> str:
    return str(db.execute("PRAGMA database_list").fetchall()[0][2])


def test_examples_json_as_of(full_lineage: Database) -> None:
    result = CliRunner().invoke(
        main, ["examples", "--as-of", "2024-06-07", "--json", "--db", db_file(full_lineage)]
    )
    assert result.exit_code == 0, result.output
    records = json.loads(result.output)
    assert {r["release"] for r in records} == {"2024-06-07"}
    for record in records:
        assert {"scenario", "release", "outcome", "cites", "expected", "agrees"} <= set(record)
    ward = next(r for r in records if r["scenario"] == "disguise-ward")
    assert ward["cites"] == ["702.168b", "708.2"] and ward["agrees"]


def test_examples_text_and_errors(full_lineage: Database) -> None:
    runner = CliRunner()
    args = ["--db", db_file(full_lineage)]
    result = runner.invoke(main, ["examples", "--scenario", "morph-mana-cost", *args])
    assert result.exit_code == 0, result.output
    assert "changed since 2006-07-15 (was: {0}): reworded 502.26b->502.26b" in result.output
    listed = runner.invoke(main, ["examples", "--list", *args])
    assert "pump-then-turn-up" in listed.output
    bad = runner.invoke(main, ["examples", "--scenario", "nope", *args])
    assert bad.exit_code == 1 and bad.output.startswith("error: no scenario 'nope'")
    early = runner.invoke(main, ["examples", "--as-of", "1990-01-01", *args])
    assert early.exit_code == 1 and "before the first release" in early.output
