"""Things named alike stay apart. On a page, each gets an id of its own and every link
reaches the one it means (renderer.anchors): a number its release prints twice, two changes
that end in one clause, a keyword that had one number in two eras. The whole site's link
check finds no id given twice (tests/test_one_answer.py); these check that the links go where
they should. Across the site, no two pages share a title (a browser's tabs and bookmarks,
and a search engine, show the title alone)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from sqlite_utils import Database

from renderer.model import history_urls
from rules_history.cli import main

TITLE = re.compile(r"<title>(.*?)</title>", re.S)
TITLE_WITHIN = 4000  # characters: the title is in the head, before any content
TWICE = "2024-09-17"  # prints 702.175 for Offspring (from 2024-08-02) and for Impending (new)


def _element(html: str, anchor: str) -> str:
    """The text of the element with id `anchor`, up to the next element with an id."""
    after = html.split(f' id="{anchor}"', 1)[1]
    return re.split(r'\sid="', after, maxsplit=1)[0]


def _history_url(db: Database, lineage: int) -> str:
    return history_urls({row["id"]: row for row in db.query("SELECT * FROM lineages")})[lineage]


def _history_page(site: Path, db: Database, lineage: int) -> str:
    url = _history_url(db, lineage)
    return (site / url.strip("/") / "index.html").read_text(encoding="utf-8")


def test_a_number_printed_twice_has_two_ids_and_each_history_links_to_its_own(
    full_site: Path, full_lineage: Database
) -> None:
    html = (full_site / "releases" / TWICE / "index.html").read_text(encoding="utf-8")
    assert "Offspring" in _element(html, "702.175")
    second = _element(html, "702.175-2")
    assert "Impending" in second
    # Impending is new there and Offspring is not: the mark is the clause's, not the number's
    assert ">added</a>" in second
    assert 'class="mark"' not in _element(html, "702.175")
    offspring, impending = (_lineage(full_lineage, TWICE, "702.175", nth) for nth in (1, 2))
    into = f'href="/releases/{TWICE}/#'
    assert f'{into}702.175-2"' in _history_page(full_site, full_lineage, impending)
    assert f'{into}702.175"' not in _history_page(full_site, full_lineage, impending)
    assert f'{into}702.175-2"' not in _history_page(full_site, full_lineage, offspring)


def test_two_changes_that_end_in_one_clause_each_have_their_id_and_links(
    full_site: Path, full_lineage: Database
) -> None:
    """2008-07-15 merged section 407 (and 407.3) into 402 (402.9): two changes name each new
    number. The history of 407 links to its own change, and the release page's mark beside
    402.9 to the change of the clause 402.9 continues (407.1's)."""
    diff = "/diff/2008-05-01/2008-07-15/"
    html = (full_site / diff.strip("/") / "index.html").read_text(encoding="utf-8")
    assert 'href="/releases/2008-05-01/#402"' in _element(html, "c-402")
    assert 'href="/releases/2008-05-01/#407"' in _element(html, "c-402-2")
    assert 'href="/releases/2008-05-01/#407.3"' in _element(html, "c-402.9-2")
    (section_407,) = full_lineage.execute(
        "SELECT lineage_id FROM lineage_members WHERE release = '2008-05-01' AND number = '407'"
    ).fetchone()
    assert f'href="{diff}#c-402-2"' in _history_page(full_site, full_lineage, section_407)
    release = (full_site / "releases/2008-07-15/index.html").read_text(encoding="utf-8")
    assert f'class="mark" href="{diff}#c-402.9"' in _element(release, "402.9")
    assert '"/releases/2008-05-01/#407.1"' in _element(html, "c-402.9")


def test_a_keyword_that_had_one_number_twice_keeps_the_plain_id_for_the_older_era(
    full_site: Path,
) -> None:
    html = (full_site / "keyword/scry/index.html").read_text(encoding="utf-8")
    eras = dict(
        re.findall(r'<section class="era" id="(era-701\.18(?:-2)?)"(.*?)</section>', html, re.S)
    )
    assert set(eras) == {"era-701.18", "era-701.18-2"}
    years = {anchor: re.findall(r'data-first="(\d{4})', body) for anchor, body in eras.items()}
    assert min(years["era-701.18"]) == "2011"  # scry's first 701.18 (2011-2016)
    assert min(years["era-701.18-2"]) == "2020"  # and its second (2020-2025)
    assert '<a href="#era-701.18-2">701.18</a>' in html


def test_the_number_page_and_cite_say_the_number_was_printed_again(
    full_site: Path, full_lineage: Database
) -> None:
    """`show` says so (rules_history.options.duplicate_note); the number's page and `cite`,
    which follow the first printing as `show` does, say it too and name the other."""
    html = (full_site / "rule/702.175/index.html").read_text(encoding="utf-8")
    (note,) = re.findall(r'<p class="printed-again">(.*?)</p>', html)
    assert f'datetime="{TWICE}"' in note
    impending = _lineage(full_lineage, TWICE, "702.175", 2)
    assert "Impending" in _history_page(full_site, full_lineage, impending)
    assert f'<a href="{_history_url(full_lineage, impending)}">' in note
    assert f'href="/releases/{TWICE}/#702.175-2"' in note
    once = (full_site / "rule/702.176/index.html").read_text(encoding="utf-8")
    assert 'class="printed-again"' not in once

    store = str(full_lineage.execute("PRAGMA database_list").fetchone()[2])
    cited = CliRunner().invoke(main, ["cite", "702.175", "--as-of", "2024-10-01", "--db", store])
    assert cited.exit_code == 0, cited.output
    assert "/rule/702.175/2024-08-02/" in cited.stdout  # Offspring's wording, the first
    assert f"the {TWICE} release prints 702.175 twice" in cited.stderr
    later = CliRunner().invoke(main, ["cite", "702.175", "--as-of", "2025-01-01", "--db", store])
    assert "twice" not in later.stderr  # the next release prints it once
    as_json = CliRunner().invoke(
        main, ["cite", "702.175", "--as-of", "2024-10-01", "--json", "--db", store]
    )
    assert json.loads(as_json.stdout)["duplicates"] == 1


def test_a_title_names_its_own_printing_everywhere(full_site: Path, full_lineage: Database) -> None:
    """Asked for "impending" on a day of 2024-09-17, `show`, `trace`, `blame` and `cite` gave
    Offspring, the first 702.175 of that release (with Impending's 702.175a among its rules
    in `show`). A title names the printing it heads (archive.printings), and a printing owns
    the rules under its number up to the next one."""
    store = str(full_lineage.execute("PRAGMA database_list").fetchone()[2])

    def run(*args: str) -> Any:
        result = CliRunner().invoke(main, [*args, "--db", store, "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    impending, offspring = run("show", "impending@2024-10-01"), run("show", "702.175@2024-10-01")
    assert (impending["text"], impending["printing"]) == ("Impending", 2)
    assert impending["subrules"] == ["702.175a"]
    assert [inner["text"].split()[0] for inner in impending["contents"]] == ["Impending"]
    assert (offspring["text"], offspring["printing"]) == ("Offspring", 1)
    assert offspring["subrules"] == ["702.175a", "702.175b"]
    assert {inner["text"].split()[0] for inner in offspring["contents"]} == {"Offspring", "If"}

    traced = run("trace", "impending@2024-10-01")
    assert traced["lineage"] == _lineage(full_lineage, TWICE, "702.175", 2)
    assert (traced["current_number"], traced["printing"]) == ("702.176", 2)
    assert run("trace", "702.175@2024-10-01")["lineage"] == _lineage(
        full_lineage, TWICE, "702.175", 1
    )

    blamed = run("blame", TWICE, "--rule", "impending")
    assert [row["number"] for row in blamed] == ["702.175", "702.175a"]
    assert {row["lineage"] for row in blamed} & {
        _lineage(full_lineage, TWICE, "702.175", 1)
    } == set()
    assert len(run("blame", TWICE, "--rule", "702.175")) == 5  # a number is a prefix: both

    cited = run("cite", "impending@2024-10-01")
    assert cited["path"] == f"/releases/{TWICE}/#702.175-2" and cited["printing"] == 2
    page = (full_site / f"releases/{TWICE}/index.html").read_text(encoding="utf-8")
    (held,) = re.findall(r'id="702\.175-2"[^>]*>(.*?)</p>', page, re.S)
    assert "Impending" in held


def _lineage(db: Database, release: str, number: str, nth: int) -> int:
    """The lineage of the `nth` clause its release numbers `number`."""
    found = db.execute(
        """SELECT m.lineage_id FROM lineage_members m JOIN parts p ON p.id = m.part_id
           WHERE m.release = ? AND m.number = ? ORDER BY p.position""",
        [release, number],
    ).fetchall()
    return int(found[nth - 1][0])


def test_no_two_pages_of_the_whole_site_share_a_title(full_site: Path) -> None:
    """Nine sections are titled "General", and three clauses have been numbered 309.4."""
    pages: dict[str, list[str]] = {}
    for path in full_site.rglob("*.html"):
        if path.parts[len(full_site.parts)] != "pagefind":
            with path.open(encoding="utf-8") as page:
                found = TITLE.search(page.read(TITLE_WITHIN))
            assert found, path
            pages.setdefault(found[1], []).append(str(path.relative_to(full_site)))
    shared = {title: paths for title, paths in pages.items() if len(paths) > 1}
    assert not shared, list(shared.items())[:5]
    assert len(pages) > 30000
    assert "General (500) through the years · CR history" in pages
