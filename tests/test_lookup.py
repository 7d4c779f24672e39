"""Lookup by name: `show` takes a keyword or section title or a glossary term, for any date."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ingested_copy
from hypothesis import given
from hypothesis import strategies as st

from archive.store import store_file
from vocabulary.names import name_key


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, small_captures: Path) -> Path:
    """A copy of the small store the whole run shares (`ingest` of the same captures, every
    stage run), which the commands below read in processes of their own."""
    store = ingested_copy(tmp_path_factory, "small", small_captures)
    path = Path(str(store_file(store)))
    store.close()
    return path


def run(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULES_HISTORY_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "rules_history", *args], capture_output=True, text=True, env=env
    )


def show(db: Path, *args: str) -> dict:
    result = run("show", *args, "--json", db=db)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("as_of", "number"),
    [("2002-11-01", "502.26"), ("2009-07-08", "702.34"), ("2024-06-07", "702.37")],
)
def test_morph_is_found_by_name_under_each_eras_number(db: Path, as_of: str, number: str) -> None:
    clause = show(db, "morph", "--as-of", as_of)
    assert clause["number"] == number
    assert clause["text"] == "Morph"
    assert clause["contents"][0]["number"] == f"{number}a"
    assert clause["contents"][0]["text"].startswith("Morph is a static ability")


def test_a_section_title_shows_the_section_with_everything_under_it(db: Path) -> None:
    clause = show(db, "Face-Down Spells and Permanents", "--as-of", "2008-03-17")
    assert clause["number"] == "504"
    numbers = [inner["number"] for inner in clause["contents"]]
    assert numbers[:2] == ["504.1", "504.2"]
    assert all(number.startswith("504.") for number in numbers)


def test_a_heading_by_number_shows_its_subrules_too(db: Path) -> None:
    """`show 702.37 --as-of 2010-01-01` printed only 'Storm' (issue 11)."""
    result = run("show", "702.37", "--as-of", "2024-06-07", db=db)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[1] == "Morph"
    assert lines[2].startswith("702.37a Morph is a static ability")


def test_a_subrule_letter_in_capitals_is_the_subrule(db: Path) -> None:
    """The site's lookup box took "702.37A" as 702.37a; `show` said nothing had that name."""
    assert show(db, "702.37A", "--as-of", "2024-06-07")["number"] == "702.37a"


def test_a_number_typed_in_full_width_is_the_number(db: Path) -> None:
    """Python's `\\d` took "７０２.３７" for a number, which then matched no clause ("no rule
    ７０２.３７"), while the site's scripts read it as a name: both now read it as 702.37."""
    assert show(db, "７０２.３７", "--as-of", "2024-06-07")["number"] == "702.37"
    assert show(db, "ｍｏｒｐｈ@2024-06-07")["number"] == "702.37"
    traced = run("trace", "７０２．３７ａ@2024-06-07", "--json", db=db)
    assert json.loads(traced.stdout)["rule"] == "702.37a", traced.stderr
    wrong = run("show", "５０", db=db)
    assert wrong.returncode != 0 and "'50' is not a rule number" in wrong.stderr


def test_a_glossary_term_shows_its_entry(db: Path) -> None:
    clause = show(db, "face-down", "--as-of", "2024-06-07")
    assert clause["kind"] == "glossary"
    assert clause["number"] is None
    assert "708" in clause["text"]


def test_a_name_that_matches_nothing_gets_suggestions_in_one_line(db: Path) -> None:
    result = run("show", "morhp", db=db)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "nothing is called 'morhp' in the 2024-06-07 release" in result.stderr
    assert "Morph (702.37)" in result.stderr


def test_a_long_name_that_matches_nothing_is_shortened_in_its_one_line(db: Path) -> None:
    name = "morph " * 1000  # six thousand characters, pasted by mistake
    result = run("show", name, db=db)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "nothing is called 'morph morph" in result.stderr
    assert "…' in the 2024-06-07 release" in result.stderr
    assert len(result.stderr) < 600  # the name shown in full would be 6,000 characters


def test_an_entry_named_like_a_keyword_is_found_as_the_suggestions_write_it(db: Path) -> None:
    """A bare "Morph" is the keyword 702.37; the glossary entry of the same name was out of
    reach of `show`, `trace`, `cite` and `diff --rule` (310 of the archive's 806 glossary
    histories), though a suggestion wrote it "Morph (glossary)"."""
    assert show(db, "Morph", "--as-of", "2024-06-07")["number"] == "702.37"
    entry = show(db, "Morph (glossary)", "--as-of", "2024-06-07")
    assert entry["kind"] == "glossary" and entry["number"] is None
    assert entry["text"].startswith("Morph\n") and "702.37" in entry["text"]
    assert show(db, "morph (Glossary)@2024-06-07")["kind"] == "glossary"
    suggested = run("show", "morhp", db=db).stderr
    assert "Morph (glossary)" in suggested  # what a reader would type back
    result = run("show", "Morhp (glossary)", db=db)
    assert result.returncode == 1 and "Morph (glossary)" in result.stderr
    assert "Morph (702.37)" not in result.stderr  # only entries are offered


def test_a_name_of_several_clauses_says_which_others_it_names(db: Path) -> None:
    """The name "General" titles sections 100 to 900, "Morph" a keyword and a glossary entry:
    `show` gives the first, as the site's lookup box does, and names the others as a reader
    asks for each, rather than passing one clause off as all that the name means."""
    general = show(db, "General", "--as-of", "2024-06-07")
    assert general["number"] == "100"
    assert {"200", "300", "700"} <= set(general["also_named"])
    assert show(db, "Morph", "--as-of", "2024-06-07")["also_named"] == ["Morph (glossary)"]
    assert show(db, "702.37", "--as-of", "2024-06-07")["also_named"] == []
    text = run("show", "Morph", "--as-of", "2024-06-07", db=db).stdout.splitlines()
    assert text[1] == "note: 'Morph' also names Morph (glossary)"
    traced = json.loads(run("trace", "Morph@2024-06-07", "--json", db=db).stdout)
    assert traced["rule"] == "702.37" and traced["also_named"] == ["Morph (glossary)"]
    lines = run("trace", "Morph@2024-06-07", db=db).stdout.splitlines()
    assert lines[1] == "note: 'Morph' also names Morph (glossary)"


def test_a_chapter_comes_before_a_rule_of_the_same_title(db: Path) -> None:
    """ "Card Types" titles chapter 3 and the rule 205.2 (204.2 in 2008): a name designates
    the larger part first (chapter, section, keyword rule, then glossary entry), as the
    site's lookup box ranks names, not the clause that comes first in the document."""
    for as_of, rule in (("2024-06-07", "205.2"), ("2009-07-08", "204.2")):
        found = show(db, "Card Types", "--as-of", as_of)
        assert found["number"] == "3", as_of
        assert found["also_named"] == [rule]


NAME_PIECES = ["Mana", "Burn", "(Obsolete)", "(Informal)", "–", "“Storm”", "STRAẞE", "\u00a0"]


@given(st.lists(st.sampled_from(NAME_PIECES), max_size=6).map(" ".join))
def test_a_name_key_is_final(name: str) -> None:
    """Keying a key changes nothing: a name with two notes lost one at a time, so the box
    and the store could key one name two ways."""
    assert name_key(name_key(name)) == name_key(name)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("show", "5" * 10_000), "…' is not a rule number"),
        (("show", "5." * 5_000), "…' is not a rule number"),
        (("show", "504.2", "--as-of", "2" * 10_000), "…' is neither a date"),
        (("trace", "504.2@" + "x" * 10_000), "…' is neither a date"),
    ],
)
def test_a_long_number_or_date_is_shortened_in_its_one_line(
    db: Path, args: tuple[str, ...], said: str
) -> None:
    """A number or a date of 10,000 characters was repeated whole in its error, as a name
    no longer is."""
    result = run(*args, db=db)
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert said in result.stderr and len(result.stderr) < 400
