"""Every face-down scenario against every release it applies to, checked against its source."""

from __future__ import annotations

from typing import Any

import pytest
from sqlite_utils import Database

from facedown.model import NOT_STATED
from facedown.run import DERIVED_FINDING, run_all
from facedown.scenarios import SCENARIOS, Scenario

# How each mechanic's rule is titled in the CR, to find independently where it exists.
MECHANIC_SQL = {
    "face-down": "kind = 'section' AND text IN ('Face-Down Spells and Permanents',"
    " 'Face-Down Creatures')",
    "morph": "kind = 'rule' AND text = 'Morph'",
    "megamorph": "kind = 'subrule' AND text LIKE 'Megamorph is a variant%'",
    "manifest": "kind = 'rule' AND text = 'Manifest'",
    "cloak": "kind = 'rule' AND text = 'Cloak'",
    "disguise": "kind = 'rule' AND text = 'Disguise'",
    "manifest dread": "kind = 'rule' AND text = 'Manifest Dread'",
}


@pytest.fixture(scope="module")
def records(full_store: Database) -> list[dict[str, Any]]:
    return run_all(full_store)


def releases_with(db: Database, mechanic: str) -> set[str]:
    sql = f"SELECT DISTINCT release FROM clauses WHERE {MECHANIC_SQL[mechanic]}"
    return {row[0] for row in db.execute(sql)}


def test_at_least_twenty_scenarios_each_with_a_source() -> None:
    assert len(SCENARIOS) >= 20
    assert len({s.id for s in SCENARIOS}) == len(SCENARIOS)
    for scenario in SCENARIOS:
        assert scenario.expect and all(step.source for step in scenario.expect), scenario.id
        assert [s.since for s in scenario.expect] == sorted(s.since for s in scenario.expect)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_runs_on_every_release_where_its_mechanic_exists(
    scenario: Scenario, records: list[dict[str, Any]], full_store: Database
) -> None:
    where = set.intersection(*(releases_with(full_store, m) for m in scenario.mechanic))
    if scenario.since:
        where = {r for r in where if r >= scenario.since}
    ran = {r["release"] for r in records if r["scenario"] == scenario.id}
    assert where, scenario.id
    assert ran == where


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_outcome_per_release_is_the_sources_answer(
    scenario: Scenario, records: list[dict[str, Any]]
) -> None:
    for record in (r for r in records if r["scenario"] == scenario.id and not r["derived"]):
        step = scenario.expected(record["release"])
        assert record["expected"] == step.answer
        if step.text_says is None:
            assert record["outcome"] == step.answer, record
            assert record["agrees"]
        else:  # a documented finding: the archived text decides otherwise
            assert step.finding
            assert record["outcome"] == step.text_says, record
            assert not record["agrees"] and record["finding"] == step.finding


def test_every_cite_is_a_clause_of_that_release(
    records: list[dict[str, Any]], full_store: Database
) -> None:
    numbers: dict[str, set[str]] = {}
    for release, number in full_store.execute(
        "SELECT release, number FROM clauses WHERE number IS NOT NULL"
    ):
        numbers.setdefault(release, set()).add(number)
    for record in records:
        if record["outcome"] != NOT_STATED:
            assert record["cites"], record
        missing = set(record["cites"]) - numbers[record["release"]]
        assert not missing, (record["scenario"], record["release"], missing)


def test_the_derived_copy_is_marked_and_its_own_findings_named(
    records: list[dict[str, Any]],
) -> None:
    """2003-05-26 is answered from the re-extracted copy, which prints "a mana cost of ."
    (the {0} dropped) in 502.26a/b: the two mana-cost scenarios disagree there, as the copy's
    finding, and nothing is flagged as a change because of it."""
    copy = [r for r in records if r["release"] == "2003-05-26"]
    assert copy and all(r["derived"] and "re-extracted copy" in r["note"] for r in copy)
    assert not [r for r in copy if r["changed"]]
    own = {r["scenario"] for r in copy if r["finding"] == DERIVED_FINDING}
    assert own == {"morph-cost", "morph-mana-cost"}
    # the era's documented findings (as in 2003-03-15) stay what they are
    assert {r["scenario"] for r in copy if not r["agrees"]} - own == {
        "copy-face-down",
        "returns-face-up",
    }
    after = [r for r in records if r["release"] == "2003-07-01"]
    assert after and all(r["previous_release"] in (None, "2003-03-15") for r in after)


def test_findings_are_few_and_documented(records: list[dict[str, Any]]) -> None:
    official = [r for r in records if not r["derived"]]
    disagreeing = {(r["scenario"], r["release"]) for r in official if not r["agrees"]}
    assert {s for s, _ in disagreeing} == {"copy-face-down", "returns-face-up", "tezzeret"}
    assert all(r["finding"] for r in records if not r["agrees"])
    # 2002-10-07 and 2003-03-15: copies took printed values; Tezzeret until 2018-07-13.
    assert ("copy-face-down", "2003-03-15") in disagreeing
    assert ("copy-face-down", "2003-07-01") not in disagreeing
    assert ("tezzeret", "2018-06-08") in disagreeing
    assert ("tezzeret", "2018-07-13") not in disagreeing


def test_as_of_gives_the_release_in_force(full_store: Database) -> None:
    picked = run_all(full_store, as_of="2008-03-17")
    assert {r["release"] for r in picked} == {"2008-02-01"}
    assert len(picked) == sum(
        1 for s in SCENARIOS if s.id != "tezzeret" and s.mechanic in (("morph",), ("face-down",))
    )
    by_id = {r["scenario"]: r for r in picked}
    assert by_id["pump-then-turn-up"]["outcome"] == "7/6"
    assert by_id["pump-then-turn-up"]["cites"][0] == "504.5"
