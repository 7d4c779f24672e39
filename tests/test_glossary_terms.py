"""A glossary entry that names several terms ("Control, Controller") is found by each of
them, by every command that takes a name, and by the in-browser compare, which resolves
names from the same list (`archive.lookup.names_in`). The CLI found such entries only by
their whole heading, and its suggestions, parted by commas, read as more names than they
were."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from archive.lookup import find, names_in
from rules_history.cli import main

NEWEST = "2026-01-16"


@pytest.mark.parametrize(
    ("asked", "entry"),
    [
        ("controller", "Control, Controller"),
        ("Life Total", "Life, Life Total"),
        ("mode", "Modal, Mode"),
        ("bands with other (glossary)", "Banding, “Bands with Other”"),
        ("Partner with [name]", "Partner, “Partner—[text],” “Partner with [name]”"),
    ],
)
def test_each_term_of_an_entry_finds_it(full_lineage: Database, asked: str, entry: str) -> None:
    found = find(full_lineage, NEWEST, asked)
    assert (found.number, found.term) == (None, entry)


def test_a_term_is_a_name_the_compare_resolves(full_lineage: Database) -> None:
    named = {title: found.term for title, found in names_in(full_lineage, NEWEST)}
    assert named["Controller"] == named["Control"] == "Control, Controller"


def test_show_finds_a_term_and_suggestions_are_parted_by_semicolons(full_lineage: Database):
    store = str(full_lineage.execute("PRAGMA database_list").fetchone()[2])
    result = CliRunner().invoke(main, ["show", "controller", "--db", store])
    assert result.exit_code == 0 and result.output.startswith("Glossary: Control, Controller")
    result = CliRunner().invoke(main, ["show", "controlers", "--db", store, "--as-of", NEWEST])
    assert result.exit_code == 1
    offers = result.output.split("did you mean: ")[1].rstrip("?\n").split("; ")
    assert "Controller (glossary)" in offers  # each offer is a name the lookup takes
    # one offer for each clause: the entry is not offered again under its heading
    assert "Control, Controller (glossary)" not in offers
