"""Outcome changes between releases are flagged with the rule change behind them; the model
reads its answers from each release's text (change the text, the answer changes)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from sqlite_utils import Database

from facedown import model
from facedown.era import Era, read_era
from facedown.run import run_all


@pytest.fixture(scope="module")
def records(full_store: Database) -> list[dict[str, Any]]:
    return run_all(full_store)


def one(records: list[dict[str, Any]], scenario: str, release: str) -> dict[str, Any]:
    [record] = [r for r in records if r["scenario"] == scenario and r["release"] == release]
    return record


def test_mana_cost_change_is_flagged_with_the_reworded_rule(records: list[dict[str, Any]]) -> None:
    record = one(records, "morph-mana-cost", "2006-10-01")
    assert record["changed"]
    assert (record["previous_release"], record["previous_outcome"]) == ("2006-07-15", "{0}")
    assert record["outcome"] == "no mana cost"
    [change] = record["rule_change"]
    assert (change["change"], change["before"], change["after"]) == (
        "reworded",
        "502.26b",
        "502.26b",
    )
    assert "a mana cost of {0}" in change["before_text"]
    assert "no mana cost" in change["after_text"]
    assert [1, "no mana cost"] in change["diff"] or any(
        op == 1 and "no" in text for op, text in change["diff"]
    )


def test_new_rule_708_2b_is_the_change_behind_nothing_happens(
    records: list[dict[str, Any]],
) -> None:
    record = one(records, "turn-face-down-again", "2023-10-13")
    assert record["changed"] and record["previous_outcome"] == "not stated"
    assert [(c["change"], c["after"]) for c in record["rule_change"]] == [("added", "708.2b")]


def test_every_outcome_change_is_flagged_and_explained(records: list[dict[str, Any]]) -> None:
    by_scenario: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if not record["derived"]:  # the derived copy stays out of the chain of changes
            by_scenario.setdefault(record["scenario"], []).append(record)
    flagged = 0
    for runs in by_scenario.values():
        for before, after in zip(runs, runs[1:], strict=False):
            moved = before["outcome"] != after["outcome"]
            assert after["changed"] == moved
            if moved:
                flagged += 1
                assert after["previous_release"] == before["release"]
                assert after["rule_change"], after
    assert flagged >= 10


def test_renumbering_keeps_the_outcome_and_moves_the_cites(records: list[dict[str, Any]]) -> None:
    cites = {
        release: one(records, "pump-then-turn-up", release)["cites"][0]
        for release in ("2008-02-01", "2009-07-08", "2020-01-22", "2021-07-12", "2024-06-07")
    }
    assert cites == {
        "2008-02-01": "504.5",
        "2009-07-08": "707.8",
        "2020-01-22": "707.8",
        "2021-07-12": "708.8",
        "2024-06-07": "708.8",
    }
    cost = one(records, "morph-cost", "2009-07-08")
    assert cost["outcome"] == "{3}" and not cost["changed"] and cost["renumbered"]
    assert cost["detail"] == "you may cast it face down"
    assert one(records, "morph-cost", "2009-05-01")["detail"] == "you may play it face down"
    [change] = cost["rule_change"]
    assert (change["before"], change["after"]) == ("502.26a", "702.34a")
    assert change["change"] == "renumbered+reworded"  # play -> cast


def with_text(era: Era, number: str, old: str, new: str) -> Era:
    """The same era with one clause's wording edited."""
    clauses = [
        dataclasses.replace(c, text=c.text.replace(old, new)) if c.number == number else c
        for c in era.clauses
    ]
    assert clauses != era.clauses, f"{old!r} is not in {number}"
    return Era(era.release, clauses, {c.number: c for c in reversed(clauses)}, era.mechanics)


def test_answers_follow_the_text_not_the_date(full_store: Database) -> None:
    era = read_era(full_store, "2024-06-07")
    assert model.characteristics(era, "disguise").outcome.startswith("2/2 creature; ward {2}")
    edited = with_text(era, "702.168b", "with ward {2}, ", "with ")
    assert "ward" not in model.characteristics(edited, "disguise").outcome
    edited = with_text(era, "702.37c", "a 2/2 face-down", "a 3/1 face-down")
    assert model.characteristics(edited, "morph").outcome.startswith("3/1")
    edited = with_text(era, "708.8", "still apply", "no longer apply")
    assert model.turn_face_up_pt(edited, (4, 3), (3, 3)).outcome == model.NOT_STATED
    edited = with_text(era, "708.2b", "nothing happens", "it is turned face up")
    edited = with_text(edited, "708.2b", "can’t be turned face-down", "may be turned over")
    assert model.turn_face_down_again(edited).outcome == model.NOT_STATED


def test_mana_cost_outcome_matches_the_cited_wording_in_every_release(
    records: list[dict[str, Any]], full_store: Database
) -> None:
    for record in (r for r in records if r["scenario"] == "morph-mana-cost"):
        text = next(
            full_store.query(
                "SELECT text FROM clauses WHERE release = ? AND number = ?",
                [record["release"], record["cites"][0]],
            )
        )["text"]
        says_zero = "mana cost of 0" in text or "mana cost of {" in text
        assert (record["outcome"] == "{0}") == says_zero, record["release"]


def test_outcome_eras_and_clause_index(records: list[dict[str, Any]]) -> None:
    from facedown.summary import by_clause, outcome_eras

    eras = [e for e in outcome_eras(records) if e["scenario"] == "morph-mana-cost"]
    assert [(e["first"], e["outcome"]) for e in eras if e["changed"]] == [
        ("2006-10-01", "no mana cost")
    ]
    assert eras[0]["first"] == "2002-10-07" and sum(e["releases"] for e in eras) == len(
        [r for r in records if r["scenario"] == "morph-mana-cost"]
    )
    beside = {r["scenario"] for r in by_clause(records)[("2024-06-07", "708.8")]}
    assert {"pump-then-turn-up", "changes-stay", "no-etb-on-turn-up"} <= beside


def test_changes_are_linked_to_the_stored_lineages(full_lineage: Database) -> None:
    [cost] = [r for r in run_all(full_lineage, "2006-10-01") if r["scenario"] == "morph-mana-cost"]
    assert cost["changed"] and cost["previous_release"] == "2006-07-15"
    [change] = cost["lineage_changes"]
    assert (change["kind"], change["old"], change["new"]) == ("reworded", ["502.26b"], ["502.26b"])
    [again] = [
        r for r in run_all(full_lineage, "2023-10-13") if r["scenario"] == "turn-face-down-again"
    ]
    assert [(c["kind"], c["new"]) for c in again["lineage_changes"]] == [("added", ["708.2b"])]
