"""The derived 2003-05-26 copy in lineage, diff and blame: its artefacts are no rule changes.

The official releases are chained 2003-03-15 -> 2003-07-01 directly; the copy's clauses join
their lineages, and its differences are stored apart, confirmed only by 2003-07-01.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from conftest import make_captures_dir, run_stages
from sqlite_utils import Database
from test_cite import page_formats

from archive.ingest import ingest_captures
from archive.store import open_store
from lineage.blame import blame
from lineage.compare import diff_releases
from lineage.derived import DERIVED_NOTE, derived_releases
from lineage.store import build_lineage
from renderer.linkcheck import check_site
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


def test_the_copy_is_stored_alike_whether_a_worker_or_the_writer_aligned_it(scourge, tmp_path):
    """A store in a file has its derived copy aligned by a worker process beside the chain;
    one in memory has no file a worker could read, and aligns it in the writer: the same
    lineages, members and events either way."""
    memory = open_store(":memory:")
    assert not ingest_captures(memory, make_captures_dir(tmp_path / "captures", SCOURGE)).failed
    build_lineage(memory)
    tables = (
        "SELECT id, first_release, last_release, first_number, last_number, kind FROM lineages",
        "SELECT lineage_id, release, number, kind FROM lineage_members",
        "SELECT lineage_id, release, kind, old_numbers, new_numbers, related_lineages, similarity,"
        " confirmed FROM derived_events",
    )
    for query in tables:
        assert sorted(memory.execute(query).fetchall()) == sorted(scourge.execute(query).fetchall())
    memory.close()


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
    # 223 rewordings (dropped mana symbols, dashes, typos; 228 before parser 3 parted four
    # glossary entries it had swallowed: Effect, Source, Tombstone Icon, Total Casting Cost,
    # 229 after; one fewer since the period a quoted title closes with is typography: the
    # copy's 'See rule 502.15, "Phasing"' lost only that; one fewer since single quotation
    # marks are quotation marks: 420.5e's "the Legend rule." became 'the Legend rule.'; two
    # fewer since parser 5 keeps an entry's numbered meanings in it: Draw and Untap read as
    # in 2003-03-15 once their meanings are no entries of their own; 224 since spaces beside a
    # dash are typography: the copy's "Modal, Mode" differs only in "chooses one -."; 223
    # since a space moved is typography: the copy's 502.6b differs only in "Ac reature"):
    # 2003-07-01 has none of them word for word; the Scourge additions that 2003-07-01 keeps
    # (storm, landcycling) are confirmed
    assert counts[("reworded", 0)] == 223 and ("reworded", 1) not in counts
    phasing = lineage(scourge, "2003-05-26", "Phasing")
    assert scourge.execute(
        "SELECT kind, confirmed FROM derived_events WHERE lineage_id = ?", [phasing]
    ).fetchall() == [("formatting", 0)]
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
    assert "reworded" not in result["summary"] and result["unconfirmed"]["reworded"] == 223
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


def test_a_wording_the_copy_began_is_named_by_the_copys_change(scourge):
    """A wording first printed by the copy is named by the copy's own change (its words
    differ from 2003-03-15's), as its diff shows it: never `unchanged` (504.2's history page
    called the copy's wording unchanged above a diff of changed words)."""
    kinds = dict(
        scourge.execute(
            """SELECT w.kind, count(*) FROM wordings w WHERE w.first = '2003-05-26'
               GROUP BY w.kind"""
        ).fetchall()
    )
    assert kinds and "unchanged" not in kinds
    changed = dict(
        scourge.execute(
            "SELECT kind, count(*) FROM derived_events WHERE release = '2003-05-26' GROUP BY kind"
        ).fetchall()
    )
    assert kinds.get("reworded") == changed.get("reworded")
    (kind,) = scourge.execute(
        """SELECT w.kind FROM wordings w JOIN lineage_members m ON m.lineage_id = w.lineage_id
           WHERE m.release = '2003-05-26' AND m.number = '504.2' AND w.first = '2003-05-26'"""
    ).fetchone()
    assert kind == "reworded"


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
    assert json.loads(as_json.output)["unconfirmed"]["reworded"] == 223


@pytest.fixture(scope="module")
def scourge_site(scourge, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from renderer.build import build_site

    out = tmp_path_factory.mktemp("scourge-site") / "_site"
    build_site(scourge, out, search=False)
    return out


def test_the_site_marks_the_copy_and_keeps_its_artefacts_apart(scourge_site: Path):
    def page(path: str) -> str:
        return (scourge_site / path / "index.html").read_text(encoding="utf-8")

    copy = page("releases/2003-05-26")
    assert 'class="derived-note">From a re-extracted copy; wording less certain' in copy
    assert "unconfirmed 2" in copy  # the count of unconfirmed differences, apart
    diff = page("diff/2003-03-15/2003-05-26")
    assert 'id="k-unconfirmed"' in diff and 'id="k-reworded"' not in diff
    assert diff.count('<span class="kind kind-unconfirmed">unconfirmed</span>') >= 229
    # the official release is compared with the official one before it, not with the copy
    official = page("releases/2003-07-01")
    assert 'href="/diff/2003-03-15/2003-07-01/"' in official
    assert 'rel="prev" href="/releases/2003-05-26/"' in official  # the pager keeps every release
    assert not (scourge_site / "diff/2003-05-26/2003-07-01").exists()
    listing = page("releases")
    assert "(from a re-extracted copy; wording less certain)" in listing
    histories = [
        p.read_text(encoding="utf-8") for p in (scourge_site / "history").glob("*/100.3/index.html")
    ]
    assert any("ina deck" in h and "derived-note" in h for h in histories)
    links = check_site(scourge_site)
    assert [link for _page, link in links.broken if not link.startswith("/pagefind/")] == []


def test_trace_and_blame_say_when_they_start_from_the_copy(scourge):
    path = scourge.execute("PRAGMA database_list").fetchone()[2]
    traced = CliRunner().invoke(main, ["trace", "504.2@2003-06-01", "--db", path])
    assert traced.exit_code == 0, traced.output
    assert traced.output.splitlines()[1] == (
        f"note: 2003-05-26: {DERIVED_NOTE}; the history below is official"
    )
    assert "2003-05-26  " not in traced.output  # no entry of the copy in the history
    blamed = CliRunner().invoke(main, ["blame", "2003-05-26", "--rule", "504", "--db", path])
    assert blamed.output.splitlines()[0] == f"note: 2003-05-26: {DERIVED_NOTE}"
    official = CliRunner().invoke(main, ["blame", "2003-07-01", "--rule", "504", "--db", path])
    assert "note:" not in official.output


@pytest.mark.browser  # the `browser` fixture skips it without Debian's chromium
def test_the_browser_compare_sets_the_copys_differences_apart_as_diff_does(
    scourge, scourge_site: Path, browser
) -> None:
    """With the copy at one end, the in-browser compare lists what `diff` lists, marks the
    same changes unconfirmed, and leaves them out of its summary as `diff` does."""
    from test_compare_browser import CHANGES_JS, SUMMARY_JS, as_shown, cli_diff, compare

    from renderer.serve import serve_in_thread

    server, base = serve_in_thread(scourge_site)
    tab = browser.new_page()
    try:
        for old, new in (("2003-03-15", "2003-05-26"), ("2003-05-26", "2003-07-01")):
            compare(tab, base, f"old={old}&new={new}")
            expected = cli_diff(scourge, old=old, new=new)
            assert tab.evaluate(SUMMARY_JS) == expected["summary"], (old, new)
            assert tab.evaluate(CHANGES_JS) == [as_shown(c) for c in expected["changes"]]
            marked = tab.eval_on_selector_all(
                "#compare-out article.change[data-confirmed=false]", "els => els.length"
            )
            assert marked == sum(expected["unconfirmed"].values()) > 0, (old, new)
            status = tab.locator("#compare-status")
            assert status.get_attribute("data-unconfirmed") == str(marked)
    finally:
        tab.close()
        server.shutdown()
        server.server_close()


def test_trace_text_names_every_wording_the_copy_began_as_json_lists_them(scourge):
    """A wording the copy began is in `trace --json`'s wordings and on the history page, but
    no event of the official history: the text trace named it nowhere."""
    path = scourge.execute("PRAGMA database_list").fetchone()[2]
    numbers = [
        row[0]
        for row in scourge.execute(
            """SELECT m.number FROM wordings w JOIN lineage_members m
               ON m.lineage_id = w.lineage_id AND m.release = w.first
               WHERE w.first = '2003-05-26' AND m.number GLOB '[0-9]*' ORDER BY m.part_id"""
        )
    ]
    assert len(numbers) > 100
    for number in numbers[:: len(numbers) // 12]:  # a dozen, spread over the document
        rule = f"{number}@2003-05-26"
        as_json = json.loads(
            CliRunner().invoke(main, ["trace", rule, "--json", "--db", path]).output
        )
        began = [w for w in as_json["wordings"] if w["first"] == "2003-05-26"]
        text = CliRunner().invoke(main, ["trace", rule, "--db", path]).output.splitlines()
        noted = [
            line for line in text if line.startswith("note: 2003-05-26 (") and "of its own" in line
        ]
        assert len(noted) == len(began) == 1, (number, noted)
        assert f"prints a wording of {number} of its own ({began[0]['kind']})" in noted[0]
        assert noted[0].endswith(f"`show {number}@2003-05-26` shows it")


def test_a_history_title_names_only_numbers_an_official_release_printed(scourge, scourge_site):
    """/history/2002-10-07/409.4/ was titled '409.4 → 410.4 → 409.4 → ...': 410.4 only in the
    copy, whose garbled text put 409.4's words there. Every number a history's title names
    is one an official release printed for that clause; a number only the copy printed stays
    in the table of numbers, marked as such."""
    official: dict[int, set[str]] = {}
    for lineage_id, number in scourge.execute(
        "SELECT lineage_id, number FROM lineage_members WHERE release != '2003-05-26'"
    ):
        official.setdefault(lineage_id, set()).add(number)
    marked = 0
    for page in (scourge_site / "history").glob("*/*/index.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "lxml")
        lineage_id = int(soup.select_one("article.history")["data-lineage"])
        title = soup.h1.get_text().removeprefix("History of ").removeprefix("rule ")
        if lineage_id in official:
            named = set(title.split(" → "))
            assert named <= official[lineage_id], (page, title)
        for row in soup.select("tr.number-span"):
            only_copy = row["data-number"] not in official.get(lineage_id, set())
            assert only_copy == bool(row.select_one(".derived-number")), (page, row)
            marked += only_copy
    assert marked  # the copy renumbered some clauses (409.4 as 410.4 among them)


def test_a_history_diffs_the_wording_after_the_copy_from_the_official_one(scourge_site: Path):
    """408.1c's 2003-07-01 wording was diffed from the copy's, which lost "(that is, if both
    players pass without taking any actions in between passing)": the page showed 8th Edition
    inserting a phrase 2003-03-15 already printed. `trace` compares official releases."""
    (page,) = (scourge_site / "history").glob("*/408.1c/index.html")
    boxes = re.findall(
        r"<summary>What changed from the wording before</summary>(.*?)</details>",
        page.read_text(encoding="utf-8"),
        re.S,
    )
    inserted = [re.findall(r"<ins[^>]*>(.*?)</ins>", box, re.S) for box in boxes]
    copy, official = inserted[-2], inserted[-1]  # the copy's wording, then 2003-07-01's
    assert any("ont he" in text for text in copy)  # the copy's own artefact, shown as such
    assert not any("without taking any actions" in text for text in official)


def test_a_history_says_the_official_words_came_back_after_the_copys_own(scourge_site: Path):
    """101.3 reads "has been determined" in 2003-03-15 and 2003-07-01, "hsa been" in the copy
    between: the 2003-07-01 wording showed a box of what changed with nothing changed in it.
    It says instead that these are the words of before the copy."""
    (page,) = (scourge_site / "history").glob("*/101.3/index.html")
    entries = re.findall(r'<li id="w\d+" class="wording-entry.*?</li>', page.read_text(), re.S)
    copy, official = entries[-2], entries[-1]
    assert "hsa been determined" in copy and "What changed" in copy
    assert 'data-release="2003-07-01"' in official and "What changed" not in official
    assert re.search(r"re-extracted copy of <time datetime=\"2003-05-26\">", official)


def test_a_number_pages_list_of_days_says_which_come_from_the_copy(scourge_site: Path):
    """The day's own answer said so; the list of every day on the same page did not."""
    page = (scourge_site / "rule/101.3/index.html").read_text(encoding="utf-8")
    days = re.findall(r'<li class="day-run" data-start="([\d-]+)".*?</li>', page, re.S)
    entries = dict(zip(days, re.findall(r'<li class="day-run".*?</li>', page, re.S), strict=True))
    assert "re-extracted copy" in entries["2003-05-26"]
    assert not any("re-extracted" in entries[day] for day in ("2003-03-15", "2003-07-01"))


def test_a_keyword_page_says_which_printing_is_the_copys(scourge_site: Path):
    """Morph as the copy prints it lost its mana symbols ("a mana cost of , by paying"): the
    keyword page showed it as one more version, with no word of the copy."""
    page = (scourge_site / "keyword/morph/index.html").read_text(encoding="utf-8")
    printings = dict(
        re.findall(r'class="printing" data-first="([\d-]+)"(.*?)</details>', page, re.S)
    )
    assert set(printings) >= {"2003-03-15", "2003-05-26", "2003-07-01"}
    for day, printed in printings.items():
        assert ("re-extracted copy" in printed) == (day == "2003-05-26"), day


def test_a_keyword_era_that_begins_with_the_copy_says_so(scourge_site: Path):
    """Storm's 502.30 is first printed by the copy of 2003-05-26, and its printing runs on
    into the official releases: the era and the printing began "May 26, 2003 (Scourge)",
    with no word of the copy (the morph page marks a printing the copy alone has)."""
    page = BeautifulSoup((scourge_site / "keyword/storm/index.html").read_text(), "lxml")
    era = " ".join(page.select_one("main h2[id^=era-h]").get_text().split())
    assert era.startswith("502.30 May 26, 2003 (Scourge; re-extracted copy) –")
    (printing,) = page.select("details summary")
    assert "May 26, 2003 (Scourge; re-extracted copy) –" in printing.get_text()


def test_a_citation_of_the_copy_says_it_is_one(scourge, scourge_site: Path):
    """`cite 420.5e@SCG` cited the copy's wording ('the Legend rule.' in single quotes, which
    no official release printed) as any release's, and so did the page's "Cite this rule"."""
    store = str(scourge.execute("PRAGMA database_list").fetchone()[2])
    mark = "May 26, 2003 (Scourge; re-extracted copy)"
    for asked in (["420.5e@2003-05-26"], ["420.5e@2003-06-01", "--day"]):
        result = CliRunner().invoke(main, ["cite", *asked, "--db", store])
        assert result.exit_code == 0, result.output
        assert mark in result.output, result.output
    page = (scourge_site / "rule/420.5e/2003-05-26/index.html").read_text(encoding="utf-8")
    assert mark in page
    listed = json.loads((scourge_site / "rule/releases.json").read_text(encoding="utf-8"))
    labels = {day: label for day, label, _stated, _notice in listed}
    assert labels["2003-05-26"] == mark
    assert labels["2003-07-01"] == "July 1, 2003 (Eighth Edition)"


def test_a_wording_the_copy_printed_first_is_cited_alike_and_names_the_official_release(
    scourge, scourge_site: Path
):
    """Storm is new in Scourge: the copy of 2003-05-26 prints 502.30a, the official history
    starts on 2003-07-01. `cite` named the copy's release "(Scourge; re-extracted copy)",
    the wording's page "(Scourge)" alone, in every format and in its permalink line. Both
    now mark the copy, and both say which official release first printed the words."""
    store = str(scourge.execute("PRAGMA database_list").fetchone()[2])
    result = CliRunner().invoke(main, ["cite", "502.30a@2003-07-30", "--json", "--db", store])
    assert result.exit_code == 0, result.output
    cited = json.loads(result.stdout)
    assert cited["path"] == "/rule/502.30a/2003-05-26/"
    assert cited["first_official"] == "2003-07-01"
    page = scourge_site / "rule/502.30a/2003-05-26/index.html"
    assert page_formats(page) == cited["formats"]
    mark = "May 26, 2003 (Scourge; re-extracted copy)"
    assert all(mark in text for key, text in cited["formats"].items() if key != "csl")
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    permalink = next(p for p in soup.select(".cite p") if p.get_text().startswith("Permalink"))
    assert "(Scourge; re-extracted copy)" in permalink.get_text()
    notes = " ".join(p.get_text(" ", strip=True) for p in soup.select(".derived-note"))
    assert "the first official release that does is July 1, 2003" in notes
    text = CliRunner().invoke(main, ["cite", "502.30a@2003-07-30", "--db", store])
    assert (
        "note: the re-extracted copy of 2003-05-26 is the first release here to print these"
        " words; the first official release that does is 2003-07-01"
    ) in text.stderr


def test_a_day_is_cited_in_plain_text_only_and_says_so(scourge):
    """`cite --day --format bibtex` printed the plain day citation, exit 0: a writer who asked
    for BibTeX got text that is none. It is refused in one line (a usage error)."""
    store = str(scourge.execute("PRAGMA database_list").fetchone()[2])
    for style in ("bibtex", "csl", "wiki"):
        asked = ["cite", "502.30a@2003-07-30", "--day", "--format", style, "--db", store]
        result = CliRunner().invoke(main, asked)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and "--day cites a day in plain text" in result.stderr


def test_a_number_gone_sends_the_reader_to_its_last_official_release(scourge):
    """`cite 214.8b@2004-01-01` said the number was "last numbered so in 2003-05-26" and
    sent the reader there: the re-extracted copy, unnamed as such. The last release that had
    it is the official one, and the copy is named as the copy; `trace`, `show` and `cite`
    say it alike."""
    store = str(scourge.execute("PRAGMA database_list").fetchone()[2])
    said = (
        "it was last numbered so in 2003-03-15 (and in the re-extracted copy of 2003-05-26),"
        " and that clause is not in it (try 214.8b@2003-03-15 to see where it went)"
    )
    for command in (
        ["trace", "214.8b@2003-07-01"],
        ["show", "214.8b@2003-07-01"],
        ["cite", "214.8b@2003-07-01"],
    ):
        result = CliRunner().invoke(main, [*command, "--db", store])
        assert result.exit_code == 1, result.output
        assert said in result.stderr, (command, result.stderr)
        assert result.stderr.count("\n") == 1


def test_the_releases_table_says_a_row_is_counted_past_the_copy(scourge_site: Path):
    """The 2003-07-01 row counted its changes from 2003-03-15 with the copy's row right below
    it, and said nothing of the release it skipped."""
    listing = (scourge_site / "releases/index.html").read_text(encoding="utf-8")
    rows = {
        day: row
        for row in re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", listing, re.S)
        if (day := re.search(r'href="/releases/([0-9-]+)/"', row)) and (day := day[1])
    }
    note = "the re-extracted copy between is not counted from"
    assert note in rows["2003-07-01"] and "2003-03-15" in rows["2003-07-01"]
    assert note not in rows["2003-05-26"]


def test_the_releases_chart_leaves_out_the_copys_formatting_only_changes_too(
    scourge, scourge_site: Path
):
    """The chart says formatting-only changes are left out, yet the copy's bar counted its 23
    unconfirmed formatting differences among its 264 unconfirmed ones."""
    path = scourge.execute("PRAGMA database_list").fetchone()[2]
    diffed = json.loads(
        CliRunner()
        .invoke(main, ["diff", "2003-03-15", "2003-05-26", "--json", "--db", path])
        .output
    )
    unconfirmed = diffed["unconfirmed"]
    listing = (scourge_site / "releases/index.html").read_text(encoding="utf-8")
    (label,) = re.findall(r'data-release="2003-05-26"[^>]*><title>(.*?)</title>', listing)
    charted = sum(unconfirmed.values()) - unconfirmed["formatting"]
    assert unconfirmed["formatting"] > 0 and f"unconfirmed {charted}" in label
    formatting = diffed["summary"]["formatting"] + unconfirmed["formatting"]
    assert label.endswith(f"; and {formatting} formatting-only")
    # the table's row, the release page and the diff page count them among the unconfirmed
    # differences, and say how many they are, so that the chart's figure is found again
    said = f"unconfirmed {sum(unconfirmed.values())} ({unconfirmed['formatting']} formatting-only)"
    for page in ("releases", "releases/2003-05-26", "diff/2003-03-15/2003-05-26"):
        shown = (scourge_site / page / "index.html").read_text(encoding="utf-8")
        assert said in " ".join(BeautifulSoup(shown, "lxml").get_text().split()), page


def test_the_note_of_a_glossary_entrys_own_wording_names_a_command_that_shows_it(scourge):
    """`trace "morph (glossary)"` said `show Morph@2003-05-26` shows the copy's wording: that
    is rule 502.26 (a title is read before a term); the note names the entry as `show` takes
    it, and the command it names shows the entry."""
    path = str(scourge.execute("PRAGMA database_list").fetchone()[2])
    (term,) = scourge.execute(
        """SELECT m.number FROM wordings w JOIN lineage_members m
           ON m.lineage_id = w.lineage_id AND m.release = w.first
           WHERE w.first = '2003-05-26' AND m.kind = 'glossary' AND m.number = 'Morph'"""
    ).fetchone()
    text = CliRunner().invoke(main, ["trace", f"{term} (glossary)", "--db", path]).output
    (noted,) = [line for line in text.splitlines() if line.startswith("note: 2003-05-26 (")]
    command = noted.rsplit("`", 2)[1]
    assert command == f'show "{term} (glossary)@2003-05-26"'
    shown = CliRunner().invoke(main, ["show", command[6:-1], "--db", path])
    assert shown.output.startswith(f"Glossary: {term}  (2003-05-26 release)"), shown.output


def test_trace_and_history_say_where_the_copy_prints_a_clause_outside_its_official_span(
    scourge, scourge_site: Path
):
    """Storm is new in Scourge: the copy of 2003-05-26 prints it, the official history begins
    on 2003-07-01. The number's and keyword's pages show it from the copy's day while `trace`
    and the history page said "first in July 1, 2003" with no word of the copy; likewise a
    clause the copy still prints after its last official release (212.1)."""
    path = scourge.execute("PRAGMA database_list").fetchone()[2]
    cases = {  # rule asked -> (side, words of the history page)
        "storm@2003-07-01": ("before", "and before it in the re-extracted copy"),
        "212.1@2003-03-15": ("after", "and after it in the re-extracted copy"),
    }
    for rule, (side, words) in cases.items():
        as_json = json.loads(
            CliRunner().invoke(main, ["trace", rule, "--json", "--db", path]).output
        )
        (printed,) = as_json["copy_printings"]
        assert (printed["release"], printed["side"]) == ("2003-05-26", side), rule
        text = CliRunner().invoke(main, ["trace", rule, "--db", path]).output
        assert (
            f"prints it {'already' if side == 'before' else 'still'}, as {printed['number']}"
            in text
        )
        first, number = scourge.execute(
            "SELECT first_release, first_number FROM lineages WHERE id = ?", [as_json["lineage"]]
        ).fetchone()
        page = (scourge_site / f"history/{first}/{number}/index.html").read_text(encoding="utf-8")
        lede = BeautifulSoup(page, "lxml").select_one("p.lede")
        assert lede is not None and words in lede.get_text(" ", strip=True), rule
        assert '<a href="/releases/2003-05-26/">' in str(lede)
    plain = json.loads(
        CliRunner().invoke(main, ["trace", "504.2@2003-07-01", "--json", "--db", path]).output
    )
    assert plain["copy_printings"] == []  # in the copy and in both official neighbours


def test_words_the_copy_garbled_between_two_alike_runs_are_said_to_be_the_same(
    scourge, scourge_site: Path
):
    """101.3 reads alike in 2003-03-15 and 2003-07-01; the copy between garbles it, so its
    wording pages break in three, and the 2003-07-01 page read as a new wording. The page,
    the number page's list of days and `cite` now say they are the earlier words."""
    path = scourge.execute("PRAGMA database_list").fetchone()[2]
    alike = [
        row[0]
        for row in scourge.execute(
            """SELECT a.number FROM number_runs a JOIN number_runs b
               ON b.number = a.number AND b.start = '2003-07-01' AND b.version = a.version
               WHERE a.end = '2003-03-15' ORDER BY a.number"""
        )
    ]
    assert "101.3" in alike and len(alike) > 20
    for number in ("101.3", alike[-1]):
        page = (scourge_site / f"rule/{number}/2003-07-01/index.html").read_text(encoding="utf-8")
        note = BeautifulSoup(page, "lxml").select_one("p.restores")
        assert note is not None and f'href="/rule/{number}/2003-03-15/"' in str(note), number
        listing = (scourge_site / f"rule/{number}/index.html").read_text(encoding="utf-8")
        assert "the same words as from <time" in listing, number
        cited = CliRunner().invoke(main, ["cite", f"{number}@2003-08-01", "--db", path])
        assert cited.exit_code == 0, cited.output
        assert "the same words as the wording in force from the release of 2003-03-15" in (
            cited.stderr
        )
        as_json = json.loads(
            CliRunner()
            .invoke(main, ["cite", f"{number}@2003-08-01", "--json", "--db", path])
            .stdout
        )
        assert as_json["restores"] == {"first": "2003-03-15", "path": f"/rule/{number}/2003-03-15/"}
    earlier = (scourge_site / "rule/101.3/2003-03-15/index.html").read_text(encoding="utf-8")
    assert 'class="derived-note restores"' not in earlier


def test_the_release_pages_name_what_their_changes_are_counted_from(scourge_site: Path):
    """2003-07-01's page was headed "Changes from the previous release" beside a link to
    2003-05-26 while it counted from 2003-03-15; the copy's page listed its differences as
    plainly "reworded" though its counts put them apart as unconfirmed."""
    official = (scourge_site / "releases/2003-07-01/index.html").read_text(encoding="utf-8")
    heading = BeautifulSoup(official, "lxml").select_one("h2#changes").get_text(" ", strip=True)
    assert heading == "Changes from the official release before, March 15, 2003"
    copy = (scourge_site / "releases/2003-05-26/index.html").read_text(encoding="utf-8")
    listed = BeautifulSoup(copy, "lxml").select("ul.changed-list li")
    assert BeautifulSoup(copy, "lxml").select_one("h2#changes").get_text() == (
        "Changes from the previous release"
    )
    marked = [li for li in listed if "(unconfirmed)" in li.get_text()]
    assert len(marked) >= 229 and len(marked) < len(listed)
