"""The trace, diff and blame commands: JSON shapes, text output, errors, help, speed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from sqlite_utils import Database

from lineage.compare import diff_releases
from lineage.trace import trace
from rules_history.cli import main
from rules_history.trace_text import render_diff


@pytest.fixture(scope="module")
def store_file(full_lineage: Database) -> str:
    return str(full_lineage.execute("PRAGMA database_list").fetchone()[2])


def run(store_file: str, *args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--db", store_file, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_trace_504_2_reaches_707_and_708(store_file: str) -> None:
    result = run(store_file, "trace", "504.2@2008-03-17")
    assert result["release"] == "2008-02-01"
    assert result["current_number"] == "708.2"
    assert result["current_numbers"] == ["708.2", "708.3", "708.4"]
    numbers = {(e["release"], e["number"]) for e in result["entries"]}
    assert {("2009-07-08", "707.2"), ("2009-07-08", "707.3"), ("2009-07-08", "707.4")} <= numbers
    assert ("2021-07-12", "708.2") in numbers
    for entry in result["entries"]:
        assert {"release", "number", "kind", "text"} <= entry.keys()
        assert entry["text"]


def test_current_numbers_are_what_the_clause_became(store_file: str) -> None:
    """`current_numbers` lists what the clause asked about became (itself, the pieces split
    off it, what it was merged into), never its relatives by an older split: IKO removed
    613.3d, which came in 2009 from a split of 418.5a, and nothing it became is left."""
    gone = run(store_file, "trace", "613.3d@2020-01-22")
    assert gone["current_number"] is None and gone["current_numbers"] == []
    family = run(store_file, "trace", "418.5a@2005-01-01")  # the layers, split in 2009
    assert family["current_number"] == "613.1"
    assert {"613.1", "613.1a", "613.4"} <= set(family["current_numbers"])
    merged = run(store_file, "trace", "713.12@2023-01-01")  # merged into 712.19 in 2023
    assert merged["current_numbers"] == [merged["current_number"]] == ["712.19"]


def test_trace_from_a_current_number_goes_back(store_file: str) -> None:
    result = run(store_file, "trace", "702.37a")
    first = result["entries"][0]
    assert (first["release"], first["number"], first["kind"]) == ("2002-10-07", "502.26a", "added")
    assert [e["number"] for e in result["entries"] if e["kind"] == "renumbered"] == [
        "702.35a",
        "702.37a",
    ]


def test_trace_text_output(full_lineage: Database, store_file: str) -> None:
    result = CliRunner().invoke(main, ["trace", "504.8@2008-03-17", "--db", store_file])
    assert result.exit_code == 0
    assert result.output.startswith("504.8 (2008-02-01) is 708.11 in ")
    assert "2009-07-08  renumbered           504.8 -> 707.11" in result.output


def test_diff_json(store_file: str) -> None:
    result = run(store_file, "diff", "2021-06-09", "2021-07-12", "--rule", "708")
    kinds = {(tuple(c["old"]), tuple(c["new"])): c["kind"] for c in result["changes"]}
    assert kinds[("707",), ("708",)] == "renumbered"
    assert kinds[("708",), ("709",)] == "renumbered"  # the old 708, Split Cards
    change = next(c for c in result["changes"] if c["new"] == ["708.10"])
    assert [d for d in change["diff"] if d[0]] == [[-1, "706.3"], [1, "707.3"]]
    assert sum(result["summary"].values()) >= len(result["changes"])


def test_diff_the_wrong_way_round_says_so_once(store_file: str) -> None:
    """One line naming both releases as written; a date is not repeated as its release."""
    result = CliRunner().invoke(main, ["diff", "2024-06-07", "2008-02-01", "--db", store_file])
    assert result.exit_code == 1
    assert result.output == "error: 2024-06-07 is newer than 2008-02-01\n"


def test_diff_of_releases_years_apart(full_lineage: Database) -> None:
    result = diff_releases(full_lineage, "2008-02-01", "2024-06-07", "504")
    by_old = {tuple(c["old"]): c for c in result["changes"]}
    assert by_old[("504.8",)]["new"] == ["708.11"]
    assert by_old[("504.8",)]["kind"] == "renumbered"
    pieces = [c["new"] for c in result["changes"] if c["kind"] == "split"]
    assert ["708.3"] in pieces and ["708.7"] in pieces


def test_blame_json(store_file: str) -> None:
    rows = run(store_file, "blame", "2008-03-17", "--rule", "504.2")
    assert rows == [
        {
            "release": "2008-02-01",
            "number": "504.2",
            "kind": "rule",
            "lineage": rows[0]["lineage"],
            "first_release": "2001-07-23",
            "since": "2007-05-01",
            "text_since": "2007-05-01",
            "since_gap": None,  # no gap in the archive ends on 2007-05-01
        }
    ]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["trace", "999.9"], "999.9"),
        (["trace", "504.2@2031-02-30"], "2031-02-30"),
        # an '@' with no day: refused by every command alike, not read as the newest release
        (["trace", "504.2@"], "'504.2@'"),
        (["show", "504.2@"], "'504.2@'"),
        (["cite", "504.2@ "], "'504.2@ '"),
        (["trace", "abc"], "abc"),
        (["diff", "2009-07-08", "2009-05-01"], "2009-07-08"),
        (["diff", "2009-05-01", "2009-07-08", "--rule", "x1"], "x1"),
        (["blame", "1990-01-01"], "1990-01-01"),
    ],
)
def test_errors_are_one_line_naming_the_input(store_file: str, args: list[str], named: str) -> None:
    result = CliRunner().invoke(main, [*args, "--db", store_file])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("error: ")
    assert named in result.output


def test_trace_reports_a_number_from_the_past(store_file: str) -> None:
    result = CliRunner().invoke(main, ["trace", "502.26a", "--db", store_file])
    assert result.exit_code == 1
    assert "502.26a@2009-05-01" in result.output  # last numbered so: try it there
    # and what that clause is numbered in the release asked about: an old citation's
    # number today, as `trace 502.26a@2009-05-01` would end
    newest = result.output.split(" release;")[0].rsplit(" ", 1)[-1]
    assert f"that clause is 702.37a in {newest} " in result.output
    assert result.output.count("\n") == 1


def test_a_gone_number_whose_clause_went_on_a_weak_link_says_so(store_file: str) -> None:
    # 310.4 (combat damage is dealt) became 510.2 in 2009 (the ground truth agrees), a link
    # made by where the clause sits, its words much rewritten: weak evidence, said so
    result = CliRunner().invoke(main, ["trace", "310.4@2009-07-08", "--db", store_file])
    assert result.exit_code == 1
    assert result.output == (
        "error: there is no rule 310.4 in the 2009-07-08 release; it was last numbered so in"
        " 2009-05-01, and that clause is 510.2 in 2009-07-08 (an uncertain link)"
        " (try 310.4@2009-05-01)\n"
    )


def test_trace_of_a_reused_number_follows_the_newest_clause(store_file: str) -> None:
    """504.2 today is the draw step's second rule: 304.1 until the 2009 rewrite split it."""
    result = run(store_file, "trace", "504.2")
    assert result["current_number"] == "504.2"
    split = next(e for e in result["entries"] if e["release"] == "2009-07-08")
    assert (split["kind"], split["old"]) == ("split", ["304.1"])
    assert all(e["number"] != "504.2" for e in result["entries"] if e["release"] < "2009-07-08")


@pytest.mark.parametrize("command", ["trace", "diff", "blame"])
def test_help(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    assert "--json" in result.output


def test_trace_function_matches_cli(full_lineage: Database, store_file: str) -> None:
    assert trace(full_lineage, "504.2", "2008-03-17") == run(
        store_file, "trace", "504.2@2008-03-17"
    )


def test_trace_accepts_rule_at_date(full_lineage: Database) -> None:
    assert trace(full_lineage, "504.2@2008-03-17")["current_number"] == "708.2"


def test_a_diff_of_two_days_with_one_release_in_force_says_so(store_file: str) -> None:
    """`diff` of two days both in force under one release printed "unchanged N" as though two
    releases had been compared."""
    result = CliRunner().invoke(main, ["diff", "2008-02-01", "2008-03-17", "--db", store_file])
    assert result.exit_code == 0, result.output
    assert "note: 2008-02-01 and 2008-03-17 both resolve to the 2008-02-01 release" in result.output


def test_blame_of_a_day_names_the_release_that_answers(store_file: str) -> None:
    """`blame 2008-03-17` answered for the 2008-02-01 release without saying so, while
    `export 2008-03-17` refuses a day that is no release's."""
    result = CliRunner().invoke(
        main, ["blame", "2008-03-17", "--rule", "504.1", "--db", store_file]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("note: the 2008-02-01 release, the one in force on 2008-03-17")
    exact = CliRunner().invoke(main, ["blame", "2008-02-01", "--rule", "504.1", "--db", store_file])
    assert "note:" not in exact.output


def _read_marks(text: str) -> list[tuple[int, str]]:
    """The word diff that `render_diff` printed as `text`, read back as a reader would: a
    mark opens at "[-" or "{+" and closes at the first "-]" or "+}" after it; a backslash
    takes the character after it as the rule's own."""
    found: list[tuple[int, str]] = []
    op, at, piece = 0, 0, ""
    opens, closes = {"[-": -1, "{+": 1}, {-1: "-]", 1: "+}"}
    while at < len(text):
        pair = text[at : at + 2]
        if text[at] == "\\":
            piece, at = piece + text[at + 1], at + 2
        elif (op == 0 and pair in opens) or (op != 0 and pair == closes[op]):
            if piece:
                found.append((op, piece))
            op, piece, at = (opens[pair] if op == 0 else 0), "", at + 2
        else:
            piece, at = piece + text[at], at + 1
    if piece:
        found.append((op, piece))
    return found


SEGMENTS = st.lists(
    st.tuples(st.sampled_from([-1, 0, 1]), st.text(alphabet="[]{}+-\\ Xa", min_size=1)),
    max_size=6,
)


def _joined(diff: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Neighbours of one kind as one ("[-X-][-X-]" and "[-XX-]" say the same)."""
    joined: list[tuple[int, str]] = []
    for op, text in diff:
        if joined and joined[-1][0] == op:
            joined[-1] = (op, joined[-1][1] + text)
        else:
            joined.append((op, text))
    return joined


@given(SEGMENTS)
def test_a_text_diff_reads_back_as_its_diff_whatever_the_rule_says(
    segments: list[tuple[int, str]],
) -> None:
    """The rule's own "[-", "-]", "{+", "+}" and backslashes never read as marks."""
    assert _joined(_read_marks(render_diff(segments))) == _joined(segments)


def test_107_3a_s_own_brackets_are_no_mark(store_file: str) -> None:
    """2009-09-04 rewrote 107.3a around "{X}, [-X], or X": its text diff read as "an {X[-} or
    an -]{+}, [-X], or +}X", a deletion inside the insertion. The rule's "[-" now carries a
    backslash, and the text reads back as the JSON's diff."""
    result = CliRunner().invoke(
        main, ["diff", "2009-07-08", "2009-09-04", "--rule", "107.3a", "--db", store_file]
    )
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("If a spell"))
    assert "{+}, [\\-X], or +}" in line
    change = run(store_file, "diff", "2009-07-08", "2009-09-04", "--rule", "107.3a")["changes"][0]
    rule_words = [(op, text) for op, text in change["diff"]]
    assert _read_marks(line) == rule_words[: len(_read_marks(line))]
