"""What every command module shares: the --db and --json options, JSON output, and the
turning of a user's error into one line and exit status 1."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections.abc import Callable
from datetime import date
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from sqlite_utils import Database

from archive.errors import LookupFailed, NotANumber, RulesHistoryError
from archive.manifest import CAPTURES_DIR
from archive.printings import ordinal
from archive.store import DB_ENV, db_path
from archive.workers import INTERRUPTED_EXIT
from vocabulary.days import to_come_notice

if TYPE_CHECKING:  # the pipeline imports every stage: loaded by the commands that run it
    from rules_history.pipeline import UpdateReport

F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(command: F) -> F:
    """Turn the errors a user can cause into one clear line and exit status 1: ours, a store
    file that SQLite cannot read, a file or folder the system refuses (naming it)."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RulesHistoryError as error:
            message = str(error)
        except sqlite3.DatabaseError as error:
            message = f"{db_path(kwargs.get('db_file'))}: the store cannot be read ({error})"
            if str(error).startswith(("no such table", "no such column")):
                message += (
                    ": it is from an older version or damaged; run `rules-history ingest`,"
                    " and if that does not bring it up to date, remove it and ingest again"
                )
        except OSError as error:
            if error.filename is None:
                raise
            message = f"{error.filename}: {error.strerror or error}"
        click.echo(f"error: {message}", err=True)
        sys.exit(1)

    return wrapper  # type: ignore[return-value]


class GivenPath(click.Path):
    """`click.Path` that refuses an empty path: `--out ""` is the current folder to the
    system, and a build wrote the whole site there; `--db ""` made a store beside it."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path names no file or folder", param, ctx)
        return super().convert(value, param, ctx)


class UsageLine(click.ClickException):
    """A usage error (an unknown option, a value of the wrong type) as one line, like every
    other error the user can cause, instead of click's usage block: exit status 2 still says
    the command line itself was wrong."""

    exit_code = 2

    def __init__(self, error: click.UsageError) -> None:
        where = f" (see `{error.ctx.command_path} --help`)" if error.ctx else ""
        super().__init__(f"{error.format_message()}{where}")

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


# What an interrupted command says: every write is whole (atomic) and a rerun resumes.
INTERRUPTED = "interrupted: what was written before is kept whole; run the command again to finish"


class OneLineUsage(click.Group):
    """The command group whose usage errors, its own and its commands', are one line."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError:  # no command: the help, as asked for
            raise
        except click.UsageError as error:
            raise UsageLine(error) from error

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:
            raise UsageLine(error) from error
        except KeyboardInterrupt:  # Ctrl-C: one line, where click printed a blank and "Aborted!"
            click.echo(INTERRUPTED, err=True)
            ctx.exit(INTERRUPTED_EXIT)


db_option = click.option(
    "--db",
    "db_file",
    type=GivenPath(dir_okay=False),
    envvar=DB_ENV,
    help=f"SQLite store (default _build/rules.db, or ${DB_ENV}).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
captures_option = click.option(
    "--captures",
    "captures_dir",
    type=GivenPath(file_okay=False, exists=True, path_type=Path),
    default=CAPTURES_DIR,
    show_default="the committed archive",
    help="Folder with manifest.json and the captured files (ingested first by build).",
)


def update_store_file(
    db_file: str | None, captures_dir: Path, quiet: bool, prune: bool = False
) -> tuple[Database, UpdateReport]:
    """The pipeline (`rules_history.pipeline.update_store`) on the store at `db_file`, from
    `captures_dir`, as `ingest` and `build` run it: the manifest read before the store is
    opened, so that a folder refused leaves no new store behind, and a progress bar on a
    terminal only (`quiet`: none). The open store and the pipeline's report."""
    from tqdm import tqdm

    from archive.manifest import load_manifest
    from archive.store import open_store
    from rules_history.pipeline import update_store

    def progress(items: Any) -> Any:
        return tqdm(items, desc="ingest", unit="capture", disable=quiet or None, file=sys.stderr)

    load_manifest(captures_dir)
    db = open_store(db_file)
    return db, update_store(db, captures_dir, progress=progress, prune=prune)


def current_store(db_file: str | None, mapped: bool = False) -> Database:
    """The store opened for reading, refused in one line when the pipeline left it behind
    (`lineage.freshness`): every read command answers from a store that is up to date.
    `mapped`: see `archive.store.open_reader`."""
    from archive.store import open_reader
    from lineage.freshness import require_current

    db = open_reader(db_file, mapped=mapped)
    require_current(db)
    return db


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


# The characters RFC 3986 lets a URL hold, less "?" and "#": a site's address is joined
# before every page's path, and ends up in citations (a wiki template's "|" or "}}", a BibTeX
# field's braces or quote would end the field early).
BASE_URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/@!$&'()*+,;=%\[\]]*")


def check_base_url(base_url: str) -> None:
    """A site's address given by --base-url must be an absolute http(s) URL (or nothing),
    with no query or fragment, of the characters a URL may hold."""
    from renderer.links import external_url

    if not base_url:
        return
    if external_url(base_url) is None:
        raise RulesHistoryError(f"--base-url {base_url!r} is not an absolute http(s) URL")
    if not BASE_URL_CHARACTERS.fullmatch(base_url):
        raise RulesHistoryError(
            f"--base-url {base_url!r}: a site's address has no query (?) or fragment (#), and"
            " only the characters a URL may hold (percent-encode the others)"
        )


def rule_on_day(rule: str, as_of: str | None) -> tuple[str, str | None]:
    """RULE and the day asked about: `--as-of`, or RULE written as `trace` takes it,
    "504.2@2008-03-17", so that one way of naming a rule on a day works for every command."""
    from lineage.trace import split_rule_at

    name, day = split_rule_at(rule)
    if day is None:
        return rule, as_of
    if as_of is not None and as_of != day:
        raise RulesHistoryError(f"{rule!r} names the day {day} and --as-of another: give one")
    return name, day


def also_named_note(rule: str, as_of: str | None, others: list[str]) -> str:
    """The note `show`, `trace` and `cite` give when RULE (as `rule_on_day` reads it) names
    other clauses too (`archive.lookup.Found.also`), each as a reader asks for it."""
    return f"note: {rule_on_day(rule, as_of)[0]!r} also names {', '.join(others)}"


def day_in_gap(db: Database, day: str | None) -> dict[str, Any] | None:
    """The gap in the archive that holds `day` (archive.gaps.gap_on), when the reader asked
    about a day: not a release's name or code, nor the newest release (None)."""
    from archive.gaps import gap_on
    from renderer.asof_view import valid_day

    return gap_on(db, day) if day is not None and valid_day(day) else None


def clause_on_day(db: Database, asked: tuple[str, str | None]) -> dict[str, Any]:
    """The clause `show` prints for (RULE, day asked) (archive.query.show), with `gap` when
    the day lies in a gap in the archive (`day_in_gap`), `takes_effect` when its release
    states a later day for its rules to take effect, and `took_effect` ({release, stated})
    when the next release states it took effect on or before the day (archive.effect). When
    the store has no such clause, the error says the day lies in a gap too (a release the
    archive lacks may have had it), or that the next release was already in effect."""
    from archive.effect import early_effect_notice, takes_effect_after, took_effect_before
    from archive.query import show
    from renderer.asof_view import valid_day

    rule, day = asked
    gap = day_in_gap(db, day)
    calendar_day = day if day is not None and valid_day(day) else None  # not a release's name
    early = took_effect_before(db, calendar_day) if calendar_day else None
    # a day after today: no release of it is known yet (vocabulary.days.TO_COME)
    to_come = to_come_notice(calendar_day, date.today().isoformat()) if calendar_day else ""
    try:
        clause = show(db, rule, day)
    except NotANumber:  # written like no number: the day has nothing to add
        raise
    except LookupFailed as error:
        message = with_gap_notice(_where_number_went(db, rule, day) or str(error), gap, rule, day)
        if early is not None and rule.strip():
            message = f"{message}; {early_effect_notice(*early)}"
        if to_come and rule.strip():  # as the day's page says it, the number unused
            message = f"{message}; {to_come}"
        raise LookupFailed(message) from error
    if gap is not None:
        clause["gap"] = gap
    if calendar_day:
        stated = takes_effect_after(db, clause["release"], calendar_day)
        if stated is not None:
            clause["takes_effect"] = stated
    if early is not None:
        clause["took_effect"] = {"release": early[0], "stated": early[1]}
    if to_come:
        clause["to_come"] = calendar_day
    return clause


def effect_notes(clause: dict[str, Any]) -> list[str]:
    """The notes `show` and `cite` add for a clause of `clause_on_day` whose day is not in
    effect by its release's text (`takes_effect`), or already in the next one's
    (`took_effect`), or which lies after today (`to_come`): the sentences of archive.effect
    and vocabulary.days, as the day's page gives them."""
    from archive.effect import early_effect_notice, effect_notice

    notes = []
    if "takes_effect" in clause:
        notes.append(f"note: {effect_notice(clause['release'], clause['takes_effect'])}")
    if "took_effect" in clause:
        notes.append(f"note: {early_effect_notice(**clause['took_effect'])}")
    if "to_come" in clause:  # as the day's page says it (renderer.asof_view)
        notes.append(f"note: {to_come_notice(clause['to_come'], date.today().isoformat())}")
    return notes


def with_gap_notice(message: str, gap: dict[str, Any] | None, rule: str, day: str | None) -> str:
    """An error for RULE on a day asked inside `gap`, saying so: a release the archive lacks
    may have had the number (not said of an empty name, which no release has)."""
    from archive.gaps import day_gap_notice

    if gap is None or day is None or not rule.strip():
        return message
    return f"{message}; {day_gap_notice(gap, day)}"


def _where_number_went(db: Database, rule: str, day: str | None) -> str | None:
    """For a rule number the release in force on `day` lacks: the error `trace` gives, which
    follows the clause the number last named to its number then, or to the clause it had
    been merged into (lineage.trace.where_it_went); None when that says nothing more (no
    release before had the number, or `rule` is not a number)."""
    from archive.lookup import find
    from archive.query import canonical_number, release_in_force
    from lineage.trace import where_it_went

    try:
        release = release_in_force(db, day)
        found = find(db, release, rule)
    except LookupFailed:
        return None
    if found.term is not None or found.number is None:
        return None
    number = canonical_number(found.number)
    went = where_it_went(db, number, release)
    return f"there is no rule {number} in the {release} release{went}" if went else None


TIMES = {2: "twice", 3: "three times"}  # how a note counts a number printed again


def duplicate_note(clause: dict[str, Any]) -> str:
    """What `show` says of a number its release prints more than once (2024-09-17 numbers
    both Offspring and Impending 702.175): which printing it shows (archive.printings), and
    how a reader asks for another."""
    nth, last = clause["printing"], clause["duplicates"] + 1
    owned = f"before the {ordinal(nth + 1)}" if nth < last else "after it"
    under = f", with the rules numbered under it {owned}" if clause["subrules"] else ""
    return (
        f"{_printed_again(clause)}: this shows the {ordinal(nth)}{under}; the number names"
        " the first, a title the one it heads, and"
        f" `export {clause['release']}` shows each in place"
    )


def cited_first_note(clause: dict[str, Any]) -> str:
    """What `cite` says of such a number: the first is cited by the number's page, which
    follows it; a later one, at its place in the release's text."""
    if clause["printing"] == 1:
        return f"{_printed_again(clause)}: this cites the first, as the number's page does"
    return (
        f"{_printed_again(clause)}: this cites the {ordinal(clause['printing'])} at its place"
        " in that release's text, as the number's page follows the first"
    )


def traced_note(result: dict[str, Any]) -> str:
    """What `trace` says when the clause's number is printed more than once in the release
    asked about: which printing it follows."""
    clause = {**result, "number": result["rule"]}
    return f"{_printed_again(clause)}: this follows the {ordinal(result['printing'])}"


def _printed_again(clause: dict[str, Any]) -> str:
    times = TIMES.get(clause["duplicates"] + 1, f"{clause['duplicates'] + 1} times")
    return (
        f"the {clause['release']} release prints {clause['number']} {times} (an error of its text)"
    )
