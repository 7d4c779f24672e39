"""`rules-history cite`: the citation of a rule as the site gives it, from the command line.

The site cites a wording by its run: the stretch of releases in which the number kept those
exact words, whose page `/rule/NUMBER/FIRST/` is the permalink (lineage.runs.number_runs).
The command finds the run in force on the day asked and prints the same formats as that page
(renderer.citations), with today as the access date, which a built page leaves to the
reader's browser.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import click

from archive.errors import LookupFailed
from rules_history.options import (
    also_named_note,
    check_base_url,
    cited_first_note,
    clause_on_day,
    current_store,
    db_option,
    effect_notes,
    json_option,
    print_json,
    reports_errors,
    rule_on_day,
)

FORMATS = ("plain", "bibtex", "csl", "wiki")


@click.command("cite")
@click.argument("rule")
@click.option(
    "--as-of",
    help="A date (YYYY-MM-DD) or a release's set code or name: the wording in force then."
    " Default: newest.",
)
@click.option(
    "--format",
    "style",
    type=click.Choice(FORMATS),
    default="plain",
    show_default=True,
    help="plain text, BibTeX, CSL-JSON or a Wikipedia {{cite web}}.",
)
@click.option(
    "--base-url",
    default="",
    envvar="RULES_HISTORY_BASE_URL",
    help="The address the site is published at, as for `build` (default: the permalink is"
    " its path on the site).",
)
@click.option(
    "--day",
    "on_day",
    is_flag=True,
    help="Cite the day asked, as the site's /rule/N/DAY/ does (on DAY, the release that"
    " answers for it, in force or not yet in effect by its text), rather than the wording's"
    " own page (on a wording's first day, that address is its page: the wording is cited)."
    " In plain text, as the day's page.",
)
@db_option
@json_option
@reports_errors
def cite(
    rule: str,
    as_of: str | None,
    style: str,
    base_url: str,
    on_day: bool,
    db_file: str | None,
    as_json: bool,
) -> None:
    """Cite RULE (a number, or a section or keyword title; RULE@DATE as `trace` takes it)
    as it read on a date: the same permalink, release and formats as the rule's page on the
    site (the wording's page; with --day, the day's)."""
    from archive.gaps import day_gap_notice
    from archive.query import release_dates
    from lineage.derived import derived_releases
    from lineage.runs import first_official_release, number_runs, restored_runs
    from renderer.anchors import nth_anchor
    from renderer.asof_view import valid_day
    from renderer.citations import citations, day_citation
    from renderer.environment import clause_anchor, long_date, release_url, rule_url
    from renderer.queries import set_names

    check_base_url(base_url)
    db = current_store(db_file)
    if on_day and style != "plain":  # a day is cited in plain text, as its page cites it
        raise click.UsageError(
            f"--day cites a day in plain text only, as the site's day page does: leave out"
            f" --format {style}, or --day to cite the wording's page in that format"
        )
    asked = rule_on_day(rule, as_of)
    clause = clause_on_day(db, asked)
    number, release = clause["number"], clause["release"]
    if number is None:
        raise LookupFailed(
            f"{asked[0]!r} is a glossary entry in {release}: a citation names a rule number, as"
            " on the site"
        )
    names, today = set_names(db), date.today().isoformat()
    copies = derived_releases(db)  # read once: the releases read from a derived copy
    day = asked[1] if asked[1] is not None and valid_day(asked[1]) else release
    restores = None  # the earlier wording page of the same words, a copy between (lineage.runs)
    first_official = None  # when the wording's first release is a derived copy
    if clause["printing"] > 1:  # the number's pages follow its first printing: cite the text
        first = last = release
        path = release_url(release, nth_anchor(clause_anchor(number), clause["printing"]))
        cited = citations(
            number, release, path, base_url, names.get(release), today, release in copies
        )
    else:
        runs = number_runs(db, release_dates(db), number).get(number, [])
        at = next(i for i, run in enumerate(runs) if release in run.releases)
        run = runs[at]
        first, last = run.start, run.end
        first_official = first_official_release(run.releases, copies)
        earlier = restored_runs(runs, copies, lambda part: _lineage_of(db, part))
        if at in earlier:
            restores = {
                "first": runs[earlier[at]].start,
                "path": rule_url(number, runs[earlier[at]].start),
            }
        cited = citations(
            number,
            run.start,
            rule_url(number, run.start),
            base_url,
            names.get(run.start),
            today,
            derived=run.start in copies,
        )
        path = f"{rule_url(number)}{day}/"  # the day's page, as the site serves it
    if day == first or clause["printing"] > 1:  # the cited page is the day's too
        on = next(f["text"] for f in cited["formats"] if f["key"] == "plain")
    else:
        on = day_citation(
            number,
            _day_standing(clause, day, names, copies)[1],
            base_url.rstrip("/") + path,
            long_date(today),
        )
    if as_json:
        print_json(
            {
                **_as_json(cited, release, first, last),
                "day": {"path": path, "text": on},
                "also_named": clause["also_named"],
                "gap": clause.get("gap"),
                "takes_effect": clause.get("takes_effect"),
                "took_effect": clause.get("took_effect"),
                "to_come": clause.get("to_come"),
                "duplicates": clause["duplicates"],
                "printing": clause["printing"],
                "restores": restores,
                "first_official": first_official,
            }
        )
        return
    if clause["also_named"]:  # on stderr: the citation alone is what a reader copies
        click.echo(also_named_note(rule, as_of, clause["also_named"]), err=True)
    if "gap" in clause:  # the day's page says so too (renderer.asof_segments.day_segments)
        click.echo(f"note: {day_gap_notice(clause['gap'], day)}", err=True)
    for note in effect_notes(clause):  # as `show` and the day's page say it
        click.echo(note, err=True)
    if clause["duplicates"]:  # as the number's page says it
        click.echo(f"note: {cited_first_note(clause)}", err=True)
    if first_official is not None:  # as the wording's page says it
        click.echo(
            f"note: the re-extracted copy of {first} is the first release here to print these"
            f" words; the first official release that does is {first_official}",
            err=True,
        )
    if restores is not None:  # as the wording's page says it
        click.echo(
            f"note: the same words as the wording in force from the release of"
            f" {restores['first']} ({restores['path']}): only the re-extracted copy between"
            " prints them otherwise",
            err=True,
        )
    if on_day:
        click.echo(on)
        return
    if release != first:
        click.echo(
            f"note: cites the wording in force on {day} by its own page (the release of"
            f" {run.start}); --day cites the day, as {path} does",
            err=True,
        )
    click.echo(next(f["text"] for f in cited["formats"] if f["key"] == style))


def _day_standing(
    clause: dict[str, Any], day: str, names: dict[str, str | None], copies: set[str]
) -> tuple[str, str]:
    """How the day's page names the release that answers for `day` (renderer.asof_view):
    in force, or not yet in effect by its text, or overtaken by the next one's."""
    from renderer.citations import release_words
    from renderer.environment import long_date
    from vocabulary.days import day_standing

    def words(release: str) -> str:
        return release_words(release, names.get(release), release in copies)

    not_yet = long_date(clause["takes_effect"]) if "takes_effect" in clause else ""
    took = clause.get("took_effect")
    overtaken = (words(took["release"]), long_date(took["stated"])) if took else None
    return day_standing(long_date(day), words(clause["release"]), not_yet, overtaken)


def _as_json(cited: dict[str, Any], in_force: str, first: str, last: str) -> dict[str, Any]:
    """The citation's fields and every format, with the release asked about and the run."""
    return {
        "url": cited["url"],
        "path": cited["path"],
        "in_force": in_force,
        "first": first,
        "last": last,
        "release": cited["release"],
        "name": cited["name"],
        "formats": {f["key"]: f["text"] for f in cited["formats"]},
    }


def _lineage_of(db: Any, part: int) -> int | None:
    """The lineage of a part, as the site's model maps parts to lineages."""
    row = db.execute("SELECT lineage_id FROM lineage_members WHERE part_id = ?", [part]).fetchone()
    return int(row[0]) if row else None
