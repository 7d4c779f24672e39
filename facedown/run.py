"""Run every scenario against every release it applies to; flag where the outcome changes.

One record per scenario and release. When the outcome differs from the scenario's previous
applicable release, `changed` is set and `rule_change` lists the cited clauses that were
added, removed, reworded or renumbered between the two releases (their normalised text
compared), which is the rule change behind it. When only the cites change (a renumbering),
`renumbered` is set instead.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlite_utils import Database

from archive.query import release_dates, release_in_force
from archive.worddiff import word_diff
from facedown.era import Clause, Era, read_era
from facedown.scenarios import SCENARIOS, Scenario
from lineage.derived import DERIVED_NOTE, derived_releases
from vocabulary.kinds import ADDED, REMOVED, RENUMBERED, RENUMBERED_REWORDED, REWORDED, ChangeKind

# Where the derived copy's own text answers otherwise than the source (2003-05-26 drops the
# mana symbols: "a mana cost of ."), that is the copy's doing, not a rule of its time.
DERIVED_FINDING = (
    "the derived copy's text answers otherwise (re-extracted; mana symbols and words may be"
    " lost); not a rule change"
)


def run_all(db: Database, as_of: str | None = None) -> list[dict[str, Any]]:
    """Records for every scenario and release; with `as_of`, only the release then in force.

    Each record: scenario, title, release, mechanic, outcome, cites, expected, agrees,
    source, finding, text_says, changed, previous_release, previous_outcome, rule_change,
    lineage_changes, renumbered, detail.
    """
    wanted = release_in_force(db, as_of) if as_of else None
    dates = release_dates(db)
    if wanted is not None:
        dates = [d for d in dates if d <= wanted][-2:]  # its predecessor tells what changed
    eras = [read_era(db, d) for d in dates]
    derived = derived_releases(db)
    records = [record for scenario in SCENARIOS for record in run_scenario(scenario, eras, derived)]
    if wanted is not None:
        records = [r for r in records if r["release"] == wanted]
    link_lineage(db, records)
    return records


def link_lineage(db: Database, records: list[dict[str, Any]]) -> None:
    """Add `lineage_changes` to changed records: lineage.compare's view of the cited rules.

    That view follows clauses through the stored lineages (splits and merges included); it
    is None when the store has no lineages yet, and `rule_change` still tells the story.
    """
    from archive.errors import LookupFailed
    from lineage.compare import diff_releases

    for record in records:
        record["lineage_changes"] = None
        if not record["changed"]:
            continue
        found: dict[int, dict[str, Any]] = {}
        old_cites, new_cites = set(record["previous_cites"]), set(record["cites"])
        try:
            for prefix in sorted(old_cites | new_cites):
                diff = diff_releases(db, record["previous_release"], record["release"], prefix)
                for change in diff["changes"]:
                    if old_cites & set(change["old"]) or new_cites & set(change["new"]):
                        found.setdefault(change["lineage"], change)
        except LookupFailed:
            continue
        record["lineage_changes"] = list(found.values())


def run_scenario(
    scenario: Scenario, eras: list[Era], derived: Collection[str] = ()
) -> list[dict[str, Any]]:
    """One scenario over the given eras (oldest first), skipping those it doesn't apply to.

    A release read from a derived copy is answered and marked (`derived`, `note`; where it
    disagrees with the source, a finding of the copy), but stays out of the chain of
    changes: the official release after it is compared with the official one before it.
    """
    records: list[dict[str, Any]] = []
    previous: tuple[Era, dict[str, Any]] | None = None
    for era in eras:
        if era.release in derived:
            if scenario.applies(era):
                records.append(_derived_record(evaluate(scenario, era)))
            continue
        if not scenario.applies(era):
            previous = None
            continue
        record = evaluate(scenario, era)
        if previous is not None:
            flag_change(record, *previous, era)
        records.append(record)
        previous = (era, record)
    return records


def _derived_record(record: dict[str, Any]) -> dict[str, Any]:
    record["derived"] = True
    record["note"] = DERIVED_NOTE
    documented = record["text_says"] is not None and record["outcome"] == record["text_says"]
    if not record["agrees"] and not documented:  # not the era's known finding: the copy's
        record["finding"] = DERIVED_FINDING
    return record


def evaluate(scenario: Scenario, era: Era) -> dict[str, Any]:
    ruling = scenario.ask(era)
    expect = scenario.expected(era.release)
    agrees = ruling.outcome == expect.answer
    return {
        "scenario": scenario.id,
        "title": scenario.title,
        "release": era.release,
        "mechanic": list(scenario.mechanic),
        "outcome": ruling.outcome,
        "cites": [clause.number for clause in ruling.cites],
        # which printing of each number (2006-05-01's face-up 501.3 is its second)
        "cite_printings": [clause.nth for clause in ruling.cites],
        "detail": ruling.detail,
        "expected": expect.answer,
        "agrees": agrees,
        "source": expect.source,
        "text_says": expect.text_says,
        "finding": expect.finding if not agrees else None,
        "changed": False,
        "previous_release": None,
        "previous_outcome": None,
        "previous_cites": [],
        "rule_change": [],
        "renumbered": False,
        "derived": False,
    }


def flag_change(record: dict[str, Any], old_era: Era, old: dict[str, Any], new_era: Era) -> None:
    record["previous_release"] = old["release"]
    record["previous_outcome"] = old["outcome"]
    record["previous_cites"] = old["cites"]
    before = list(zip(old["cites"], old["cite_printings"], strict=True))
    after = list(zip(record["cites"], record["cite_printings"], strict=True))
    if record["outcome"] != old["outcome"]:
        record["changed"] = True
        record["rule_change"] = rule_change(old_era, before, new_era, after)
    elif record["cites"] != old["cites"]:
        record["renumbered"] = True
        record["rule_change"] = rule_change(old_era, before, new_era, after)


def rule_change(
    old: Era, old_cites: list[tuple[str, int]], new: Era, new_cites: list[tuple[str, int]]
) -> list[dict[str, Any]]:
    """How the clauses cited on either side ((number, printing) each) differ between two
    releases.

    Cites are paired by their place in the ruling (the same role in both releases), since a
    number alone is no identity: numbers are reused after renumberings.
    """
    changes: list[dict[str, Any]] = []
    for index in range(max(len(old_cites), len(new_cites))):
        before = old.printing(*old_cites[index]) if index < len(old_cites) else None
        after = new.printing(*new_cites[index]) if index < len(new_cites) else None
        if before is None:
            changes.append(_change(ADDED, None, after))
        elif after is None:
            changes.append(_change(REMOVED, before, None))
        elif before.normalised != after.normalised:
            kind = REWORDED if before.number == after.number else RENUMBERED_REWORDED
            changes.append(_change(kind, before, after))
        elif before.number != after.number:
            changes.append(_change(RENUMBERED, before, after))
    return changes


def _change(kind: ChangeKind, before: Clause | None, after: Clause | None) -> dict[str, Any]:
    return {
        "change": str(kind),
        "before": before.number if before else None,
        "after": after.number if after else None,
        "before_text": before.text if before else None,
        "after_text": after.text if after else None,
        "diff": _diff(before, after),
    }


def _diff(before: Clause | None, after: Clause | None) -> list[list[Any]]:
    """Word diff of the two wordings: [[op, text], ...] with op -1 removed, 0 kept, 1 added."""
    if before is None or after is None or before.text == after.text:
        return []
    return [[op, text] for op, text in word_diff(before.text, after.text)]
