"""Witness pages: parsed from the committed seeds and from HTML fixtures in each site's markup,
stored by `ingest`, cross-checked against the releases they quote, reported by `show`."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import WITNESSED_RELEASES, make_captures_dir
from hypothesis import given
from hypothesis import strategies as st
from sqlite_utils import Database

from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from archive.witnesses import comparison_form, witnesses_for
from crawler.parsers import parse_witness
from rules_history.cli import main

WEB = CAPTURES_DIR / "web"
FIXTURES = Path(__file__).parent / "fixtures" / "witnesses"
SEEDS = {
    "wizards-article": "000_9f5e4e8d0fda966f.txt",
    "crystal-keep": "004_8ea5d1f45091d969.txt",
    "mtg-wiki": "003_a8f98ed5567f3db0.txt",
    "gatherer-rulings": "002_46b678cacf94bf02.txt",
}
HTML = {
    "wizards-article": "wizards_morph_2002.html",
    "crystal-keep": "crystal_keep_504.html",
    "mtg-wiki": "mtgwiki_face_down_2020.html",
    "gatherer-rulings": "gatherer_spellmorph.html",
}


def parse(parser: str, path: Path, quotes: str | None = None):
    return parse_witness(path.read_bytes(), parser, "test", "0" * 64, path.name, quotes=quotes)


def by_number(document) -> dict[str, str]:
    return {c.number: c.text for c in document.clauses if c.number}


def test_the_wizards_article_turns_mana_images_into_symbols():
    article = parse("wizards-article", WEB / SEEDS["wizards-article"], "2002-10-07")
    rules = by_number(article)
    assert list(rules)[:2] == ["502.26", "502.26a"] and "504.6" in rules
    assert "a mana cost of {0}, by paying {3} rather than its mana cost" in rules["502.26a"]
    assert rules["504.1"].startswith("Two old cards (Camouflage and Illusionary Mask)")
    assert article.page_date == "2002-09-06"
    assert {c.quoted_date for c in article.clauses} == {"2002-10-07"}


def test_crystal_keep_dates_each_clause_by_its_comprules_tag():
    page = parse("crystal-keep", WEB / SEEDS["crystal-keep"])
    dated = {c.number: c.quoted_date for c in page.clauses if c.kind == "rule"}
    assert dated == {
        "504.1": "2006-10-01",
        "504.2": "2007-05-01",
        "504.3": "2005-08-01",
        "504.4": "2003-07-01",
        "504.5": "2003-07-01",
        "504.6": "2003-07-01",
        "504.7": "2006-05-01",
        "504.8": "2006-10-01",
    }
    assert page.page_date == "2008-03-17"
    assert not any("[CompRules" in c.text for c in page.clauses)


def test_the_wiki_quotes_are_dated_by_their_heading():
    old = parse("mtg-wiki", WEB / "003_a8f98ed5567f3db0.txt")
    new = parse("mtg-wiki", WEB / "001_5f6543314567b6b6.txt")
    assert {c.quoted_date for c in old.clauses} == {"2020-01-24"}
    assert {c.quoted_date for c in new.clauses} == {"2024-06-07"}
    assert [c.number for c in old.clauses if c.number][-2:] == ["110.5d", "406.3"]
    assert "708.2b" in by_number(new) and "406.3b" in by_number(new)
    glossary = old.clauses[0]
    assert (glossary.kind, glossary.title) == ("glossary", "Face Down")
    assert glossary.text.count("\n") == 2  # three numbered senses
    assert "Rulings" not in " ".join(c.text for c in new.clauses)  # the wiki's own rulings


def test_gatherer_rulings_have_dates_and_no_numbers():
    rulings = parse("gatherer-rulings", WEB / SEEDS["gatherer-rulings"]).clauses
    assert len(rulings) == 13
    assert {(r.kind, r.number, r.quoted_date) for r in rulings} == {("ruling", None, "2019-11-12")}
    assert rulings[0].text.startswith("Spellmorph is a variant of morph.")


@pytest.mark.parametrize("parser", sorted(HTML))
def test_each_html_page_gives_the_clauses_of_its_text_form(parser):
    html = parse(parser, FIXTURES / HTML[parser], "2002-10-07")
    text = parse(parser, WEB / SEEDS[parser], "2002-10-07")
    assert html.page_date == text.page_date
    assert len(html.clauses) == len(text.clauses) > 0
    for from_html, from_text in zip(html.clauses, text.clauses, strict=True):
        if parser == "gatherer-rulings" and "{3}" in from_html.text:
            # the text form lost the mana symbol image; the HTML keeps it
            assert from_html.text.replace("{3}", "") == from_text.text
            continue
        assert from_html == from_text


def test_html_outside_the_article_body_is_not_a_quote():
    rules = by_number(parse("wizards-article", FIXTURES / HTML["wizards-article"]))
    assert "504.9" not in rules and "502.1" not in rules


def test_comparison_form_ignores_typography_and_mana_notation_only():
    assert comparison_form("it’s {0}  and “3”") == comparison_form('it\'s 0 and "3"')
    assert comparison_form("in play") != comparison_form("on the battlefield")


@pytest.fixture(scope="module")
def witnessed_captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_captures_dir(tmp_path_factory.mktemp("witnessed"), WITNESSED_RELEASES)


@pytest.fixture(scope="module")
def witnessed_store(witnessed_captures: Path) -> Database:
    """The witnessed releases and the seeds, ingested by the `ingest` command."""
    captures = witnessed_captures
    shutil.copytree(WEB, captures / "web")
    db_file = captures.parent / "rules.db"
    result = CliRunner().invoke(
        main, ["ingest", "--captures", str(captures), "--db", str(db_file), "--quiet", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["witnesses"]["stored"]) == 5
    return open_store(db_file)


def agreements(db: Database, source: str) -> dict[str, tuple[str, str]]:
    return {
        row["number"] or row["title"]: (row["release"], row["agreement"])
        for row in db.query("SELECT * FROM witnesses WHERE source = ?", [source])
    }


def test_ingest_stores_every_seed_clause(witnessed_store):
    counts = dict(
        witnessed_store.execute("SELECT source, count(*) FROM witnesses GROUP BY source").fetchall()
    )
    assert counts == {
        "wizards-morph-2002": 14,
        "crystalkeep-504-2008": 9,
        "mtgwiki-face-down-2020": 16,
        "mtgwiki-face-down-2024": 19,
        "gatherer-spellmorph-2019": 13,
    }


def test_the_2002_article_differs_from_the_onslaught_cr_where_it_was_reworded(witnessed_store):
    found = agreements(witnessed_store, "wizards-morph-2002")
    assert {release for release, _ in found.values()} == {"2002-10-07"}
    differs = sorted(n for n, (_r, agreement) in found.items() if agreement == "differs")
    assert differs == ["502.26a", "502.26b", "502.26e", "504.1", "504.2"]
    assert found["504.3"][1] == found["502.26c"][1] == "agrees"
    row = next(
        witnessed_store.query(
            "SELECT word_diff FROM witnesses WHERE source = 'wizards-morph-2002' AND number = ?",
            ["502.26a"],
        )
    )
    diff = json.loads(row["word_diff"])
    deleted = " ".join(text for op, text in diff if op == -1)
    inserted = " ".join(text for op, text in diff if op == 1)
    assert "any time" in deleted and "until you turn" in inserted


def test_crystal_keep_is_checked_against_the_release_of_each_tag(witnessed_store):
    found = agreements(witnessed_store, "crystalkeep-504-2008")
    assert found["504.4"] == ("2003-07-01", "agrees")
    assert found["504.8"] == ("2006-10-01", "agrees")
    assert found["504.2"] == ("2007-05-01", "differs")  # Crystal Keep writes "Rule 418.5"


def test_the_wiki_revisions_agree_with_the_releases_they_quote(witnessed_store):
    for source, release in (
        ("mtgwiki-face-down-2020", "2020-01-22"),  # in force on January 24, 2020
        ("mtgwiki-face-down-2024", "2024-06-07"),
    ):
        found = agreements(witnessed_store, source)
        assert set(found.values()) == {(release, "agrees")}, found


def test_rulings_are_stored_as_witnesses_without_a_comparison(witnessed_store):
    found = agreements(witnessed_store, "gatherer-spellmorph-2019")
    rows = list(witnessed_store.query("SELECT * FROM witnesses WHERE kind = 'ruling'"))
    assert len(rows) == 13 and {r["agreement"] for r in rows} == {"not-a-quote"}
    assert {r["release"] for r in rows} == {"2019-10-04"}
    assert found


def test_show_lists_the_crystal_keep_witness_of_504_2_in_march_2008(
    witnessed_store, witnessed_captures, tmp_path
):
    witnesses = witnesses_for(witnessed_store, "2008-02-01", "504.2")
    assert [(w["source"], w["release"], w["same_release"]) for w in witnesses] == [
        ("crystalkeep-504-2008", "2007-05-01", False)
    ]
    db_file = witnessed_store.conn.execute("PRAGMA database_list").fetchone()[2]
    result = CliRunner().invoke(
        main, ["show", "504.2", "--as-of", "2008-03-17", "--db", db_file, "--json"]
    )
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert [w["source"] for w in shown["witnesses"]] == ["crystalkeep-504-2008"]
    # The capture is named from the captures folder, as the releases' captures are: not by
    # where this machine keeps that folder.
    (capture,) = [w["capture"] for w in shown["witnesses"]]
    assert capture.startswith("web/") and (witnessed_captures / capture).is_file()
    text = CliRunner().invoke(main, ["show", "504.2", "--as-of", "2002-10-07", "--db", db_file])
    assert "witness: wizards-morph-2002 quotes the 2002-10-07 wording: differs" in text.output


def test_a_second_ingest_keeps_one_row_per_witness_clause(witnessed_store, witnessed_captures):
    db_file = witnessed_store.conn.execute("PRAGMA database_list").fetchone()[2]
    before = witnessed_store["witnesses"].count
    result = CliRunner().invoke(
        main, ["ingest", "--captures", str(witnessed_captures), "--db", db_file, "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert "witnesses: 5 captures" in result.output
    assert witnessed_store["witnesses"].count == before == 71


def test_trace_lists_the_crystal_keep_witness_of_504_2(witnessed_store):
    db_file = witnessed_store.conn.execute("PRAGMA database_list").fetchone()[2]
    result = CliRunner().invoke(main, ["trace", "504.2@2008-03-17", "--db", db_file, "--json"])
    assert result.exit_code == 0, result.output
    witnesses = json.loads(result.stdout)["witnesses"]
    quoted = {(w["source"], w["number"], w["release"], w["agreement"]) for w in witnesses}
    assert ("crystalkeep-504-2008", "504.2", "2007-05-01", "differs") in quoted
    assert ("wizards-morph-2002", "504.2", "2002-10-07", "differs") in quoted
    text = CliRunner().invoke(main, ["trace", "504.2@2008-03-17", "--db", db_file])
    assert "witness: crystalkeep-504-2008 quotes 504.2 of 2007-05-01: differs" in text.output


_WORDS = (
    st.text(
        alphabet=st.characters(whitelist_categories=("L", "N"), whitelist_characters=" ,.'\"()-"),
        min_size=1,
        max_size=60,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(lambda s: s and not s[0].isdigit())
)


@given(
    st.lists(
        st.tuples(
            st.integers(100, 999),
            st.integers(1, 30),
            _WORDS,
            st.dates(min_value=date(1999, 1, 1), max_value=date(2030, 12, 31)),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_crystal_keep_lines_round_trip(rows):
    page = "This search based on the March 17, 2008 release of the Rulings.\n" + "".join(
        f"  • {section}.{rule} - {text} [CompRules {day:%Y/%m/%d}]\n"
        for section, rule, text, day in rows
    )
    clauses = parse_witness(page.encode(), "crystal-keep", "t", "0" * 64, "f").clauses
    assert [(c.number, c.text, c.quoted_date) for c in clauses] == [
        (f"{section}.{rule}", text, day.isoformat()) for section, rule, text, day in rows
    ]
