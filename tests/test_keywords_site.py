"""Keyword pages and the rule index on the built site: /keyword/morph/ shows every era of the
heading with its text, titles a heading had before lead to its page, and /rule/ lists each
number with its words and years, by section."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bs4 import BeautifulSoup
from click.testing import CliRunner
from sqlite_utils import Database

from archive.lookup import names_in
from archive.query import release_dates
from archive.store import store_file
from renderer.names import TERM_WORDS
from rules_history.cli import main


def test_the_morph_page_shows_every_era_with_its_text(small_site: Path) -> None:
    html = (small_site / "keyword/morph/index.html").read_text(encoding="utf-8")
    assert re.search(r'id="chain">502\.26 → 702\.34 → 702\.36 → 702\.37<', html)
    eras = re.findall(r'<section class="era" id="era-([\d.]+)"', html)
    assert eras == ["702.37", "702.36", "702.34", "502.26"]  # newest first
    for number in eras:
        era = html.split(f'id="era-{number}"')[1].split('<section class="era"')[0]
        assert "<strong>Morph</strong>" in era
        link = rf'<a class="n" href="/releases/[\d-]+/#({re.escape(number)}[a-z])">'
        subrules = re.findall(link, era)
        assert subrules, number  # the subrules as that era printed them
    onslaught = html.split('id="era-502.26"')[1]
    assert "(Onslaught)" in onslaught  # the release's set name beside its date
    assert "Morph is a static ability that functions any time" in onslaught  # 502.26a, 2002


def test_the_keyword_index_and_former_titles(small_site: Path) -> None:
    index = (small_site / "keyword/index.html").read_text(encoding="utf-8")
    assert '<a href="/keyword/morph/">Morph</a>' in index
    battlefield_item = r'<a href="/keyword/battlefield/">Battlefield</a>[^\n]*formerly In Play'
    assert re.search(battlefield_item, index)
    battlefield = (small_site / "keyword/battlefield/index.html").read_text(encoding="utf-8")
    assert '<q class="former">In Play</q>' in battlefield
    names = json.loads((small_site / "search/names.json").read_text(encoding="utf-8"))
    in_play = [n for n in names if n["key"] == "in play" and n["url"] == "/keyword/battlefield/"]
    assert in_play and in_play[0]["former"]
    # every keyword page a name leads to exists
    for entry in names:
        if entry["url"].startswith("/keyword/"):
            assert (small_site / entry["url"].strip("/") / "index.html").exists(), entry


def _afterwards(site: Path, slug: str) -> BeautifulSoup:
    html = (site / f"keyword/{slug}/index.html").read_text(encoding="utf-8")
    found = BeautifulSoup(html, "html.parser").select_one(".lede .afterwards")
    assert found is not None, slug
    return found


def _current_number(db: Database, rule: str) -> str:
    trace = CliRunner().invoke(main, ["trace", rule, "--json", "--db", str(store_file(db))])
    assert trace.exit_code == 0, trace.output
    return str(json.loads(trace.output)["current_number"])


def test_a_retired_heading_says_where_its_clause_went(
    small_site: Path, small_lineage: Database
) -> None:
    """A heading no longer printed says what became of it, as `trace` does: 405 "Static
    Abilities" was merged in 2009 into 604 "Handling Static Abilities" (its keyword page is
    the link); 418.3 "Continuous Effects from Spells or Abilities" lost its title in 2009
    and goes on as a rule (611.2 today)."""
    merged = _afterwards(small_site, "static-abilities")
    into = merged.select_one("a.merged-into")
    assert into is not None
    assert into["data-number"] == _current_number(small_lineage, "405@2009-05-01") == "604"
    assert into["href"] == "/keyword/handling-static-abilities/"
    assert "(Handling Static Abilities)" in merged.get_text()
    assert "July 8, 2009" in merged.get_text()
    untitled = _afterwards(small_site, "continuous-effects-from-spells-or-abilities")
    today = untitled.select_one("a.today")
    assert today is not None
    assert today["data-number"] == _current_number(small_lineage, "418.3@2009-05-01")
    assert today["data-number"].startswith("611.")
    assert "without the title" in untitled.get_text()


def test_no_glossary_name_is_a_definition(small_site: Path) -> None:
    names = json.loads((small_site / "search/names.json").read_text(encoding="utf-8"))
    glossary = [n["name"] for n in names if n["kind"] == "glossary"]
    assert "Face Down" in glossary
    # a definition run into its term ("Ability1. Text on an object ...", 2021-06-09) is split
    # off by the parser; what is left is a term, short, though it may hold a period
    assert not [name for name in glossary if len(name.split()) > TERM_WORDS]
    assert not [name for name in glossary if re.search(r"[A-Za-z]\d+\. ", name)]
    assert "Team vs. Team Variant" in glossary


def test_the_rule_index_shows_titles_by_section(small_site: Path) -> None:
    index = (small_site / "rule/index.html").read_text(encoding="utf-8")
    assert '<a href="/numbers/7/#s-708">708</a> Face-Down Spells and Permanents' in index
    assert "/rule/708.2a/" not in index  # the numbers are on the chapter's page
    html = (small_site / "numbers/7/index.html").read_text(encoding="utf-8")
    assert '<a href="#s-708">708</a> Face-Down Spells and Permanents' in html
    section = html.split('<h2 id="s-708">')[1].split("</section>")[0]
    assert "Face-Down Spells and Permanents" in section.split("</h2>")[0]
    item = re.search(
        r'<li class="d2"><a href="/rule/708\.2a/">708\.2a</a> ([^<]*)<span class="meta">([^<]*)<',
        section,
    )
    assert item is not None
    assert item.group(1).startswith("If a face-up permanent is turned face down")
    assert item.group(2) == "2021–today"
    morph = (small_site / "numbers/5/index.html").read_text(encoding="utf-8")
    retired = re.search(r'"/rule/502\.26/">502\.26</a> Morph <span class="meta">([^<]*)<', morph)
    assert retired is not None and retired.group(1) == "2002–2009, retired"


def test_a_section_page_prints_its_subrules_and_dates_by_them(
    small_site: Path, small_lineage: Database
) -> None:
    """The page of a section prints every rule and subrule of it, as the release did: "The
    state-based actions are as follows:" (704.5) is followed by its list, and the newest
    printing is dated by the last release that changed any clause of the section (the list
    changed after its rules did: a page of 704.1-704.8 alone read "as printed 2020 – today")."""
    newest = release_dates(small_lineage)[-1]
    page = BeautifulSoup(
        (small_site / "keyword/state-based-actions/index.html").read_text(encoding="utf-8"),
        "html.parser",
    )
    printing = page.select_one("details.printing")
    shown = [p.a.get_text() for p in printing.select("p.subrule")]
    under = [
        row[0]
        for row in small_lineage.execute(
            """SELECT number FROM clauses WHERE release = ? AND number LIKE '704.%'
               AND kind IN ('rule', 'subrule') ORDER BY position""",
            [newest],
        )
    ]
    assert shown == under and "704.5a" in shown
    texts: dict[str, list[tuple[str, str]]] = {}
    for release, number, version in small_lineage.execute(
        """SELECT c.release, c.number, c.version_hash FROM clauses c
           WHERE c.kind IN ('rule', 'subrule') AND c.number LIKE ? ORDER BY c.position""",
        ["704.%"],
    ):
        texts.setdefault(release, []).append((number, version))
    dates = release_dates(small_lineage)
    pairs = zip(dates, dates[1:], strict=False)
    changed = [day for before, day in pairs if texts.get(day) != texts.get(before)]
    assert printing["data-first"] == changed[-1]


# What two releases printed where a section had been (its rules moved elsewhere).
EMPTIED = "This section is now empty. See rule 205.4c and rule 420.5e about legendary permanents."
BLANK = "[This section has been intentionally left blank to preserve the ordering of other rules.]"


def test_a_note_left_in_a_sections_place_is_no_name(
    full_lineage: Database, full_site: Path
) -> None:
    """2004-10-01 to 2006-10-01 printed "215. This section is now empty. See rule 205.4c ...",
    2007-10-01 "211. [This section has been intentionally left blank ...]". The keyword index
    listed both notes as section titles, each with a page of its own, and the lookup box and
    `show` took them as names. They are no names; the sections keep their pages by number."""
    store = str(store_file(full_lineage))
    printed = dict(
        full_lineage.execute(
            "SELECT title, min(r.date) FROM parts p JOIN releases r ON r.capture_id = p.capture_id"
            " WHERE p.kind = 'section' AND p.title IN (?, ?) GROUP BY title",
            [EMPTIED, BLANK],
        ).fetchall()
    )
    assert set(printed) == {EMPTIED, BLANK}  # the parser keeps what the releases printed
    for note, release in printed.items():
        assert note not in [name for name, _found in names_in(full_lineage, release)]
        asked = CliRunner().invoke(main, ["show", note, "--as-of", release, "--db", store])
        assert asked.exit_code == 1 and "nothing is called" in asked.output, asked.output
    index = (full_site / "keyword/index.html").read_text(encoding="utf-8")
    assert "This section is now empty" not in index and "intentionally left blank" not in index
    assert not list((full_site / "keyword").glob("this-section-*"))
    names = json.loads((full_site / "search/names.json").read_text(encoding="utf-8"))
    assert not [n["name"] for n in names if "This section" in n["name"]]
    shown = CliRunner().invoke(main, ["show", "215", "--as-of", printed[EMPTIED], "--db", store])
    assert EMPTIED in shown.output
    assert (full_site / "rule/215/index.html").exists()


def test_a_keyword_lists_the_rules_its_release_prints_under_it(full_site: Path) -> None:
    """Clauses are under the heading their release prints them under, not the one their
    number names, where the two differ (errors of the text): 2024-09-17 prints 702.175 for
    Offspring and for Impending, each with its 702.175a, and each page listed the other's too
    and linked to Offspring's; 2004-06-01 prints scry's 502.35b under 502.36 Scry."""
    impending = (full_site / "keyword/impending/index.html").read_text(encoding="utf-8")
    printing = _printing(impending, "2024-09-17")
    assert re.findall(r'href="/releases/2024-09-17/#([^"]+)"', printing) == [
        "702.175-2",
        "702.175a-2",
    ]
    assert "Offspring" not in printing
    offspring = (full_site / "keyword/offspring/index.html").read_text(encoding="utf-8")
    assert 'data-first="2024-09-17"' not in offspring  # as printed from 2024-08-02, unchanged
    assert "Impending" not in offspring
    scry = _printing(
        (full_site / "keyword/scry/index.html").read_text(encoding="utf-8"), "2004-06-01"
    )
    assert ">502.35b</a> If a spell or ability has multiple instances of scry" in scry
    modular = (full_site / "keyword/modular/index.html").read_text(encoding="utf-8")
    assert "instances of scry" not in modular


def _printing(html: str, first: str) -> str:
    """The printing of a keyword page that begins with the release `first`."""
    found = re.search(rf'<details class="printing" data-first="{first}"(.*?)</details>', html, re.S)
    assert found, first
    return found[1]
