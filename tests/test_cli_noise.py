"""Signal over noise in the command line: `diff` text hides formatting-only changes (counted,
`--all` shows them, JSON keeps everything); `trace` text shows word diffs between successive
wordings and each split once. Run through the real CLI on the small store."""

from __future__ import annotations

import json
import re
from itertools import takewhile
from typing import Any

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from rules_history.cli import main

# 2019-01-25 turned the curly quotes of 2018-10-05 back into straight ones: formatting only.
OLD, NEW = "2018-10-05", "2019-01-25"
CHANGE_HEADER = re.compile(r"^([a-z+]+)(?: \(unconfirmed\))?: ", re.MULTILINE)


@pytest.fixture(scope="module")
def store_file(small_lineage: Database) -> str:
    return str(small_lineage.execute("PRAGMA database_list").fetchone()[2])


def cli(store_file: str, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--db", store_file])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def diff_json(store_file: str) -> dict:
    return json.loads(cli(store_file, "diff", OLD, NEW, "--json"))


def test_diff_text_hides_formatting_and_counts_it(store_file: str, diff_json: dict) -> None:
    formatting = [c for c in diff_json["changes"] if c["kind"] == "formatting"]
    # 43 of them in examples alone, whose quotation marks went straight with the rules'
    assert len(formatting) == diff_json["summary"]["formatting"] == 1859
    output = cli(store_file, "diff", OLD, NEW)
    assert "\n1,859 formatting changes hidden; --all shows them\n" in output
    kinds = CHANGE_HEADER.findall(output)
    assert "formatting" not in kinds
    real = [c["kind"] for c in diff_json["changes"] if c["kind"] != "formatting"]
    assert sorted(kinds) == sorted(real)
    assert {"reworded", "renumbered", "renumbered+reworded", "added"} <= set(kinds)
    # 114.6 was rewritten in 2019-01-25; its word diff is printed
    assert "reworded: 114.6 -> 114.6\n[-Spells and abilities that can have zero" in output


def test_diff_all_shows_formatting(store_file: str, diff_json: dict) -> None:
    output = cli(store_file, "diff", OLD, NEW, "--all")
    assert "formatting changes hidden" not in output
    kinds = CHANGE_HEADER.findall(output)
    assert kinds.count("formatting") == 1859
    assert len(kinds) == len(diff_json["changes"])
    # a formatting change shows what changed: the quote style
    assert 'See section 8, [-“-]{+"+}Multiplayer Rules[-.”-]{+."+}' in output


def test_diff_without_formatting_changes_prints_no_count(store_file: str) -> None:
    output = cli(store_file, "diff", "2021-06-09", "2021-07-12", "--rule", "708")
    assert "formatting changes hidden" not in output


def test_trace_text_shows_word_diffs_and_each_split_once(store_file: str) -> None:
    output = cli(store_file, "trace", "504.2@2008-03-17")
    lines = output.splitlines()
    # 2008-02-01 reworded 504.2: the diff from the 2002-10-07 wording, with the new
    # cross-reference inserted, not the paragraph again
    reworded = lines[lines.index("2008-02-01  reworded             504.2 -> 504.2") + 1]
    assert reworded.startswith("    Face-down [-cards -]{+spells +}on the stack")
    assert '{+(See rule 418.5, "Interaction of Continuous Effects,"' in reworded
    # the 2009 split of 504.2 into 707.2, 707.3 and 707.4: one heading, each piece once
    split = "2009-07-08  split                504.2 -> 707.2, 707.3, 707.4"
    assert lines.count(split) == 1
    at = lines.index(split)
    pieces = lines[at + 1 : at + 4]
    assert [line.split(":")[0] for line in pieces] == ["    707.2", "    707.3", "    707.4"]
    # 707.2 keeps 504.2's identity: its diff drops the sentences that became 707.3 and 707.4
    assert "[-418.5-]{+612+}" in pieces[0]
    assert '[-.") Objects that are put into play face down' in pieces[0]
    # 707.3 and 707.4 are new clauses: their words in full
    assert pieces[1] == (
        "    707.3: Objects that are put onto the battlefield face down are turned face down"
        " before they enter the battlefield, so the permanent's enters-the-battlefield"
        " abilities won't trigger (if triggered) or have any effect (if static)."
    )
    # later formatting flips show as the quote that changed, not as the paragraph again
    assert "[-permanent’s -]{+permanent's +}" in output
    assert sum(line.startswith("2009-07-08") for line in lines) == 1


def test_trace_json_keeps_an_entry_per_lineage(store_file: str) -> None:
    result = json.loads(cli(store_file, "trace", "504.2@2008-03-17", "--json"))
    split = [e for e in result["entries"] if e["kind"] == "split"]
    assert sorted(e["number"] for e in split) == ["707.2", "707.3", "707.4"]


def test_trace_text_shows_a_merge_once_as_a_diff_from_the_clause_kept(store_file: str) -> None:
    # 2008-02-01 merged 418.5d ("A continuous effect can override another.") and 418.5a
    # into 418.5h, which keeps 418.5d's identity (its words open the new clause)
    lines = cli(store_file, "trace", "418.5h@2008-02-01").splitlines()
    merged = "2008-02-01  merged               418.5d, 418.5a -> 418.5h"
    assert sum(line.startswith("2008-02-01") for line in lines) == 1
    after = lines[lines.index(merged) + 1 :]
    assert after[0].startswith("    [-A -]{+One +}continuous effect can override another{+. ")
    # its examples follow, each on a line of its own, as a diff too
    examples = list(takewhile(lambda line: line.startswith("      Example: "), after[1:]))
    assert examples[0].startswith("      Example: Two [-enchantments -]{+Auras +}are played")
    # 2009 renumbered it 612.8, its example's Auras "cast" where they were "played"
    assert after[1 + len(examples)].startswith("2009-07-08  renumbered+example")


def test_trace_shows_a_change_of_the_examples_only(store_file: str) -> None:
    # 2021-07-12 changed only an example of 607.5a ("And" -> "and"): the rule's own words
    # are the same, so the change is `example`, and the trace shows the example's word diff
    # on a line of its own under the rule, as `diff` does, not the rule's words unchanged
    lines = cli(store_file, "trace", "607.5a@2021-07-12").splitlines()
    at = lines.index("2021-07-12  example              607.5a -> 607.5a")
    rule, first_example = lines[at + 1], lines[at + 2]
    assert rule.startswith("    If an object gains an ability") and "{+" not in rule
    assert first_example.startswith("      Example: Voice of All enters the battlefield")
    assert "[-And -]{+and +}" in first_example
    # in JSON each entry carries its rule's examples, the ones `show` prints for that release
    traced = json.loads(cli(store_file, "trace", "607.5a@2021-07-12", "--json"))
    entry = next(e for e in traced["entries"] if e["release"] == "2021-07-12")
    shown = json.loads(cli(store_file, "show", "607.5a", "--as-of", "2021-07-12", "--json"))
    assert entry["examples"] == shown["examples"] and len(shown["examples"]) == 2


def test_trace_finds_a_clause_by_its_title_or_term_as_show_does(store_file: str) -> None:
    # "morph" names 502.26 in 2008 (702.37 in 2024): trace reads names as show does
    shown = json.loads(cli(store_file, "show", "morph", "--as-of", "2008-02-01", "--json"))
    by_name = json.loads(cli(store_file, "trace", "morph@2008-02-01", "--json"))
    by_number = json.loads(cli(store_file, "trace", "502.26@2008-02-01", "--json"))
    assert shown["number"] == by_name["rule"] == "502.26"
    assert by_name["lineage"] == by_number["lineage"]
    assert by_name["entries"] == by_number["entries"]
    # a glossary entry by its term: its own history, renamed when it became obsolete
    burn = json.loads(cli(store_file, "trace", "Mana Burn@2008-02-01", "--json"))
    assert burn["rule"] == "Mana Burn"
    assert burn["current_number"] == "Mana Burn (Obsolete)"
    assert {e["number"] for e in burn["entries"]} >= {"Mana Burn", "Mana Burn (Obsolete)"}
    # a name that is nothing: one line, with the nearest names of that release
    result = CliRunner().invoke(main, ["trace", "morf@2008-02-01", "--db", store_file])
    assert result.exit_code != 0
    assert result.output.startswith("error: nothing is called 'morf' in the 2008-02-01 release")
    assert len(result.output.strip().splitlines()) == 1


def test_blame_of_a_title_or_term_is_blame_of_what_it_names(store_file: str) -> None:
    def blamed(rule: str) -> list[dict[str, object]]:
        return json.loads(cli(store_file, "blame", "2024-06-07", "--rule", rule, "--json"))

    by_number = blamed("702.37")
    assert blamed("morph") == by_number and len(by_number) > 3  # 702.37 and its subrules
    burn = blamed("Mana Burn (Obsolete)")
    assert [row["number"] for row in burn] == ["Mana Burn (Obsolete)"]
    # a term named without its note finds its entry, in blame, show and trace alike
    assert blamed("mana burn") == burn
    shown = json.loads(cli(store_file, "show", "mana burn", "--as-of", "2024-06-07", "--json"))
    assert shown["term"] == "Mana Burn (Obsolete)"
    traced = json.loads(cli(store_file, "trace", "mana burn@2024-06-07", "--json"))
    assert traced["lineage"] == burn[0]["lineage"]


def test_diff_under_a_name_follows_it_in_each_release(store_file: str) -> None:
    def changes(rule: str) -> tuple[dict[str, Any], set[tuple[Any, ...]]]:
        out = json.loads(
            cli(store_file, "diff", "2008-02-01", "2024-06-07", "--rule", rule, "--json")
        )
        return out, {(tuple(c["old"]), tuple(c["new"]), c["kind"]) for c in out["changes"]}

    named, by_name = changes("morph")
    assert named["rule_numbers"] == {"old": "502.26", "new": "702.37"}
    # the clauses under 502.26 in 2008 and those under 702.37 in 2024: what each number alone
    # lists, on its own side (a number is one prefix for both releases)
    _old, by_old = changes("502.26")
    _new, by_new = changes("702.37")
    assert by_name == {c for c in by_old if c[0]} | {c for c in by_new if c[1]}
    assert by_name - by_old and by_name - by_new  # neither number alone lists them all
    assert sum(named["summary"].values()) >= len(by_name)  # the unchanged ones are counted too
    text = cli(store_file, "diff", "2008-02-01", "2024-06-07", "--rule", "morph")
    assert "rule: morph names 502.26 in 2008-02-01 and 702.37 in 2024-06-07" in text
    assert "rule:" not in cli(store_file, "diff", "2008-02-01", "2024-06-07", "--rule", "504")
