"""The `trace`, `diff` and `blame` commands: a clause's history, two releases compared, and
the release each clause's wording dates from. They only read the store (`rules-history
ingest` writes it); on a store that is behind they say so in one line."""

from __future__ import annotations

from typing import Any

import click
from sqlite_utils import Database

from rules_history.options import (
    also_named_note,
    current_store,
    day_in_gap,
    db_option,
    json_option,
    print_json,
    reports_errors,
    traced_note,
    with_gap_notice,
)
from rules_history.trace_text import (
    copy_printing_lines,
    derived_wording_lines,
    render_diff,
    trace_lines,
)
from vocabulary.days import ISO_DAY
from vocabulary.kind_names import shown_change_kind
from vocabulary.kinds import FORMATTING


def _store(db_file: str | None) -> Database:
    return current_store(db_file, mapped=True)  # short reads scattered over the store


def _label(db: Database, release: str) -> str:
    from archive.release_names import label, names_in_store

    code, name = names_in_store(db).get(release, ("", ""))
    return label(release, code, name)


def _numbers(numbers: list[str]) -> str:
    return ", ".join(numbers) or "-"


@click.command()
@click.argument("rule")
@db_option
@json_option
@reports_errors
def trace(rule: str, db_file: str | None, as_json: bool) -> None:
    """Follow a rule through every release where its number or words changed.

    RULE[@DATE] names the clause in the release in force on DATE, by its number, such as
    504.2@2008-03-17, or as `show` reads names: a section or keyword title or a glossary
    term (morph@2005-01-01 is 502.26, "morph (glossary)@2005-01-01" the glossary entry);
    no date: the newest release. The history goes
    backwards and forwards across renumbering, splits and merges."""
    from archive.errors import LookupFailed, NotANumber
    from archive.explanations import one_line
    from archive.gaps import day_gap_notice
    from lineage.derived import DERIVED_NOTE, derived_releases, is_derived
    from lineage.evidence import uncertain_mark
    from lineage.trace import split_note, split_rule_at
    from lineage.trace import trace as trace_rule

    number, when = split_rule_at(rule)
    db = _store(db_file)
    gap = day_in_gap(db, when)
    try:
        result = trace_rule(db, number, when)
    except NotANumber:  # written like no number: the day has nothing to add
        raise
    except LookupFailed as error:  # as `show` says: a release the archive lacks may have it
        raise LookupFailed(with_gap_notice(str(error), gap, number, when)) from error
    if is_derived(db, result["release"]):  # found in the copy; the entries are official
        result["derived"], result["note"] = True, DERIVED_NOTE
    if gap is not None:  # the clause is the one of the newest archived release before it
        result["gap"] = gap
    if as_json:
        print_json(result)
        return
    now = result["current_number"] or "gone"
    link = result["current_link"]  # the headline rests on it: say when it is uncertain
    doubt = uncertain_mark(link, link["release"])
    pieces = split_note([n for n in result["current_numbers"] if n != result["current_number"]])
    click.echo(
        f"{result['rule']} ({result['release']}) is {now} in {result['newest_release']}{doubt}"
        f"{pieces}"
    )
    if result.get("derived"):
        click.echo(f"note: {result['release']}: {DERIVED_NOTE}; the history below is official")
    if result["also_named"]:  # as `show` says it
        click.echo(also_named_note(rule, None, result["also_named"]))
    if result["duplicates"]:  # an error of the official text, as `show` says it
        click.echo(f"note: {traced_note(result)}")
    if gap is not None:
        click.echo(f"note: {day_gap_notice(gap, str(when))}")
    for line in trace_lines(result["entries"], one_line):
        click.echo(line)
    for line in copy_printing_lines(result["copy_printings"], DERIVED_NOTE):
        click.echo(line)
    for line in derived_wording_lines(result["wordings"], derived_releases(db), DERIVED_NOTE):
        click.echo(line)
    for witness in result.get("witnesses", []):
        click.echo(
            f"witness: {witness['source']} quotes {witness['number']} of {witness['release']}:"
            f" {witness['agreement']}"
        )


@click.command()
@click.argument("old")
@click.argument("new")
@click.option(
    "--rule",
    "rule_prefix",
    help="Only clauses numbered so, or under it (e.g. 504), or a title or term, read in each"
    " release (morph: 502.26 in 2008, 702.37 in 2024).",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="In text, show formatting-only changes too (typography, markup); JSON has them always.",
)
@db_option
@json_option
@reports_errors
def diff(
    old: str, new: str, rule_prefix: str | None, show_all: bool, db_file: str | None, as_json: bool
) -> None:
    """Compare release OLD with release NEW (dates or set codes or names, such as ONS and M10;
    any two, not only neighbours). Each change shows the official explanation of it, where
    a Comprehensive Rules changes article gives one.

    Formatting-only changes (quote style, markup, lost characters) are counted but not
    printed in text unless --all is given or an official article explains them.

    When a release the archive lacks lies between the two (a gap of the catalogue), the
    output says so: a `note:` line, and `gaps` in JSON."""
    from archive.explanations import annotate_diff, one_line
    from archive.gaps import day_gap_notice, gap_notice, gaps_between
    from lineage.compare import diff_releases
    from lineage.evidence import uncertain_mark

    db = _store(db_file)
    result = annotate_diff(db, diff_releases(db, old, new, rule_prefix))
    result["gaps"] = gaps_between(db, result["old"], result["new"])
    # a day asked inside a gap: a release the archive lacks may have been in force on it
    in_gaps = {day: gap for day in (old, new) if (gap := day_in_gap(db, day)) is not None}
    for gap in in_gaps.values():
        if gap["id"] not in {spanned["id"] for spanned in result["gaps"]}:
            result["gaps"].append(gap)
    if as_json:
        print_json(result)
        return
    counts = ", ".join(f"{kind} {count}" for kind, count in result["summary"].items())
    old_label, new_label = _label(db, result["old"]), _label(db, result["new"])
    click.echo(f"{old_label} -> {new_label}: {counts or 'no clauses in either release'}")
    if result["old"] == result["new"] and old != new:  # two days, one release in force
        click.echo(f"note: {old} and {new} both resolve to the {result['old']} release")
    named = result.get("rule_numbers", {})
    if rule_prefix and named.get("old") != named.get("new"):  # a name, read in each release
        sides = [f"{named[side] or 'nothing'} in {result[side]}" for side in ("old", "new")]
        click.echo(f"rule: {result['rule_prefix']} names {' and '.join(sides)}")
    for gap in result["gaps"]:
        days = [day for day, held in in_gaps.items() if held["id"] == gap["id"]]
        for notice in [day_gap_notice(gap, day) for day in days] or [gap_notice(gap)]:
            click.echo(f"note: {notice}")
    if "note" in result:
        unconfirmed = ", ".join(f"{k} {n}" for k, n in result.get("unconfirmed", {}).items())
        checked = f" (checked against {result['confirmed_by']})" if "confirmed_by" in result else ""
        click.echo(f"note: {result['note']}; unconfirmed{checked}: {unconfirmed or 'none'}")
    shown = [c for c in result["changes"] if show_all or not _is_noise(c)]
    hidden = len(result["changes"]) - len(shown)
    if hidden:
        click.echo(f"{hidden:,} formatting changes hidden; --all shows them")
    for change in shown:
        moved = f"{_numbers(change['old'])} -> {_numbers(change['new'])}"
        doubt = " (unconfirmed)" if change.get("confirmed") is False else ""
        kind = shown_change_kind(change["kind"], change["old"], change["new"])
        click.echo(f"\n{kind}{doubt}: {moved}{uncertain_mark(change)}")
        click.echo(render_diff(change["diff"]))
        for item in change["explanations"]:
            click.echo(f"explained: {one_line(item)}")
    if not rule_prefix:
        for item in result["explanation_findings"]:
            click.echo(f'\nfinding: "{item["article"]}", {item["heading"]}: {item["finding"]}')


def _is_noise(change: dict[str, Any]) -> bool:
    """A formatting-only change that no official article explains: hidden from text diffs."""
    return change["kind"] == FORMATTING and not change["explanations"]


@click.command()
@click.argument("release")
@click.option(
    "--rule",
    "rule_prefix",
    help="Only clauses numbered so, or under it (e.g. 504), or a title or term (e.g. morph).",
)
@db_option
@json_option
@reports_errors
def blame(release: str, rule_prefix: str | None, db_file: str | None, as_json: bool) -> None:
    """For each clause of RELEASE (a date, set code or name), the release its wording dates
    from."""
    from archive.gaps import day_gap_notice, gap_brief
    from lineage.blame import blame as blame_release
    from lineage.derived import DERIVED_NOTE

    db = _store(db_file)
    rows: list[dict[str, Any]] = blame_release(db, release, rule_prefix)
    gap = day_in_gap(db, release)  # a day asked, inside a gap: as `show` says it
    if gap is not None:
        brief = gap_brief(gap)
        for row in rows:
            row["gap"] = brief
    if as_json:
        print_json(rows)
        return
    if rows and rows[0].get("derived"):
        click.echo(f"note: {rows[0]['release']}: {DERIVED_NOTE}")
    if rows and ISO_DAY.fullmatch(release.strip()) and rows[0]["release"] != release.strip():
        # a day that is no release's: say which release answers, as `diff` heads its output
        click.echo(f"note: the {rows[0]['release']} release, the one in force on {release}")
    if gap is not None:
        click.echo(f"note: {day_gap_notice(gap, release)}")
    for row in rows:  # its text as well, when a cross-reference or typography changed since
        text = f"  (text {row['text_since']})" if row["text_since"] != row["since"] else ""
        mark = "*" if row["since_gap"] else " "
        click.echo(f"{row['since']}{mark} {row['number']}{text}")
    for brief in {
        row["since_gap"]["id"]: row["since_gap"] for row in rows if row["since_gap"]
    }.values():
        click.echo(
            f"* or earlier: the archive lacks the releases between {brief['after']} and"
            f" {brief['before']} ({brief['title']})"
        )
