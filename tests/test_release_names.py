"""Release names: the committed table and its sources, and names taken wherever a release or
date is (show --as-of, diff, blame, trace RULE@RELEASE)."""

from __future__ import annotations

import csv
import json
from datetime import date

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from archive.manifest import CAPTURES_DIR
from archive.release_names import (
    RELEASE_NAMES,
    SET_DATE_WINDOW_DAYS,
    SET_NAMES,
    load_release_names,
    store_release_names,
)
from rules_history.cli import main

ROWS = load_release_names()
SETS = {row["set_code"]: row for row in csv.DictReader(SET_NAMES.open(encoding="utf-8"))}
BULLETINS = json.loads((CAPTURES_DIR / "bulletins" / "index.json").read_text())["articles"]
# The table's dates with an attested name before this table (the former hard-coded four).
FORMERLY_KNOWN = {
    "2020-01-22": ("Theros Beyond Death", "MTG Wiki"),
    "2024-06-07": ("Modern Horizons 3", "MTG Wiki"),
    "2016-08-26": ("Conspiracy: Take the Crown", "MagicCompRules_CN2_Update_20160826.txt"),
    "2023-09-01": ("Wilds of Eldraine", "MagicCompRulesWOE 20230901.txt"),
}


def test_every_name_and_code_has_a_source() -> None:
    for row in ROWS.values():
        assert not row.set_name or row.name_source, row
        assert not row.set_code or row.code_source, row
        assert row.name_source or not row.set_name


def test_the_table_covers_every_release_of_the_archive() -> None:
    archived = {entry["date"] for entry in json.loads((CAPTURES_DIR / "manifest.json").read_text())}
    assert archived <= set(ROWS)
    assert len(ROWS) >= 135  # the corpus: the archive's releases and the second collection


def test_at_least_105_releases_are_named() -> None:
    assert sum(bool(row.set_name) for row in ROWS.values()) >= 105


@pytest.mark.parametrize("day", sorted(FORMERLY_KNOWN))
def test_the_formerly_known_names_keep_their_sources(day: str) -> None:
    name, source = FORMERLY_KNOWN[day]
    assert ROWS[day].set_name == name
    assert source in ROWS[day].code_source + ROWS[day].name_source


def test_names_from_the_set_table_are_of_sets_out_near_the_release() -> None:
    """A code-to-name row counts only for a set released within the window: 'MED' in
    VensersJournal's 2007 file name is not the Mythic Edition of 2018."""
    for row in ROWS.values():
        if "set_names.csv" not in row.name_source:
            continue
        released = SETS[row.set_code]["set_release_date"]
        gap = abs((date.fromisoformat(released) - date.fromisoformat(row.date)).days)
        assert gap <= SET_DATE_WINDOW_DAYS, row
        assert SETS[row.set_code]["set_name"] == row.set_name
    assert ROWS["2007-09-07"].set_code == "MED" and ROWS["2007-09-07"].set_name == ""
    assert ROWS["2011-06-17"].set_code == "CMD"  # not PC2, also filed under that date


def test_every_article_names_the_release_it_accompanies() -> None:
    named = {(row.set_code, row.set_name) for row in ROWS.values()}
    for article in BULLETINS:
        assert (article["set"]["code"], article["set"]["name"]) in named, article["title"]


def test_the_table_is_the_committed_csv() -> None:
    with RELEASE_NAMES.open(encoding="utf-8", newline="") as handle:
        assert [row["date"] for row in csv.DictReader(handle)] == sorted(ROWS)


@pytest.fixture(scope="module")
def named_store(full_lineage: Database) -> str:
    store_release_names(full_lineage)
    return str(full_lineage.conn.execute("PRAGMA database_list").fetchone()[2])


def run(*args: str, store: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [*args, "--db", store])
    return result.exit_code, result.stdout, result.stderr


def test_releases_lists_names_and_codes(named_store: str) -> None:
    code, out, _ = run("releases", "--json", store=named_store)
    rows = {row["date"]: row for row in json.loads(out)}
    assert rows["2009-07-08"]["name"] == "Magic 2010" and rows["2009-07-08"]["set_code"] == "M10"
    code, text, _ = run("releases", store=named_store)
    assert "2002-10-07" in text and "ONS Onslaught" in text.split("2002-10-07")[1].split("\n")[0]


@pytest.mark.parametrize("given", ["M10", "m10", "Magic 2010", "magic 2010"])
def test_show_as_of_a_set(named_store: str, given: str) -> None:
    code, out, err = run("show", "702.37", "--as-of", given, "--json", store=named_store)
    assert code == 0, err
    assert json.loads(out)["release"] == "2009-07-08"


def test_diff_between_two_sets_is_the_diff_between_their_dates(named_store: str) -> None:
    by_name = json.loads(run("diff", "ONS", "M10", "--json", "--rule", "702", store=named_store)[1])
    by_date = run("diff", "2002-10-07", "2009-07-08", "--json", "--rule", "702", store=named_store)
    assert (by_name["old"], by_name["new"]) == ("2002-10-07", "2009-07-08")
    assert by_name["changes"] == json.loads(by_date[1])["changes"]


def test_blame_and_trace_take_a_set(named_store: str) -> None:
    blamed = json.loads(run("blame", "M10", "--rule", "702.2", "--json", store=named_store)[1])
    assert blamed and all(row["since"] <= "2009-07-08" for row in blamed)
    traced = json.loads(run("trace", "504.2@ONS", "--json", store=named_store)[1])
    assert traced["release"] == "2002-10-07"
    assert traced["current_number"] == "708.2"


def test_an_unknown_name_is_one_line_with_near_matches(named_store: str) -> None:
    code, _, err = run("show", "504.2", "--as-of", "Onslaugt", store=named_store)
    assert code == 1 and err.count("\n") == 1
    assert "'Onslaugt'" in err and "Onslaught (2002-10-07)" in err


def test_a_code_naming_two_releases_asks_for_the_date(named_store: str) -> None:
    code, _, err = run("show", "504.2", "--as-of", "IKO", store=named_store)
    assert code == 1 and "2020-04-17" in err and "2020-06-01" in err


def test_every_vensersjournal_code_is_in_the_vendored_file() -> None:
    vendored = RELEASE_NAMES.parent / "release-set-codes.csv"
    files = {
        (row["date"], row["set_code"], row["vensersjournal_file"])
        for row in csv.DictReader(vendored.open(encoding="utf-8"))
    }
    cited = 0
    for row in ROWS.values():
        if "VensersJournal" in row.code_source:
            cited += 1
            assert any(
                (row.date, row.set_code) == (day, code) and name in row.code_source
                for day, code, name in files
            ), row
    assert cited == len({day for day, _code, _file in files})  # every date it labels


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("", "'' is empty"),  # read as the empty set code of 31 releases
        (" ", "' ' is empty"),
        ("２０２１-０７-１２", "is neither a date (write it as YYYY-MM-DD)"),  # no Python message
    ],
)
def test_an_empty_or_non_ascii_date_is_one_plain_line(
    named_store: str, given: str, said: str
) -> None:
    code, _, err = run("show", "504.2", "--as-of", given, store=named_store)
    assert code == 1 and err.count("\n") == 1 and said in err, err
    assert "isoformat" not in err and "names 31" not in err
