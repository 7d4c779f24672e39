"""One answer everywhere (issue 9): the command line's JSON and the site's pages agree.

The three contradictions the issue found are tested first; then the consistency suite: a
seeded sample of clause histories from every era, with every face-down and morph clause
(tests/data/facedown_lineage.json) and glossary entries named as a reader names them,
compared between `rules-history trace/blame/show --json`
and the history pages: numbers through time, wording spans, blame, the kind of each change,
the number today. Last, the whole site served: any number on any day against `show
--as-of`, and the in-browser compare against `diff --json`.
"""

from __future__ import annotations

import json
import os
import random
import re
import urllib.request
from collections import Counter
from collections.abc import Iterator
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from conftest import serving
from sqlite_utils import Database
from static_host import static_host
from test_compare_browser import CHANGES_JS, SUMMARY_JS, as_shown, compare
from test_site_point_in_time import SHOWN

from archive.query import release_dates, show
from archive.store import store_file
from lineage.derived import derived_releases
from lineage.trace import merges
from renderer.citations import ACCESS_PLACEHOLDER
from renderer.environment import long_date
from renderer.linkcheck import check_site
from rules_history.cli import main
from vocabulary.kind_names import shown_change_kind
from vocabulary.kinds import ADDED, CHANGE_KINDS, MERGED, REMOVED, SPLIT, UNCHANGED

DATA = Path(__file__).parent / "data" / "facedown_lineage.json"
SEED = 9
# Eras of the CR's numbering: before Onslaught's rewrite, the 504 era, the 707 era (the 2009
# rewrite), the 708 era (the 2021 shift). The sample draws from each.
ERAS = (
    ("1999-01-01", "2002-10-07"),
    ("2002-10-07", "2009-07-08"),
    ("2009-07-08", "2021-07-12"),
    ("2021-07-12", "9999-12-31"),
)
PER_ERA = 55  # 4 x 55 = 220 histories, plus the face-down and morph ones
# Glossary entries, asked for as "Term (glossary)": a bare term may name a keyword first.
GLOSSARY_ENTRIES = 40
ENTRY = " (glossary)"


def db_file(db: Database) -> str:
    """The store's file, for the CLI's `--db` (the shared stores live in files)."""
    path = store_file(db)
    assert path is not None, "the consistency suite reads a store kept in a file"
    return path


def cli_json(db: Database, *args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json", "--db", db_file(db)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@cache
def history_pages(site: Path) -> dict[int, Path]:
    """Lineage id -> its history page, read from the pages themselves (data-lineage)."""
    found: dict[int, Path] = {}
    pattern = re.compile(rb'<article class="history" data-lineage="(\d+)"')
    for top, _dirs, files in os.walk(site / "history"):
        if "index.html" in files:
            path = Path(top) / "index.html"
            match = pattern.search(path.read_bytes())
            assert match, path
            found[int(match.group(1))] = path
    return found


def page(site: Path, lineage: int) -> BeautifulSoup:
    return BeautifulSoup(history_pages(site)[lineage].read_text(encoding="utf-8"), "lxml")


def site_view(soup: BeautifulSoup) -> dict[str, Any]:
    """What a history page shows, from its markup."""
    wordings = []
    for entry in soup.select("li.wording-entry"):
        span = entry.select_one("span.span")
        wordings.append(
            {
                "first": span["data-first"],
                "last": span["data-last"] or None,
                "replaced_by": span["data-replaced-by"] or None,
                "kind": entry["data-kind"],
                "numbers": json.loads(entry["data-numbers"]),  # terms have spaces
                "text": entry.select_one("blockquote.wording").get_text(),
            }
        )
    today = soup.select_one("a.today") or soup.select_one("a.merged-into")  # as trace says
    doubt = soup.select_one("span.history-doubt time")  # the release of the first weak link
    since = soup.select_one("span.since")["data-since"]
    text_since = soup.select_one("span.text-since")  # only when it differs
    return {
        "since": since,
        "text_since": text_since["data-text-since"] if text_since else since,
        "wordings": wordings,
        "events": [(li["data-release"], li["data-kind"]) for li in soup.select("li.event")],
        "number_spans": [
            (row["data-number"], row["data-first"]) for row in soup.select("tr.number-span")
        ],
        "today": today["data-number"] if today else None,
        "doubt": doubt["datetime"] if doubt else None,
    }


# --- the three contradictions of the issue -------------------------------------------


def test_history_page_since_is_blames_since(full_lineage: Database, full_site: Path) -> None:
    """/history/2001-07-23/504.2/ said "since July 12, 2021", blame said 2009-07-08."""
    row = next(
        r
        for r in cli_json(full_lineage, "blame", "2026-01-16", "--rule", "708.2")
        if r["number"] == "708.2"
    )
    shown = site_view(page(full_site, row["lineage"]))
    assert shown["since"] == row["since"]
    assert (full_site / "history/2001-07-23/504.2/index.html").exists()
    assert history_pages(full_site)[row["lineage"]].parent.name == "504.2"


def test_a_wording_span_is_the_same_on_the_number_and_history_pages(
    full_lineage: Database, full_site: Path
) -> None:
    """/rule/504.2/ ended the 2001 wording at October 7, 2002 (the release that replaced it),
    the history page at February 20, 2002 (the last that printed it): both now give first,
    last and replaced_by, named so."""
    rule_page = BeautifulSoup(
        (full_site / "rule/504.2/index.html").read_text(encoding="utf-8"), "html.parser"
    )
    first_run = rule_page.select_one("ol.runs span.span")
    lineage = cli_json(full_lineage, "trace", "504.2@2001-07-23")["lineage"]
    history = site_view(page(full_site, lineage))["wordings"][0]
    on_rule_page = (
        first_run["data-first"],
        first_run["data-last"],
        first_run["data-replaced-by"],
    )
    assert on_rule_page == (history["first"], history["last"], history["replaced_by"])
    assert on_rule_page == ("2001-07-23", "2002-02-20", "2002-10-07")
    assert "July 23, 2001 – February 20, 2002 (3 releases; superseded October 7, 2002)" in (
        first_run.get_text()
    )
    # A wording printed once reads as one date, never "July 1, 2003 – July 1, 2003".
    for path in (full_site / "rule/504.2").glob("index.html"):
        assert "July 1, 2003 – July 1, 2003" not in path.read_text(encoding="utf-8")


def test_releases_and_blame_count_the_same_clauses(full_lineage: Database, full_site: Path) -> None:
    """`releases` said 4,270 clauses for 2026-01-16 (examples included), `blame` 3,994."""
    listed = {row["date"]: row for row in cli_json(full_lineage, "releases")}
    for day in ("1999-04-23", "2009-07-08", "2026-01-16"):
        blamed = cli_json(full_lineage, "blame", day)
        assert listed[day]["clauses"] == len(blamed)
    newest = listed["2026-01-16"]
    releases_page = (full_site / "releases/index.html").read_text(encoding="utf-8")
    assert f'<td class="num">{newest["clauses"]}</td>' in releases_page
    release_page = (full_site / "releases/2026-01-16/index.html").read_text(encoding="utf-8")
    assert f"{newest['clauses']} clauses (chapters, sections" in release_page
    assert f"{newest['examples']} examples" in release_page


def test_a_release_that_takes_effect_later_says_so_alike(
    full_lineage: Database, full_site: Path
) -> None:
    """The 2021-07-12 text is "effective as of July 23, 2021": neither `releases` nor its
    page said so, and a reader could not see why the rules of the days between differ."""
    store = str(full_lineage.execute("PRAGMA database_list").fetchone()[2])
    listed = CliRunner().invoke(main, ["releases", "--db", store]).output.splitlines()
    (line,) = [row for row in listed if row.startswith("2021-07-12 ")]
    assert "(effective 2021-07-23, by its text)" in line
    (same,) = [row for row in listed if row.startswith("2008-02-01 ")]  # states its own date
    assert "effective" not in same
    page = (full_site / "releases/2021-07-12/index.html").read_text(encoding="utf-8")
    assert "Its text states that it is effective as of" in page and "2021-07-23" in page


# --- the consistency suite --------------------------------------------------------------


def facedown_numbers() -> set[str]:
    """The newest number of every face-down and morph clause the ground truth lists."""
    data = json.loads(DATA.read_text())
    return {list(entry["numbers"].values())[-1] for entry in data["lineages"]}


def sample(db: Database) -> list[tuple[int, str, str]]:
    """(lineage, number, release) of the sampled numbered clauses: PER_ERA from each era by
    first release (seeded), and every face-down and morph clause."""
    rows = list(
        db.execute(
            """SELECT id, first_release, last_release, last_number FROM lineages
               WHERE kind != 'glossary' ORDER BY id"""
        )
    )
    chooser = random.Random(SEED)
    chosen: dict[int, tuple[int, str, str]] = {}
    for start, end in ERAS:
        era = [row for row in rows if start <= row[1] < end]
        for lineage, _first, last, number in chooser.sample(era, PER_ERA):
            chosen[lineage] = (lineage, number, last)
    newest = max(row[2] for row in rows)
    wanted = facedown_numbers()
    for lineage, _first, last, number in rows:
        if last == newest and number in wanted:
            chosen[lineage] = (lineage, number, last)
    entries = list(
        db.execute("SELECT id, last_release, last_number FROM lineages WHERE kind = 'glossary'")
    )
    for lineage, last, term in chooser.sample(entries, GLOSSARY_ENTRIES):
        chosen[lineage] = (lineage, term + ENTRY, last)
    return sorted(chosen.values())


@pytest.fixture(scope="module")
def sampled(full_lineage: Database) -> list[tuple[int, str, str]]:
    found = sample(full_lineage)
    assert len(found) >= 200 + len(facedown_numbers())
    return found


RULE_TODAY = re.compile(r'class="today" data-number="([0-9][^"]*)"')
CITED_RULE = re.compile(r"Comprehensive Rules, rule ([^,]+), release of")


def test_a_history_page_cites_its_clause_under_todays_number(full_site: Path) -> None:
    """A number can come back: section 205 "Type Line" was 204 from 2009-07-08 to 2011-07-15,
    then 205 again. Every history page of a rule in force cites it under the number it has
    today (the one the page says it has), not under the last new number its wording took."""
    checked = []
    for page in sorted((full_site / "history").glob("*/*/index.html")):
        html = page.read_text(encoding="utf-8")
        today = RULE_TODAY.search(html)
        if today is None:
            continue  # no longer in force, or a glossary entry
        cited = CITED_RULE.search(html)
        assert cited is not None, page
        assert cited.group(1) == today.group(1), (page, cited.group(1), today.group(1))
        checked.append(page.parent.name)
    assert "205" in checked and len(checked) > 2000


def test_every_link_of_the_whole_site_resolves(full_site: Path) -> None:
    """The small site's link check misses what only the whole archive has: a number that
    came back (a history page's end link), a glossary term that only took curly quotes (a
    release page's link to a renumbering table no release has), a misnumbered rule whose
    section never existed (the number index's section link)."""
    report = check_site(full_site)
    assert report.pages > 30000
    assert report.broken == []
    assert report.external_loads == []
    # A number printed twice in one release (702.175 in 2024-09-17), two changes of one
    # number on a diff page (two clauses merged into 402), a keyword that had one number in
    # two eras (scry, 701.18): each gave two elements one id.
    assert report.repeated_ids == []


def test_the_sample_covers_every_era_and_the_face_down_rules(
    full_lineage: Database, sampled: list[tuple[int, str, str]]
) -> None:
    firsts = dict(full_lineage.execute("SELECT id, first_release FROM lineages").fetchall())
    for start, end in ERAS:
        assert sum(start <= firsts[lineage] < end for lineage, _n, _r in sampled) >= PER_ERA
    newest = full_lineage.execute("SELECT max(date) FROM releases").fetchone()[0]
    newest_numbers = {number for _l, number, release in sampled if release == newest}
    assert facedown_numbers() <= newest_numbers
    entries = [number for _l, number, _r in sampled if number.endswith(ENTRY)]
    assert len(entries) == GLOSSARY_ENTRIES
    assert any(" " in entry.removesuffix(ENTRY) for entry in entries)  # a term of two words


def test_cli_and_site_agree_on_every_sampled_history(
    full_lineage: Database, full_site: Path, sampled: list[tuple[int, str, str]]
) -> None:
    blame_by_release: dict[str, dict[int, dict[str, Any]]] = {}
    problems: list[str] = []
    shown_words = 0
    for lineage, number, release in sampled:
        traced = cli_json(full_lineage, "trace", f"{number}@{release}")
        assert traced["lineage"] == lineage
        shown = site_view(page(full_site, lineage))
        label = f"{number}@{release} (lineage {lineage})"
        entry = number.endswith(ENTRY)
        # The kind of each change, release by release. The page lists formatting-only
        # changes folded after the others, so the two are compared in date order.
        events = [(e["release"], e["kind"]) for e in traced["entries"] if e["lineage"] == lineage]
        if sorted(events) != sorted(shown["events"]):
            problems.append(f"{label}: events {events} != page {shown['events']}")
        # The weak links the history rests on: the page's headline names the first of them,
        # and trace's headline the first after the release asked about.
        weak = [e for e in traced["entries"] if e["lineage"] == lineage and e["weak"]]
        if shown["doubt"] != (weak[0]["release"] if weak else None):
            problems.append(f"{label}: page doubt {shown['doubt']} != trace's weak {weak[:1]}")
        later = [e["release"] for e in weak if e["release"] > traced["release"]]
        if traced["current_link"]["release"] != (later[0] if later else None):
            problems.append(f"{label}: current_link {traced['current_link']} != {later[:1]}")
        # Wording spans: first, last (none while in force), replaced_by, numbers, kind.
        newest = traced["newest_release"]
        cli_spans = [
            (
                w["first"],
                None if w["last"] == newest else w["last"],
                w["replaced_by"],
                w["numbers"],
                w["kind"],
            )
            for w in traced["wordings"]
        ]
        page_spans = [
            (w["first"], w["last"], w["replaced_by"], w["numbers"], w["kind"])
            for w in shown["wordings"]
        ]
        if cli_spans != page_spans:
            problems.append(f"{label}: wordings {cli_spans} != page {page_spans}")
        # Numbers through time: each number the page lists, from the release it began.
        numbers = [(w["numbers"][0], w["first"]) for w in traced["wordings"]]
        for shown_number, first in shown["number_spans"]:
            if not any(n == shown_number and f <= first for n, f in numbers) and not any(
                shown_number in w["numbers"] for w in traced["wordings"]
            ):
                problems.append(f"{label}: page number {shown_number} ({first}) not traced")
        # The number today (of the clause a merge took it into, for one a merge ended).
        alive = traced["current_number"]
        if shown["today"] != alive:
            problems.append(f"{label}: today {shown['today']} != trace {alive}")
        if (alive is not None) != (alive in traced["current_numbers"]):
            problems.append(f"{label}: today {alive}, what it became {traced['current_numbers']}")
        # Blame, for the clause's last release.
        if release not in blame_by_release:
            blame_by_release[release] = {
                row["lineage"]: row for row in cli_json(full_lineage, "blame", release)
            }
        blamed = blame_by_release[release][lineage]
        for field in ("since", "text_since"):
            if shown[field] != blamed[field]:
                problems.append(f"{label}: page {field} {shown[field]} != blame {blamed[field]}")
        # The words: `show` prints what the page shows as the wording in force then (unless
        # the release printed that number twice: `show` gives the first of the two).
        first = shown["wordings"][0]
        number, day = first["numbers"][0], first["first"]
        column, asked = ("title", number + ENTRY) if entry else ("number", number)
        printed = full_lineage.execute(
            f"SELECT count(*) FROM clauses WHERE release = ? AND {column} = ?", [day, number]
        ).fetchone()[0]
        if printed == 1:
            shown_words += 1
            clause = cli_json(full_lineage, "show", asked, "--as-of", day)
            # The page shows the text's _italics_ as emphasis: compare the words.
            if clause["text"].replace("_", "") != first["text"].replace("_", ""):
                problems.append(f"{label}: show {number} of {day} differs from the page's wording")
    assert not problems, "\n".join(problems[:20])
    assert shown_words > 0.9 * len(sampled)


# --- the whole archive served: any day of any number, any two releases compared ---------
DAYS_ASKED = 200  # seeded (number, day) pairs: a third fall in a wording, the rest between
COMPARED_PAIRS = 4  # seeded pairs of releases of any distance, and as many of neighbours
# The answer's first line: in force (or not in use), and the release it names first.
IN_FORCE = re.compile(r'<p class="(inforce|unused)">.*?<a href="/releases/([0-9-]+)/[#"]', re.S)


@pytest.fixture(scope="module")
def full_served(full_site: Path) -> Iterator[str]:
    """The whole site over HTTP, as `rules-history serve` answers it (days included)."""
    with serving(full_site) as base:
        yield base


def days_asked(db: Database) -> list[tuple[str, str]]:
    """Seeded (number, day): any number the rules ever used, any day from the first
    release to the newest one's next year."""
    numbers = sorted(
        row[0]
        for row in db.execute(
            "SELECT DISTINCT number FROM lineage_members WHERE kind != 'glossary'"
        )
    )
    first, newest = db.execute("SELECT min(date), max(date) FROM releases").fetchone()
    start = date.fromisoformat(first).toordinal()
    end = date.fromisoformat(newest).toordinal() + 365
    chooser = random.Random(SEED)
    return [
        (chooser.choice(numbers), date.fromordinal(chooser.randint(start, end)).isoformat())
        for _ in range(DAYS_ASKED)
    ]


# Days before the release in force states it takes effect (archive.effect), which a random
# day seldom hits: one answered by the number page, one by a wording's own page (708.2's
# wording began with the release of July 8, 2009, which states July 11).
# Days whose release in force by file date is not the one in effect by its text: before the
# later day a release states (2021-07-12: July 23; 2009-07-08: July 11), and from the earlier
# day the next release states (2024-08-02: July 30), where 702.175 is not yet a rule.
BEFORE_EFFECT = (
    ("702.37c", "2021-07-15"),
    ("708.2", "2009-07-08"),
    ("702.37c", "2024-07-31"),
    ("702.175", "2024-07-31"),
)
# The browser has shown a day's answer (tests/test_site_point_in_time.py: SHOWN).
DAY_SHOWN = "() => { const v = document.getElementById('asof-day'); return v && !v.hidden; }"
# what show's and cite's notes say of the day's effect (archive.effect, vocabulary.days)
EFFECT_SAID = ("takes effect on", "took effect on", "has not come yet")
NOTED = ("takes_effect", "took_effect", "to_come")  # the keys of show's JSON that carry one


def words(text: str) -> str:
    """Text as words: the page shows _italics_ as emphasis, and spaces as HTML lays them."""
    return " ".join(text.replace("_", "").split())


def test_a_day_the_next_release_was_already_in_effect_is_cited_as_such(
    full_lineage: Database,
) -> None:
    """On July 31, 2024 the newest release filed was June 7's, but August 2's text states it
    took effect on July 30: the day's citation does not call June 7's "in force" (the
    page's is the same: the test above)."""
    cited = CliRunner().invoke(
        main, ["cite", "702.37c@2024-07-31", "--day", "--db", db_file(full_lineage)]
    )
    assert cited.exit_code == 0, cited.output
    assert "in force" not in cited.stdout
    assert ", as published on July 31, 2024, release of June 7, 2024 " in cited.stdout
    assert "; the release of August 2, 2024 states that it took effect on July 30, 2024. " in (
        cited.stdout
    )


def test_any_day_of_any_number_reads_as_show_gives_it(
    full_lineage: Database, full_served: str
) -> None:
    """`rules-history show N --as-of DAY` and the served /rule/N/DAY/ give the same answer
    on the whole archive: the same release in force and the same wording, or, when the
    number was not in use that day, no wording on either (the page says so, and names the
    release in force). A day on which the number's wording began is that wording's own
    page. Both say so when the release states a later day for it to take effect."""
    problems, shown = [], 0
    for number, day in [*days_asked(full_lineage), *BEFORE_EFFECT]:
        result = CliRunner().invoke(
            main, ["show", number, "--as-of", day, "--json", "--db", db_file(full_lineage)]
        )
        clause = json.loads(result.output) if result.exit_code == 0 else None
        with urllib.request.urlopen(f"{full_served}/rule/{number}/{day}/") as response:
            html = response.read().decode()
        # the number page's answer for the day, or the page of the wording begun that day
        view = html.split('<div id="asof-day" class="asof-view">', 1)[-1]
        found = IN_FORCE.search(view)
        assert found is not None, f"{number} on {day}: the page names no release"
        state, release = found.groups()
        answer = BeautifulSoup(view, "lxml")
        quote = answer.select_one("blockquote.wording")
        label = f"{number} on {day}"
        # a day whose release in force is not the one in effect: both say so, or neither does
        effect = answer.select_one("p.effect-note")
        notice = effect.get_text().strip() if effect is not None else ""
        if clause is None:
            if state != "unused" or quote is not None:
                problems.append(f"{label}: show says {result.output.strip()!r}; the page quotes")
            elif f"in the {release} release" not in result.output:
                problems.append(f"{label}: page's release {release}; show: {result.output}")
            elif bool(notice) != any(said in result.output for said in EFFECT_SAID):
                problems.append(f"{label}: show says {result.output!r}, the page {notice!r}")
            continue
        shown += 1
        if state != "inforce" or release != clause["release"]:
            problems.append(f"{label}: page's release {release}, show's {clause['release']}")
        # the day's own citation, or on a wording's first day its page's, which cites it
        # (the server fills a day's address in; a wording's page, built with no base URL,
        # gives its path)
        day_cited = answer.select_one("#asof-cite-plain")
        cited = day_cited or answer.select_one('pre[id^="cite-"][id$="-plain"]')
        if cited is not None:
            today = long_date(date.today().isoformat())
            shown_citation = cited.get_text().replace(ACCESS_PLACEHOLDER, today)
            base = ["--base-url", full_served] if day_cited is not None else []
            on_day = CliRunner().invoke(
                main, ["cite", f"{number}@{day}", "--day", *base, "--db", db_file(full_lineage)]
            )
            if on_day.stdout.strip() != shown_citation:
                problems.append(f"{label}: cite --day {on_day.stdout!r}, page {shown_citation!r}")
            said = any(words in on_day.stderr for words in EFFECT_SAID)
            if any(key in clause for key in NOTED) != said:
                problems.append(f"{label}: show's notes, cite's {on_day.stderr!r}")
        if quote is None or words(clause["text"]) not in words(quote.get_text()):
            problems.append(f"{label}: the page's wording is not show's")
        if bool(notice) != any(key in clause for key in NOTED):
            problems.append(
                f"{label}: show's takes_effect {clause.get('takes_effect')}, took_effect"
                f" {clause.get('took_effect')}, page's {notice!r}"
            )
    assert not problems, "\n".join(problems[:20])
    assert DAYS_ASKED / 5 < shown < DAYS_ASKED  # both kinds of answer were asked for


PIECES = re.compile(r"pieces split off it since (?:are|were numbered) ([0-9][0-9a-z., ]*[0-9a-z])")


def test_a_gone_number_names_every_piece_of_its_clause_alike(
    full_lineage: Database, full_served: str
) -> None:
    """408.1c was split four ways in 2009: `show 408.1c` and its day page named only 117.3a,
    a quarter of it; both now name the pieces split off it since, the same ones, as `trace`
    lists what it became."""
    store = db_file(full_lineage)
    said = CliRunner().invoke(main, ["show", "408.1c", "--as-of", "2026-01-16", "--db", store])
    with urllib.request.urlopen(f"{full_served}/rule/408.1c/2026-01-16/") as response:
        view = response.read().decode().split('<div id="asof-day" class="asof-view">', 1)[-1]
    shown = BeautifulSoup(view, "html.parser").get_text(" ", strip=True).replace(" ,", ",")
    found = [PIECES.search(text) for text in (said.output, shown)]
    assert found[0] and found[1], (said.output, shown[:500])
    assert found[0][1] == found[1][1] == "117.3b, 117.3c, 117.4"
    traced = cli_json(full_lineage, "trace", "408.1c@2009-05-01")
    assert traced["current_numbers"] == ["117.3a", "117.3b", "117.3c", "117.4"]


def test_a_wording_of_one_release_reads_as_one(full_site: Path) -> None:
    """A wording only 2003-07-01 printed was "in force from the release of July 1, 2003 to
    the release of July 1, 2003"."""
    page = (full_site / "rule/408.1c/2003-07-01/index.html").read_text(encoding="utf-8")
    (said,) = re.findall(r'<p class="inforce">(.*?)</p>', page, re.S)
    plain = " ".join(re.sub(r"<[^>]+>", "", said).split())
    assert plain.startswith("In force in the release of July 1, 2003 (Eighth Edition) only,")
    assert "to the release of" not in plain


DIFF_PAGES = 30  # seeded /diff/ pages of neighbouring releases, of the archive's 134


def diff_page(path: Path) -> tuple[dict[str, int], Counter[tuple[str, tuple[str, ...]]]]:
    """What a /diff/ page shows: its counts per kind (the clauses left unchanged among them),
    and each change as (kind, the numbers its heading links: old, then new when they
    differ)."""
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")
    counts = {}
    for link in soup.select("p.counts .kind"):
        kind, _, count = link.get_text().rpartition(" ")
        counts[kind] = int(count.replace(",", ""))
    changes: Counter[tuple[str, tuple[str, ...]]] = Counter()
    for heading in soup.select("article.change h3"):
        numbers = tuple(
            link.get_text()
            for link in heading.find_all("a", recursive=False)
            if "hist" not in link.get("class", []) and "uncertain" not in link.get_text()
        )
        changes[(heading.select_one("span.kind").get_text(), numbers)] += 1
    return counts, changes


def test_the_diff_pages_list_what_diff_lists(full_lineage: Database, full_site: Path) -> None:
    """Each release's /diff/ page from the release before it (a seeded sample, and the
    derived copy's) gives the counts (the unchanged clauses too) and the changes of
    `rules-history diff --json`. The derived copy's page counts its unconfirmed differences
    as one kind; the CLI gives them apart, by kind."""
    pages = sorted((full_site / "diff").glob("*/*/index.html"))
    copies = {page for page in pages if page.parent.name in derived_releases(full_lineage)}
    chosen = set(random.Random(SEED).sample(pages, DIFF_PAGES)) | copies
    for page in sorted(chosen):
        old, new = page.parent.parent.name, page.parent.name
        expected = cli_json(full_lineage, "diff", old, new)
        counts = dict(expected["summary"])
        if expected.get("unconfirmed"):
            counts["unconfirmed"] = sum(expected["unconfirmed"].values())
        listed: Counter[tuple[str, tuple[str, ...]]] = Counter()
        for change in expected["changes"]:
            before, after = ", ".join(change["old"]), ", ".join(change["new"])
            numbers = ([before] if before else []) + (
                [after] if after and change["new"] != change["old"] else []
            )
            # the page names the kind as a reader reads it: a glossary term is "renamed"
            shown = shown_change_kind(change["kind"], change["old"], change["new"])
            listed[(shown, tuple(numbers))] += 1
        shown_counts, shown = diff_page(page)
        assert shown_counts == counts, (old, new)
        release_page = full_site / "releases" / new / "index.html"
        kept = BeautifulSoup(release_page.read_text(encoding="utf-8"), "lxml")
        unchanged = kept.select_one("#changes ~ p .kind-unchanged").get_text()
        assert unchanged == f"unchanged {counts['unchanged']}", (old, new)
        assert shown == listed, (old, new, (shown - listed) or (listed - shown))
    assert copies and len(chosen) >= DIFF_PAGES


@pytest.mark.browser
def test_the_whole_archive_compares_in_the_browser_as_the_cli_does(
    browser: Any, full_lineage: Database, full_served: str
) -> None:
    """The browser tests compare on the small site; here seeded pairs of the whole archive's
    135 releases, served over HTTP, give what `rules-history diff --json` gives: the same
    counts per kind and the same changes (lineage, kind, numbers, word diff) in order."""
    context = browser.new_context()
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    compared = 0
    try:
        for old, new in compared_pairs(full_lineage):
            compare(tab, full_served, f"old={old}&new={new}")
            expected = cli_json(full_lineage, "diff", old, new)
            assert tab.evaluate(SUMMARY_JS) == expected["summary"], (old, new)
            shown = tab.evaluate(CHANGES_JS)
            assert shown == [as_shown(change) for change in expected["changes"]], (old, new)
            compared += len(shown)
    finally:
        context.close()
    assert not errors
    assert compared > 1000  # pairs years apart differ in thousands of clauses


@pytest.mark.browser
def test_the_script_answers_a_day_out_of_effect_as_the_server_does(
    browser: Any, full_site: Path, full_served: str
) -> None:
    """On a static host the page's script fills a day's answer (static/asof.js) from the
    same list of releases as `serve`: for the days whose release is not in effect by its
    text, or already overtaken by the next one's, the sentence naming the release, its
    notice and the day's citation read as the server's."""
    shown = ("p.inforce", "p.unused", "p.effect-note", "#asof-cite-plain")
    tab = browser.new_context().new_page()
    answered = 0
    with static_host(full_site) as host:
        for number, day in BEFORE_EFFECT:
            path = f"/rule/{number}/{day}/"
            with urllib.request.urlopen(full_served + path) as response:
                server = BeautifulSoup(response.read().decode(), "lxml")
            if server.select_one("#asof-day p") is None:  # a wording's own page: no day
                continue
            answered += 1
            tab.goto(host.url + path)
            tab.wait_for_function(DAY_SHOWN)
            for part in shown:
                said = server.select_one(f"#asof-day {part}")
                script = tab.locator(f"#asof-day {part}")
                if said is None:
                    assert script.count() == 0, (path, part)
                    continue
                expected = " ".join(said.get_text().split()).replace(full_served, host.url)
                assert " ".join(script.inner_text().split()) == expected, (path, part)
    assert answered == len(BEFORE_EFFECT) - 1  # all but 708.2's first day, its own page


@pytest.mark.browser
def test_a_title_keeps_its_own_printing_in_the_cli_diff_and_the_browser_compare(
    browser: Any, full_lineage: Database, full_served: str
) -> None:
    """2024-09-17 prints 702.175 for Offspring and for Impending. `diff --rule offspring`
    listed Impending's renumbering (a title was read as its number's prefix), and the browser
    compare alike; a title now keeps the printing it heads (archive.printings), a number
    every printing, in both."""
    tab = browser.new_context().new_page()
    expected_kinds = {  # (old, new, rule) -> the kinds of the changes listed
        ("2024-09-17", "2024-11-08", "offspring"): [],
        ("2024-09-17", "2024-11-08", "impending"): ["renumbered", "renumbered"],
        ("2024-09-17", "2024-11-08", "702.175"): ["renumbered", "renumbered"],
        ("2024-08-02", "2024-09-17", "impending"): ["added", "added"],
        ("2024-08-02", "2024-09-17", "offspring"): [],
    }
    for (old, new, rule), kinds in expected_kinds.items():
        expected = cli_json(full_lineage, "diff", old, new, "--rule", rule)
        assert [change["kind"] for change in expected["changes"]] == kinds, rule
        compare(tab, full_served, f"old={old}&new={new}&rule={rule}")
        assert tab.evaluate(SUMMARY_JS) == expected["summary"], (old, new, rule)
        assert tab.evaluate(CHANGES_JS) == [as_shown(c) for c in expected["changes"]], rule
    offspring = cli_json(full_lineage, "diff", "2024-09-17", "2024-11-08", "--rule", "offspring")
    assert offspring["summary"] == {"unchanged": 3}  # 702.175, a and b: Offspring's own
    # 2006-05-01 prints 501.2 for Evasion and for Status: the Evasion example is Evasion's
    # alone (archive.printings.examples_by_owner), in the CLI and the browser alike
    for old, new in (("2006-02-01", "2006-05-01"), ("2006-05-01", "2006-07-15")):
        expected = cli_json(full_lineage, "diff", old, new)
        status = [c for c in expected["changes"] if "Status is not" in str(c["diff"])]
        assert status and all("flying and shadow" not in str(c["diff"]) for c in status)
        compare(tab, full_served, f"old={old}&new={new}")
        assert tab.evaluate(SUMMARY_JS) == expected["summary"], (old, new)
        assert tab.evaluate(CHANGES_JS) == [as_shown(c) for c in expected["changes"]], (old, new)


def test_a_diff_page_shows_each_change_as_the_cli_diffs_it_examples_and_all(
    full_lineage: Database, full_site: Path
) -> None:
    """The /diff/ pages diffed a clause's words without its examples: an "example" change
    showed the rule's unchanged text, and 424.4 -> 116.7 (2009, "You play a spell" -> "You
    cast a spell" in its example) read as a bare renumbering. Each change of a clause both
    releases have now shows what the CLI's word diff holds, deletions and insertions alike."""
    pairs = [
        ("1999-04-23", "1999-11-01"),
        ("2009-05-01", "2009-07-08"),
        ("2019-10-04", "2020-01-22"),
    ]
    both = set(CHANGE_KINDS) - {ADDED, REMOVED, SPLIT, MERGED, UNCHANGED}
    compared = 0
    for old, new in pairs:
        expected: Counter[tuple[str, ...]] = Counter()
        for change in cli_json(full_lineage, "diff", old, new, "--all")["changes"]:
            if change["kind"] not in both:  # one end only: its words, no diff
                continue
            # the page's heading names the old numbers, then the new ones when they differ
            named = change["old"] + (change["new"] if change["new"] != change["old"] else [])
            # the page shows `_italic_` markup as emphasis: both sides compared without "_"
            cut = [f"{op} {text.replace('_', '')}" for op, text in change["diff"] if op]
            expected[(*named, "|", *cut)] += 1
        page = (full_site / f"diff/{old}/{new}/index.html").read_text(encoding="utf-8")
        shown: Counter[tuple[str, ...]] = Counter()
        for article in BeautifulSoup(page, "lxml").select("article.change"):
            kind = article.select_one("h3 > span.kind")["class"][1].removeprefix("kind-")
            if kind.replace("-", "+") not in both:
                continue
            named = [a.get_text() for a in article.select("h3 > a[href^='/releases/']")]
            marks = article.select("p.diff del, p.diff ins")
            cut = [f"{-1 if t.name == 'del' else 1} {t.get_text().replace('_', '')}" for t in marks]
            shown[(*named, "|", *cut)] += 1
        assert shown == expected, (old, new, list((shown - expected).items())[:2])
        compared += sum(expected.values())
    assert compared > 500
    page = (full_site / "diff/2009-05-01/2009-07-08/index.html").read_text(encoding="utf-8")
    (renumbered,) = BeautifulSoup(page, "lxml").select("article#c-116\\.7 p.diff")
    assert "<del>play </del><ins>cast </ins>" in str(renumbered)


def compared_pairs(db: Database) -> list[tuple[str, str]]:
    """Seeded pairs of the whole archive's releases: any two, and two that follow each
    other (what a reader compares most: the release and the one before it)."""
    dates = [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]
    chooser = random.Random(SEED)
    pairs = []
    for _ in range(COMPARED_PAIRS):
        old, new = sorted(chooser.sample(dates, 2))
        pairs.append((old, new))
    for i in chooser.sample(range(len(dates) - 1), COMPARED_PAIRS):
        pairs.append((dates[i], dates[i + 1]))
    pairs.append(FAR_PAIR)  # pieces split off clauses added between: added in the compare too
    return pairs


# Twenty-two years apart: 124 of its splits had no old clause before `_reached`.
FAR_PAIR = ("2002-02-20", "2024-06-07")


def test_a_far_diff_splits_and_merges_only_clauses_its_releases_hold(
    full_lineage: Database,
) -> None:
    """Between releases years apart, a clause the old release lacks was called split when it
    was a piece of a clause added since ("Tournament", 2003, split in 2009: "split: - ->
    Tournament" from 2002), and one the new release lacks merged when what it went into was
    removed since (806.7e, merged in 2018 into 805.10f, removed in 2024): each names a clause
    of the far release, or is added or removed, as `trace` says."""
    for old, new in (FAR_PAIR, ("1999-04-23", "2026-08-07"), ("2009-07-08", "2026-08-07")):
        changes = cli_json(full_lineage, "diff", old, new)["changes"]
        assert not [c for c in changes if c["kind"] == SPLIT and not c["old"]], (old, new)
        assert not [c for c in changes if c["kind"] == MERGED and not c["new"]], (old, new)
        # the real splits are still found (272, 234 and 61 when this was written)
        assert sum(c["kind"] == SPLIT for c in changes) > 50, (old, new)
    tournament = cli_json(full_lineage, "diff", *FAR_PAIR, "--rule", "Tournament")
    assert [(c["kind"], c["new"]) for c in tournament["changes"]] == [(ADDED, ["Tournament"])]
    traced = cli_json(full_lineage, "trace", "Tournament@2024-06-07")
    assert traced["entries"][0]["release"] > FAR_PAIR[0]  # first printed after 2002
    team = cli_json(full_lineage, "diff", "2009-07-08", "2026-08-07", "--rule", "806.7")
    gone = [c for c in team["changes"] if c["old"] == ["806.7e"]]
    assert [c["kind"] for c in gone] == [REMOVED]
    assert cli_json(full_lineage, "trace", "806.7e@2009-07-08")["current_number"] is None


def test_a_number_printed_twice_says_so_in_text_as_in_json(full_lineage: Database) -> None:
    """2024-09-17 numbers both Offspring and Impending 702.175 (an error of its text): `show`
    gave the first and only its JSON counted the others (`duplicates`), so a judge read the
    number's first clause with no word of the other."""
    store = db_file(full_lineage)
    shown = CliRunner().invoke(main, ["show", "702.175@2024-10-01", "--db", store])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0] == "702.175  (2024-09-17 release)"
    assert (
        "note: the 2024-09-17 release prints 702.175 twice (an error of its text): this shows"
        " the first, with the rules numbered under it before the second; the number names the"
        " first, a title the one it heads" in shown.output
    )
    assert cli_json(full_lineage, "show", "702.175@2024-10-01")["duplicates"] == 1
    later = CliRunner().invoke(main, ["show", "702.175@2024-12-01", "--db", store])
    assert "note:" not in later.output  # 2024-11-08 numbered Impending 702.176


@pytest.mark.browser
def test_a_days_effect_notice_reads_alike_on_a_static_host(
    browser, full_site: Path, full_served: str
) -> None:
    """A static host's script fills a day's notice from /rule/releases.json as the server
    does, for both kinds of release: one that states a later day (2021-07-12: July 23) and
    one that states an earlier day (2024-08-02: July 30); a day outside both, none."""
    expected = {
        "/rule/702.37c/2021-07-15/": "states that it takes effect on July 23, 2021",
        "/rule/702.37c/2024-07-31/": "states that it took effect on July 30, 2024",
        "/rule/702.175/2024-07-31/": "states that it took effect on July 30, 2024",
        "/rule/702.37c/2024-07-29/": "",
        # a day after today: the newest release answers, and says a later one may not
        "/rule/702.37c/2999-01-01/": "January 1, 2999 has not come yet: the answer is the newest",
    }
    with static_host(full_site) as host:
        page = browser.new_page()
        for path, words in expected.items():
            with urllib.request.urlopen(full_served + path) as response:
                view = response.read().decode().split('<div id="asof-day" class="asof-view">')
            served = BeautifulSoup(view[-1], "lxml").select_one("p.effect-note")
            served_text = served.get_text().strip() if served is not None else ""
            assert words in served_text and bool(words) == bool(served_text), path
            page.goto(host.url + path)
            page.wait_for_function(SHOWN)
            note = page.locator("#asof-day p.effect-note")
            assert (note.inner_text().strip() if note.count() else "") == served_text, path


def test_every_release_page_names_its_set_as_releases_does(
    full_lineage: Database, full_site: Path
) -> None:
    """A release's page gives the set code `releases` gives, also for a release whose set
    has no name in the archive's list (2007-09-07: MED)."""
    releases = cli_json(full_lineage, "releases")
    # the test stores run the whole pipeline, release names among it (105 of 135 have a set)
    assert sum(bool(release["set_code"]) for release in releases) > len(releases) / 2
    for release in releases:
        page = (full_site / "releases" / release["date"] / "index.html").read_text()
        header = BeautifulSoup(page.split("<h1", 1)[1].split("</p>", 1)[0], "lxml").get_text()
        if release["set_code"]:
            assert re.search(rf"\b{re.escape(release['set_code'])}\b", header), release["date"]
        if release["name"]:
            assert release["name"] in header, release["date"]


def test_show_lists_under_a_heading_what_its_keyword_page_lists(full_lineage: Database) -> None:
    """`show` of a section, keyword rule or chapter lists the clauses its release prints under
    it, as the keyword pages do (lineage.headings): where the text errs, by where a clause
    stands, not by its number. 2005-08-01 prints a "605.2c" among the Teams variant's rules
    (609), 2006-05-01 the Status rules "501.2"-"501.6" in section 510, 2004-06-01 a
    "502.35b" under Scry (502.36)."""
    checked = 0
    for release, number, kind, children in full_lineage.execute(
        "SELECT release, number, kind, children FROM headings"
        " WHERE release IN ('1999-04-23', '2004-06-01', '2005-08-01', '2006-05-01', '2026-08-07')"
    ).fetchall():
        shown = show(full_lineage, number, release)
        listed = [
            c["number"] for c in shown["contents"] if kind != "chapter" or c["kind"] == "section"
        ]
        assert listed == [line.split(" ", 1)[0] for line in children.split("\n") if line], (
            release,
            number,
        )
        checked += 1
    assert checked > 900  # every heading of five releases
    teams = show(full_lineage, "609", "2005-08-01")["contents"]
    assert "605.2c" in [c["number"] for c in teams]
    assert "Teams" not in str(show(full_lineage, "605", "2005-08-01")["contents"])


def test_a_number_page_counts_each_clause_it_named_once(
    full_lineage: Database, full_site: Path
) -> None:
    """715.3a named one clause from 2019, another in 2021-2023 (716.3a was renumbered back),
    then the first again: its page said "named 3 different clauses", where `trace` finds
    two. Every number page's count is the store's count of lineages that carried the
    number, but where a release printed the number for two clauses (the page follows the
    first printing, and says so)."""
    carried = dict(
        full_lineage.execute(
            "SELECT number, count(DISTINCT lineage_id) FROM lineage_members"
            " WHERE kind != 'glossary' GROUP BY number"
        ).fetchall()
    )
    checked = 0
    for page in (full_site / "rule").glob("*/index.html"):
        text = page.read_text(encoding="utf-8")
        if 'class="printed-again"' in text:
            continue
        named = re.search(r"It has named (\d+) different clauses", text)
        assert (int(named[1]) if named else 1) == carried[page.parent.name], page.parent.name
        checked += 1
    assert checked > 5000
    page = (full_site / "rule/715.3a/index.html").read_text(encoding="utf-8")
    assert "It has named 2 different clauses; they are listed by date, a clause again" in page


# A number page's note on a clause a merge ended: the number it went into, today.
MERGED_NOTE = re.compile(
    r'<span class="afterwards">In the release of <a [^>]*><time [^>]*>[^<]*</time></a>'
    r' it was merged into what is today <a class="merged-into" data-number="([^"]+)"'
)


def test_a_number_page_says_where_a_merged_clause_went_as_trace_does(
    full_lineage: Database, full_site: Path
) -> None:
    """806.8a named, in 2010, the clause first numbered 606.7a, which was merged in 2018
    into what is 805.10a today: the number page's heading for it said only "606.7a →
    810.7a". Every number page now says, of each clause it named that a merge ended, what
    that clause went into, as `trace` says (a seeded sample through the CLI); no other page
    says it."""
    newest = release_dates(full_lineage)[-1]
    lineages = {
        row[0]: row[1:]
        for row in full_lineage.execute("SELECT id, last_number, last_release FROM lineages")
    }
    ended = {
        lineage: into
        for lineage, (_release, into) in merges(full_lineage).items()
        if lineages[into][1] == newest
    }
    expected: dict[str, set[str]] = {}
    carried = full_lineage.execute(
        "SELECT DISTINCT number, lineage_id FROM lineage_members WHERE kind != 'glossary'"
    )
    for number, lineage in carried:
        if lineage in ended:
            expected.setdefault(number, set()).add(lineages[ended[lineage]][0])
    shown = {}
    for page in (full_site / "rule").glob("*/index.html"):
        text = page.read_text(encoding="utf-8")
        if 'class="afterwards"' in text:
            shown[page.parent.name] = set(MERGED_NOTE.findall(text))
    assert shown == expected
    assert shown["806.8a"] == {"805.10a"}
    numbered = sorted(lineage for lineage in ended if lineages[lineage][0] in shown)
    for lineage in random.Random(SEED).sample(numbered, 12):
        number, last = lineages[lineage]
        traced = cli_json(full_lineage, "trace", f"{number}@{last}")
        assert {traced["current_number"]} <= shown[number], (number, last)
