"""Shapes of the run records for pages: outcomes per era, and scenarios per cited clause."""

from __future__ import annotations

from typing import Any


def outcome_eras(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive releases of a scenario with the same outcome and cites, as one era each.

    Each era: scenario, first, last (release dates), releases (count), outcome, cites,
    expected, agrees, finding, and `change` (the rule change that opened it, if any).
    """
    eras: list[dict[str, Any]] = []
    for record in records:
        last = eras[-1] if eras else None
        same = (
            last is not None
            and last["scenario"] == record["scenario"]
            and last["last"] == record["previous_release"]
            and (last["outcome"], last["cites"], last["agrees"])
            == (record["outcome"], record["cites"], record["agrees"])
        )
        if same and last is not None:
            last["last"] = record["release"]
            last["releases"] += 1
            continue
        eras.append(
            {
                "scenario": record["scenario"],
                "first": record["release"],
                "last": record["release"],
                "releases": 1,
                "outcome": record["outcome"],
                "cites": record["cites"],
                "expected": record["expected"],
                "agrees": record["agrees"],
                "finding": record["finding"],
                "changed": record["changed"],
                "renumbered": record["renumbered"],
                "change": record["rule_change"],
            }
        )
    return eras


def by_clause(records: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(release, clause number) -> the records that cite it: scenarios beside their clauses."""
    index: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in records:
        for number in record["cites"]:
            index.setdefault((record["release"], number), []).append(record)
    return index
