"""The site's pictures (renderer.pictures) and its folding of formatting-only changes, read
from the pages of the site built from the small store and checked against the store."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import lxml.html
from bs4 import BeautifulSoup, Tag
from sqlite_utils import Database

from renderer.pictures.slopes import section_of
from renderer.pictures.timeline import THINNEST
from vocabulary.kinds import FORMATTING


def fast_tree(path: Path) -> lxml.html.HtmlElement:
    """The page parsed by lxml: for the tests that read every page of a kind, where
    BeautifulSoup's tree takes twenty times as long."""
    return lxml.html.fromstring(path.read_bytes())


def has_class(name: str) -> str:
    """An XPath predicate: the element's class attribute holds `name`."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def soup(site: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((site / path).read_text(encoding="utf-8"), "html.parser")


def picture(page: BeautifulSoup, name: str) -> Tag:
    """The page's picture of class `name`, checked to be named for screen readers."""
    svg = page.select_one(f"svg.picture.{name}")
    assert svg is not None, name
    assert svg["role"] == "img"
    assert svg["viewbox"].startswith("0 0 ")  # the parser lowercases attribute names
    title_id, desc_id = svg["aria-labelledby"].split()
    assert page.find(id=title_id).name == "title" and page.find(id=title_id).get_text().strip()
    assert page.find(id=desc_id).name == "desc" and page.find(id=desc_id).get_text().strip()
    return svg


def shown_changes(db: Database) -> dict[str, int]:
    """Release -> its changes but formatting-only ones: what its bar should count."""
    return dict(
        db.execute(
            "SELECT release, count(*) FROM release_changes WHERE kind != ? GROUP BY release",
            [FORMATTING.value],
        ).fetchall()
    )


def test_the_releases_page_opens_with_a_bar_per_release(
    small_site: Path, small_lineage: Database
) -> None:
    page = soup(small_site, "releases/index.html")
    svg = picture(page, "release-chart")
    assert svg.find_previous("h1") is not None  # before the table, right under the heading
    assert svg.find_next("table")["id"] == "release-table"
    dates = [row[0] for row in small_lineage.execute("SELECT date FROM releases ORDER BY date")]
    bars = svg.select("g.bar")
    assert [bar["data-release"] for bar in bars] == dates
    counts = shown_changes(small_lineage)
    for bar in bars:
        assert int(bar["data-total"]) == counts.get(bar["data-release"], 0)
        assert sum(int(r["data-count"]) for r in bar.select("rect")) == int(bar["data-total"])
        assert bar.find("title").get_text().startswith(bar["data-release"])


def test_the_drawn_heights_follow_the_counts_and_the_renumbering_stands_out(
    small_site: Path, small_lineage: Database
) -> None:
    bars = picture(soup(small_site, "releases/index.html"), "release-chart").select("g.bar")
    drawn = {
        bar["data-release"]: sum(float(r["height"]) for r in bar.select("rect")) for bar in bars
    }
    counts = shown_changes(small_lineage)
    # One scale for every bar, read from the largest segment: each segment is its count
    # times it (up to the coordinates' rounding), or a sliver for a count too small to see.
    largest = max(
        (r for bar in bars for r in bar.select("rect")), key=lambda r: int(r["data-count"])
    )
    scale = float(largest["height"]) / int(largest["data-count"])
    for bar in bars:
        for rect in bar.select("rect"):
            expected = max(int(rect["data-count"]) * scale, THINNEST)
            assert abs(float(rect["height"]) - expected) < 0.2, (bar["data-release"], rect)
    tallest = sorted(drawn, key=drawn.__getitem__, reverse=True)
    assert tallest[0] == max(counts, key=counts.__getitem__)
    assert "2009-07-08" in tallest[:2]
    labelled = [t.get_text() for t in bars[0].find_parent("svg").select("text.peak")]
    assert "2009-07-08" in labelled


def history_of(site: Path, last_number: str, first_number: str) -> BeautifulSoup:
    """The history page whose heading runs from `first_number` to `last_number`."""
    for path in (site / "history").glob("*/*/index.html"):
        text = path.read_text(encoding="utf-8")
        heading = re.search(r"<h1>History of (?:rule )?(.*?)</h1>", text)
        if (
            heading
            and heading.group(1).startswith(first_number)
            and heading.group(1).endswith(f"→ {last_number}")
        ):
            return BeautifulSoup(text, "html.parser")
    raise AssertionError(f"no history from {first_number} to {last_number}")


def test_a_history_draws_its_numbers_in_order_with_its_wordings_marked(small_site: Path) -> None:
    page = history_of(small_site, "708.2", "504.2")
    svg = picture(page, "number-spans")
    bands = svg.select("g.number-band")
    numbers = [band["data-number"] for band in bands]
    assert numbers == [row["data-number"] for row in page.select("tr.number-span")]
    assert numbers == ["504.2", "707.2", "708.2"]
    lefts = [float(band.find("rect")["x"]) for band in bands]
    assert lefts == sorted(lefts) and len(set(lefts)) == 3
    assert bands[-1]["data-until"] == ""  # in force: drawn to the end with an arrow
    assert bands[-1].find("path") is not None
    marks = svg.select("line.wording-mark")
    entries = page.select("li.wording-entry")
    assert [m["data-first"] for m in marks] == [
        e.select_one("span.span")["data-first"] for e in entries
    ]
    assert [m["data-kind"] for m in marks] == [e["data-kind"] for e in entries]


def test_a_renumbering_picture_joins_the_sections_of_its_table(small_site: Path) -> None:
    page = soup(small_site, "renumbering/2009-07-08/index.html")
    svg = picture(page, "slopes")
    expected: Counter[tuple[str, str]] = Counter()
    for row in page.select("#renumber-table tbody tr"):
        old_cell, new_cell = row.find_all("td")[:2]
        olds = {section_of(a.get_text()) for a in old_cell.find_all("a")} - {None}
        news = {section_of(a.get_text()) for a in new_cell.find_all("a")} - {None}
        for pair in {(o, n) for o in olds for n in news}:
            expected[pair] += 1  # type: ignore[index]
    drawn = Counter(
        {(p["data-old"], p["data-new"]): int(p["data-count"]) for p in svg.select("path.move")}
    )
    assert drawn == expected
    assert ("504", "707") in drawn  # the Magic 2010 renumbering: 504 became 707
    listed = {(li["data-old"], li["data-new"]) for li in page.select("ul.moves li")}
    assert listed == set(drawn)
    # the words count the moves across sections apart from those within one: "2 moves between
    # sections" once listed 310 -> 310 and 704 -> 704
    across = sum(1 for old, new in listed if old != new)
    summary = " ".join(page.select_one("details.picture-words summary").get_text().split())
    assert f"between {across} pairs of sections, and within {len(listed) - across} " in summary


def test_a_renumbering_counts_clauses_not_rows(small_site: Path) -> None:
    """A clause split into several pieces has a row for each: the page said "N clauses" of
    its rows (2009-07-08: 1,382 for 1,258 clauses), and so did the index's column."""
    page = soup(small_site, "renumbering/2009-07-08/index.html")
    rows = page.select("#renumber-table tbody tr")
    olds = {row.find_all("td")[0].get_text(" ", strip=True) for row in rows}
    assert len(olds) < len(rows)  # 504.2 alone has three rows
    intro = " ".join(page.select_one("main p").get_text().split())
    assert intro.startswith(f"{len(olds)} clauses of the ")
    assert f"({len(rows)} rows below: a clause split into several has a row for each)" in intro
    index = soup(small_site, "renumbering/index.html")
    link = index.select_one('tbody a[href="/renumbering/2009-07-08/"]')
    assert link and link.find_parent("tr").select_one("td.num").get_text() == str(len(olds))
    # its opening names the releases that renumbered the most, by its own table's counts
    counts = {
        row.select_one("a")["href"]: int(row.select_one("td.num").get_text())
        for row in index.select("tbody tr")
    }
    named = [a["href"] for a in index.select_one("main p").select("a")]
    assert named == sorted(counts, key=lambda href: (-counts[href], href))[:3]


def test_a_diff_folds_its_formatting_only_changes_and_counts_them(
    small_site: Path, small_lineage: Database
) -> None:
    page = soup(small_site, "diff/2018-10-05/2019-01-25/index.html")
    wanted = small_lineage.execute(
        "SELECT count(*) FROM release_changes WHERE release = '2019-01-25' AND kind = ?"
        " AND NOT unconfirmed",
        [FORMATTING.value],
    ).fetchone()[0]
    assert wanted > 100
    folded = page.select_one("section details.folded")
    assert folded is not None and not folded.has_attr("open")
    assert len(folded.select("article.change")) == wanted
    assert page.select("article.change") != folded.select("article.change")  # the rest is open
    assert f"{wanted:,} formatting-only changes" in page.select_one("p.folded-note").get_text()
    assert f"{wanted:,} formatting-only changes" in folded.find("summary").get_text()


def test_every_count_badge_of_a_diff_links_to_its_section(small_site: Path) -> None:
    pages = list((small_site / "diff").glob("*/*/index.html"))
    assert len(pages) >= 9
    for path in pages:
        page = fast_tree(path)
        badges = page.xpath(f"//p[{has_class('counts')}]//a[{has_class('kind')}]")
        assert badges, path
        for badge in badges:
            target = page.get_element_by_id(badge.get("href").removeprefix("#"), None)
            assert target is not None and target.tag == "h2", (path, badge.get("href"))
            count = int(badge.text_content().rsplit(" ", 1)[1])
            assert f"({count})" in target.text_content(), (path, badge.text_content())


def test_the_releases_table_links_each_count_to_its_diff_section(small_site: Path) -> None:
    page = soup(small_site, "releases/index.html")
    badges = page.select("#release-table a.kind")
    assert len(badges) > 10
    pages: dict[str, Any] = {}  # a diff page is parsed once, for all its badges
    for badge in badges[:40]:
        path, anchor = badge["href"].split("#")
        if path not in pages:
            pages[path] = fast_tree(small_site / path.strip("/") / "index.html")
        assert pages[path].get_element_by_id(anchor, None) is not None, badge["href"]


def test_a_history_folds_its_formatting_only_wordings(
    small_site: Path, small_lineage: Database
) -> None:
    lineage = small_lineage.execute(
        """SELECT lineage_id FROM wordings WHERE kind = ? AND replaced_by IS NOT NULL
           GROUP BY lineage_id ORDER BY count(*) DESC, lineage_id LIMIT 1""",
        [FORMATTING.value],
    ).fetchone()[0]
    pattern = f'data-lineage="{lineage}"'
    path = next(
        p
        for p in (small_site / "history").glob("*/*/index.html")
        if pattern in p.read_text(encoding="utf-8")
    )
    page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    stored = small_lineage.execute(
        "SELECT kind, replaced_by FROM wordings WHERE lineage_id = ? ORDER BY position",
        [lineage],
    ).fetchall()
    folded_kinds = [kind == FORMATTING and replaced_by for kind, replaced_by in stored]
    entries = page.select("li.wording-entry")
    assert [bool(e.select_one("details.folded")) for e in entries] == [
        bool(f) for f in folded_kinds
    ]
    for entry in page.select("li.formatting-only"):
        assert not entry.select_one("details.folded").has_attr("open")
        assert entry.select_one("blockquote.wording") is not None  # there, one click away
    count = sum(kind == FORMATTING for kind, _replaced_by in stored)
    note = page.select_one("p.folded-note").get_text()
    assert f"{count} formatting-only change" in note


HEADLINE = re.compile(r"(\d+) wordings?(?: and (\d+) formatting-only changes?)?(?: in|\.)")
PICTURED = re.compile(r"(\d+) wordings?(?: \((\d+) of them formatting-only\))?, each marked")


def test_every_history_counts_its_wordings_alike(small_site: Path) -> None:
    """The headline and the picture of a history page count the same wordings and
    formatting-only wordings; the headline left out a formatting-only wording in force
    (1,135 pages of the whole archive said '5 wordings and 4 formatting-only changes' above
    a picture of '9 wordings (5 of them formatting-only)')."""
    checked = current_quiet = 0
    for path in (small_site / "history").glob("*/*/index.html"):
        page = fast_tree(path)
        (lede,) = page.xpath(f"//p[{has_class('lede')}]")
        headline = HEADLINE.search(lede.text_content())
        pictured = PICTURED.search(path.read_text(encoding="utf-8"))
        assert headline and pictured, path
        words, quiet = int(headline[1]), int(headline[2] or 0)
        assert (words + quiet, quiet) == (int(pictured[1]), int(pictured[2] or 0)), path
        last = page.xpath(f"//li[{has_class('wording-entry')}]")[-1]
        folded = last.xpath(f".//details[{has_class('folded')}]")
        current_quiet += last.get("data-kind") == FORMATTING and not folded
        checked += 1
    assert checked > 500 and current_quiet > 10


def test_a_glossary_entrys_history_calls_its_terms_names(small_site: Path) -> None:
    """A glossary entry has no number: its history drew and listed "the numbers" it had
    ("State-Based Effects", "State-Based Actions"); a judge reads those as names."""
    page = history_of(small_site, "State-Based Actions", "State-Based Effects")
    assert page.find("h2", id="numbers").get_text() == "Names it had"
    svg = picture(page, "number-spans")
    title = page.find(id=svg["aria-labelledby"].split()[0]).get_text()
    assert title == "The names of State-Based Effects → State-Based Actions over the years"
    assert [th.get_text() for th in page.select("#numbers ~ div.table-wrap th[scope=col]")] == [
        "Name",
        "First",
        "Last",
    ]
    assert "Each band is a name the entry had" in page.find("figcaption").get_text()
    rule = history_of(small_site, "708.2", "504.2")  # a rule's history still says numbers
    assert rule.find("h2", id="numbers").get_text() == "Numbers it had"
