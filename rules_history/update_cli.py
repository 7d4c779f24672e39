"""The `update` command: the next CR release, found, verified, archived, ingested and built.

It reads the official rules page named in the catalogue (the Wayback Machine when the page
fails), fetches each CR text it links through the crawler's HTTP policy, and keeps a text
only if the project's parser reads it as a CR (rules reaching the glossary, a stated date,
no HTML). A text whose sha256 is archived is nothing new; one stating the date of an
archived release is a further capture of it; anything else is a new release. New texts are
added to the captures folder (written once, the manifest extended with their provenance),
then the store and the site are brought up to date by the same functions `ingest` and
`build` use. A rerun finds the same sha256 and does nothing.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from archive.manifest import CAPTURES_DIR
from rules_history.crawl_cli import http_policy_options, policy_from
from rules_history.options import GivenPath, db_option, json_option, print_json, reports_errors
from rules_history.site_cli import DEFAULT_OUT


@click.command("update")
@click.option(
    "--rules-page",
    help="Address of the official rules page (default: the catalogue's; another for a mirror"
    " or a test).",
)
@click.option(
    "--wayback",
    default="https://web.archive.org",
    show_default=True,
    help="Base URL of the Wayback Machine, read when the official site fails.",
)
@click.option(
    "--captures",
    "captures_dir",
    type=GivenPath(file_okay=False, path_type=Path),
    default=CAPTURES_DIR,
    show_default="the committed archive",
    help="Captures folder (cr/ and manifest.json) the new text is added to.",
)
@db_option
@click.option(
    "--out",
    type=GivenPath(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Site folder brought up to date after an addition.",
)
@click.option("--base-url", default="", envvar="RULES_HISTORY_BASE_URL", help="As for `build`.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index.")
@click.option("--no-site", is_flag=True, help="Update the captures and the store only.")
@click.option(
    "--catalogue",
    "catalogue_file",
    type=GivenPath(dir_okay=False, exists=True, path_type=Path),
    help="Another catalogue file (default: crawler/catalogue.jsonl).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Read the page and the text, say what would be added; write nothing.",
)
@http_policy_options
@click.option("--quiet", is_flag=True, help="Print only what changed and errors.")
@json_option
@reports_errors
def update_command(
    rules_page: str | None,
    wayback: str,
    captures_dir: Path,
    db_file: str | None,
    out: Path,
    base_url: str,
    no_search: bool,
    no_site: bool,
    catalogue_file: Path | None,
    dry_run: bool,
    quiet: bool,
    as_json: bool,
    **policy: Any,
) -> None:
    """Find the current CR on the official rules page and bring the archive up to date.

    Exit status 0 when the archive is up to date (or was brought up to date), 1 when no CR
    text could be found or read.
    """
    from crawler.catalogue import CATALOGUE_FILE, load_catalogue
    from crawler.official import rules_page as find_page
    from crawler.wayback import WaybackSession
    from rules_history.updater import run_update

    page = find_page(load_catalogue(catalogue_file or CATALOGUE_FILE), rules_page)
    with (
        WaybackSession(page.url, policy_from(**policy)) as session,
        WaybackSession(wayback, policy_from(**policy)) as archive,
    ):
        result = run_update(
            page,
            session,
            archive,
            captures_dir,
            today=datetime.now(UTC).date().isoformat(),
            dry_run=dry_run,
        )
    if result.added and not dry_run:
        site = None if no_site else out
        _bring_up_to_date(result, captures_dir, db_file, site, base_url, not no_search)
    if as_json:
        print_json(result.as_dict())
    else:
        for line in result.lines(dry_run):
            click.echo(line)
    for problem in result.problems:
        click.echo(f"warning: {problem}", err=True)
    if not result.decisions:
        click.echo("error: no CR text found on the rules page or in the Wayback Machine", err=True)
        sys.exit(1)


def _bring_up_to_date(
    result: Any,
    captures_dir: Path,
    db_file: str | None,
    out: Path | None,
    base_url: str,
    search: bool,
) -> None:
    """Ingest the new captures (releases, lineages), then rebuild the site incrementally."""
    from archive.errors import RulesHistoryError
    from archive.store import open_store
    from rules_history.pipeline import update_store

    db = open_store(db_file)
    report = update_store(db, captures_dir)
    if report.failed:
        raise RulesHistoryError("; ".join(problem for _file, problem in report.failed))
    result.ingested = list(report.releases.ingested)
    if out is not None:
        from renderer.build import build_site

        built = build_site(db, out, base_url=base_url, search=search)
        result.site = {
            "pages_rendered": built.pages_rendered,
            "pages_skipped": built.pages_skipped,
        }
    db.close()
