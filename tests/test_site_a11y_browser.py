"""Every page type of the built site, on a laptop and on a phone, in a real Chromium: axe-core
finds no violation, and the page never scrolls sideways (a wide table scrolls in its own box).

axe-core runs through axe-playwright-python, which ships axe.min.js in its wheel: the check
works offline and needs no npm. One tab per width serves every page; each page is checked once,
whole. For the big page types (a release's full text, a release-to-release diff: hundreds of
kilobytes, and axe takes seconds per hundred kilobytes) the lightest page of the small site is
the one checked: they all come from one template, and the sideways-scroll check still loads
every one of them on the phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BROWSER_MARKS

from renderer.site_files import site_folder

pytestmark = BROWSER_MARKS

PHONE, LAPTOP = 390, 1280  # CSS pixels: a common phone's width, a common laptop's
WIDTHS = (LAPTOP, PHONE)
HEIGHT = 900

# Each page template (site/templates, the ones not starting with "_") and the page checked for
# it; None: the lightest page of the type, found in the built site (LIGHTEST).
PAGES: dict[str, str | None] = {
    "home.html": "/",
    "releases.html": "/releases/",
    "release.html": None,
    "diff.html": None,
    "compare.html": "/compare/",
    "history.html": "/history/2002-10-07/504.2/",  # the face-down rule: numbers, examples
    "rule_index.html": "/rule/",
    "rule_chapter.html": "/numbers/5/",  # retired numbers (502.26 morph) beside current ones
    "rule.html": "/rule/708.2/",  # a number that named clauses in several eras
    "rule_run.html": "/rule/504.2/2008-02-01/",
    "renumbering_index.html": "/renumbering/",
    "renumbering.html": "/renumbering/2021-07-12/",  # 707 became 708
    "search.html": "/search/",
    "keyword_index.html": "/keyword/",
    "keyword.html": "/keyword/morph/",  # 502.26 → 702.34 → … → 702.37
    "examples.html": "/examples/",
    "about.html": "/about/",
    "accuracy.html": "/accuracy/",
    "404.html": "/no-such-page/",
}
LIGHTEST = {"release.html": "releases/*/index.html", "diff.html": "diff/*/*/index.html"}
SEARCH_QUERY = "face-down"  # the search page is checked with its results shown
SEARCH_TIMEOUT_MS = 60_000  # the first search fetches the index: slow on a loaded machine


def page_templates() -> set[str]:
    return {
        path.name
        for path in (site_folder() / "templates").glob("*.html")
        if not path.name.startswith("_")
    }


def url_path(site: Path, page: Path) -> str:
    return "/" + page.parent.relative_to(site).as_posix() + "/"


def lightest(site: Path, pattern: str) -> str:
    return url_path(site, min(site.glob(pattern), key=lambda page: page.stat().st_size))


def no_sideways_scroll(tab: Any) -> tuple[int, int]:
    """The page's full width and the window's; equal when nothing sticks out."""
    return tuple(
        tab.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    )


@pytest.fixture(scope="module")
def axe() -> Any:
    module = pytest.importorskip("axe_playwright_python.sync_playwright")
    return module.Axe()


@pytest.fixture(scope="module")
def tabs(browser: Any, base_url: str) -> Iterator[dict[int, Any]]:
    """One tab per width, reused by every page; each keeps the script errors it saw and the
    requests it sent to any other host (`troubles`), which no page may have."""
    contexts = [browser.new_context(viewport={"width": w, "height": HEIGHT}) for w in WIDTHS]
    local = (base_url, "data:", "blob:")
    tabs = {}
    for width, context in zip(WIDTHS, contexts, strict=True):
        tab = context.new_page()
        tab.troubles = []
        tab.on(
            "request",
            lambda r, t=tab: None if r.url.startswith(local) else t.troubles.append(r.url),
        )
        tab.on("pageerror", lambda error, t=tab: t.troubles.append(str(error)))
        tabs[width] = tab
    yield tabs
    for context in contexts:
        context.close()


def visit(tab: Any, url: str) -> Any:
    tab.troubles.clear()
    response = tab.goto(url)
    assert response is not None
    return response


def test_every_page_template_is_checked() -> None:
    """A new kind of page (a new template) must join PAGES to be checked."""
    assert set(PAGES) == page_templates()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("template", sorted(PAGES))
def test_page_passes_axe_and_fits(
    template: str, width: int, tabs: dict[int, Any], axe: Any, base_url: str, small_site: Path
) -> None:
    path = PAGES[template] or lightest(small_site, LIGHTEST[template])
    tab = tabs[width]
    response = visit(tab, base_url + path)
    assert response.status == (404 if template == "404.html" else 200)
    if template == "search.html":
        tab.fill("#q", SEARCH_QUERY)
        tab.wait_for_selector("#results > li", timeout=SEARCH_TIMEOUT_MS)
    page_width, window = no_sideways_scroll(tab)
    assert page_width <= window, f"{path} is {page_width} px wide in a {window} px window"
    results = axe.run(tab)
    assert results.violations_count == 0, f"{path} at {width} px: {results.generate_report()}"
    assert tab.troubles == []


@pytest.mark.parametrize("pattern", sorted(LIGHTEST.values()))
def test_every_big_page_fits_a_phone(
    pattern: str, tabs: dict[int, Any], base_url: str, small_site: Path
) -> None:
    """The long texts (URLs, wide tables) of every release and diff page stay on screen."""
    tab = tabs[PHONE]
    wide = {}
    for page in sorted(small_site.glob(pattern)):
        visit(tab, base_url + url_path(small_site, page))
        page_width, window = no_sideways_scroll(tab)
        if page_width > window:
            wide[url_path(small_site, page)] = page_width
        assert tab.troubles == []
    assert wide == {}, f"wider than a {PHONE} px phone: {wide}"


# A date in the page's own words (not in a quoted rules text, a citation, a form control or a
# link naming another site's page)
# is a <time> that keeps to one line.
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# ISO (not as part of a URL or a file name) and long
DATE_PATTERN = rf"(?<![\w/])\d{{4}}-\d{{2}}-\d{{2}}(?![\w/])|({MONTHS}) \d{{1,2}}, \d{{4}}"
LOOSE_DATES_JS = r"""pattern => {
  const date = new RegExp(pattern);
  // Quoted texts, citations, controls, links that name another site, and SVG text (placed
  // at coordinates, it never wraps) keep their own dates.
  const quoted = "time, svg, .fulltext, blockquote, .diff, pre, code, option, script, noscript, " +
    "a[rel~=external]";
  const loose = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    if (date.test(node.textContent) && !node.parentElement.closest(quoted)) {
      loose.push(node.textContent.trim().slice(0, 80));
    }
  }
  const broken = Array.from(document.querySelectorAll("main time"))
    .filter(t => t.getClientRects().length > 1).map(t => t.textContent);
  return {loose, broken, times: document.querySelectorAll("main time").length};
}"""
DATED_PAGES = (
    "releases.html",
    "release.html",
    "history.html",
    "rule.html",
    "rule_run.html",
    "rule_index.html",
    "keyword.html",
    "examples.html",
    "renumbering_index.html",
    "renumbering.html",
)


@pytest.mark.parametrize("template", DATED_PAGES)
def test_dates_never_wrap_on_a_phone(
    template: str, tabs: dict[int, Any], base_url: str, small_site: Path
) -> None:
    """'2026-01-16' never shows as '2026-' and '01-16' on two lines."""
    path = PAGES[template] or lightest(small_site, LIGHTEST[template])
    tab = tabs[PHONE]
    visit(tab, base_url + path)
    found = tab.evaluate(LOOSE_DATES_JS, DATE_PATTERN)
    assert found["times"] > 0
    assert found["loose"] == [], f"{path}: dates outside <time>"
    assert found["broken"] == [], f"{path}: dates on two lines"
