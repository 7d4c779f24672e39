"""`rules-history examples`: one JSON object per scenario and release."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


def test_the_examples_page_marks_the_changes_the_cli_marks(
    full_lineage: Database, full_site: Path
) -> None:
    """The page marked a span changed when its outcome differed from the span before, so the
    re-extracted copy's "not stated" (2003-05-26) and the official {3} after it were both
    "changed"; the records say neither is: the page now shows their flag, and the copy as
    such."""
    result = CliRunner().invoke(main, ["examples", "--json", "--db", db_file(full_lineage)])
    records = {(r["scenario"], r["release"]): r for r in json.loads(result.output)}
    html = (full_site / "examples/index.html").read_text(encoding="utf-8")
    checked = 0
    for scenario, body in re.findall(r'<h2 id="([^"]+)">(.*?)</section>', html, re.S):
        for row in re.findall(r"<tr(?: class=\"changed\")?><th scope=\"row\">.*?</tr>", body, re.S):
            first = re.search(r'<a href="/releases/([\d-]+)/">', row)
            assert first, row
            record = records[(scenario, first[1])]
            assert ("<strong>(changed)</strong>" in row) == bool(record["changed"]), first[1]
            assert ("re-extracted copy" in row) == bool(record.get("derived")), first[1]
            checked += 1
    assert checked > 100
    morph = re.search(r'<h2 id="morph-cost">(.*?)</section>', html, re.S)
    assert morph and "2003-05-26" in morph[1] and "(changed)" not in morph[1]


def test_a_cited_rule_printed_twice_is_the_printing_the_scenario_read(
    full_lineage: Database, full_site: Path
) -> None:
    """2006-05-01 prints 501.3 for Evasion ("Some creatures have abilities that restrict how
    they can block") and again for "Permanents come into play ... face up", which the
    face-up scenarios read. Their record showed Evasion's words as the rule that changed,
    and the pages linked Evasion's place in the release."""
    store = str(full_lineage.execute("PRAGMA database_list").fetchone()[2])
    result = CliRunner().invoke(
        main, ["examples", "--as-of", "2006-05-01", "--json", "--db", store]
    )
    records = [r for r in json.loads(result.output) if r["scenario"] == "returns-face-up"]
    (record,) = records
    assert (record["cites"], record["cite_printings"]) == (["501.3"], [2])
    (change,) = record["rule_change"]
    assert change["after_text"].startswith("Permanents come into play untapped, unflipped")
    html = (full_site / "examples/index.html").read_text(encoding="utf-8")
    assert 'href="/releases/2006-05-01/#501.3-2"' in html
    assert 'href="/releases/2006-05-01/#501.3"' not in html
