"""Blame against Crystal Keep's 2008 page, which dates each 504.x clause's wording."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from archive.errors import LookupFailed
from archive.manifest import CAPTURES_DIR
from lineage.blame import blame
from rules_history.cli import main

CRYSTAL_KEEP = CAPTURES_DIR / "web" / "004_8ea5d1f45091d969.txt"
DATED = re.compile(r"(504\.\d+) - .*?\[CompRules (\d{4})/(\d{2})/(\d{2})\]")


def crystal_keep_dates() -> dict[str, str]:
    text = CRYSTAL_KEEP.read_text(encoding="utf-8")
    return {m[1]: f"{m[2]}-{m[3]}-{m[4]}" for m in DATED.finditer(text)}


def test_the_page_dates_eight_clauses() -> None:
    assert sorted(crystal_keep_dates()) == [f"504.{i}" for i in range(1, 9)]


def test_blame_agrees_with_crystal_keep(full_lineage: Database) -> None:
    """The page is "based on the March 17, 2008 release": the 2008-02-01 CR was in force."""
    rows = blame(full_lineage, "2008-03-17", "504")
    since = {row["number"]: row["since"] for row in rows if row["kind"] == "rule"}
    assert since == crystal_keep_dates()


def test_blame_follows_renumbering(full_lineage: Database) -> None:
    rows = {row["number"]: row for row in blame(full_lineage, "2024-06-07", "708")}
    assert rows["708.11"]["since"] == "2006-10-01"  # 504.8, renumbered twice, same words
    assert rows["708.11"]["first_release"] == "2006-10-01"
    assert rows["708.3"]["since"] == "2009-07-08"  # split off 504.2 in the rewrite
    assert rows["708.1"]["since"] == "2015-03-27"
    then = {row["number"]: row["lineage"] for row in blame(full_lineage, "2008-02-01", "504")}
    assert rows["708.1"]["lineage"] == then["504.1"]
    # references and typography do not count as wording, but text_since sees them, the
    # reference that moved with the 2021 renumbering too ("rule 706" became "rule 707")
    assert rows["708.2"]["since"] == "2009-07-08"
    assert rows["708.2"]["text_since"] == "2021-07-12"
    assert rows["708.3"]["text_since"] == "2019-05-03"  # renumbered word for word in 2021


def test_an_examples_typography_dates_the_text_not_the_wording(full_lineage: Database) -> None:
    """201.3a kept its words and its example's from 2017 to 2019, but the example's quotation
    marks went straight on 2019-01-25 and curly again on 2019-05-03: a change of its text
    (`text_since`), listed as `formatting` by `diff`, not of its wording (`since`). 601.3a's
    example alone went "can't" -> "can’t" on 2021-06-09."""
    (row,) = blame(full_lineage, "2019-05-03", "201.3a")
    assert (row["since"], row["text_since"]) == ("2017-04-28", "2019-05-03")
    (row,) = blame(full_lineage, "2026-08-07", "601.3a")
    assert (row["since"], row["text_since"]) == ("2018-06-08", "2021-06-09")
    path = full_lineage.execute("PRAGMA database_list").fetchone()[2]
    listed = CliRunner().invoke(
        main, ["diff", "2019-01-25", "2019-05-03", "--rule", "201.3a", "--json", "--db", path]
    )
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.stdout)["summary"] == {"formatting": 1}


def test_a_heading_that_took_another_in_keeps_its_wordings_date(full_lineage: Database) -> None:
    """2009's 605 "Mana Abilities" is 406 with 411 merged into it, its own words as they
    were: trace's wording and blame said its words dated from 2009-07-08, a date after days
    on which blame (rightly) said 1999-04-23."""
    rows = {row["number"]: row for row in blame(full_lineage, "2009-07-08", "605")}
    assert rows["605"]["since"] == rows["605"]["text_since"] == "1999-04-23"
    earlier = {row["number"]: row for row in blame(full_lineage, "2008-02-01", "406")}
    assert earlier["406"]["since"] == "1999-04-23"


def test_blame_of_a_whole_release(full_lineage: Database) -> None:
    rows = blame(full_lineage, "2026-01-16")
    assert (
        len(rows)
        == full_lineage.execute(
            "SELECT count(*) FROM clauses WHERE release = '2026-01-16' AND kind IN"
            " ('chapter', 'section', 'rule', 'subrule', 'glossary')"
        ).fetchone()[0]
    )
    assert all(row["since"] <= "2026-01-16" for row in rows)


def test_blame_names_a_bad_release(full_lineage: Database) -> None:
    with pytest.raises(LookupFailed, match="1990-01-01"):
        blame(full_lineage, "1990-01-01")
