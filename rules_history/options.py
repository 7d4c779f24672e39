"""What every command module shares: the --db and --json options, JSON output, and the
turning of a user's error into one line and exit status 1."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from archive.errors import RulesHistoryError
from archive.manifest import CAPTURES_DIR
from archive.store import DB_ENV, db_path

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
        except OSError as error:
            if error.filename is None:
                raise
            message = f"{error.filename}: {error.strerror or error}"
        click.echo(f"error: {message}", err=True)
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
captures_option = click.option(
    "--captures",
    "captures_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=CAPTURES_DIR,
    show_default="the committed archive",
    help="Folder with manifest.json and the captured files (ingested first by build).",
)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def check_base_url(base_url: str) -> None:
    """A site's address given by --base-url must be an absolute http(s) URL (or nothing)."""
    from renderer.links import external_url

    if base_url and external_url(base_url) is None:
        raise RulesHistoryError(f"--base-url {base_url!r} is not an absolute http(s) URL")


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
