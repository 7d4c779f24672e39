"""Aligning one release with the one before: every change kind, on plain data and real pairs."""

from __future__ import annotations

from sqlite_utils import Database

from archive.normalise import normalise
from lineage.align import align
from lineage.change_kind import kind_of_change, mask_references
from lineage.clause import Clause
from lineage.store import load_clauses


def clause(number: str, text: str, position: int, kind: str = "rule") -> Clause:
    parent = number.rstrip("abcdefghijklmnopqrstuvwxyz") if kind == "subrule" else number[:3]
    return Clause(position, kind, number, parent, None, text, normalise(text), position)


SECTION_OLD = [
    Clause(0, "section", "504", "5", "Face-Down", "Face-Down", "Face-Down", 0),
    clause("504.1", "Two cards allow permanents to be face down (see rule 502.26).", 1),
    clause(
        "504.2",
        "Face-down permanents in play have no characteristics. "
        "Objects that are played face down are turned face down before they are put onto "
        "the stack, so effects will see only the face-down spell's characteristics.",
        2,
    ),
    clause(
        "504.3",
        "If you control multiple face-down permanents, you must ensure at all "
        "times that they can be told apart.",
        3,
    ),
    clause("504.4", "This rule is going away and nothing replaces it at all.", 4),
]
SECTION_NEW = [
    Clause(0, "section", "707", "7", "Face-Down", "Face-Down", "Face-Down", 0),
    clause("707.1", "Two cards allow permanents to be face down (see rule 702.34).", 1),
    clause("707.2", "Face-down permanents on the battlefield have no characteristics.", 2),
    clause(
        "707.3",
        "Objects that are cast face down are turned face down before they are "
        "put onto the stack, so effects will see only the face-down spell's "
        "characteristics.",
        3,
    ),
    clause(
        "707.4",
        "If you control multiple face-down permanents, you must ensure at all "
        "times that they can be told apart.",
        4,
    ),
    clause("707.5", "A brand new rule about manifesting cards from the top of a library.", 5),
]


def kinds_by_number(old: list[Clause], new: list[Clause]) -> dict[str, str]:
    result = align(old, new)
    kinds = {new[n].label: kind for n, kind in result.kinds.items()}
    kinds.update({old[o].label: kind for o, kind in result.removed.items()})
    return kinds


def test_every_kind_on_a_renumbered_section() -> None:
    kinds = kinds_by_number(SECTION_OLD, SECTION_NEW)
    assert kinds == {
        "707": "renumbered",
        "707.1": "renumbered",  # its words did not change, only a reference that moved
        "707.2": "split",
        "707.3": "split",
        "707.4": "renumbered",
        "707.5": "added",
        "504.4": "removed",
    }


def test_same_number_different_clause_is_not_matched_by_number() -> None:
    old = [
        clause("100.1", "Alpha beta gamma delta epsilon.", 0),
        clause("100.2", "Zeta eta theta iota kappa.", 1),
    ]
    new = [clause("100.1", "Zeta eta theta iota kappa.", 0)]
    result = align(old, new)
    assert result.matches == {0: 1}
    assert result.kinds[0] == "renumbered"
    assert result.removed == {0: "removed"}


def test_reference_formatting_and_wording_are_told_apart() -> None:
    before = clause("100.1", "See rule 504, \u201cFace-Down.\u201d", 0)
    moved = {"504": "707"}
    assert kind_of_change(before, clause("100.1", 'See rule 707, "Face-Down."', 0), moved) == (
        "reference"
    )
    assert kind_of_change(before, clause("100.1", 'See rule 504, "Face-Down."', 0), moved) == (
        "formatting"
    )
    # quotation marks put around a name while the reference followed its rule: no new words
    unquoted = clause("100.1", "See rule 504, Face-Down.", 0)
    assert kind_of_change(unquoted, clause("100.1", 'See rule 707, "Face-Down."', 0), moved) == (
        "reference"
    )
    assert kind_of_change(unquoted, clause("100.2", 'See rule 707, "Face-Down."', 0), moved) == (
        "renumbered"
    )
    # a reference pointed elsewhere, not where its rule moved: that is a rewording
    assert kind_of_change(before, clause("100.1", 'See rule 708, "Face-Down."', 0), moved) == (
        "reworded"
    )
    assert mask_references("rules 504.2 and 702.34a") == "rules # and #"


def test_an_examples_typography_alone_is_formatting() -> None:
    """Normalised texts fold typography, so the examples' versions say whether an example
    changed at all: straight quotes for curly ones in an example alone are `formatting`
    (2019-01-25), the same versions are `unchanged`."""
    rule = "If a player is instructed to choose a card name, the player must choose one."
    curly = "Example: It reads \u201cChoose a name.\u201d"
    straight = 'Example: It reads "Choose a name."'
    before, after = clause("201.3a", rule, 0), clause("201.3a", rule, 0)
    before.examples, after.examples = normalise(curly), normalise(straight)
    assert before.examples == after.examples  # the normalised texts cannot tell them apart
    before.example_versions, after.example_versions = ("curly",), ("straight",)
    assert kind_of_change(before, after, {}) == "formatting"
    after.example_versions = ("curly",)
    assert kind_of_change(before, after, {}) == "unchanged"


def entry(term: str, definition: str, position: int = 0) -> Clause:
    text = f"{term}\n{definition}"
    return Clause(position, "glossary", None, None, term, text, normalise(text), position)


def test_a_new_term_with_the_same_definition_is_a_renumbering() -> None:
    """A glossary entry's term is its label, as a number is a rule's: a new term over the
    same definition is `renumbered`, not a rewording (2026-04-17: "Removed from Combat" ->
    "Remove from Combat"); a definition that changed too is `renumbered+reworded`, and a
    definition changed under the same term is `reworded`."""
    definition = "To stop being an attacking, blocking, or attacked permanent. See rule 506.4."
    before = entry("Removed from Combat", definition)
    assert kind_of_change(before, entry("Remove from Combat", definition), {}) == "renumbered"
    reworded = definition.replace("To stop", "To cease")
    assert kind_of_change(before, entry("Remove from Combat", reworded), {}) == (
        "renumbered+reworded"
    )
    assert kind_of_change(before, entry("Removed from Combat", reworded), {}) == "reworded"
    # the definition's reference followed its rule while the term changed: still a renumbering
    moved = definition.replace("506.4", "506.5")
    assert kind_of_change(before, entry("Remove from Combat", moved), {"506.4": "506.5"}) == (
        "renumbered"
    )


def test_a_title_quoted_with_a_reference_is_part_of_it() -> None:
    """A reference names its rule by number and, often, by the title quoted after it; when
    the rule moves and is renamed, both follow (2009-07-08: 424.2 -> 116.3 quotes rule 602,
    "Activating Activated Abilities", where it quoted rule 403, "Activated Abilities")."""
    before = clause("424.2", 'See rule 403, "Activated Abilities."', 0)
    moved = {"403": "602"}
    renamed = 'See rule 602, "Activating Activated Abilities."'
    assert kind_of_change(before, clause("116.3", renamed, 0), moved) == "renumbered"
    assert kind_of_change(before, clause("424.2", renamed, 0), moved) == "reference"
    # the rule kept its number and its title changed: the reference still followed it
    retitled = 'See rule 403, "Activating Activated Abilities."'
    assert kind_of_change(before, clause("424.2", retitled, 0), moved) == "reference"
    # only the punctuation closing the title moved inside the quotes: typography
    comma = clause("424.2", 'See rule 403, "Activated Abilities," and rule 404.', 0)
    no_comma = clause("424.2", 'See rule 403, "Activated Abilities" and rule 404.', 0)
    assert kind_of_change(no_comma, comma, moved) == "formatting"
    # the title is kept but the sentence says more: a rewording
    more = 'See rule 602, "Activated Abilities," and rule 603.'
    assert kind_of_change(before, clause("424.2", more, 0), moved) == "reworded"


def test_2009_rewrite(full_store: Database) -> None:
    old, new = load_clauses(full_store, "2009-05-01"), load_clauses(full_store, "2009-07-08")
    result = align(old, new)
    number = {n: new[n].label for n in range(len(new))}
    pairs = {old[o].label: number[n] for n, o in result.matches.items()}
    assert pairs["504"] == "707"
    assert pairs["502.26"] == "702.34"
    assert pairs["502.26e"] == "707.2a"
    assert pairs["504.5"] == "707.8"
    by_new = {number[n]: kind for n, kind in result.kinds.items()}
    assert by_new["707.8"] == "renumbered+reworded"  # "come into play" -> "enter the battlefield"
    assert by_new["707.11"] == "renumbered"
    # 308.2b: "bands with other" put in quotes, "See rule 502.10" -> "702.19" as Banding moved
    assert by_new["508.1e"] == "renumbered"
    pieces = {old[o].label: {new[n].label for n in found} for o, found in result.splits.items()}
    # the layers 7a-7d sit under 612.3, itself a piece of 418.5a: found one after the other
    assert {"612.3", "612.3a", "612.3b", "612.3c", "612.3d"} <= pieces["418.5a"]
    counts = result.counts()
    assert counts["renumbered"] + counts["renumbered+reworded"] > 1000  # most of it moved


def test_2021_shift(full_store: Database) -> None:
    old, new = load_clauses(full_store, "2021-06-09"), load_clauses(full_store, "2021-07-12")
    result = align(old, new)
    pairs = {old[o].label: new[n].label for n, o in result.matches.items()}
    assert pairs["707"] == "708"
    assert pairs["707.2a"] == "708.2a"
    assert pairs["708"] == "709"  # Split Cards: its number went to Face-Down
    assert pairs["706"] == "707"
    by_new = {new[n].label: kind for n, kind in result.kinds.items()}
    assert by_new["702.37g"] == "reference"  # "See rule 707" -> "See rule 708"


def test_typography_release_is_formatting(full_store: Database) -> None:
    """2019-01-25 is 2018-10-05 reset in plain ASCII: typography only, almost everywhere."""
    old, new = load_clauses(full_store, "2018-10-05"), load_clauses(full_store, "2019-01-25")
    counts = align(old, new).counts()
    assert counts["formatting"] > 1300
    assert counts["renumbered"] == 2  # 903.11e and 903.11f, moved down by a new 903.11e
    assert counts.get("reworded", 0) + counts.get("renumbered+reworded", 0) < 30
