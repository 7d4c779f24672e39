"""The static site built from the small store: pages, permalinks, citations, links, rebuilds."""

from __future__ import annotations

import json
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from sqlite_utils import Database

from archive.query import release_dates
from renderer.build import build_site
from renderer.citations import citations
from renderer.linkcheck import check_site
from renderer.serve import serve_in_thread
from renderer.state import MANIFEST, site_state


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_every_internal_link_resolves_and_nothing_loads_from_elsewhere(small_site: Path) -> None:
    report = check_site(small_site)
    assert report.pages > 1000
    assert report.broken == []
    assert report.external_loads == []


def test_no_page_names_another_host_for_a_resource(small_site: Path) -> None:
    for path in ["index.html", "compare/index.html", "search/index.html", "404.html"]:
        html = read(small_site, path)
        assert not re.search(r"""(src|href)="(https?:)?//""", html), path
    for asset in (small_site / "static").iterdir():
        text = asset.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "cdn." not in text


def test_every_page_has_the_site_icon(small_site: Path) -> None:
    """An SVG favicon, linked from the layout and shipped with the site's static files."""
    for path in ["index.html", "releases/index.html", "rule/504.2/index.html", "404.html"]:
        found = re.search(
            r'<link rel="icon" href="(/static/favicon\.[0-9a-f]{8}\.svg)"', read(small_site, path)
        )
        assert found, path
    icon = ElementTree.parse(small_site / found.group(1).lstrip("/")).getroot()
    assert icon.tag == "{http://www.w3.org/2000/svg}svg"
    assert icon.find("{http://www.w3.org/2000/svg}title").text == "CR history"


def test_home_tells_the_face_down_story(small_site: Path) -> None:
    html = read(small_site, "index.html")
    assert "The face-down story" in html
    for number in ("504", "707", "708", "502.26", "702.34", "702.37"):
        assert f'href="/rule/{number}/"' in html, number
    for word in ("Morph", "Megamorph", "Manifest", "Disguise", "Cloak"):
        assert f">{word}</a>" in html, word
    assert "<del>" in html and "<ins>" in html
    assert 'id="facedown-history"' in html
    # it counts the face-down rule's wordings as its history page does
    history = re.search(r'<a href="([^"]+)" id="facedown-history"', html)
    assert history
    page = read(small_site, history.group(1).strip("/") + "/index.html")
    counted = re.search(r"(\d+ wordings?(?: and \d+ formatting-only changes?)?)", page)
    assert counted and f"<p>{counted.group(1)}; " in html


def test_release_pages_have_full_text_anchors_and_changes(small_site: Path) -> None:
    html = read(small_site, "releases/2024-06-07/index.html")
    assert 'id="708.2a"' in html
    assert "Changes from the previous release" in html
    assert 'href="/diff/2021-07-12/2024-06-07/"' in html
    listing = read(small_site, "releases/index.html")
    assert listing.count('href="/releases/') >= 10
    assert "Modern Horizons 3" in listing


def test_a_diff_page_for_every_release_and_renumbering_tables(small_site: Path) -> None:
    dates = sorted(p.name for p in (small_site / "releases").iterdir() if p.is_dir())
    for old, new in zip(dates, dates[1:], strict=False):
        assert (small_site / "diff" / old / new / "index.html").exists()
    table = read(small_site, "renumbering/2009-07-08/index.html")
    assert 'href="/releases/2009-05-01/#504.2"' in table
    assert 'href="/releases/2009-07-08/#707.2"' in table
    assert (small_site / "renumbering/2021-07-12/index.html").exists()


def test_permalinks_by_number_and_date(small_site: Path) -> None:
    numbers = read(small_site, "rule/504.2/index.html")
    assert 'href="/history/' in numbers  # 504.2 has named more than one clause
    runs = json.loads(
        re.search(r'<script type="application/json" id="runs">(.*?)</script>', numbers).group(1)
    )
    assert any(run["first"] == "2008-02-01" for run in runs)
    page = read(small_site, "rule/504.2/2008-02-01/index.html")
    assert "Face-down spells on the stack" in page
    assert (
        "Magic: The Gathering Comprehensive Rules, rule 504.2, release of February 1, 2008"
        " (Morningtide)" in page
    )


def test_history_of_the_face_down_rule(small_site: Path) -> None:
    histories = [
        p
        for p in (small_site / "history").glob("*/*/index.html")
        if "History of rule 504.2 → 707.2 → 708.2<" in p.read_text(encoding="utf-8")
    ]
    assert len(histories) == 1
    html = histories[0].read_text(encoding="utf-8")
    assert "October 7, 2002" in html and "today (the newest release)" in html
    assert "<del>" in html and "<ins>" in html
    assert "Blame:" in html
    for label in ("Plain text", "BibTeX", "CSL-JSON", "Wikipedia"):
        assert label in html


def test_scenarios_beside_the_clauses_they_cite(small_site: Path) -> None:
    """The face-down characteristics clause (502.26e → 707.2a → 708.2a) lists the executable
    examples citing it, each with its outcome per era and a working link to /examples/."""
    # The histories the number's page links to (reading all 4,000 history pages is slow).
    linked = set(
        re.findall(r'href="/history/([^"]+)/"', read(small_site, "rule/708.2a/index.html"))
    )
    histories = [
        p
        for p in (small_site / "history" / name / "index.html" for name in linked)
        if re.search(r"History of rule [^<]*707\.2a → 708\.2a<", p.read_text(encoding="utf-8"))
    ]
    assert len(histories) == 1
    html = histories[0].read_text(encoding="utf-8")
    assert "Executable examples that cite this clause" in html
    section = html[html.index('<section class="scenarios"') :]
    section = section[: section.index("</section>")]
    ids = re.findall(r'<a href="/examples/#([^"]+)">', section)
    assert ids, "no scenario cites the face-down characteristics"
    examples = read(small_site, "examples/index.html")
    for scenario in ids:
        assert f'id="{scenario}"' in examples
    # Each scenario: a table with one row per era of releases with the same outcome.
    for article in re.findall(r'<article class="scenario".*?</article>', section, re.S):
        eras = re.findall(r'<th scope="row"><a href="/releases/([\d-]+)/">', article)
        assert eras and eras == sorted(eras)
        assert "today" in article  # the last era runs to the newest release
        assert re.search(r"<strong><a href=\"/releases/[\d-]+/#70[78]\.2a\">", article)
    # An outcome that changed in a release this store holds: flagged, with the rule change.
    assert '<tr class="changed">' in section and "(changed)" in section
    assert re.search(r'<a href="/diff/[\d-]+/[\d-]+/(#c-[^"]+)?">', section)
    # The wording pages of the clause show them too.
    run = read(small_site, "rule/708.2a/2021-07-12/index.html")
    assert "Executable examples that cite this clause" in run
    assert f'href="/examples/#{ids[0]}"' in run


def test_the_examples_page_names_its_sources_for_readers(small_site: Path) -> None:
    """Each scenario's source reads as a reader would cite it, not as the project's seed file."""
    html = read(small_site, "examples/index.html")
    sources = re.findall(r'<p class="meta">Source: ([^<]*)</p>', html)
    assert len(sources) > 20
    assert not [s for s in sources if "seed" in s.lower()]
    assert any("Onslaught morph FAQ (Wizards, 2002)" in s for s in sources)


def test_citation_formats() -> None:
    cite = citations(
        "504.2", "2008-02-01", "/rule/504.2/2008-02-01/", "https://x.test", "Morningtide"
    )
    texts = {f["key"]: f["text"] for f in cite["formats"]}
    assert texts["plain"] == (
        "Magic: The Gathering Comprehensive Rules, rule 504.2, release of February 1, 2008"
        " (Morningtide). https://x.test/rule/504.2/2008-02-01/. Accessed [the date you read it]."
    )
    assert texts["bibtex"].startswith("@misc{mtgcr504_2_20080201,")
    assert "urldate = {[the date you read it]}" in texts["bibtex"]
    assert json.loads(texts["csl"])["issued"] == {"date-parts": [[2008, 2, 1]]}
    assert texts["wiki"].startswith("{{cite web |title=Magic: The Gathering")
    assert all("/rule/504.2/2008-02-01/" in t for t in texts.values())
    assert all("Morningtide" in t for t in texts.values())
    # a known access date (the server's today) fills every format
    served = citations("504.2", "2008-02-01", "/x/", accessed="2026-11-25")["formats"]
    assert "Accessed November 25, 2026." in served[0]["text"]
    assert json.loads(served[2]["text"])["accessed"] == {"raw": "2026-11-25"}


def test_search_index_and_compare_bundle(small_site: Path) -> None:
    assert (small_site / "pagefind" / "pagefind.js").exists()
    assert (small_site / "pagefind" / "pagefind-ui.js").exists()
    compare = read(small_site, "compare/index.html")
    bundle = re.search(r'src="(/static/diff_match_patch\.[0-9a-f]{8}\.js)"', compare).group(1)
    assert "diff_match_patch" in read(small_site, bundle.lstrip("/"))


def test_text_is_escaped(small_site: Path) -> None:
    html = read(small_site, "releases/2002-10-07/index.html")
    assert "<script>" not in html.lower().replace("<script src=", "")


def test_server_answers_unknown_paths_with_the_resolver(small_site: Path) -> None:
    server, base = serve_in_thread(small_site)
    try:
        with urllib.request.urlopen(base + "/rule/504.2/2008-02-01/") as response:
            assert response.status == 200
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(base + "/rule/no-such-number/2008-03-17/")
        assert caught.value.code == 404
        assert "resolve" in caught.value.read().decode()
    finally:
        server.shutdown()
        server.server_close()


def test_rebuild_is_incremental(small_site: Path, small_store: Database, tmp_path: Path) -> None:
    out = tmp_path / "site"
    shutil.copytree(small_site, out)
    shutil.copytree(site_state(small_site), site_state(out))
    stray = out / "rule" / "999.9" / "index.html"
    stray.parent.mkdir(parents=True)
    stray.write_text("stale")
    manifest = json.loads((site_state(out) / MANIFEST).read_text())
    manifest["pages"]["rule/999.9/index.html"] = "x"
    (site_state(out) / MANIFEST).write_text(json.dumps(manifest))
    report = build_site(small_store, out, search=False)
    assert report.pages_rendered == 0
    assert report.files_changed == 0
    assert not stray.exists()


EXAMPLE_CLASS = re.compile(r'class="[^"]*\bexample')  # an example, or a stretch of them


def test_a_wording_page_shows_the_examples_each_of_its_releases_printed(
    small_site: Path, small_lineage: Database
) -> None:
    """A wording's page (a run of one number's words) shows its rule's examples release by
    release: they may change while the words do not, and the page showed those of its first
    release for all (403 pages of the whole archive, 707.6's Adaptive Automaton among them)."""
    printed: dict[tuple[str, str], list[str]] = {}
    for day, parent, text in small_lineage.execute(
        """SELECT release, parent, text FROM clauses WHERE kind = 'example' ORDER BY position"""
    ):
        printed.setdefault((day, parent), []).append(text)
    dates = release_dates(small_lineage)
    runs = small_lineage.execute("SELECT number, start, end FROM number_runs").fetchall()
    changed = 0
    for number, start, end in runs:
        path = small_site / "rule" / number / start / "index.html"
        if not path.is_file():
            continue
        html = path.read_text(encoding="utf-8")
        releases = dates[dates.index(start) : dates.index(end) + 1]
        expected: list[list[str]] = []
        for day in releases:
            texts = printed.get((day, number), [])
            if not expected or expected[-1] != texts:
                expected.append(texts)
        if not EXAMPLE_CLASS.search(html):  # none shown (most pages: parsed, they cost a minute)
            assert expected == [[]], path
            continue
        page = BeautifulSoup(html, "lxml")
        stretches = page.select("div.example-stretch")
        if stretches:
            shown = [[p.get_text() for p in s.select("p.example")] for s in stretches]
            changed += 1
        else:
            shown = [[p.get_text() for p in page.select("blockquote.wording p.example")]]
        assert shown == expected or (shown == [[]] and expected == [[]]), path
    assert changed > 0


def test_what_a_build_writes_at_the_top_is_what_a_first_build_guards(small_site: Path) -> None:
    """A first build refuses a folder where something has a name it writes (`SITE_TOP`):
    the list must hold every name a build writes there, or a user's file could be lost."""
    from renderer.state import SITE_TOP

    written = {entry.name for entry in small_site.iterdir()}
    assert written <= SITE_TOP, written - SITE_TOP
