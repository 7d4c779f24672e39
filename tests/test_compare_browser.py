"""The in-browser compare gives the answer of `rules-history diff`: Debian's Chromium driven by
Playwright against a real server on 127.0.0.1 serving the small site (tests/conftest.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import BROWSER_MARKS
from sqlite_utils import Database
from test_term_renames import shown_kinds

from archive.lookup import Found, names_in, resolve
from rules_history.cli import main
from vocabulary.names import fold
from vocabulary.numbers import is_under, tokens

OLD, NEW = "2008-02-01", "2024-06-07"
COMPARE_TIMEOUT_MS = 60_000  # the whole archive's worst pair takes about a second

pytestmark = BROWSER_MARKS

CHANGES_JS = """() => Array.from(document.querySelectorAll('#compare-out article.change'))
  .map(a => ({kind: a.dataset.kind, old: a.dataset.old, new: a.dataset.new,
              lineage: +a.dataset.lineage,
              diff: Array.from(a.querySelector('p.diff').childNodes).map(n =>
                [n.nodeName === 'DEL' ? -1 : n.nodeName === 'INS' ? 1 : 0, n.textContent])}))"""
SUMMARY_JS = """() => Object.fromEntries(
  Array.from(document.querySelectorAll('#compare-summary li'))
    .map(li => [li.dataset.kind, +li.dataset.count]))"""


def cli_diff(db: Database, *extra: str, old: str = OLD, new: str = NEW) -> dict[str, Any]:
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    result = CliRunner().invoke(main, ["diff", old, new, "--json", "--db", path, *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def compare(page: Any, base_url: str, query: str) -> float:
    """Open the compare page on `query` and wait for its answer; the seconds it took."""
    began = time.perf_counter()
    page.goto(f"{base_url}/compare/?{query}")
    page.wait_for_function(
        "document.getElementById('compare').dataset.done", timeout=COMPARE_TIMEOUT_MS
    )
    assert page.locator("#compare").get_attribute("data-done") != "error", page.locator(
        "#compare-status"
    ).inner_text()
    return time.perf_counter() - began


def as_shown(change: dict[str, Any]) -> dict[str, Any]:
    """A change of the CLI's JSON as the page's articles carry it."""
    return {
        "kind": change["kind"],
        "old": " ".join(change["old"]),
        "new": " ".join(change["new"]),
        "lineage": change["lineage"],
        "diff": [list(op) for op in change["diff"]],
    }


def test_any_two_releases_compare_as_the_cli_does(
    page: Any, base_url: str, small_site: Path, small_store: Database
) -> None:
    seconds = compare(page, base_url, f"old={OLD}&new={NEW}")
    expected = cli_diff(small_store)
    assert page.evaluate(SUMMARY_JS) == expected["summary"]
    shown = page.evaluate(CHANGES_JS)
    assert len(shown) == len(expected["changes"])
    # every change: same lineage, kind, numbers and word diff, in the same order
    assert shown == [as_shown(change) for change in expected["changes"]]
    by_old = {(c["old"], c["new"]): c["kind"] for c in shown}
    # 504.2 faces 708.2 (renumbered), split into 708.2-708.4 in 2009
    assert by_old[("504.2", "708.2")] == "split"
    assert by_old[("504.2", "708.3")] == by_old[("504.2", "708.4")] == "split"
    assert by_old[("504", "708")] == "renumbered"
    print(f"browser compare {OLD}..{NEW}: {seconds:.2f} s for {len(shown)} changes")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("2021-06-09", "2021-07-12"),  # neighbours: the 2021 renumbering, references that follow
        ("2002-10-07", "2009-07-08"),  # across the 2009 renumbering and its splits
    ],
)
def test_other_pairs_compare_as_the_cli_does(
    page: Any, base_url: str, small_site: Path, small_store: Database, old: str, new: str
) -> None:
    compare(page, base_url, f"old={old}&new={new}")
    expected = cli_diff(small_store, old=old, new=new)
    assert page.evaluate(SUMMARY_JS) == expected["summary"]
    assert page.evaluate(CHANGES_JS) == [as_shown(change) for change in expected["changes"]]


def test_a_section_is_followed_not_matched_by_number(
    page: Any, base_url: str, small_site: Path, small_store: Database
) -> None:
    """The contradiction of issue 9: 504 was once the face-down section, and is the draw step
    today; compared by number, the one looked like a rewording of the other."""
    compare(page, base_url, f"old={OLD}&new={NEW}&rule=504")
    expected = cli_diff(small_store, "--rule", "504")
    assert page.evaluate(SUMMARY_JS) == expected["summary"]
    shown = page.evaluate(CHANGES_JS)
    assert shown == [as_shown(change) for change in expected["changes"]]
    pairs = {(c["old"], c["new"]) for c in shown}
    assert ("504", "504") not in pairs
    assert ("504", "708") in pairs and ("304", "504") in pairs
    heading = page.locator("#compare-out article[data-old='504'][data-new='708'] h3").inner_text()
    assert "504 → 708" in heading and "renumbered" in heading
    assert "reworded" not in page.locator("#compare-out article[data-new='504']").inner_text()


def status_of(page: Any, base_url: str, query: str) -> str:
    """The status line of the compare page asked `query`, once it has answered (an error
    too, which `compare` refuses)."""
    page.goto(f"{base_url}/compare/?{query}")
    page.wait_for_function(
        "document.getElementById('compare').dataset.done", timeout=COMPARE_TIMEOUT_MS
    )
    return str(page.locator("#compare-status").inner_text())


def test_bad_input_is_one_line(page: Any, base_url: str, small_site: Path) -> None:
    assert "is newer than" in status_of(page, base_url, f"old={NEW}&new={OLD}")
    said = status_of(page, base_url, f"old={OLD}&new={NEW}&rule=no+such+rule")
    assert "nothing is called 'no such rule' in the 2008-02-01 or the 2024-06-07 release" in said


def test_releases_are_read_as_the_cli_reads_them(
    page: Any, base_url: str, small_site: Path, small_store: Database
) -> None:
    """OLD and NEW by a day between releases or by a set code compare the releases `diff`
    compares, and say which; what names no release is named in the one line."""
    said = status_of(page, base_url, "old=2008-03-15&new=m10&rule=504")
    expected = cli_diff(small_store, "--rule", "504", old="2008-03-15", new="m10")
    assert (expected["old"], expected["new"]) == ("2008-02-01", "2009-07-08")
    assert page.evaluate(SUMMARY_JS) == expected["summary"]
    assert page.evaluate(CHANGES_JS) == [as_shown(change) for change in expected["changes"]]
    assert said.startswith(
        "2008-02-01 (2008-03-15: the release in force then) → 2009-07-08 (m10: the release of"
        " that set) (rules 504…):"
    )
    assert page.locator("#old").input_value() == "2008-02-01"
    said = status_of(page, base_url, f"old=2008-02-30&new={NEW}")
    assert said == "Could not compare: '2008-02-30' is not a real date"
    said = status_of(page, base_url, f"old=1990-01-01&new={NEW}")
    assert said == "Could not compare: 1990-01-01 is before the first release (2002-10-07)"
    said = status_of(page, base_url, "old=ONS&new=Zendikar")
    assert "'Zendikar' is neither a date (write it as YYYY-MM-DD) nor a release's set code" in said


def test_a_filter_that_keeps_nothing_says_so(
    page: Any, base_url: str, small_site: Path, small_store: Database
) -> None:
    """A number no clause of either release carries: no clauses, not "0 changes", as the CLI
    says; a glossary term is named as one."""
    said = status_of(page, base_url, f"old={OLD}&new={NEW}&rule=999")
    assert cli_diff(small_store, "--rule", "999")["summary"] == {}
    assert said == f"{OLD} → {NEW} (rules 999…): no clauses in either release."
    said = status_of(page, base_url, f"old={OLD}&new={NEW}&rule=Aura")
    assert said.startswith(f"{OLD} → {NEW} (the glossary term Aura): 1 change,")


@pytest.mark.parametrize(
    "rule",
    [
        "morph",  # 502.26 in 2008, 702.37 in 2024: followed both ways
        "Face-down spells and permanents",  # the section: 504 in 2008, 708 in 2024
        "Morph (glossary)",  # the glossary entry, not the keyword
        "draw",  # the glossary entry "Draw": no section or keyword is called so
        "General",  # names every chapter's first section: the first (100) is the answer
    ],
)
def test_a_rule_named_by_its_title_compares_as_the_cli_does(
    page: Any, base_url: str, small_site: Path, small_store: Database, rule: str
) -> None:
    """`diff --rule` reads a title or a term in each of the two releases (`archive.lookup`);
    the browser refused anything but a number."""
    compare(page, base_url, f"old={OLD}&new={NEW}&rule={rule}")
    expected = cli_diff(small_store, "--rule", rule)
    assert expected["changes"], f"{rule}: the CLI keeps no change to compare with"
    assert page.evaluate(SUMMARY_JS) == expected["summary"]
    assert page.evaluate(CHANGES_JS) == [as_shown(change) for change in expected["changes"]]
    said = page.locator("#compare-status").inner_text()
    numbers = expected["rule_numbers"]
    if numbers["old"] != numbers["new"]:  # the CLI's `rule:` line
        names = f"{rule} names {numbers['old'] or 'nothing'} in {OLD} and {numbers['new']} in {NEW}"
        assert f"({names})" in said, said


RESOLVE_JS = """([names, asked]) => asked.map(a => {
  const found = window.rulesCompare.resolveName(names, a);
  return found && [found.number, found.term, found.also];
})"""


def test_names_are_read_as_the_cli_reads_them(
    page: Any, base_url: str, small_site: Path, small_store: Database
) -> None:
    """Every name of two releases, as written and as a reader might type it (other case,
    dashes, quotes, a note dropped, "(glossary)" added, spaces around), designates in the
    browser the clause `archive.lookup.resolve` finds; folding agrees on every name and on
    text outside ASCII."""
    page.goto(f"{base_url}/compare/")
    odd = ["Æther Vial", "STRAẞE ﬁnal “Quoted” – dashed", "ǅemal ΣΊΣΥΦΟΣ", "µ and ſ"]
    for release in (OLD, NEW):
        names = names_in(small_store, release)
        titles = [title for title, _found in names] + odd
        assert page.evaluate("ts => ts.map(window.rulesNames.fold)", titles) == [
            fold(title) for title in titles
        ]
        published = json.loads((small_site / "compare" / "n" / f"{release}.json").read_text())
        asked = [" morph. ", "FACE–DOWN", "mana burn", "Flying (Glossary)", "No such name"]
        # numbers as typed: in capitals, in full width (an East Asian keyboard's digits)
        asked += ["504.2", "704.5J", "７０２.３７ａ", "５０４", "Ｍｏｒｐｈ", "٥٠٤"]
        for title, _found in names:
            asked += [title, title.upper(), f"{title} (glossary)", title.replace(" ", "-")]
        got = page.evaluate(RESOLVE_JS, [published, asked])

        def shown(found: Found | None) -> list[Any] | None:
            return found and [found.number, found.term, list(found.also)]

        expected = [shown(resolve(names, name)) for name in asked]
        assert got == expected
        assert sum(found is not None for found in expected) > len(names)


def test_words_and_numbers_are_read_as_python_reads_them(
    page: Any, base_url: str, small_site: Path, small_store: Database
) -> None:
    """The generated vocabulary.js: the tokeniser over every wording of a release and over
    text outside ASCII, and "is under" over numbers of every depth."""
    texts = [
        row[0]
        for row in small_store.execute(
            """SELECT v.text FROM releases r JOIN parts p ON p.capture_id = r.capture_id
               JOIN clause_versions v ON v.hash = p.version_hash WHERE r.date = ?""",
            [NEW],
        )
    ]
    texts += [
        "Æther Vial, naïve Ærathi Berserker: ½ of 2² — “quoted,” isn’t it? (rule 504.2a.)",
        "Ünicode\u00a0spaces\u2003and\u3000ideographs 漢字; tabs\tand\nlines.",
    ]
    page.goto(f"{base_url}/compare/")
    got = page.evaluate("texts => texts.map(t => window.rulesCompare.tokens(t))", texts)
    assert got == [tokens(text) for text in texts]
    numbers = ["5", "50", "504", "504.1", "504.10", "504.1a", "504.2", "702.36", "702.360"]
    numbers += ["702.36b", "708", "708.2a", "1", "100", "100.1"]
    pairs = [(n, p) for n in numbers for p in numbers]
    got = page.evaluate("ps => ps.map(p => window.rulesCompare.isUnder(p[0], p[1]))", pairs)
    assert got == [is_under(n, p) for n, p in pairs]


def test_a_range_is_checked_end_by_end(page: Any, base_url: str, small_store: Database) -> None:
    """2020-01-22 -> 2024-06-07: 616.1f became 616.1g, and its "616.1a-d" became "616.1a-f".
    616.1d is still 616.1d: the range grew, it did not follow a renumbering, so the change
    is renumbered+reworded. The browser checked the range as one number it could not find
    (and so took it as following): it must check each end as the engine does."""
    old, new = "2020-01-22", "2024-06-07"
    compare(page, base_url, f"old={old}&new={new}")
    expected = cli_diff(small_store, old=old, new=new)
    assert page.evaluate(SUMMARY_JS) == expected["summary"]
    shown = page.evaluate(CHANGES_JS)
    assert shown == [as_shown(change) for change in expected["changes"]]
    kinds = {(c["old"], c["new"]): c["kind"] for c in shown}
    assert kinds[("616.1f", "616.1g")] == "renumbered+reworded"


def test_a_term_is_renamed_in_the_browser_as_on_the_diff_page(
    page: Any, base_url: str, small_site: Path
) -> None:
    """The compare names each change's kind as the diff page of the same two releases does:
    a glossary entry whose term changed was renamed (vocabulary.kind_names.shown_kind)."""
    old, new = "2002-10-07", "2008-02-01"  # neighbours in the small store
    compare(page, base_url, f"old={old}&new={new}")
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll('#compare-out article.change'))
          .map(a => [a.dataset.old, a.dataset.new, a.querySelector('h3 .kind').textContent])"""
    )
    browser = {(o, n): words for o, n, words in shown}
    html = (small_site / "diff" / old / new / "index.html").read_text(encoding="utf-8")
    # the changes of one clause into one clause (a list of several is joined in the browser)
    static = {labels: words for labels, (_kind, words) in shown_kinds(html).items()}
    pairs = [labels for labels in static if len(labels) == 2]
    assert len(pairs) > 100
    for labels in pairs:
        assert browser[labels] == static[labels].replace("+", " and "), labels
    renamed = [labels for labels in pairs if static[labels].startswith("renamed")]
    assert len(renamed) >= 10 and ("Cleanup", "Cleanup Step") in renamed
    assert any(static[labels] == "renumbered" for labels in pairs)  # a rule's, beside them
