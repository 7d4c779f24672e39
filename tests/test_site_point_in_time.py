"""A rule number on any day, /rule/N/DAY/: HTTP 200 with the wording in force, the day asked
and the release it comes from, from `rules-history serve` (on the server, no JavaScript) and
from a static host applying the site's own `_redirects` (tests/static_host.py; the page's
script shows the day); a host without rewrites goes through /404.html. Also: the citation
box near the top with its access date, and the links to a capture's original and Wayback copy.
The small store's releases: 504.2 reads one wording from 2008-02-01 to 2009-05-01;
502.26e was last used in 2009-05-01 and its clause is 707.2a from 2009-07-08."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from conftest import serving
from sqlite_utils import Database
from static_host import static_host

from archive.errors import LookupFailed
from archive.store import store_file
from lineage.trace import trace
from renderer.asof_view import Asked, values
from renderer.environment import long_date
from rules_history.cli import main

DAY = "2008-03-17"
ASKED = f"/rule/504.2/{DAY}/"
WORDING = "Face-down spells on the stack, face-down permanents in play"
# 2009-07-08 (Magic 2010) states that it is "effective as of July 11, 2009": held in force
# from its file's date, as everywhere, it was published but not yet in effect on July 9.
BEFORE_EFFECT = "/rule/708.2/2009-07-09/"
EFFECT_NOTICE = (
    "The release of July 8, 2009 (Magic 2010) states that it takes effect on July 11, 2009:"
    " on the days before, it was published but not yet in effect."
)
# The browser has shown the day (also true only once a redirect has landed on the page).
SHOWN = "() => { const v = document.getElementById('asof-day'); return v && !v.hidden; }"


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture(scope="module")
def served(small_site: Path) -> Iterator[str]:
    with serving(small_site) as base:
        yield base


def test_serve_answers_any_day_with_the_wording_in_force(served: str) -> None:
    status, html = fetch(served + ASKED)
    assert status == 200
    assert "<title>Rule 504.2 as of March 17, 2008 · " in html
    assert re.search(
        r"<h1>Rule 504.2<span id=\"asof-title\"> as of March 17, 2008</span></h1>", html
    )
    view = html.split('<div id="asof-day" class="asof-view">', 1)[1].split("</div>", 1)[0]
    assert WORDING in view
    assert '<a href="/releases/2008-02-01/">February 1, 2008 (Morningtide)</a>' in view
    # "in force from", never "first printed": a run may begin where the same text was printed
    # again after a release that only changed its typography (2019-01-25's straight quotes)
    assert "which prints the wording in force from the release of" in view
    assert "first printed" not in html
    assert f'<a href="{ASKED}">{served}{ASKED}</a>' in view  # the permalink of the day
    assert f"Accessed {long_date(date.today().isoformat())}." in view
    # Later in the same wording, the release in force is the newer one, the wording the same.
    status, later = fetch(served + "/rule/504.2/2009-06-01/")
    assert status == 200 and WORDING in later
    assert '<a href="/releases/2009-05-01/">May 1, 2009 (Alara Reborn)</a>' in later


def day_view(html: str) -> str:
    """The text of a page's answer for the day asked (as the server or the script shows it)."""
    view = html.split('<div id="asof-day" class="asof-view">', 1)[1].split("</div>", 1)[0]
    return " ".join(BeautifulSoup(view, "lxml").get_text().split())


def day_citation_of(html: str) -> str:
    """The day's citation on a page shown as of a day."""
    found = BeautifulSoup(html, "lxml").select_one("#asof-day #asof-cite-plain")
    assert found is not None
    return found.get_text()


def test_a_day_before_its_release_takes_effect_says_so(
    served: str, small_lineage: Database
) -> None:
    """The answer for a day between a release's file and the later day its text states it
    takes effect says so, on the page and on the command line; from that day on, neither
    does."""
    status, html = fetch(served + BEFORE_EFFECT)
    assert status == 200 and EFFECT_NOTICE in day_view(html)
    # it was published, not in effect: the answer and the day's citation say so, not "in
    # force" (a citation is copied without the notice)
    assert "Published, not yet in effect, on July 9, 2009: the release of July 8, 2009" in (
        day_view(html)
    )
    assert "in force" not in day_citation_of(html)
    assert (
        "rule 708.2, as published on July 9, 2009, release of July 8, 2009 (Magic 2010), in"
        " effect from July 11, 2009." in day_citation_of(html)
    )
    status, html = fetch(served + "/rule/708.2/2009-07-11/")
    assert status == 200 and "takes effect" not in day_view(html)
    assert '<p class="effect-note"></p>' in html  # empty: not shown
    # the number page's list of every day, read without JavaScript, gives the day too
    listed = BeautifulSoup(html, "lxml").select_one('ul.days li.day-run[data-start="2009-07-08"]')
    assert listed is not None
    assert "which states that it takes effect on July 11, 2009." in " ".join(
        listed.get_text().split()
    )
    db_file = store_file(small_lineage)
    assert db_file is not None
    # the release's own date is a day before it too; the day it states, and after, are not
    days = (("2009-07-08", "2009-07-11"), ("2009-07-10", "2009-07-11"), ("2009-07-11", None))
    for day, stated in days:
        shown = CliRunner().invoke(
            main, ["show", "708.2", "--as-of", day, "--db", db_file, "--json"]
        )
        assert shown.exit_code == 0, shown.output
        assert json.loads(shown.output).get("takes_effect") == stated, day
    said = CliRunner().invoke(main, ["show", "708.2@2009-07-09", "--db", db_file])
    assert (
        said.exit_code == 0
        and (
            "note: the release of 2009-07-08 states that it takes effect on 2009-07-11: on the days"
            " before, it was published but not yet in effect\n"
        )
        in said.output
    )


def test_a_days_values_read_the_list_of_releases_of_either_form() -> None:
    """`serve` fills a day's placeholders from the site's /rule/releases.json: the notice
    only before the day the release states; a day before the first release, and the list of
    a site built before it named effective days ([date, label]), still answer."""

    def on(day: str, listed: list[list[str]]) -> dict[str, str]:
        return values(Asked("708.2", day, "/rule/708.2/x/", "http://h", date(2026, 11, 30)), listed)

    listed = [
        ["2009-05-01", "May 1, 2009", "", ""],
        ["2009-07-08", "July 8, 2009", "2009-07-11", "Not yet in effect."],
    ]
    assert on("2009-07-09", listed)["effective"] == "Not yet in effect."
    assert on("2009-07-11", listed)["effective"] == on("2009-06-01", listed)["effective"] == ""
    assert on("2009-07-11", listed)["release"] == "July 8, 2009"
    before = on("2000-01-01", listed)
    assert (before["release"], before["release_url"], before["effective"]) == ("", "/releases/", "")
    older = on("2009-07-09", [["2009-05-01", "May 1, 2009"], ["2009-07-08", "July 8, 2009"]])
    assert (older["release"], older["effective"]) == ("July 8, 2009", "")
    # a release that states an earlier day: from that day, the answer (the release before)
    # carries the next release's notice; from its own date on, nothing
    early = [*listed, ["2024-08-02", "August 2, 2024", "2024-07-30", "Already in effect."]]
    assert on("2024-07-29", early)["effective"] == ""
    assert on("2024-07-30", early)["effective"] == on("2024-08-01", early)["effective"]
    told = {"effective", "standing", "standing_lower", "cited_day"}  # what the notice changes
    assert {k: v for k, v in on("2024-08-01", early).items() if k not in told} == {
        k: v for k, v in on("2024-08-01", listed).items() if k not in told
    }
    assert on("2024-08-01", early)["effective"] == "Already in effect."
    assert on("2024-08-02", early)["effective"] == ""
    # the answer and the day's citation say "in force" only of a release in effect that day
    standing = {day: on(day, early)["standing"] for day in ("2009-07-09", "2009-07-11")}
    assert standing == {"2009-07-09": "Published, not yet in effect,", "2009-07-11": "In force"}
    assert on("2024-08-01", early)["standing"] == "Newest published"
    assert on("2024-08-01", early)["cited_day"] == (
        "as published on August 1, 2024, release of July 8, 2009; the release of August 2,"
        " 2024 states that it took effect on July 30, 2024"
    )
    assert on("2024-07-29", early)["cited_day"] == (
        "in force on July 29, 2024, release of July 8, 2009"
    )


def test_serve_says_what_an_unused_number_became(served: str) -> None:
    status, html = fetch(served + "/rule/502.26e/2012-01-01/")
    assert status == 200
    view = html.split('<div id="asof-day" class="asof-view">', 1)[1]
    assert "Rule 502.26e was not in use on January 1, 2012" in view
    assert '<a href="/rule/707.2a/2012-01-01/">707.2a</a>' in view
    status, became = fetch(served + "/rule/707.2a/2012-01-01/")
    assert status == 200 and "as of January 1, 2012" in became


def test_what_an_unused_number_became_is_marked_when_the_link_is_weak(
    served: str, small_site: Path, small_lineage: Database
) -> None:
    """310.4 (combat damage is dealt) went on as 510.2 in 2009 by a weak link (where it sat,
    its words rewritten): the number page and the day's answer mark it as `trace` does; the
    strong link of 502.26e to 707.2a is not marked."""
    day = "/rule/310.4/2012-01-01/"
    status, html = fetch(served + day)
    view = html.split('<div id="asof-day" class="asof-view">', 1)[1].split("</div>", 1)[0]
    became = '<a href="/rule/510.2/2012-01-01/">510.2</a> <a class="uncertain"'
    assert status == 200 and became in view
    listed = BeautifulSoup((small_site / "rule/310.4/index.html").read_text(), "html.parser")
    unused = [li for li in listed.select("li.day-unused") if "510.2" in li.get_text()]
    assert unused and all(li.select_one("a.uncertain") for li in unused)
    strong = BeautifulSoup((small_site / "rule/502.26e/index.html").read_text(), "html.parser")
    assert any("707.2a" in li.get_text() for li in strong.select("li.day-unused"))
    assert not strong.select("li.day-unused a.uncertain")
    # the CLI says the same of the number
    said = r"that clause is 510\.2 in 2009-07-08 \(an uncertain link\)"
    with pytest.raises(LookupFailed, match=said):
        trace(small_lineage, "310.4", "2009-07-08")


def test_every_day_has_one_answer_on_every_number_page(small_site: Path) -> None:
    """The segments of each number page follow each other from before the archive to today,
    with no day twice and none left out."""
    pages = sorted((small_site / "rule").glob("*/index.html"))
    assert len(pages) > 1000
    for path in pages:
        spans = re.findall(
            r'<template class="asof-segment" data-start="([\d-]+)" data-until="([\d-]*)">',
            path.read_text(encoding="utf-8"),
        )
        starts = [start for start, _ in spans]
        untils = [until for _, until in spans]
        assert starts[0] == "0001-01-01" and untils[-1] == "", path
        assert untils[:-1] == starts[1:], path
        assert starts == sorted(starts), path


def test_serve_refuses_what_is_not_a_day_or_a_number(served: str) -> None:
    assert fetch(served + "/rule/504.2/2008-02-30/")[0] == 404
    assert fetch(served + "/rule/999.999z/2008-03-17/")[0] == 404
    # the wording pages written at build time are served as they are
    status, html = fetch(served + "/rule/504.2/2008-02-01/")
    heading = BeautifulSoup(html, "html.parser").h1.get_text()  # its date is a <time>
    assert status == 200 and heading == "Rule 504.2 as of February 1, 2008"
    # a subrule's letter in capitals is the subrule (show 702.37B works; the page was a 404)
    with urllib.request.urlopen(served + "/rule/502.26E/2008-03-17/") as response:
        assert response.status == 200 and response.url == served + "/rule/502.26e/2008-03-17/"
    # the number page's form without JavaScript asks ?date=; it is sent to the day's address
    with urllib.request.urlopen(served + f"/rule/504.2/?date={DAY}") as response:
        assert response.status == 200 and response.url == served + ASKED


def test_static_host_rewrite_answers_200(small_site: Path) -> None:
    with static_host(small_site) as host:
        base = host.url
        status, html = fetch(base + ASKED)
        assert status == 200 and "<h1>Rule 504.2<span" in html
        # without JavaScript the page lists every day's wording, each span linked to it
        entries = re.findall(
            r'<li class="day-run" data-start="([\d-]+)" data-until="([\d-]*)"><a href="([^"]+)">',
            html,
        )
        holding = [url for start, until, url in entries if start <= DAY and (until or "~") > DAY]
        assert holding == ["/rule/504.2/2008-02-01/"]
        assert fetch(base + holding[0])[0] == 200
    with static_host(small_site, rewrites=False) as host:
        base = host.url
        assert fetch(base + ASKED)[0] == 404


def shows_the_day(page) -> None:
    assert page.locator("h1").inner_text() == "Rule 504.2 as of March 17, 2008"
    view = page.locator("#asof-day")
    assert view.is_visible()
    assert WORDING in view.inner_text()
    assert "February 1, 2008 (Morningtide)" in view.inner_text()
    plain = page.locator("#asof-cite-plain").inner_text()
    assert f"Accessed {long_date(date.today().isoformat())}." in plain
    assert plain.count(ASKED) == 1


@pytest.mark.browser
def test_static_host_shows_the_day_with_javascript(browser, small_site: Path) -> None:
    with static_host(small_site) as host:
        base = host.url
        page = browser.new_page()
        page.goto(base + ASKED)
        page.wait_for_function(SHOWN)
        shows_the_day(page)
        assert page.url == base + ASKED
        page.goto(base + "/rule/502.26e/2012-01-01/")
        page.wait_for_function(SHOWN)
        page.click("#asof-day a[href='/rule/707.2a/2012-01-01/']")
        page.wait_for_function(SHOWN)
        assert page.locator("h1").inner_text() == "Rule 707.2a as of January 1, 2012"
        assert not page.locator("#asof-day p.effect-note").is_visible()
        page.goto(base + BEFORE_EFFECT)  # the script says it too, as the server does
        page.wait_for_function(SHOWN)
        assert page.locator("#asof-day p.effect-note").inner_text() == EFFECT_NOTICE
        with serving(small_site) as served:
            server = BeautifulSoup(fetch(served + BEFORE_EFFECT)[1], "lxml")
        for shown in ("#asof-day p.inforce", "#asof-day #asof-cite-plain"):
            said = server.select_one(shown)
            assert said is not None
            expected = " ".join(said.get_text().split()).replace(served, base)
            assert " ".join(page.locator(shown).inner_text().split()) == expected
    # A host without rewrites answers 404; its page's script goes to the number page.
    with static_host(small_site, rewrites=False) as host:
        base = host.url
        page = browser.new_page()
        page.goto(base + ASKED)
        page.wait_for_function(SHOWN)
        shows_the_day(page)
        assert page.url == base + ASKED  # the address shown is the day's permalink
        # a subrule's letter in capitals is the subrule, as `show` and the server read it
        page.goto(base + "/rule/502.26E/2012-01-01/")
        page.wait_for_function(SHOWN)
        assert page.locator("h1").inner_text() == "Rule 502.26e as of January 1, 2012"


@pytest.mark.browser
def test_without_javascript_the_day_leads_to_its_wording(
    browser, small_site: Path, served: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(served + ASKED)  # the server shows the day itself
    assert page.locator("h1").inner_text() == "Rule 504.2 as of March 17, 2008"
    assert WORDING in page.locator("#asof-day").inner_text()
    with static_host(small_site) as host:
        base = host.url
        page.goto(base + ASKED)  # the number page: the day's entry links to its wording
        entry = page.locator("ul.days li.day-run", has_text="From February 1, 2008 until July 8")
        entry.locator("a").click()
        assert page.locator("h1").inner_text() == "Rule 504.2 as of February 1, 2008"
        assert WORDING in page.locator("blockquote.wording").inner_text()
    context.close()


@pytest.mark.browser
def test_citation_near_the_top_with_access_date(browser, served: str) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    today = long_date(date.today().isoformat())
    for path in ("/rule/708.2a/2021-07-12/", "/history/2002-10-07/504.2/"):
        page.goto(served + path)
        box = page.locator("section.cite").first
        assert box.bounding_box()["y"] < 900, path  # on the first screen, before examples
        plain = box.locator("pre[id$='-plain']").inner_text()
        assert plain.endswith(f"Accessed {today}."), plain
        assert "release of " in plain and served + "/rule/" in plain
        bibtex = box.locator("pre[id$='-bibtex']").text_content() or ""  # folded
        assert f"urldate = {{{date.today().isoformat()}}}" in bibtex


def test_citation_without_javascript_asks_for_the_access_date(small_site: Path) -> None:
    html = (small_site / "rule/504.2/2008-02-01/index.html").read_text()
    assert (
        "rule 504.2, release of February 1, 2008 (Morningtide). /rule/504.2/2008-02-01/."
        " Accessed [the date you read it].</pre>" in html
    )


def test_release_pages_link_the_original_and_its_wayback_copy(small_site: Path) -> None:
    original = "http://www.wizards.com/magic/comprules/MagicCompRules080201.txt"
    html = (small_site / "releases/2008-02-01/index.html").read_text()
    assert f'<a href="{original}" rel="external nofollow">original</a>' in html
    wayback = f"https://web.archive.org/web/20080201/{original}"
    assert f'<a href="{wayback}" rel="external nofollow">' in html
    listing = (small_site / "releases/index.html").read_text()
    assert f'<a href="{wayback}" rel="external nofollow">Wayback</a>' in listing


def test_releases_list_says_its_order(small_site: Path) -> None:
    listing = (small_site / "releases/index.html").read_text()
    shown = re.findall(r'<th scope="row"><a href="/releases/([\d-]+)/">', listing)
    assert shown == sorted(shown, reverse=True) and len(shown) > 2
    assert "newest first" in listing and "oldest first" not in listing


def test_a_number_whose_clause_was_merged_says_into_what(
    small_site: Path, small_lineage: Database
) -> None:
    """A number no longer in use whose clause was merged into another names that clause on
    the number page's days, as `trace` does; they said "no longer in the rules" (21 merges
    of the whole archive, 713.12 into 712.19 among them)."""
    endings = small_lineage.execute(
        """SELECT l.last_number, e.release, t.number FROM lineage_events e
           JOIN lineages l ON l.id = e.lineage_id
           JOIN lineage_members t ON t.lineage_id = json_extract(e.related_lineages, '$[0]')
                AND t.release = e.release
           WHERE e.kind = 'merged' AND e.release > l.last_release AND l.kind != 'glossary'
             AND NOT EXISTS (SELECT 1 FROM lineage_members u
                             WHERE u.number = l.last_number AND u.release = e.release)"""
    ).fetchall()
    assert endings
    db_file = str(small_lineage.execute("PRAGMA database_list").fetchone()[2])
    for number, merged_in, into in endings:
        page = BeautifulSoup(
            (small_site / "rule" / number / "index.html").read_text(encoding="utf-8"),
            "html.parser",
        )
        entry = page.select_one(f'li.day-unused[data-start="{merged_in}"]')
        assert entry is not None, number
        text = " ".join(entry.get_text().split())
        assert f"had been merged into {into}" in text, (number, text)
        said = rf"was merged into {re.escape(into)} in {merged_in}"
        with pytest.raises(LookupFailed, match=said):
            trace(small_lineage, f"{number}@{merged_in}")
        for command in ("show", "cite"):  # they sent the reader to `trace`
            shown = CliRunner().invoke(main, [command, f"{number}@{merged_in}", "--db", db_file])
            assert shown.exit_code == 1 and re.search(said, shown.output), (command, shown.output)


def test_a_day_page_leads_to_the_rule_with_its_subrules_in_that_release(
    served: str, small_site: Path, small_lineage: Database
) -> None:
    """`show 504@DAY` prints the rule with everything numbered under it; the day page shows
    its own line only, so it links to the rule in the full text of the release in force,
    where the subrules and examples follow it."""
    status, html = fetch(served + f"/rule/504/{DAY}/")
    assert status == 200
    view = html.split('<div id="asof-day" class="asof-view">', 1)[1].split("<template", 1)[0]
    link = BeautifulSoup(view, "html.parser").select_one("p.in-fulltext a")
    assert link is not None and link["href"] == "/releases/2008-02-01/#504"
    release = BeautifulSoup(
        (small_site / "releases/2008-02-01/index.html").read_text(encoding="utf-8"), "html.parser"
    )
    shown = json.loads(
        CliRunner()
        .invoke(
            main,
            [
                "show",
                f"504@{DAY}",
                "--json",
                "--db",
                str(small_lineage.execute("PRAGMA database_list").fetchone()[2]),
            ],
        )
        .output
    )
    under = [inner["number"] for inner in shown["contents"]]
    assert len(under) > 5 and release.find(id="504") is not None
    assert all(release.find(id=number) is not None for number in under)


OPENING = re.compile(r"<p>Rule number .*?</p>", re.DOTALL)  # a number page's first words


def test_a_number_page_says_when_the_number_was_out_of_use(
    small_site: Path, small_lineage: Database
) -> None:
    """The opening of /rule/N/ names each stretch of releases between two uses of N in which
    no clause carried it (from the release that dropped it until the one that used it again),
    read here from the store's members, release by release."""
    dates = [row[0] for row in small_lineage.execute("SELECT date FROM releases ORDER BY date")]
    used: dict[str, set[str]] = {}
    for number, release in small_lineage.execute(
        "SELECT number, release FROM lineage_members WHERE kind IN ('rule', 'subrule')"
    ):
        used.setdefault(number, set()).add(release)
    broken = 0
    for number, releases in used.items():
        page = small_site / "rule" / number / "index.html"
        if not page.exists():
            continue
        inside = [day for day in dates if min(releases) <= day <= max(releases)]
        expected = [
            (day, next(d for d in inside[i:] if d in releases))
            for i, day in enumerate(inside)
            if day not in releases and inside[i - 1] in releases
        ]
        opening = OPENING.search(page.read_text(encoding="utf-8"))  # no parse: 2,000 pages
        assert opening is not None, number
        said = " ".join(re.sub(r"<[^>]+>", "", opening[0]).split())
        shown = re.findall(r"from (\w+ \d+, \d{4}) until (\w+ \d+, \d{4})", said)
        assert shown == [(long_date(a), long_date(b)) for a, b in expected], (number, said)
        broken += bool(expected)
    assert broken  # the small archive has numbers that came back into use
