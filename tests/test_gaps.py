"""Gaps: the releases the archive lacks are data, listed on the releases page, and every
diff across one (CLI text and JSON, the /diff/ pages) says so."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_captures_dir
from static_host import static_host

from archive.decode import decode_capture
from archive.gaps import Gap, GapError, gaps_between, load_gaps, store_gaps
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
from archive.parse import parse_release
from archive.store import open_store
from crawler.catalogue import CATALOGUE_FILE, load_catalogue
from renderer.asof_view import SEGMENT, Asked, show_as_of
from renderer.environment import long_date
from renderer.linkcheck import check_site
from rules_history.cli import main

# Around the 2000 gap, and one pair of neighbours with no gap between them.
RELEASES = ("1999-11-01", "2001-07-23", "2001-09-24")
GAPS = load_gaps(CATALOGUE_FILE)


def preferred_parts(day: str) -> list:
    capture = next(c for c in load_manifest() if c.date == day and c.preferred)
    data = read_capture_bytes(CAPTURES_DIR, capture)
    return parse_release(decode_capture(data, capture.encoding, capture.file)).parts


def test_the_catalogue_lists_the_known_gaps_between_archived_neighbours():
    assert {gap.id: (gap.after, gap.before, gap.status) for gap in GAPS} == {
        "gap-2000": ("1999-11-01", "2001-07-23", "expected"),
        "gap-2005-saviors": ("2005-02-01", "2005-08-01", "possible"),
    }
    archived = sorted({c.date for c in load_manifest()})
    for gap in GAPS:
        assert gap.known and gap.sources, gap.id
        # the releases around it are archived neighbours: nothing archived lies inside it
        assert archived[archived.index(gap.after) + 1] == gap.before, gap.id
    # the crawler never sees them: there is nothing to fetch until a URL is found
    assert not [s for s in load_catalogue() if s.id.startswith("gap-")]


@pytest.mark.parametrize(
    "gap, evidence", [(g, e) for g in GAPS for e in g.evidence], ids=lambda x: getattr(x, "id", "")
)
def test_each_gaps_evidence_is_in_the_texts(gap: Gap, evidence: dict[str, str]):
    """A keyword rule first printed after the gap: present in `first_in`, absent before."""
    assert evidence["first_in"] == gap.before and evidence["absent_from"] == gap.after
    first = {p.number: p for p in preferred_parts(evidence["first_in"]) if p.number}
    assert first[evidence["rule"]].text == evidence["text"]
    before = preferred_parts(evidence["absent_from"])
    assert not [p for p in before if evidence["text"] in (p.text or "")], evidence


@pytest.fixture(scope="module")
def gap_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Three releases around the 2000 gap, ingested and built by the real CLI."""
    root = tmp_path_factory.mktemp("gaps")
    captures = make_captures_dir(root / "captures", RELEASES)
    db_file, out = root / "rules.db", root / "_site"
    result = CliRunner().invoke(
        main,
        [
            "build",
            "--quiet",
            "--no-search",
            "--captures",
            str(captures),
            "--db",
            str(db_file),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return db_file, out


def test_gaps_are_stored_at_ingest(gap_site):
    db = open_store(gap_site[0])
    assert [g["id"] for g in gaps_between(db, "1999-11-01", "2001-09-24")] == ["gap-2000"]
    assert gaps_between(db, "2001-07-23", "2001-09-24") == []
    spanned = gaps_between(db, "1999-11-01", "2026-08-07")
    assert [g["id"] for g in spanned] == ["gap-2000", "gap-2005-saviors"]
    assert spanned[1]["evidence"] == [
        {"rule": "502.44", "text": "Epic", "first_in": "2005-08-01", "absent_from": "2005-02-01"}
    ]


def test_a_diff_across_a_gap_says_so_in_text_and_json(gap_site):
    db = ["--db", str(gap_site[0])]
    runner = CliRunner()
    text = runner.invoke(main, ["diff", "1999-11-01", "2001-07-23", *db])
    assert text.exit_code == 0, text.output
    note = [line for line in text.output.splitlines() if line.startswith("note:")]
    assert note == [
        "note: spans a gap in the archive: Releases of 2000 and early 2001 (expected, between"
        " 1999-11-01 and 2001-07-23): changes listed here may have come in a release the"
        " archive lacks"
    ]
    as_json = json.loads(
        runner.invoke(main, ["diff", "1999-11-01", "2001-09-24", "--json", *db]).output
    )
    assert [g["id"] for g in as_json["gaps"]] == ["gap-2000"]
    assert as_json["gaps"][0]["evidence"][1]["text"] == "Kicker"
    no_gap = runner.invoke(main, ["diff", "2001-07-23", "2001-09-24", *db]).output
    assert "note:" not in no_gap
    assert (
        json.loads(runner.invoke(main, ["diff", "2001-07-23", "2001-09-24", "--json", *db]).output)[
            "gaps"
        ]
        == []
    )


def test_the_site_lists_gaps_and_marks_diffs_across_them(gap_site):
    out = gap_site[1]
    listing = (out / "releases/index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr(?: class="gap" id="([\w-]+)")?>\s*<th scope="row">(.*?)</th>', listing)
    # newest first, the gap between the two releases it lies between
    assert [gap or re.sub("<[^>]+>", "", head) for gap, head in rows] == [
        "gap-2005-saviors",  # placed by date; its releases are not in this store
        "2001-09-24",
        "2001-07-23",
        "gap-2000",
        "1999-11-01",
    ]
    assert "Releases of 2000 and early 2001" in listing and "Kicker (502.21)" in listing
    across = (out / "diff/1999-11-01/2001-07-23/index.html").read_text(encoding="utf-8")
    words = re.sub("<[^>]+>", "", across)  # dates are <time> elements
    assert 'class="gap-note"' in across and "A release is missing between 1999-11-01" in words
    assert 'class="gap-note"' in (out / "releases/2001-07-23/index.html").read_text()
    assert 'class="gap-note"' not in (out / "diff/2001-07-23/2001-09-24/index.html").read_text()
    assert 'class="gap-note"' not in (out / "releases/2001-09-24/index.html").read_text()
    links = check_site(out)  # built without search: only the search page's assets are absent
    assert links.pages > 100 and not links.external_loads
    assert [link for _page, link in links.broken if not link.startswith("/pagefind/")] == []


def test_a_release_inside_a_gap_is_reported_and_a_bad_line_named(tmp_path, gap_site):
    db = open_store(gap_site[0])
    inside = Gap("gap-x", "1999-11-01", "2001-09-24", "A test gap", "possible", "nothing")
    warnings = store_gaps(db, [inside])
    assert warnings == [
        "gap gap-x: release 2001-07-23 lies inside it; update or remove its line in the catalogue"
    ]
    store_gaps(db, GAPS)  # the catalogue's own again
    bad = tmp_path / "catalogue.jsonl"
    bad.write_text(
        '{"id": "cr-x", "kind": "cr", "urls": []}\n'
        '{"id": "gap-y", "kind": "gap", "after": "2001-01-01", "before": "2000-01-01",'
        ' "title": "t", "status": "possible", "known": "k"}\n'
    )
    with pytest.raises(GapError, match="line 2: 'after' must be before 'before'"):
        load_gaps(bad)
    bad.write_text('{"id": "gap-z", "kind": "gap", "after": "2001-01-01"}\n')
    with pytest.raises(GapError, match="line 1: not a gap entry"):
        load_gaps(bad)


# A day inside the 2000 gap, and the day of the release the gap follows (not inside it).
IN_GAP, GAP_FOLLOWS = "2000-06-01", "1999-11-01"


def test_an_answer_for_a_day_inside_a_gap_says_so(gap_site):
    """`show`, `cite`, `trace` and `blame` for a day on which a release the archive lacks may have
    been in force: a note in text, the gap in JSON; none on the day of an archived release."""
    db = ["--db", str(gap_site[0])]
    runner = CliRunner()
    note = (
        f"note: {IN_GAP} falls in a gap in the archive: Releases of 2000 and early 2001"
        " (expected, no release between 1999-11-01 and 2001-07-23): a release the archive"
        " lacks may have been in force that day"
    )
    for command in (["show", f"502.2@{IN_GAP}"], ["trace", f"502.2@{IN_GAP}"]):
        text = runner.invoke(main, [*command, *db])
        assert text.exit_code == 0, text.output
        assert note in text.output.splitlines(), command
        as_json = json.loads(runner.invoke(main, [*command, "--json", *db]).output)
        assert as_json["release"] == "1999-11-01" and as_json["gap"]["id"] == "gap-2000"
        certain = runner.invoke(main, [command[0], f"502.2@{GAP_FOLLOWS}", *db]).output
        assert "note:" not in certain
        assert "gap" not in json.loads(
            runner.invoke(main, [command[0], f"502.2@{GAP_FOLLOWS}", "--json", *db]).output
        )
    blamed = runner.invoke(main, ["blame", IN_GAP, "--rule", "502.2", *db])
    assert blamed.exit_code == 0 and note in blamed.output.splitlines()
    rows = json.loads(runner.invoke(main, ["blame", IN_GAP, "--rule", "502", "--json", *db]).output)
    assert rows and {row["gap"]["id"] for row in rows} == {"gap-2000"}
    certain = json.loads(runner.invoke(main, ["blame", GAP_FOLLOWS, "--json", *db]).output)
    assert not [row for row in certain if "gap" in row]
    cited = runner.invoke(main, ["cite", f"502.2@{IN_GAP}", "--day", *db])
    assert cited.exit_code == 0 and note in cited.stderr.splitlines()
    assert "in force on June 1, 2000" in cited.stdout
    as_json = json.loads(runner.invoke(main, ["cite", f"502.2@{IN_GAP}", "--json", *db]).stdout)
    assert as_json["gap"]["id"] == "gap-2000"
    # Kicker (502.21) came with Invasion, in 2000: the archive has it first in 2001-07-23
    for command in ("show", "trace"):  # `trace` said only that the release lacked it
        missing = runner.invoke(main, [command, f"502.21@{IN_GAP}", *db])
        assert missing.exit_code == 1
        assert missing.output.count("\n") == 1, missing.output
        assert note.removeprefix("note: ") in missing.output, (command, missing.output)
    # what is written like no number is no number on any day: the gap adds nothing to it
    for command in ("show", "trace", "cite"):
        malformed = runner.invoke(main, [command, f"64.2@{IN_GAP}", *db])
        assert malformed.exit_code == 1 and malformed.output.count("\n") == 1
        assert "is not a rule number" in malformed.output and "gap" not in malformed.output


def test_a_diff_or_examples_asked_for_days_inside_a_gap_say_so(gap_site):
    """`diff 2000-06-01 2001-01-01` compared 1999-11-01 with itself ('unchanged 612') and
    said nothing of the gap both days fall in; `examples --as-of` a day inside a gap said
    nothing either, and printed nothing at all when no scenario applied."""
    db = ["--db", str(gap_site[0])]
    runner = CliRunner()
    note = f"note: {IN_GAP} falls in a gap in the archive: Releases of 2000 and early 2001"
    text = runner.invoke(main, ["diff", IN_GAP, "2001-01-01", *db])
    assert text.exit_code == 0
    notes = [line for line in text.output.splitlines() if line.startswith("note:")]
    # both days are answered by one release, which is said first; then each day asked, named
    assert notes[0] == f"note: {IN_GAP} and 2001-01-01 both resolve to the 1999-11-01 release"
    assert len(notes) == 3 and notes[1].startswith(note)
    assert notes[2].startswith("note: 2001-01-01 falls in a gap in the archive: Releases of 2000")
    as_json = json.loads(runner.invoke(main, ["diff", IN_GAP, "2001-01-01", "--json", *db]).output)
    assert [gap["id"] for gap in as_json["gaps"]] == ["gap-2000"]
    examples = runner.invoke(main, ["examples", "--as-of", IN_GAP, *db])
    assert examples.exit_code == 0
    assert examples.output.splitlines()[0].startswith(note)
    assert "no scenario is decided by the release in force on" in examples.output
    one = runner.invoke(main, ["examples", "--as-of", IN_GAP, "--scenario", "morph-pt", *db])
    assert "scenario morph-pt is not decided by the release in force on" in one.output


def _segments(page: str) -> list[tuple[str, str, str]]:
    """Each answer by day of a number page: its first day, the day after its last, its HTML."""
    return SEGMENT.findall(page)


@pytest.mark.parametrize("number", ["502.2", "502.21"])
def test_a_day_page_inside_a_gap_says_so(gap_site, number):
    """/rule/N/DAY/ for a day inside the gap, as `serve` and the browser pick it: the answer
    by day is cut at the gap's days, which alone carry the note; every day still has one
    answer, and the page's list of every day names the gap."""
    page = (gap_site[1] / "rule" / number / "index.html").read_text(encoding="utf-8")
    segments = _segments(page)
    assert segments[0][0] == "0001-01-01" and segments[-1][1] == ""
    assert all(a[1] == b[0] for a, b in zip(segments, segments[1:], strict=False))
    noted = [(start, until) for start, until, html in segments if 'class="gap-note"' in html]
    assert noted == [("1999-11-02", "2001-07-23")]
    accessed = date(2026, 11, 30)
    releases = [[day, day, "", ""] for day in RELEASES]  # as /rule/releases.json lists them

    def shown(day: str) -> str:
        """The answer `serve` shows for the day, as words."""
        page_on_day = show_as_of(page, Asked(number, day, "/", "http://x", accessed), releases)
        assert page_on_day is not None
        answer = page_on_day.split('<div id="asof-day" class="asof-view">')[1].split("<template")[0]
        return re.sub(r"\s+", " ", re.sub("<[^>]+>", "", answer))

    words = shown(IN_GAP)
    assert "A release the archive lacks may have been in force on June 1, 2000." in words
    assert "Releases of 2000 and early 2001 (expected)" in words
    for day in (GAP_FOLLOWS, "2001-07-23"):
        assert f"on {long_date(day)}" in shown(day) and "lacks" not in shown(day), day
    days = re.search(r'<ul class="days">(.*?)</ul>', page, re.S)
    assert days is not None
    entries = re.findall(r"<li[^>]*>(.*?)</li>", days.group(1), re.S)
    spanning = [e for e in entries if 'href="/releases/#gap-2000"' in e]
    assert len(spanning) == 1 and "the archive lacks the releases between" in spanning[0]


@pytest.mark.browser  # the `browser` fixture skips it without Debian's chromium
def test_the_browser_shows_the_gap_on_a_day_inside_it(browser, gap_site):
    """On a static host the day is picked by static/asof.js: the same note as `serve`."""
    with static_host(gap_site[1]) as host:
        page = browser.new_page()
        page.goto(f"{host.url}/rule/502.2/{IN_GAP}/")
        page.wait_for_function("!document.getElementById('asof-day').hidden")
        note = page.locator("#asof-day aside.gap-note")
        assert "A release the archive lacks may have been in force on June 1, 2000." in (
            note.inner_text()
        )
        page.goto(f"{host.url}/rule/502.2/2001-08-01/")
        page.wait_for_function("!document.getElementById('asof-day').hidden")
        assert page.locator("#asof-day aside.gap-note").count() == 0
        page.close()


@pytest.mark.browser  # the `browser` fixture skips it without Debian's chromium
def test_the_browser_compare_says_when_it_spans_a_gap(browser, gap_site):
    """The in-browser compare lists the same changes as `diff`; across a gap it says, as
    `diff` and the /diff/ pages do, that a release the archive lacks lies between."""
    with static_host(gap_site[1]) as host:
        page = browser.new_page()
        pairs = (("1999-11-01", "2001-07-23", True), ("2001-07-23", "2001-09-24", False))
        for old, new, spans in pairs:
            page.goto(f"{host.url}/compare/?old={old}&new={new}")
            page.wait_for_function("document.getElementById('compare').dataset.done")
            assert page.locator("#compare").get_attribute("data-done") != "error"
            notes = page.locator("#compare-gaps aside.gap-note")
            assert notes.count() == (1 if spans else 0), (old, new)
            if spans:
                text = notes.inner_text()
                assert "A release is missing between 1999-11-01 and 2001-07-23:" in text
                assert "Releases of 2000 and early 2001 (expected)" in text
                assert notes.locator("a").get_attribute("href") == "/releases/#gap-2000"
        page.close()


def test_a_wording_replaced_across_a_gap_says_it_may_have_been_replaced_earlier(gap_site):
    """420.5e's wording was last printed on 1999-11-01 and "superseded July 23, 2001", with
    no word of the releases of 2000 the archive lacks: any of them may have replaced it.
    `trace`, its JSON and the history and wording pages now say so alike."""
    db_file, out = gap_site
    db = ["--db", str(db_file)]
    traced = json.loads(
        CliRunner().invoke(main, ["trace", "420.5e@1999-11-01", "--json", *db]).output
    )
    first = traced["wordings"][0]
    assert (first["last"], first["replaced_by"], first["gap"]["id"]) == (
        "1999-11-01",
        "2001-07-23",
        "gap-2000",
    )
    assert all(w["gap"] is None for w in traced["wordings"][1:])
    text = CliRunner().invoke(main, ["trace", "420.5e@1999-11-01", *db]).output
    assert "(or earlier: the archive lacks the releases between 1999-11-01 and 2001-07-23" in text
    caveat = 'or before, by a release the archive lacks (<a href="/releases/#gap-2000">'
    (history,) = (out / "history").glob("*/420.5e/index.html")
    assert caveat in history.read_text(encoding="utf-8")
    assert caveat in (out / "rule/420.5e/1999-11-01/index.html").read_text(encoding="utf-8")
    later = (out / "rule/420.5e/2001-07-23/index.html").read_text(encoding="utf-8")
    assert caveat not in later


def test_what_began_right_after_a_gap_may_have_begun_in_it_everywhere(gap_site):
    """`trace` said a change in 2001-07-23 came "or earlier", in the releases of 2000 the
    archive lacks; its JSON, `blame`, the history page and the wording page said nothing, and
    143 clauses were "first in the release of July 23, 2001" without a word."""
    db_file, out = gap_site
    db = ["--db", str(db_file)]
    traced = json.loads(
        CliRunner().invoke(main, ["trace", "208.2@2001-07-23", "--json", *db]).output
    )
    assert traced["entries"][0]["release"] == "2001-07-23"
    assert traced["entries"][0]["gap"]["id"] == "gap-2000"
    blamed = CliRunner().invoke(main, ["blame", "2001-07-23", "--rule", "208", *db])
    lines = blamed.output.splitlines()
    assert "2001-07-23* 208.2" in lines
    assert lines[-1].startswith("* or earlier: the archive lacks the releases between 1999-11-01")
    as_json = json.loads(CliRunner().invoke(main, ["blame", "2001-07-23", "--json", *db]).output)
    row = next(r for r in as_json if r["number"] == "208.2")
    assert row["since_gap"]["id"] == "gap-2000"
    history = next((out / "history/2001-07-23").glob("208.2/index.html")).read_text()
    assert "or earlier: the archive lacks the releases between" in history
    wording = (out / "rule/208.2/2001-07-23/index.html").read_text(encoding="utf-8")
    assert 'href="/releases/#gap-2000"' in wording.split('class="inforce"')[1].split("</p>")[0]
    older = (out / "rule/208/1999-11-01/index.html").read_text(encoding="utf-8")
    assert "or earlier" not in older.split('class="inforce"')[1].split("</p>")[0]
