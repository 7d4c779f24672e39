"""The built site in a real browser: Debian's Chromium driven by Playwright, against a real
server on 127.0.0.1 (the fixtures in tests/conftest.py). Skipped only when /usr/bin/chromium
is missing."""

from __future__ import annotations

from pathlib import Path

from conftest import BROWSER_MARKS

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

pytestmark = BROWSER_MARKS


def test_follow_the_face_down_rule_and_copy_its_citation(page, base_url: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(base_url + "/")
    assert page.locator("h2#story").inner_text() == "The face-down story"
    page.click("#facedown-history")
    page.wait_for_load_state()
    assert "/history/" in page.url
    heading = page.locator("h1").inner_text()
    assert "504.2" in heading and "708.2" in heading
    wordings = page.locator("ol.wordings > li")
    assert "October 7, 2002" in wordings.first.inner_text()
    # the small store's newest release is 2024-06-07: its wording is the one "today"
    newest = wordings.last.inner_text()
    assert "today (the newest release)" in newest and "708.2" in newest
    assert page.locator("section[aria-labelledby=overall] del").count() > 0
    assert page.locator("section[aria-labelledby=overall] ins").count() > 0
    page.screenshot(path=str(ARTIFACTS / "site-history.png"), full_page=False)
    button = page.locator("button.copy").first
    assert button.is_visible()
    button.click()
    page.wait_for_function("document.querySelector('button.copy').textContent === 'Copied'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("Magic: The Gathering Comprehensive Rules, rule 708.2")
    assert base_url + "/rule/708.2/" in copied


def test_compare_two_releases_in_the_browser(page, base_url: str) -> None:
    page.goto(base_url + "/compare/")
    page.select_option("#old", "2021-06-09")
    page.select_option("#new", "2021-07-12")
    page.fill("#prefix", "702")  # a rule number, as `rules-history diff --rule` takes
    page.click("#compare button[type=submit]")
    page.wait_for_function("document.getElementById('compare').dataset.done")
    assert "paired by lineage" in page.locator("#compare-status").inner_text()
    assert page.locator("#compare-out article.change").count() > 0
    assert page.locator("#compare-out del, #compare-out ins").count() > 0
    page.screenshot(path=str(ARTIFACTS / "site-compare.png"))


def test_search_for_face_down(page, base_url: str) -> None:
    page.goto(base_url + "/search/")
    page.fill("#q", "face-down")
    page.wait_for_selector("#results > li", timeout=15000)
    assert page.locator("#results > li").count() > 0
    assert page.locator("fieldset.years select").count() == 2
    page.screenshot(path=str(ARTIFACTS / "site-search.png"))


def test_a_date_without_its_own_page_shows_the_wording_in_force(page, base_url: str) -> None:
    page.goto(base_url + "/rule/504.2/2008-03-17/")  # tests/test_site_point_in_time.py: more
    assert page.locator("h1").inner_text() == "Rule 504.2 as of March 17, 2008"
    assert page.url == base_url + "/rule/504.2/2008-03-17/"


def test_phone_width(page, base_url: str) -> None:
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(base_url + "/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 380
    page.screenshot(path=str(ARTIFACTS / "site-home-phone.png"), full_page=False)


def test_a_link_deep_into_a_long_page_lands_on_its_rule(page, base_url: str) -> None:
    """A release's full text and a long diff lay out only what is near the screen (the CSS
    `content-visibility`); a link to a rule far down still puts that rule at the top."""
    for url, target in (
        ("/releases/2024-06-07/#708.2", "708.2"),
        ("/diff/2009-05-01/2009-07-08/#c-708.2", "c-708.2"),
    ):
        page.goto(base_url + url)
        page.wait_for_load_state()
        laid_out_lazily, top, scrolled = page.evaluate(
            """(id) => {
                const found = document.getElementById(id);
                return [getComputedStyle(found).contentVisibility === "auto",
                        found.getBoundingClientRect().top, window.scrollY];
            }""",
            target,
        )
        assert laid_out_lazily, url
        assert scrolled > 0 and abs(top) <= 2, (url, top)
