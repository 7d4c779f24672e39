"""The `trace`, `diff` and `blame` commands: a clause's history, two releases compared, and
the release each clause's wording dates from. They only read the store (`rules-history
ingest` writes it); on a store that is behind they say so in one line."""

from __future__ import annotations

from typing import Any

import click
from sqlite_utils import Database

from rules_history.options import db_option, json_option, print_json, reports_errors


def _store(db_file: str | None) -> Database:
    from archive.store import open_reader
    from lineage.freshness import require_current

    db = open_reader(db_file)
    require_current(db)
    return db


def _numbers(numbers: list[str]) -> str:
    return ", ".join(numbers) or "-"


def render_diff(diff: list[tuple[int, str]]) -> str:
    """A word diff as text: [-deleted-]{+inserted+}, as wdiff prints it.

    >>> render_diff([(0, "in "), (-1, "play"), (1, "the battlefield")])
    'in [-play-]{+the battlefield+}'
    """
    marks = {-1: "[-{}-]", 0: "{}", 1: "{{+{}+}}"}
    return "".join(marks[op].format(text) for op, text in diff)


@click.command()
@click.argument("rule")
@db_option
@json_option
@reports_errors
def trace(rule: str, db_file: str | None, as_json: bool) -> None:
    """Follow a rule through every release where its number or words changed.

    RULE[@DATE] names the clause by its number in the release in force on DATE, such as
    504.2@2008-03-17 (no date: the newest release); the history goes backwards and
    forwards across renumbering, splits and merges."""
    from lineage.trace import split_rule_at
    from lineage.trace import trace as trace_rule

    number, when = split_rule_at(rule)
    result = trace_rule(_store(db_file), number, when)
    if as_json:
        print_json(result)
        return
    now = result["current_number"] or "gone"
    click.echo(f"{result['rule']} ({result['release']}) is {now} in {result['newest_release']}")
    for entry in result["entries"]:
        moved = f"{_numbers(entry['old'])} -> {_numbers(entry['new'])}"
        click.echo(f"{entry['release']}  {entry['kind']:<20} {moved}")
        click.echo(f"    {(entry['text'] or '').replace(chr(10), ' ')}")
    for witness in result.get("witnesses", []):
        click.echo(
            f"witness: {witness['source']} quotes {witness['number']} of {witness['release']}:"
            f" {witness['agreement']}"
        )


@click.command()
@click.argument("old")
@click.argument("new")
@click.option("--rule", "rule_prefix", help="Only clauses numbered so, or under it (e.g. 504).")
@db_option
@json_option
@reports_errors
def diff(old: str, new: str, rule_prefix: str | None, db_file: str | None, as_json: bool) -> None:
    """Compare release OLD with release NEW (dates; any two, not only neighbours).

    When a release the archive lacks lies between the two (a gap of the catalogue), the
    output says so: a `note:` line, and `gaps` in JSON."""
    from archive.gaps import gap_notice, gaps_between
    from lineage.compare import diff_releases

    db = _store(db_file)
    result = diff_releases(db, old, new, rule_prefix)
    result["gaps"] = gaps_between(db, result["old"], result["new"])
    if as_json:
        print_json(result)
        return
    counts = ", ".join(f"{kind} {count}" for kind, count in result["summary"].items())
    click.echo(f"{result['old']} -> {result['new']}: {counts or 'no clauses'}")
    for gap in result["gaps"]:
        click.echo(f"note: {gap_notice(gap)}")
    for change in result["changes"]:
        moved = f"{_numbers(change['old'])} -> {_numbers(change['new'])}"
        click.echo(f"\n{change['kind']}: {moved}")
        click.echo(render_diff(change["diff"]))


@click.command()
@click.argument("release")
@click.option("--rule", "rule_prefix", help="Only clauses numbered so, or under it (e.g. 504).")
@db_option
@json_option
@reports_errors
def blame(release: str, rule_prefix: str | None, db_file: str | None, as_json: bool) -> None:
    """For each clause of RELEASE (a date), the release its wording dates from."""
    from lineage.blame import blame as blame_release

    rows: list[dict[str, Any]] = blame_release(_store(db_file), release, rule_prefix)
    if as_json:
        print_json(rows)
        return
    for row in rows:
        click.echo(f"{row['since']}  {row['number']}")
