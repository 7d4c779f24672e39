"""The `examples` command: the face-down scenarios run against each release.

cli.py adds it to the `rules-history` group.
"""

from __future__ import annotations

from typing import Any

import click

from archive.errors import LookupFailed
from rules_history.options import (
    current_store,
    day_in_gap,
    db_option,
    json_option,
    print_json,
    reports_errors,
)


@click.command()
@click.option("--as-of", help="A date (YYYY-MM-DD): only the release in force then.")
@click.option("--scenario", "scenario_id", help="Only this scenario (see --list).")
@click.option("--list", "list_only", is_flag=True, help="List the scenarios and stop.")
@db_option
@json_option
@reports_errors
def examples(
    as_of: str | None, scenario_id: str | None, list_only: bool, db_file: str | None, as_json: bool
) -> None:
    """The face-down scenarios run against every release they apply to (as `ingest` stored
    them).

    One record per scenario and release: the outcome the release's text decides, the clauses
    that decide it, the answer its source expects, and whether the outcome changed since the
    previous release (with the rule change behind it).
    """
    from archive.gaps import day_gap_notice
    from archive.query import release_in_force
    from facedown.scenarios import BY_ID, SCENARIOS
    from facedown.store import require_examples, stored_examples

    if scenario_id is not None and scenario_id not in BY_ID:
        raise LookupFailed(f"no scenario {scenario_id!r}; try one of: {', '.join(BY_ID)}")
    if list_only:
        chosen = [s for s in SCENARIOS if scenario_id in (None, s.id)]
        if as_json:
            print_json([s.as_dict() for s in chosen])
        else:
            for scenario in chosen:
                click.echo(f"{scenario.id:28} {scenario.title}  [{scenario.rules}]")
        return
    db = current_store(db_file)
    require_examples(db)
    records = stored_examples(db, as_of)
    if scenario_id is not None:
        records = [r for r in records if r["scenario"] == scenario_id]
    if as_json:
        print_json(records)
        return
    gap = day_in_gap(db, as_of)
    if gap is not None and as_of is not None:
        click.echo(f"note: {day_gap_notice(gap, as_of)}")
    if not records and as_of is not None:  # said, not an empty answer that looks like success
        release = release_in_force(db, as_of)
        which = f"scenario {scenario_id} is not" if scenario_id else "no scenario is"
        click.echo(f"{which} decided by the release in force on {as_of} ({release})")
    for record in records:
        click.echo(_line(record))


def _line(record: dict[str, Any]) -> str:
    mark = "ok" if record["agrees"] else ("finding" if record["finding"] else "DISAGREES")
    line = (
        f"{record['release']}  {record['scenario']:26} {record['outcome']}"
        f"  [{', '.join(record['cites'])}]  {mark}"
    )
    if not record["agrees"]:
        line += f" (source: {record['expected']})"
    if record["changed"]:
        changes = "; ".join(
            f"{c['change']} {c['before'] or ''}->{c['after'] or ''}" for c in record["rule_change"]
        )
        line += f"\n    changed since {record['previous_release']}"
        line += f" (was: {record['previous_outcome']}): {changes}"
    return line
