"""The site's commands, `build` and `serve`; cli.py adds them to the `rules-history` group."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from archive.errors import RulesHistoryError
from archive.locking import writer_lock
from archive.store import db_path, open_reader
from rules_history.options import (
    GivenPath,
    captures_option,
    check_base_url,
    db_option,
    json_option,
    print_json,
    reports_errors,
    update_store_file,
)

DEFAULT_OUT = Path("_site")
STATE_ROOT = "site-state"  # beside the store: what the build keeps but does not publish
MAX_PORT = 65535  # TCP port numbers are 16 bits


def update_store(db_file: str | None, captures_dir: Path, quiet: bool) -> None:
    """Run the pipeline first (a no-op when every stage is current); its progress bar shows
    on a terminal only, as `ingest`'s does."""
    db, report = update_store_file(db_file, captures_dir, quiet)
    db.close()
    if report.failed:
        raise RulesHistoryError("; ".join(problem for _file, problem in report.failed))
    if not quiet and report.releases.ingested:
        click.echo(f"ingested {len(report.releases.ingested)} new captures", err=True)


@click.command()
@click.option(
    "--out",
    type=GivenPath(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Folder to write the site into.",
)
@click.option(
    "--base-url",
    default="",
    envvar="RULES_HISTORY_BASE_URL",
    help="Absolute URL the site will be published at, used in citations"
    " (default: the address it is viewed at, filled in by the browser).",
)
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index.")
@click.option(
    "--state",
    "state_root",
    type=GivenPath(file_okay=False, path_type=Path),
    default=None,
    help="Folder for what the build keeps but does not publish: its manifest and caches"
    f" (default: {STATE_ROOT}/ next to the store).",
)
@captures_option
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
@db_option
@json_option
@reports_errors
def build(
    out: Path,
    base_url: str,
    no_search: bool,
    state_root: Path | None,
    captures_dir: Path,
    quiet: bool,
    db_file: str | None,
    as_json: bool,
) -> None:
    """Bring the store up to date (the pipeline, as `ingest`), then render the whole static
    site into --out (reading the store only)."""
    from renderer.build import build_site
    from renderer.progress import Progress
    from renderer.state import check_folders, site_state

    check_base_url(base_url)
    state = site_state(out, state_root or db_path(db_file).parent / STATE_ROOT)
    check_folders(out, state)  # before the pipeline: a refused build costs nothing
    # Both folders are checked before either is made: a state folder that cannot be made
    # once left an empty site folder behind.
    check_can_make(state.parent, "--state", "state folder")
    check_can_make(out, "--out", "site folder")
    for folder in (state, out):
        make_folder(folder)
    with writer_lock(db_path(db_file)):  # no ingest may change the store while pages render
        update_store(db_file, captures_dir, quiet or as_json)
        progress = Progress(disable=quiet or as_json or None)  # None: on a terminal only
        report = build_site(
            open_reader(db_file),
            out,
            base_url=base_url,
            search=not no_search,
            progress=progress,
            state=state,
        )
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    if as_json:
        print_json(report.__dict__)
    elif not quiet:
        click.echo(
            f"built {out}: {report.pages_rendered} pages rendered, {report.pages_skipped}"
            f" unchanged, {report.files_changed} files written, {report.stale_removed} removed"
            f" in {report.seconds} s"
        )


def check_can_make(folder: Path, option: str, what: str) -> None:
    """Refuse, before anything is written, a folder that cannot be made or written: an
    existing one must be a writable folder; a new one needs its nearest existing parent to
    be one."""
    existing = folder
    while not existing.exists() and existing.parent != existing:
        if existing.is_symlink():  # a dangling link: nothing can be made through it
            raise RulesHistoryError(f"{option} {folder}: {existing} is a broken symbolic link")
        existing = existing.parent
    if not existing.is_dir():
        raise RulesHistoryError(
            f"{option} {folder}: {existing} is not a folder, so the {what} cannot be made there"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise RulesHistoryError(f"{option} {folder}: {existing} is not writable")


def make_folder(folder: Path) -> None:
    """Make a folder `check_can_make` accepted; a failure still costs one line."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RulesHistoryError(f"{folder}: cannot create it ({error.strerror})") from error


@click.command()
@click.option("--port", default=8000, show_default=True, help="Port on 127.0.0.1 (0: any free).")
@click.option(
    "--dir",
    "site_dir",
    type=GivenPath(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="The built site.",
)
@reports_errors
def serve(port: int, site_dir: Path) -> None:
    """Serve the built site on http://127.0.0.1:PORT/ for preview."""
    from renderer.serve import make_server

    if not 0 <= port <= MAX_PORT:
        raise RulesHistoryError(f"--port {port} is not a TCP port (0 to {MAX_PORT})")
    if not (site_dir / "index.html").exists():
        raise RulesHistoryError(f"{site_dir}/index.html is missing: run `rules-history build`")
    try:
        server = make_server(site_dir, port)
    except OSError as error:
        raise RulesHistoryError(f"cannot serve on 127.0.0.1:{port}: {error.strerror}") from error
    click.echo(f"serving {site_dir} on http://127.0.0.1:{server.server_address[1]}/", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()
        sys.exit(0)
