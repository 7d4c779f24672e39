"""`rules-history cite` gives the citation the site gives: the same permalink (the page of
the run of releases that printed those words), the same release and set name, the same
formats, the access date filled with today."""

from __future__ import annotations

import html
import json
import re
from datetime import date
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from sqlite_utils import Database

from renderer.citations import ACCESS_PLACEHOLDER
from renderer.environment import long_date
from rules_history.cli import main

PRE = re.compile(r'<pre id="cite-[^"]*-(\w+)" data-accessed="(\w+)"[^>]*>(.*?)</pre>', re.DOTALL)


def run(store: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["cite", *args, "--db", store])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def store(small_lineage: Database) -> str:
    return str(small_lineage.execute("PRAGMA database_list").fetchone()[2])


def page_formats(page: Path) -> dict[str, str]:
    """The formats a rule page shows, with today as the reader's browser fills it in."""
    today = date.today().isoformat()
    filled = {"long": long_date(today), "iso": today}
    return {
        key: html.unescape(text).replace(ACCESS_PLACEHOLDER, filled[accessed])
        for key, accessed, text in PRE.findall(page.read_text(encoding="utf-8"))
    }


@pytest.mark.parametrize(
    ("rule", "as_of", "number", "first"),
    [
        # morph by its name in 2008: 502.26, whose words 2008-02-01 printed first of the store
        ("morph", "2008-05-01", "502.26", "2002-10-07"),
        ("504.2", "2008-02-01", "504.2", "2008-02-01"),
        # the face-down rule in 2024: its words since the 2021 renumbering
        ("708.2", "2024-06-07", "708.2", "2021-07-12"),
        # section 300's "General" since 2009 is another clause (Card Types', not Turn
        # Structure's) in the same words: its wording begins there
        ("300", "2018-10-05", "300", "2009-07-08"),
    ],
)
def test_the_cli_cites_as_the_rule_page_does(
    store: str, small_site: Path, rule: str, as_of: str, number: str, first: str
) -> None:
    code, output = run(store, rule, "--as-of", as_of, "--json")
    assert code == 0, output
    cited = json.loads(output)
    assert cited["path"] == f"/rule/{number}/{first}/"
    page = small_site / "rule" / number / first / "index.html"
    assert page.is_file()
    assert cited["formats"] == page_formats(page)
    plain = CliRunner().invoke(main, ["cite", rule, "--as-of", as_of, "--db", store])
    assert plain.stdout.strip() == cited["formats"]["plain"]  # the citation alone, to copy
    bibtex = CliRunner().invoke(
        main, ["cite", rule, "--as-of", as_of, "--format", "bibtex", "--db", store]
    )
    assert bibtex.stdout.strip() == cited["formats"]["bibtex"]
    # "morph" also names the glossary entry: said apart from the citation, on stderr
    also = cited["also_named"]
    assert (also == ["Morph (glossary)"]) == (rule == "morph")
    notes = [f"note: {rule!r} also names Morph (glossary)"] if also else []
    # the release of the wording's page is not the one in force that day: said, with --day
    if cited["in_force"] != first:
        notes.append(
            f"note: cites the wording in force on {as_of} by its own page (the release of"
            f" {first}); --day cites the day, as /rule/{number}/{as_of}/ does"
        )
    assert plain.stderr == "".join(f"{note}\n" for note in notes)
    on_day = CliRunner().invoke(main, ["cite", rule, "--as-of", as_of, "--day", "--db", store])
    assert on_day.stdout.strip() == cited["day"]["text"]
    if as_of == first:  # /rule/N/FIRST/ is the wording's own page: it cites the wording
        assert on_day.stdout.strip() == cited["formats"]["plain"]
    else:
        assert f"in force on {long_date(as_of)}, release of " in on_day.stdout


def test_the_permalink_takes_the_sites_address(store: str) -> None:
    code, output = run(store, "708.2", "--base-url", "https://rules.example.org/", "--json")
    assert code == 0, output
    assert json.loads(output)["url"].startswith("https://rules.example.org/rule/708.2/")
    code, output = run(store, "708.2", "--base-url", "ftp://rules.example.org")
    assert code == 1 and output.count("\n") == 1 and "not an absolute http(s) URL" in output


def test_a_glossary_entry_or_a_missing_number_is_one_line(store: str) -> None:
    code, output = run(store, "active player", "--as-of", "2024-06-07")
    assert code == 1 and output.count("\n") == 1 and "glossary entry" in output
    code, output = run(store, "999.9")
    assert code == 1 and output.count("\n") == 1 and "999.9" in output
    # a term written with its day, as `trace` takes it, is named bare, as other errors name it
    code, output = run(store, "active player@2024-06-07")
    assert code == 1 and output.startswith("error: 'active player' is a glossary entry in ")


def test_a_rule_on_a_day_is_written_as_trace_takes_it(store: str) -> None:
    """`708.2@2024-06-07`, as `trace` takes it, is `708.2 --as-of 2024-06-07` for `cite` and
    `show` too; naming two days is one line."""
    for command in ("cite", "show"):
        runner = CliRunner()
        at = runner.invoke(main, [command, "504.2@2008-03-17", "--json", "--db", store])
        as_of = runner.invoke(
            main, [command, "504.2", "--as-of", "2008-03-17", "--json", "--db", store]
        )
        assert at.exit_code == as_of.exit_code == 0, at.output
        assert at.output == as_of.output
    code, output = run(store, "504.2@2008-03-17", "--as-of", "2024-06-07")
    assert code == 1 and output.count("\n") == 1 and "give one" in output


def test_a_day_before_its_release_takes_effect_is_cited_with_that_said(store: str) -> None:
    """The 2021-07-12 text states it takes effect on July 23: `show` and the day's page say
    so for July 15, and so does `cite` (on stderr, beside the citation a reader copies, and
    in its JSON); a day after it says nothing of it."""
    runner = CliRunner()
    before = runner.invoke(main, ["cite", "708.2@2021-07-15", "--day", "--db", store])
    assert before.exit_code == 0, before.output
    assert before.stderr.splitlines() == [
        "note: the release of 2021-07-12 states that it takes effect on 2021-07-23: on the"
        " days before, it was published but not yet in effect"
    ]
    # the citation itself says it, as the day's page does: copied, it loses the note
    assert "in force" not in before.stdout
    assert "as published on July 15, 2021, release of July 12, 2021" in before.stdout
    assert before.stdout.split(". /rule/")[0].endswith(", in effect from July 23, 2021")
    as_json = json.loads(
        runner.invoke(main, ["cite", "708.2@2021-07-15", "--json", "--db", store]).stdout
    )
    assert as_json["takes_effect"] == "2021-07-23"
    after = runner.invoke(main, ["cite", "708.2@2021-07-23", "--day", "--json", "--db", store])
    assert after.exit_code == 0 and json.loads(after.stdout)["takes_effect"] is None
    assert after.stderr == ""


def test_a_day_to_come_is_answered_with_that_said(store: str) -> None:
    """`show 708.2@2999-01-01` answered from the newest release as if it were known to be in
    force then; `show`, `cite` and the day's page (renderer.asof_view) now say the day has
    not come; today and the days before say nothing of it."""
    runner = CliRunner()
    said = (
        "note: 2999-01-01 has not come yet: the answer is the newest release the archive holds,"
        " and one published before that day may change it"
    )
    shown = runner.invoke(main, ["show", "708.2@2999-01-01", "--db", store])
    assert shown.exit_code == 0 and said in shown.output.splitlines()
    cited = runner.invoke(main, ["cite", "708.2@2999-01-01", "--day", "--db", store])
    assert cited.exit_code == 0 and cited.stderr.splitlines() == [said]
    as_json = runner.invoke(main, ["cite", "708.2@2999-01-01", "--json", "--db", store])
    assert json.loads(as_json.stdout)["to_come"] == "2999-01-01"
    today = date.today().isoformat()
    now = runner.invoke(main, ["show", f"708.2@{today}", "--json", "--db", store])
    assert "to_come" not in json.loads(now.stdout)


def test_the_same_words_under_a_number_are_two_wordings_when_the_clause_changed(
    store: str, small_site: Path
) -> None:
    """In 2009-07-08 section 300 went from Turn Structure's "General" to Card Types': the
    same word, another clause. `cite` dated today's 300 to the first release and the number
    page listed one clause; both now begin a wording there, each with its own history, as
    `trace` follows today's 300 back to 2003's 212.1."""
    trace = CliRunner().invoke(main, ["trace", "300@2018-10-05", "--json", "--db", store])
    assert [entry["number"] for entry in json.loads(trace.stdout)["entries"]][:2] == [
        "212.1",
        "300",
    ]
    page = BeautifulSoup((small_site / "rule/300/index.html").read_text(encoding="utf-8"), "lxml")
    wordings = {a["href"] for a in page.select('a[href^="/rule/300/2"]')}
    assert wordings == {"/rule/300/2002-10-07/", "/rule/300/2009-07-08/"}

    def history(wording: str) -> str:
        path = small_site / wording.strip("/") / "index.html"
        found = BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")
        return found.select_one('nav.pager a[href^="/history/"]')["href"]

    assert history("/rule/300/2002-10-07/") != history("/rule/300/2009-07-08/")
    assert history("/rule/300/2009-07-08/").endswith("/212.1/")  # first seen as 212.1
