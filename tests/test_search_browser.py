"""Search and the lookup box in a real browser (Debian's Chromium, Playwright) against the
built site on 127.0.0.1: the queries of tests/data/search_queries.csv rank their expected
result first, the year filter narrows results, and the lookup box on every page goes to the
page a number or name designates (to the search page without JavaScript)."""

from __future__ import annotations

import csv
import json
import urllib.parse
from pathlib import Path

import pytest
from conftest import BROWSER_MARKS

from archive.lookup import find, names_in, resolve
from archive.query import release_dates
from vocabulary.names import name_key, without_glossary_mark

QUERIES = Path(__file__).parent / "data" / "search_queries.csv"
TOP = 5  # results an `also_in_top5` entry must be among
WAIT_MS = 20000  # a search on a loaded machine: the index is fetched on the first one

pytestmark = BROWSER_MARKS


def _matches(expected: str, key: str) -> bool:
    """An expected key; one ending in '*' names a prefix."""
    if expected.endswith("*"):
        return key.startswith(expected[:-1])
    return key == expected


def _results(page, base_url: str, query: str, extra: str = "") -> list[str]:
    return _results_at(page, f"{base_url}/search/?q={urllib.parse.quote(query)}{extra}")


def _listed(page) -> list[str]:
    """The results the page lists, each by the key the queries file names it with."""
    return [li.get_attribute("data-expect") or "" for li in page.locator("#results > li").all()]


def _results_at(page, address: str) -> list[str]:
    page.goto(address)
    page.wait_for_function(
        "(s => s.textContent && s.textContent !== 'Searching…')"
        "(document.getElementById('search-status'))",
        timeout=WAIT_MS,
    )
    return _listed(page)


def _typed_results(page, query: str) -> list[str]:
    """The results of `query` typed into the open search page's box: the page, its search
    engine and its index stay loaded from one query to the next, as for a reader trying
    several. The status line names the query (as the page trims it) once its results are
    shown."""
    page.evaluate("document.getElementById('search-status').textContent = ''")
    page.fill("#q", query)
    page.wait_for_function(
        "q => document.getElementById('search-status').textContent"
        ".includes('“' + window.rulesNames.trimmed(q) + '”')",
        arg=query,
        timeout=WAIT_MS,
    )
    return _listed(page)


def test_every_listed_query_ranks_its_expected_result_first(page, base_url: str) -> None:
    rows = list(csv.DictReader(QUERIES.open(encoding="utf-8")))
    assert len(rows) >= 30
    page.goto(f"{base_url}/search/")
    wrong = []
    for row in rows:
        found = _typed_results(page, row["query"])
        first = found[0] if found else "(nothing)"
        if not _matches(row["expected_first"], first):
            wrong.append(f"{row['query']!r}: first {first!r}, expected {row['expected_first']!r}")
        also = row["also_in_top5"]
        if also and not any(_matches(also, key) for key in found[:TOP]):
            wrong.append(f"{row['query']!r}: {also!r} not in the top {TOP}: {found[:TOP]}")
    assert wrong == []


def test_a_result_shows_number_title_and_years(page, base_url: str) -> None:
    _results(page, base_url, "504.2")
    first = page.locator("#results > li").first
    assert first.locator(".num").inner_text() == "504.3 → 504.2"
    assert first.locator(".title").inner_text().startswith("Second, the active player")
    assert "today" in first.locator(".meta").inner_text()
    glossary = _results(page, base_url, "face-down")
    assert glossary[0] == "glossary: Face Down"
    title = page.locator("#results > li .title").first.inner_text()
    assert title == "Face Down"  # the term alone, not a definition run into it


def test_the_year_filter_keeps_the_clauses_in_force_then(page, base_url: str) -> None:
    assert _results(page, base_url, "504.2")[:2] == ["504.2 (today)", "504.2 (retired)"]
    box = page.locator("fieldset.years").bounding_box()
    assert box is not None and box["height"] < 120  # two selects on a line, not a tall box
    page.select_option("#year-to", "2008")
    page.wait_for_function(
        "document.querySelector('#results > li')?.dataset.expect === '504.2 (retired)'",
        timeout=WAIT_MS,
    )
    shown = [li.get_attribute("data-expect") for li in page.locator("#results > li").all()]
    assert "504.2 (today)" not in shown
    assert "to=2008" in page.url
    assert _results(page, base_url, "504.2", "&from=2002&to=2008")[0] == "504.2 (retired)"


def test_the_search_page_keeps_the_address_it_was_opened_at(page, base_url: str) -> None:
    # A query spelled with %20 or with + is the same query: the page does not rewrite its own
    # address to the other spelling (a reader or a test waiting on the address would miss it).
    for spelled in ("turned%20face%20up", "turned+face+up"):
        address = f"{base_url}/search/?q={spelled}"
        assert _results_at(page, address)  # the search ran
        assert page.url == address


@pytest.mark.parametrize(
    ("typed", "lands_on"),
    [
        ("708.2a", "/rule/708.2a/"),
        ("７０８．２ａ", "/rule/708.2a/"),  # full-width, as `show` reads it
        ("morph", "/keyword/morph/"),
        ("Face-Down Spells and Permanents", "/keyword/face-down-spells-and-permanents/"),
        ("in play", "/history/2009-07-08/g-in-play-obsolete/"),  # the entry, as `show` finds it
        ("removed from the game", "/keyword/exile-406/"),  # a former title only
        ("mana burn", "/history/2002-10-07/g-mana-burn/"),
        ("Morph (glossary)", "/history/2002-10-07/g-morph/"),  # as `show` reads it
        ("turned face up", "/search/?q=turned+face+up"),
        ("999.9z", "/search/?q=999.9z"),
    ],
)
def test_the_lookup_box_goes_to_the_page(page, base_url: str, typed: str, lands_on: str) -> None:
    page.goto(base_url + "/releases/")
    box = page.get_by_role("searchbox", name="Look up")
    box.fill(typed)
    box.press("Enter")  # the keyboard submits the form
    page.wait_for_url(base_url + lands_on, timeout=WAIT_MS)


def test_the_lookup_box_without_javascript_goes_to_the_search_page(browser, base_url) -> None:
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    tab.goto(base_url + "/rule/")
    box = tab.get_by_role("searchbox", name="Look up")
    box.fill("morph")
    box.press("Enter")
    tab.wait_for_url(base_url + "/search/?q=morph")
    assert "every keyword, section and chapter by name" in tab.locator("main").inner_text()
    context.close()


BOX_JS = """async (names) => {
  const out = [];
  for (const name of names) {
    const found = await window.rulesLookup.exact(name);
    out.push(found.length && found[0].exact ? [found[0].url, found[0].chain, found[0].kind] : null);
  }
  return out;
}"""


def test_the_lookup_box_finds_what_show_finds_for_every_name(
    page, base_url: str, small_site: Path, small_store
) -> None:
    """Every name of the newest release (and each glossary term marked "(glossary)", as the
    CLI's suggestions write it) leads the box to the clause `show NAME` shows: the keyword
    or section page of that number, or that entry's history. The box put a chapter or
    section before a glossary entry even when the section only once had the name ("Mana
    Cost" was section 202's title), `show` a rule before the chapter of the same title
    ("Card Types"), and the box lost a term with a note and a mark ("Mana Burn (Obsolete)
    (glossary)")."""
    newest = release_dates(small_store)[-1]
    names = names_in(small_store, newest)
    asked: list[str] = []
    for title, found in names:
        asked += [title, f"{title} (glossary)"] if found.term else [title]
    asked = list(dict.fromkeys(asked))
    titles = {
        n["url"]: n["title"] for n in json.loads((small_site / "search" / "names.json").read_text())
    }
    page.goto(base_url + "/")
    shown = page.evaluate(BOX_JS, asked)
    wrong = []
    # `show NAME` is `find`, which resolves the name among the release's names (read once
    # here: reading them for each of 1,600 names took 20 s); the first name checks that.
    assert find(small_store, newest, asked[0]) == resolve(names, asked[0])
    for name, box in zip(asked, shown, strict=True):
        found = resolve(names, name)
        assert found is not None, name
        if box is None:
            wrong.append((name, found.label, None))
            continue
        url, chain, kind = box
        if found.term is not None:
            right = kind == "glossary" and titles[url] == found.term
        else:
            right = kind != "glossary" and chain.split(" → ")[-1] == found.number
        if not right:
            wrong.append((name, found.label, url))
    assert not wrong, f"{len(wrong)} of {len(asked)} names: {wrong[:10]}"
    assert len(asked) > 1000


ODD_NAMES = [
    "STRAẞE ﬁnal “Quoted” – dashed",  # Python folds "ß" to "ss"; JavaScript's toLowerCase not
    "Mana Burn (Obsolete) (Informal)",  # two notes: both left out of the key
    "\u2003Morph\u00a0(glossary) ",  # spaces Python's str.strip knows
    "ǅemal ΣΊΣΥΦΟΣ",
]


def test_the_lookup_box_keys_names_as_python_does(page, base_url: str, small_site: Path) -> None:
    """The box matches what is typed against the keys `vocabulary.names.name_key` gave
    names.json: it must key the typed name the same way, for every name published and for
    text outside ASCII (it once lower-cased where Python case-folds, and dropped one note of
    two)."""
    published = json.loads((small_site / "search" / "names.json").read_text())
    names = list(dict.fromkeys(n["name"] for n in published)) + ODD_NAMES
    page.goto(base_url + "/")
    keyed = page.evaluate("ns => ns.map(n => window.rulesNames.key(n))", names)
    assert keyed == [name_key(name) for name in names]
    marked = page.evaluate("ns => ns.map(n => window.rulesNames.withoutGlossaryMark(n))", names)
    assert marked == [list(without_glossary_mark(name)) for name in names]
    assert len(names) > 900  # the small archive names 919
