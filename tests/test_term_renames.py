"""A glossary entry's "number" is its term: when the term changes, the pages and the CLI's
text say the entry was renamed, where a rule is renumbered. The store, the JSON and the counts
keep the kind itself (renumbered), so that every count still agrees (vocabulary.kind_names)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from click.testing import CliRunner
from sqlite_utils import Database

from rules_history.cli import main
from vocabulary.numbers import is_rule_number

OLD, NEW = "2002-10-07", "2008-02-01"  # neighbours in the small store: 19 terms renamed
ARTICLE = re.compile(r'<article class="change" id="[^"]+">\s*<h3>(.*?)</h3>', re.S)
LINK_TEXT = re.compile(r"<a href=\"/releases/[^\"]+\">([^<]+)</a>")
KIND_TEXT = re.compile(r'<span class="kind kind-([a-z-]+)">([^<]+)</span>')


def shown_kinds(html: str) -> dict[tuple[str, ...], tuple[str, str]]:
    """The changes of a diff page: their labels -> (kind, the words the page shows for it)."""
    found = {}
    for head in ARTICLE.findall(html):
        kind = KIND_TEXT.search(head)
        assert kind, head
        found[tuple(unescape(label) for label in LINK_TEXT.findall(head))] = (kind[1], kind[2])
    return found


def test_the_diff_page_says_renamed_for_a_term_and_renumbered_for_a_rule(
    small_site: Path, small_store: Database
) -> None:
    html = (small_site / "diff" / OLD / NEW / "index.html").read_text(encoding="utf-8")
    found = shown_kinds(html)
    assert found[("Cleanup", "Cleanup Step")] == ("renumbered", "renamed")
    assert found[("Copy Card", "Copy")] == ("renumbered-reworded", "renamed+reworded")
    moves = {labels: shown for labels, shown in found.items() if shown[0].startswith("renumbered")}
    terms = [labels for labels in moves if not is_rule_number(labels[0])]
    rules = [labels for labels in moves if is_rule_number(labels[0])]
    assert len(terms) >= 10 and len(rules) >= 10
    for labels in terms:
        assert moves[labels][1].startswith("renamed"), labels
    for labels in rules:
        assert moves[labels][1] == moves[labels][0].replace("-", "+"), labels

    table = (small_site / "renumbering" / NEW / "index.html").read_text(encoding="utf-8")
    assert re.search(r">Cleanup Step</a> </td><td>renamed</td>", table)


def test_the_cli_text_says_renamed_and_its_json_keeps_the_kind(small_store: Database) -> None:
    store = str(small_store.execute("PRAGMA database_list").fetchone()[2])
    text = CliRunner().invoke(main, ["diff", OLD, NEW, "--db", store]).output
    assert "\nrenamed: Cleanup -> Cleanup Step" in text
    assert "\nrenamed+reworded: Copy Card -> Copy" in text
    assert re.search(r"\nrenumbered: \d{3}\.\d+[a-z]* -> \d{3}\.\d+[a-z]*\n", text)  # a rule
    as_json = json.loads(
        CliRunner().invoke(main, ["diff", OLD, NEW, "--json", "--db", store]).output
    )
    kinds = {(*c["old"], *c["new"]): c["kind"] for c in as_json["changes"]}
    assert kinds[("Cleanup", "Cleanup Step")] == "renumbered"
    trace = CliRunner().invoke(main, ["trace", f"Cleanup Step (glossary)@{NEW}", "--db", store])
    assert re.search(rf"{NEW}  renamed +Cleanup -> Cleanup Step", trace.output), trace.output


def test_the_history_page_of_a_term_says_renamed(small_site: Path) -> None:
    page = (small_site / "history" / OLD / "g-cleanup" / "index.html").read_text(encoding="utf-8")
    assert "<h1>History of Cleanup → Cleanup Step</h1>" in page
    assert re.search(rf'data-release="{NEW}" data-kind="renumbered">.*?>renamed</span>', page)
