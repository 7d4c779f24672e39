"""The `rules-history` command: a thin layer that wires the stages together.

Every command has `--help`; commands that print data take `--json`. Errors a user can cause
(`RulesHistoryError`) become one line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from archive.errors import RulesHistoryError
from archive.manifest import CAPTURES_DIR
from archive.store import DB_ENV, open_store

F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(command: F) -> F:
    """Turn the errors a user can cause into one clear line and exit status 1."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RulesHistoryError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


db_option = click.option(
    "--db",
    "db_file",
    type=click.Path(dir_okay=False),
    envvar=DB_ENV,
    help=f"SQLite store (default _build/rules.db, or ${DB_ENV}).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rules-history")
def main() -> None:
    """Archive, compare and cite every release of the Magic: The Gathering
    Comprehensive Rules."""


@main.command()
@db_option
@click.option(
    "--captures",
    "captures_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=CAPTURES_DIR,
    show_default="the committed archive",
    help="Folder with manifest.json and the captured files.",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@json_option
@reports_errors
def ingest(db_file: str | None, captures_dir: Path, quiet: bool, as_json: bool) -> None:
    """Parse every capture into the store (captures already stored are skipped)."""
    from tqdm import tqdm

    from archive.ingest import ingest_captures
    from archive.lineage import build_lineage
    from rules_history.crawl_cli import ingest_witnesses

    db = open_store(db_file)

    def progress(items: Any) -> Any:
        return tqdm(items, desc="ingest", unit="capture", disable=quiet or None, file=sys.stderr)

    report = ingest_captures(db, captures_dir, progress=progress)
    witnessed = ingest_witnesses(db, captures_dir)  # after the releases they are checked against
    report.failed.extend(witnessed.pop("failed"))
    lineage = build_lineage(db)  # only releases whose alignment is missing or stale
    if as_json:
        print_json({**report.__dict__, "witnesses": witnessed, "lineage": lineage})
    else:
        click.echo(
            f"ingested {len(report.ingested)}, already stored {len(report.skipped)}, "
            f"failed {len(report.failed)}"
        )
        click.echo(f"witnesses: {len(witnessed['stored'])} captures, {witnessed['counts']}")
        click.echo(f"lineage: aligned {lineage['aligned']} of {lineage['releases']} releases")
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
    """List the releases in the store: date, name, number of clauses."""
    from archive.query import releases

    rows = releases(open_store(db_file))
    if as_json:
        print_json(rows)
        return
    for row in rows:
        click.echo(f"{row['date']}  {row['clauses']:>5} clauses  {row['name'] or ''}".rstrip())


@main.command()
@click.argument("rule")
@click.option("--as-of", help="A date (YYYY-MM-DD): the release in force then. Default: newest.")
@db_option
@json_option
@reports_errors
def show(rule: str, as_of: str | None, db_file: str | None, as_json: bool) -> None:
    """Show RULE (e.g. 708.2a) as it read in the release in force on a date."""
    from archive.query import show as show_clause

    clause = show_clause(open_store(db_file), rule, as_of)
    if as_json:
        print_json(clause)
        return
    heading = f"{clause['number']}  ({clause['release']} release)"
    click.echo(heading)
    click.echo(clause["title"] or clause["text"])
    for example in clause["examples"]:
        click.echo(example)
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
    from archive.query import capture_for_export, export_parts, parse_date, rebuild_text

    db = open_store(db_file)
    when = parse_date(release)
    capture = capture_for_export(db, when, capture_file)
    if output_format == "txt":
        sys.stdout.buffer.write(rebuild_text(db, capture["id"]).encode("utf-8"))
        return
    print_json(
        {
            "release": when,
            "capture": capture["file"],
            "sha256": capture["sha256"],
            "parts": export_parts(db, capture["id"]),
        }
    )


@main.command()
@click.option(
    "--captures",
    "captures_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=CAPTURES_DIR,
    show_default="the committed archive",
)
@reports_errors
def bench(captures_dir: Path) -> None:
    """Measure ingest speed and memory; print the figures as JSON."""
    from rules_history.bench import run_benchmarks

    print_json(run_benchmarks(captures_dir))


# The crawler's commands live in their own module; it imports the helpers defined above.
from rules_history.crawl_cli import crawl_command, warc_command  # noqa: E402

main.add_command(crawl_command)
main.add_command(warc_command)

# The static site's commands (build, serve) live in their own module too.
from rules_history.site_cli import build as build_command  # noqa: E402
from rules_history.site_cli import serve as serve_command  # noqa: E402

main.add_command(build_command)
main.add_command(serve_command)

# The face-down examples (facedown/) have their own module as well.
from rules_history.examples_cli import examples as examples_command  # noqa: E402

main.add_command(examples_command)

# Lineages, diffs and blame (archive/lineage.py and its readers) have their own module too.
from rules_history.lineage_cli import blame as blame_command  # noqa: E402
from rules_history.lineage_cli import diff as diff_command  # noqa: E402
from rules_history.lineage_cli import trace as trace_command  # noqa: E402

main.add_command(trace_command)
main.add_command(diff_command)
main.add_command(blame_command)


if __name__ == "__main__":  # pragma: no cover
    main()
