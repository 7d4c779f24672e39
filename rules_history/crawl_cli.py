"""The `crawl` and `warc` commands: wiring of the crawler, registered on the main group."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from crawler.limits import MAX_BYTES
from rules_history.options import GivenPath, print_json, reports_errors

# The exit status of a crawl whose only failures are sources never archived, told apart
# from one that failed (1): some of the catalogue's sources never were archived.
NOT_ARCHIVED_STATUS = 3

DEFAULT_CAPTURES = Path("_build") / "captures"
F = TypeVar("F", bound=Callable[..., Any])
# The longest wait an option may ask for: a day is more than any crawl needs, and waits from
# about 1e10 s on overflow the system's timers (a traceback from a watchdog thread).
MAX_SECONDS = 86_400.0
# The slowest rate besides 0 (no limit): one request in 100 minutes; far smaller rates make
# a wait between requests that overflows the system's sleep.
MIN_RATE = 0.01


class FiniteFloat(click.FloatRange):
    """A float in a range that refuses `nan` and `inf` by the option's name.

    click's FloatRange lets both through (`nan` compares false with every bound), and the
    HTTP policy then fails deep in a timer or a sleep with a traceback.
    """

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


class Rate(FiniteFloat):
    """Requests a minute: 0 (no limit) or at least `MIN_RATE`."""

    name = "rate"

    def __init__(self) -> None:
        super().__init__(min=0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if 0 < number < MIN_RATE:
            self.fail(f"{number:g} is neither 0 (no limit) nor at least {MIN_RATE:g}.", param, ctx)
        return number


def seconds(minimum_open: bool) -> FiniteFloat:
    """Seconds from 0 (excluded when `minimum_open`) to `MAX_SECONDS`."""
    return FiniteFloat(min=0, min_open=minimum_open, max=MAX_SECONDS)


HTTP_POLICY_OPTIONS = [
    click.option(
        "--rate",
        type=Rate(),
        default=20.0,
        show_default=True,
        help="CDX requests a minute (0: no limit, for a local mirror).",
    ),
    click.option(
        "--fetch-rate",
        type=Rate(),
        default=30.0,
        show_default=True,
        help="Capture requests a minute (0: no limit).",
    ),
    click.option(
        "--timeout",
        type=seconds(minimum_open=True),
        default=30.0,
        show_default=True,
        help="Seconds one read may wait.",
    ),
    click.option(
        "--deadline",
        type=seconds(minimum_open=True),
        default=300.0,
        show_default=True,
        help="Seconds one request may take in all (a slow drip is cut there and retried).",
    ),
    click.option(
        "--max-bytes",
        type=click.IntRange(min=1),
        default=MAX_BYTES,
        show_default=True,
        help="Largest body accepted, before and after decompression.",
    ),
    click.option(
        "--retries",
        type=click.IntRange(min=0),
        default=5,
        show_default=True,
        help="Retries a request.",
    ),
    click.option(
        "--backoff",
        type=seconds(minimum_open=False),
        default=2.0,
        show_default=True,
        help="First retry delay in seconds (doubles).",
    ),
]


def http_policy_options(command: F) -> F:
    """The options of the crawler's HTTP policy (rates, timeouts, deadline, cap, retries)."""
    for option in reversed(HTTP_POLICY_OPTIONS):
        command = option(command)
    return command


def policy_from(
    rate: float,
    fetch_rate: float,
    timeout: float,
    deadline: float,
    max_bytes: int,
    retries: int,
    backoff: float,
) -> Any:
    """The `crawler.wayback.Policy` the options describe."""
    from crawler.wayback import Policy

    return Policy(
        timeout=timeout,
        deadline=deadline,
        max_bytes=max_bytes,
        cdx_per_minute=rate,
        fetch_per_minute=fetch_rate,
        retries=retries,
        backoff=backoff,
    )


@click.command("crawl")
@click.option("--source", "source_ids", multiple=True, help="A catalogue source id (repeatable).")
@click.option("--release", "releases", multiple=True, help="A CR release date (repeatable).")
@click.option(
    "--wayback",
    default="https://web.archive.org",
    show_default=True,
    help="Base URL of the Wayback Machine (or a mirror); CDX and id_ URLs are built from it.",
)
@click.option(
    "--captures",
    "captures_dir",
    type=GivenPath(file_okay=False, path_type=Path),
    default=DEFAULT_CAPTURES,
    show_default=True,
    help="Captures folder: objects, index.json and the manifest.json ingest reads.",
)
@click.option("--offline", is_flag=True, help="Never touch the network; report what is missing.")
@click.option(
    "--dry-run", is_flag=True, help="List the requests a crawl would make; fetch nothing."
)
@click.option(
    "--catalogue",
    "catalogue_file",
    type=GivenPath(dir_okay=False, exists=True, path_type=Path),
    help="Another catalogue file (default: crawler/catalogue.jsonl).",
)
@http_policy_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@reports_errors
def crawl_command(
    source_ids: tuple[str, ...],
    releases: tuple[str, ...],
    wayback: str,
    captures_dir: Path,
    offline: bool,
    dry_run: bool,
    catalogue_file: Path | None,
    rate: float,
    fetch_rate: float,
    timeout: float,
    deadline: float,
    max_bytes: int,
    retries: int,
    backoff: float,
    quiet: bool,
    as_json: bool,
) -> None:
    """Capture CR releases and witness pages from the Wayback Machine into a captures folder.

    Sources already captured are skipped, so an interrupted crawl resumes where it stopped.
    Then `rules-history ingest --captures DIR` reads what was captured.

    Exit status 0 when every source asked for was captured or skipped; 3 when the only
    failures are sources the Wayback Machine has not archived (some of the catalogue's never
    were: rerunning will not help); 1 when any other failed (unavailable, a bad capture ...).
    Each failure is named on stderr.
    """
    from tqdm import tqdm

    from crawler.capture_store import CaptureStore
    from crawler.catalogue import CATALOGUE_FILE, load_catalogue, select
    from crawler.crawl import crawl
    from crawler.wayback import NotArchived, WaybackSession

    catalogue = load_catalogue(catalogue_file or CATALOGUE_FILE)
    sources = select(catalogue, source_ids, releases)
    store = CaptureStore(captures_dir)
    policy = policy_from(rate, fetch_rate, timeout, deadline, max_bytes, retries, backoff)
    session = None if offline or dry_run else WaybackSession(wayback, policy)

    def progress(items: Any) -> Any:
        return tqdm(items, desc="crawl", unit="source", disable=quiet or None, file=sys.stderr)

    try:
        report = crawl(
            sources, store, session, progress=progress, dry_run=dry_run, catalogue=catalogue
        )
    finally:
        if session is not None:
            session.close()
    if as_json:
        print_json({**report.as_dict(), "unplaced": store.unplaced()})
    else:
        _print_summary(report)
        for line in store.unplaced():
            click.echo(f"warning: {line}", err=True)
    if report.failed:
        only_missing = all(reason == NotArchived.reason for _source, reason, _ in report.failed)
        sys.exit(NOT_ARCHIVED_STATUS if only_missing else 1)


def _print_summary(report: Any) -> None:
    for source, request in report.planned:
        click.echo(f"would request: {source}: {request}")
    click.echo(
        f"fetched {len(report.fetched)}, skipped {len(report.skipped)}, failed {len(report.failed)}"
    )
    reasons: dict[str, int] = {}
    for _source, reason in report.skipped:
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        click.echo(f"  skipped {count}: {reason}")
    for source, reason, detail in report.failed:
        click.echo(f"failed: {source}: {reason}: {detail}", err=True)


@click.command("warc")
@click.argument("output", type=GivenPath(dir_okay=False, path_type=Path))
@click.option(
    "--captures",
    "captures_dir",
    type=GivenPath(file_okay=False, exists=True, path_type=Path),
    default=DEFAULT_CAPTURES,
    show_default=True,
    help="Captures folder to export.",
)
@reports_errors
def warc_command(output: Path, captures_dir: Path) -> None:
    """Export a captures folder as a WARC file (gzipped when OUTPUT ends in .gz).

    OUTPUT is replaced only when the whole export succeeds; a failed one leaves it as it
    was. A folder with no capture to export is an error, not an empty file.
    """
    from crawler.capture_store import CaptureStore
    from crawler.warc import export_warc

    count = export_warc(CaptureStore(captures_dir), output)
    click.echo(f"wrote {count} records to {output}")
