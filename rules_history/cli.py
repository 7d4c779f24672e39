"""The `rules-history` command: a thin layer that wires the stages together.

Every command has `--help`; commands that print data take `--json`. Errors a user can cause
(`RulesHistoryError`) become one line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from archive.manifest import CAPTURES_DIR
from rules_history.cite_cli import cite as cite_command
from rules_history.crawl_cli import crawl_command, warc_command
from rules_history.examples_cli import examples as examples_command
from rules_history.lineage_cli import blame as blame_command
from rules_history.lineage_cli import diff as diff_command
from rules_history.lineage_cli import trace as trace_command
from rules_history.options import (
    GivenPath,
    OneLineUsage,
    also_named_note,
    captures_option,
    clause_on_day,
    current_store,
    db_option,
    duplicate_note,
    effect_notes,
    json_option,
    print_json,
    reports_errors,
    rule_on_day,
    update_store_file,
)
from rules_history.site_cli import build as build_command
from rules_history.site_cli import serve as serve_command
from rules_history.update_cli import update_command


@click.group(cls=OneLineUsage, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rules-history")
def main() -> None:
    """Archive, compare and cite every release of the Magic: The Gathering
    Comprehensive Rules."""


@main.command()
@db_option
@captures_option
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--prune",
    is_flag=True,
    help="Remove from the store the releases the folder no longer lists (without it, such a "
    "folder is refused and nothing changes).",
)
@json_option
@reports_errors
def ingest(
    db_file: str | None, captures_dir: Path, quiet: bool, prune: bool, as_json: bool
) -> None:
    """Parse every capture into the store (captures already stored are skipped)."""
    _db, update = update_store_file(db_file, captures_dir, quiet, prune)
    report, witnessed, lineage = update.releases, update.witnesses, update.lineage
    if as_json:
        print_json(update.as_dict())
    else:
        click.echo(
            f"ingested {len(report.ingested)}, already stored {len(report.skipped)}, "
            f"failed {len(report.failed)}"
        )
        if report.renormalised:
            click.echo(f"comparison forms made again: {report.renormalised} texts")
        verdicts = ", ".join(f"{kind} {n}" for kind, n in witnessed["counts"].items())
        click.echo(f"witnesses: {len(witnessed['stored'])} captures ({verdicts})")
        click.echo(f"lineage: aligned {lineage['aligned']} of {lineage['releases']} releases")
        click.echo(f"names: {update.names} releases named")
        explained = update.explanations
        click.echo(
            f"explanations: {explained['entries']} entries of {explained['articles']} articles,"
            f" {explained['matched']} matched to changes, {explained['findings']} findings"
        )
        for file, warning in report.warnings:
            click.echo(f"warning: {file}: {warning}", err=True)
    for _file, problem in report.failed:
        click.echo(f"error: {problem}", err=True)
    if report.failed:
        sys.exit(1)


@main.command("releases")
@db_option
@json_option
@reports_errors
def releases_command(db_file: str | None, as_json: bool) -> None:
    """List the releases in the store: date, name, number of clauses and of examples.

    A clause is what has a history: a chapter, section, rule, subrule or glossary entry (the
    clauses `blame` lists); examples follow their rule and are counted apart."""
    from archive.capture_diffs import release_captures
    from archive.query import releases
    from lineage.counts import release_counts
    from lineage.derived import DERIVED_NOTE, derived_releases

    db = current_store(db_file)
    counts = release_counts(db)
    rows = releases(db)
    derived = derived_releases(db)
    for row in rows:
        row.update(counts[row["date"]])
        row["captures"] = release_captures(db, row["date"])
        if row["date"] in derived:
            row["derived"], row["note"] = True, DERIVED_NOTE
    if as_json:
        print_json(rows)
        return
    for row in rows:
        named = " ".join(part for part in (row["set_code"] or "", row["name"] or "") if part)
        line = f"{row['date']}  {row['clauses']:>5} clauses  {row['examples']:>4} examples"
        line = f"{line}  {named}".rstrip()
        if row["stated_date"] and row["stated_date"] != row["date"]:  # as its release page
            line += f"  (effective {row['stated_date']}, by its text)"
        if len(row["captures"]) > 1:
            line += f"  [{len(row['captures'])} captures]"
        click.echo(line + (f"  ({DERIVED_NOTE})" if row.get("derived") else ""))


@main.command()
@click.argument("rule")
@click.option(
    "--as-of",
    help="A date (YYYY-MM-DD) or a release's set code or name (M10, 'Magic 2010'): the"
    " release in force then. Default: newest.",
)
@db_option
@json_option
@reports_errors
def show(rule: str, as_of: str | None, db_file: str | None, as_json: bool) -> None:
    """Show a rule as it read in the release in force on a date.

    RULE is a number such as 708.2a, 504 or 502.26, a section or keyword title ("morph",
    "face-down spells and permanents") or a glossary term ("morph (glossary)" when a title
    has the same name); a heading shows everything numbered under it. RULE@DATE (as `trace`
    takes it) is RULE with --as-of DATE."""
    from archive.gaps import day_gap_notice
    from archive.lost_marks import lost_note
    from archive.printings import printed_note
    from lineage.derived import DERIVED_NOTE, is_derived

    db = current_store(db_file)
    asked = rule_on_day(rule, as_of)
    clause = clause_on_day(db, asked)
    if is_derived(db, clause["release"]):
        clause["derived"], clause["note"] = True, DERIVED_NOTE
    if as_json:
        print_json(clause)
        return
    label = clause["number"] or f"Glossary: {clause['term']}"
    click.echo(f"{label}  ({clause['release']} release)")
    if clause.get("derived"):
        click.echo(f"note: {clause['release']}: {DERIVED_NOTE}")
    if "gap" in clause:
        click.echo(f"note: {day_gap_notice(clause['gap'], str(asked[1]))}")
    for note in effect_notes(clause):
        click.echo(note)
    if clause.get("also_named"):  # the name is not one clause: say which others it names
        click.echo(also_named_note(rule, as_of, clause["also_named"]))
    if clause.get("duplicates"):  # an error of the official text, said as JSON says it
        click.echo(f"note: {duplicate_note(clause)}")
    if clause["lost_characters"]:
        click.echo(f"note: {lost_note(clause['lost_characters'])}")
    if clause.get("printed_number"):
        click.echo(f"note: {printed_note(clause['number'], clause['printed_number'])}")
    click.echo(clause["title"] if clause["kind"] in ("chapter", "section") else clause["text"])
    for example in clause["examples"]:
        click.echo(example)
    for inner in clause["contents"]:
        click.echo(f"{inner['number']} {inner['text']}")
        for example in inner["examples"]:
            click.echo(f"    {example}")
    for witness in clause.get("witnesses", []):
        click.echo(
            f"witness: {witness['source']} quotes the {witness['release']} wording:"
            f" {witness['agreement']}"
        )


@main.command()
@click.argument("release")
@click.option("--capture", "capture_file", help="Export this capture of the release instead.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["txt", "json"]),
    default="txt",
    show_default=True,
    help="txt: the text rebuilt from the store; json: its parts.",
)
@db_option
@reports_errors
def export(release: str, capture_file: str | None, output_format: str, db_file: str | None) -> None:
    """Print RELEASE (a date) rebuilt from the store, identical to its decoded capture."""
    from archive.capture_diffs import release_captures
    from archive.query import capture_for_export, export_parts, rebuild_text, resolve_when
    from lineage.derived import DERIVED_NOTE, is_derived

    db = current_store(db_file)
    when = resolve_when(db, release)
    capture = capture_for_export(db, when, capture_file)
    derived = is_derived(db, when)
    if output_format == "txt":
        if derived:  # the text itself stays byte for byte the capture's: the note goes aside
            click.echo(f"note: {when}: {DERIVED_NOTE}", err=True)
        sys.stdout.buffer.write(rebuild_text(db, capture["id"]).encode("utf-8"))
        return
    marks = {"derived": True, "note": DERIVED_NOTE} if derived else {}
    print_json(
        {
            "release": when,
            "capture": capture["file"],
            "sha256": capture["sha256"],
            **marks,
            "captures": release_captures(db, when),
            "parts": export_parts(db, capture["id"]),
        }
    )


@main.command()
@click.option(
    "--captures",
    "captures_dir",
    type=GivenPath(file_okay=False, path_type=Path),
    default=CAPTURES_DIR,
    show_default="the committed archive",
)
@reports_errors
def bench(captures_dir: Path) -> None:
    """Measure ingest speed and memory; print the figures as JSON."""
    from rules_history.bench import run_benchmarks

    print_json(run_benchmarks(captures_dir))


# Each stage's commands live in a module of their own; this is where they all join.
for command in (
    crawl_command,
    update_command,
    warc_command,
    trace_command,
    diff_command,
    blame_command,
    cite_command,
    build_command,
    serve_command,
    examples_command,
):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
