"""The archive's commands as a user runs them: ingest, releases, show, export."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from archive.decode import decode_capture
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
from rules_history.cli import main


@pytest.fixture(scope="module")
def small_db(tmp_path_factory, small_captures) -> Path:
    """A store built by the real command line, in a subprocess."""
    path = tmp_path_factory.mktemp("cli") / "rules.db"
    result = run("ingest", "--captures", str(small_captures), "--quiet", db=path)
    assert result.returncode == 0, result.stderr
    assert "ingested 10" in result.stdout  # ten releases, one capture each
    return path


def run(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULES_HISTORY_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "rules_history", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def show_json(db: Path, *args: str) -> dict:
    result = run("show", *args, "--json", db=db)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_show_prints_each_era_wording(small_db):
    clause = show_json(small_db, "708.2a", "--as-of", "2024-06-07")
    assert clause["release"] == "2024-06-07"
    assert clause["text"].startswith("If a face-up permanent is turned face down")
    clause = show_json(small_db, "504.2", "--as-of", "2008-03-17")
    assert clause["release"] == "2008-02-01"
    assert "face-down permanents in play" in clause["text"]
    clause = show_json(small_db, "502.26a", "--as-of", "2002-11-01")
    assert clause["release"] == "2002-10-07"
    assert clause["text"].startswith("Morph is a static ability")


def test_show_defaults_to_the_newest_release_and_lists_examples(small_db):
    clause = show_json(small_db, "101.2")
    assert clause["release"] == "2024-06-07"
    assert clause["examples"][0].startswith("Example:")


def test_show_text_output(small_db):
    result = run("show", "504.2", "--as-of", "2008-03-17", db=small_db)
    assert result.stdout.startswith("504.2  (2008-02-01 release)\nFace-down spells on the stack")


def test_show_says_when_the_text_printed_the_number_otherwise(small_db):
    """2009-07-08 prints storm's rules as "702. 37a" and "702. 37b": `show` reads the
    number, gives what was printed in its JSON and says it in a note, as the release page
    does (renderer.fulltext)."""
    clause = show_json(small_db, "702.37a", "--as-of", "2009-07-08")
    assert (clause["number"], clause["printed_number"]) == ("702.37a", "702. 37a")
    assert show_json(small_db, "702.36a", "--as-of", "2009-07-08")["printed_number"] is None
    result = run("show", "702.37a", "--as-of", "2009-07-08", db=small_db)
    assert 'note: the text prints this number as "702. 37a"; it is read as 702.37a' in (
        result.stdout
    )
    # trace says it of the release that printed it, in its JSON and its text
    traced = run("trace", "702.37a@2009-07-08", "--json", db=small_db)
    entries = json.loads(traced.stdout)["entries"]
    printed = {e["release"]: e["printed_number"] for e in entries if e["printed_number"]}
    assert printed == {"2009-07-08": "702. 37a"}
    text = run("trace", "702.37a@2009-07-08", db=small_db).stdout
    assert text.count('note: the text prints this number as "702. 37a"') == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "999.99"], "there is no rule 999.99 in the 2024-06-07 release"),
        (["show", "502.26a", "--as-of", "2024-06-07"], "it was last numbered so in 2009-05-01"),
        (["show", "5xy"], "nothing is called '5xy' in the 2024-06-07 release"),
        # a number no rule can have is said to be one, not offered the nearest titles ("10"
        # was offered "Roll a d20")
        (["show", "10"], "'10' is not a rule number: chapters are numbered 1 to 9"),
        (["show", "5x"], "'5x' is not a rule number"),
        (["show", "504.2", "--as-of", "2008-02-30"], "'2008-02-30' is not a real date"),
        (["show", "504.2", "--as-of", "March 2008"], "write it as YYYY-MM-DD"),
        (["show", "504.2", "--as-of", "1998-01-01"], "before the first release in the store"),
        (["export", "2008-02-01", "--capture", "nope.txt"], "no capture 'nope.txt'"),
    ],
)
def test_user_errors_are_one_clear_line(small_db, args, message):
    result = run(*args, db=small_db)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_releases_json(small_db):
    result = run("releases", "--json", db=small_db)
    rows = json.loads(result.stdout)
    assert [row["date"] for row in rows][:2] == ["2002-10-07", "2008-02-01"]
    assert all({"date", "name", "clauses"} <= set(row) for row in rows)
    assert next(r for r in rows if r["date"] == "2024-06-07")["name"] == "Modern Horizons 3"


@pytest.mark.parametrize("capture_name", [None, "2016-08-26.txt"])
def test_export_txt_is_the_decoded_capture(full_store, tmp_path, capture_name):
    db_file = full_store.conn.execute("PRAGMA database_list").fetchone()[2]
    args = ["export", "2016-08-26"] + (["--capture", capture_name] if capture_name else [])
    result = subprocess.run(
        [sys.executable, "-m", "rules_history", *args, "--db", db_file],
        capture_output=True,
        check=True,
    )
    wanted = capture_name or "2016-08-26.alt.txt"
    capture = next(c for c in load_manifest() if c.name == wanted)
    expected = decode_capture(read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, "x")
    assert result.stdout.decode("utf-8") == expected


def test_export_json_lists_the_parts(small_db):
    result = run("export", "2002-10-07", "--format", "json", db=small_db)
    data = json.loads(result.stdout)
    assert data["capture"] == "cr/2002-10-07.txt"
    numbered = {part["number"]: part for part in data["parts"] if part["number"]}
    assert numbered["504"]["title"] == "Face-Down Spells and Permanents"
    assert "".join(part["raw"] for part in data["parts"]).startswith("Magic: The Gathering")


def all_commands(group=main, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name)
        if hasattr(command, "commands"):
            yield from all_commands(command, (*prefix, name))


@pytest.mark.parametrize("command", list(all_commands()), ids=" ".join)
def test_every_command_has_help(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output
    assert len(result.output.splitlines()) > 3


@pytest.mark.parametrize("command", list(all_commands()), ids=" ".join)
def test_readme_documents_every_command(command):
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert f"rules-history {' '.join(command)}" in readme


def command_documentation(readme: str, command: tuple[str, ...]) -> str:
    """A command's documentation in the README: its entry under "Commands", the sections
    that entry sends the reader to ('See "Crawling" below'), and the section's opening
    paragraph, which holds what every command takes."""
    commands = readme.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    opening = commands.split("\n- `rules-history", 1)[0]
    entries = re.split(r"\n(?=- `rules-history )", commands)
    name = f"- `rules-history {' '.join(command)}"
    entry = next(e for e in entries if e.startswith(name + " ") or e.startswith(name + "`"))
    sections = []
    for title in re.findall(r'See "([^"]+)"', entry):
        title = " ".join(title.split())  # the entry may break its line inside the title
        heading = re.search(rf"\n#+ (?:`[^`]*`: )?{re.escape(title)}[^\n]*\n", readme)
        assert heading, f"{name}: no section {title!r}"
        sections.append(readme[heading.end() :].split("\n## ", 1)[0])
    return "\n".join([opening, entry, *sections])


@pytest.mark.parametrize("command", list(all_commands()), ids=" ".join)
def test_readme_documents_every_option(command):
    """Every option a command takes is named where the README documents that command."""
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    documented = command_documentation(readme, command)
    found = main
    for name in command:
        found = found.commands[name]
    options = [opt for p in found.params for opt in p.opts if opt.startswith("--")]
    missing = [opt for opt in options if not re.search(rf"{re.escape(opt)}\b", documented)]
    assert not missing, f"rules-history {' '.join(command)}: {missing} not in the README"
