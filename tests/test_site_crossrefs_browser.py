"""A cross-reference on a release page, clicked in a real Chromium, lands on the clause it
names in the same release; so does an entry of the table of contents."""

from __future__ import annotations

from conftest import BROWSER_MARKS

pytestmark = BROWSER_MARKS


def in_view(page, anchor: str) -> bool:
    return page.evaluate(
        """id => { const box = document.getElementById(id).getBoundingClientRect();
                   return box.top >= -1 && box.top < window.innerHeight; }""",
        anchor,
    )


def test_a_cross_reference_click_lands_on_the_clause(page, base_url: str) -> None:
    start = base_url + "/releases/2008-02-01/"
    page.goto(start + "#504.2")
    assert not in_view(page, "418.5")
    # 504.2: "(See rule 418.5, "Interaction of Continuous Effects," ...)"
    page.locator('[id="504.2"] a.xref', has_text="418.5").click()
    page.wait_for_url(start + "#418.5")
    assert in_view(page, "418.5")
    target = page.locator(":target")
    assert target.get_attribute("id") == "418.5"
    assert "Interaction of Continuous Effects" in target.inner_text()


def test_a_table_of_contents_entry_lands_on_its_section(page, base_url: str) -> None:
    start = base_url + "/releases/2008-02-01/"
    page.goto(start)
    page.locator("nav.toc a", has_text="504. Face-Down Spells and Permanents").click()
    page.wait_for_url(start + "#504")
    assert in_view(page, "504")
    assert page.locator(":target").get_attribute("id") == "504"
