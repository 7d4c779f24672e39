"""The pictures and the folded formatting changes in Debian's Chromium (Playwright), on a
phone's width and a desktop's, against a real server on 127.0.0.1 (the session's browser
and server, from conftest: one sync Playwright per process)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BROWSER_MARKS

from renderer.pictures.svg import FONT_SIZE

PHONE, DESKTOP = 390, 1280  # the widths every page type must fit without scrolling sideways
PAGES = (
    "/releases/",
    "/renumbering/2009-07-08/",
    "/diff/2018-10-05/2019-01-25/",
)

pytestmark = BROWSER_MARKS


def history_url(site: Path) -> str:
    """The history of 504.2 → 707.2 → 708.2, found by its heading."""
    for path in (site / "history").glob("*/*/index.html"):
        if "<h1>History of rule 504.2 → 707.2 → 708.2</h1>" in path.read_text(encoding="utf-8"):
            return "/" + str(path.parent.relative_to(site)) + "/"
    raise AssertionError("no history of 504.2 → 708.2")


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_pictures_fit_the_width_without_scrolling(
    browser, base_url: str, small_site: Path, width: int
) -> None:
    tab = browser.new_page(viewport={"width": width, "height": 900})
    for path in (*PAGES, history_url(small_site)):
        tab.goto(base_url + path)
        sizes = tab.evaluate(
            """() => ({page: document.documentElement.scrollWidth,
                       view: document.documentElement.clientWidth,
                       pictures: [...document.querySelectorAll('svg.picture')]
                         .map(s => s.getBoundingClientRect().width)})"""
        )
        assert sizes["page"] <= sizes["view"], (path, width, sizes)
        if path != PAGES[2]:
            assert sizes["pictures"], path
        for drawn in sizes["pictures"]:
            assert 0 < drawn <= sizes["view"], (path, width, sizes)
        if width == PHONE and "history" in path:  # labels grow as the picture shrinks
            size = tab.evaluate("getComputedStyle(document.querySelector('svg.picture')).fontSize")
            assert float(size.removesuffix("px")) > FONT_SIZE, size
    tab.close()


def test_formatting_changes_are_hidden_until_asked_for(browser, base_url: str) -> None:
    tab = browser.new_page(viewport={"width": DESKTOP, "height": 900})
    tab.goto(base_url + PAGES[2])
    folded = tab.locator("details.folded")
    first = folded.locator("article.change").first
    assert not first.is_visible()
    tab.locator("p.counts a.kind-formatting").click()
    assert tab.evaluate("location.hash") == "#k-formatting"
    assert tab.locator("#k-formatting").is_visible()
    folded.locator("summary").click()
    assert first.is_visible()
    tab.close()


def test_a_link_to_a_folded_change_opens_it(browser, base_url: str) -> None:
    tab = browser.new_page(viewport={"width": DESKTOP, "height": 900})
    tab.goto(base_url + PAGES[2])
    anchor = tab.locator("details.folded article.change").nth(3).get_attribute("id")
    tab.goto(base_url + PAGES[2] + "#" + anchor)
    assert tab.locator(f"[id='{anchor}']").is_visible()
    tab.close()
