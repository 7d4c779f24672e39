"""Navigation inside a release page of the built small site: cross-references link to the
clause they name in the same release, clause numbers link to the clause's history, and a
table of contents lists every chapter and section."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from bs4 import BeautifulSoup

RELEASE = "releases/2008-02-01/index.html"


class _Ids(HTMLParser):
    """Every id and every same-page link (#...) of a page, in one fast pass."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.xrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if tag == "a" and found.get("class") == "xref":
            self.xrefs.append((found.get("href") or "").removeprefix("#"))


def ids_and_xrefs(page: Path) -> _Ids:
    parser = _Ids()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def soup(site: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((site / path).read_text(encoding="utf-8"), "html.parser")


def test_see_rule_references_link_to_the_clause_in_the_same_release(small_site: Path) -> None:
    page = soup(small_site, RELEASE)
    # 504.2 of 2008-02-01 reads '(See rule 418.5, "Interaction of Continuous Effects," and
    # rule 503, "Copying Objects.")'
    clause = page.find(id="504.2")
    links = {a.get_text(): a["href"] for a in clause.find_all("a", class_="xref")}
    assert links == {"418.5": "#418.5", "503": "#503"}
    assert "Interaction of Continuous Effects" in page.find("p", id="418.5").get_text()
    assert "Copying Objects" in page.find("h4", id="503").get_text()
    # 100.1b: 'A multiplayer game ... See section 6, "Multiplayer Rules."': the chapter
    chapter = page.find(id="100.1b").find("a", class_="xref")
    assert (chapter.get_text(), chapter["href"]) == ("6", "#6")
    # the chapter's heading prints its number, as the rules do, linked to its history
    heading = page.find(id="6")
    assert heading.get_text() == "6. Multiplayer Rules"
    history = heading.find("a", class_="n")["href"]
    assert history.startswith("/history/") and history.endswith("/6/")
    assert (small_site / history.strip("/") / "index.html").exists()
    # a range ("rules 409.1f-h") links its first clause
    ranges = [a for a in page.find_all("a", class_="xref") if a.get_text() == "409.1f-h"]
    assert ranges and {a["href"] for a in ranges} == {"#409.1f"}


def test_every_cross_reference_lands_on_an_anchor_of_its_own_page(small_site: Path) -> None:
    total = 0
    for page in sorted((small_site / "releases").glob("*/index.html")):
        found = ids_and_xrefs(page)
        missing = [target for target in found.xrefs if target not in found.ids]
        assert missing == [], page
        total += len(found.xrefs)
    assert total > 5000  # hundreds per release


def test_a_reference_to_a_clause_the_release_lacks_stays_text(small_site: Path) -> None:
    # 2009-07-08's 401.6 refers to "rule 602.1i", which that release does not have
    html = (small_site / "releases/2009-07-08/index.html").read_text(encoding="utf-8")
    assert "(see rule 602.1i)" in html
    assert 'id="602.1i"' not in html and 'href="#602.1i"' not in html


def test_clause_numbers_link_to_their_history(small_site: Path) -> None:
    page = soup(small_site, RELEASE)
    number = page.find(id="504.2").find("a", class_="n")
    assert number["href"] == "/history/2002-10-07/504.2/"
    history = soup(small_site, "history/2002-10-07/504.2/index.html")
    assert "504.2" in history.h1.get_text() and "708.2" in history.h1.get_text()
    section = page.find("h4", id="504").find("a", class_="n")
    assert section["href"].startswith("/history/")
    assert (small_site / section["href"].strip("/") / "index.html").exists()


def test_table_of_contents_lists_every_chapter_and_section(small_site: Path) -> None:
    for path in (RELEASE, "releases/2024-06-07/index.html"):
        page = soup(small_site, path)
        toc = page.find("nav", class_="toc")
        assert toc is not None and toc.find("details").has_attr("open")
        listed = [a["href"].removeprefix("#") for a in toc.find_all("a")]
        text = page.find(id="fulltext")
        sections = [h["id"] for h in text.find_all("h4", class_="section")]
        chapters = [h["id"] for h in text.find_all("h3", class_="chapter")]
        assert listed == [anchor for chapter in _by_chapter(text) for anchor in chapter] + [
            "glossary"
        ]
        assert set(sections) | set(chapters) | {"glossary"} == set(listed)
        assert len(sections) > 80
        # each entry carries the section's title
        entry = toc.find("a", href="#" + sections[0])
        assert entry.get_text().startswith(sections[0] + ". ")


def _by_chapter(text: BeautifulSoup) -> list[list[str]]:
    """The full text's chapter and section anchors, in order, grouped by chapter."""
    groups: list[list[str]] = []
    for heading in text.find_all(["h3", "h4"]):
        if "chapter" in (heading.get("class") or []):
            groups.append([heading["id"]])
        elif "section" in (heading.get("class") or []):
            groups[-1].append(heading["id"])
    return groups


def test_cross_references_are_only_ever_numbers(small_site: Path) -> None:
    html = (small_site / RELEASE).read_text(encoding="utf-8")
    texts = re.findall(r'<a class="xref" href="#([^"]+)">([^<]+)</a>', html)
    assert texts
    for target, shown in texts:
        assert shown.startswith(target), (target, shown)


def test_a_number_printed_otherwise_is_shown_as_printed(small_site: Path) -> None:
    """2009-07-08 prints "702. 37a" (storm) with a stray space: the page reads it as 702.37a,
    as the CLI does, and says what the text printed; a number printed as read says nothing."""
    page = soup(small_site, "releases/2009-07-08/index.html")
    storm = page.find(id="702.37a")
    assert storm.find("a", class_="n").get_text() == "702.37a"
    assert storm.find("small", class_="printed").get_text() == "(printed \u201c702. 37a\u201d)"
    assert page.find(id="702.36a").find("small", class_="printed") is None
    assert len(page.find_all("small", class_="printed")) == 2  # 702.37a and 702.37b


def test_a_number_printed_otherwise_is_said_on_its_history(small_site: Path) -> None:
    """The history of storm's 702.37a says, beside the wording of 2009-07-08, that this
    release printed the number "702. 37a", as the release page and `trace` say it."""
    release = soup(small_site, "releases/2009-07-08/index.html")
    history = release.find(id="702.37a").find("a", class_="n")["href"]
    page = soup(small_site, history.strip("/") + "/index.html")
    notes = [p.get_text(" ", strip=True) for p in page.find_all("p", class_="printed-note")]
    assert len(notes) == 1
    assert notes[0].startswith("In the release of July 8, 2009")
    assert 'prints this number as "702. 37a"; it is read as 702.37a' in notes[0]
