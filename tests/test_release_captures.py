"""A release with several captures (2026-08-07, uploaded three times) and the derived
2003-05-26 copy, as `releases`, `show` and `export` give them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_captures_dir

from archive.capture_diffs import lines_differing, store_capture_differences
from archive.decode import decode_capture
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
from archive.store import open_store
from lineage.derived import DERIVED_NOTE
from rules_history.cli import main

RELEASES = ("2003-03-15", "2003-05-26", "2026-08-07")


@pytest.fixture(scope="module")
def captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_captures_dir(tmp_path_factory.mktemp("uploads") / "captures", RELEASES)


@pytest.fixture(scope="module")
def db_file(captures: Path) -> str:
    path = str(captures.parent / "rules.db")
    result = CliRunner().invoke(
        main, ["ingest", "--quiet", "--captures", str(captures), "--db", path]
    )
    assert result.exit_code == 0, result.output
    return path


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_capture_is_kept_and_the_read_one_named_with_what_differs(db_file):
    rows = {row["date"]: row for row in json.loads(run("releases", "--json", "--db", db_file))}
    uploads = {Path(c["file"]).name: c for c in rows["2026-08-07"]["captures"]}
    assert [c["file"] for c in rows["2026-08-07"]["captures"]][0].endswith("upload-2026-08-19.txt")
    assert uploads["2026-08-07.upload-2026-08-19.txt"]["read"] == 1
    # the 08-19 upload is the 08-08 text with a byte-order mark; the first upload had
    # no-break spaces on its blank lines and moved blank lines: whitespace only
    assert uploads["2026-08-07.upload-2026-08-08.txt"]["difference"] == "bom-only"
    first = uploads["2026-08-07.txt"]
    assert first["difference"] == "whitespace-only" and first["lines_differ"] > 1000
    assert first["summary"] == f"whitespace only ({first['lines_differ']} lines differ)"
    assert len(rows["2003-03-15"]["captures"]) == 1 and "derived" not in rows["2003-03-15"]
    assert rows["2003-05-26"]["derived"] and rows["2003-05-26"]["note"] == DERIVED_NOTE
    text = run("releases", "--db", db_file)
    # Clauses are what has a history (as `blame` counts them); examples are counted apart.
    newest = next(line for line in text.splitlines() if line.startswith("2026-08-07"))
    assert "4057 clauses   277 examples" in newest and newest.endswith("[3 captures]")
    copy = next(line for line in text.splitlines() if line.startswith("2003-05-26"))
    # 802: parser 5 keeps six numbered meanings in their entries (Counter, Draw, Untap),
    # parser 6 the paragraph a blank line set apart from its term (Effect)
    assert "802 clauses    62 examples  SCG Scourge" in copy and copy.endswith(f"({DERIVED_NOTE})")


def test_differences_are_computed_once(db_file):
    db = open_store(db_file)
    assert db["capture_differences"].count == 2
    assert store_capture_differences(db) == 0  # a rerun compares nothing again


def test_lines_are_counted_on_a_shortest_diff():
    # difflib matched the longest run first ("d", then "b") and counted 4 lines
    assert lines_differing("d\na\nb", "b\nd\nb") == 2


def test_differences_counted_the_old_way_are_counted_again(db_file, captures, tmp_path):
    path = str(tmp_path / "rules.db")
    open_store(db_file).execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file
    shutil.copyfile(db_file, path)
    db = open_store(path)
    right = dict(db.execute("SELECT capture_id, lines_differ FROM capture_differences"))
    with db.atomic():  # as an older version left them
        db.execute("UPDATE capture_differences SET method = 1, lines_differ = lines_differ + 7")
    db.close()
    stale = CliRunner().invoke(main, ["releases", "--db", path])
    assert stale.exit_code == 1
    assert "captures were counted the old way" in stale.output
    assert "rules-history ingest" in stale.output
    run("ingest", "--quiet", "--captures", str(captures), "--db", path)
    again = open_store(path)
    assert dict(again.execute("SELECT capture_id, lines_differ FROM capture_differences")) == right


def test_export_lists_the_captures_and_marks_the_derived_copy(db_file):
    exported = json.loads(run("export", "2026-08-07", "--format", "json", "--db", db_file))
    assert len(exported["captures"]) == 3 and "derived" not in exported
    copy = json.loads(run("export", "2003-05-26", "--format", "json", "--db", db_file))
    assert copy["derived"] is True and copy["note"] == DERIVED_NOTE
    result = CliRunner().invoke(main, ["export", "2003-05-26", "--db", db_file])
    capture = next(c for c in load_manifest() if c.date == "2003-05-26")
    decoded = decode_capture(read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, "x")
    assert result.stdout_bytes == decoded.encode("utf-8")  # the text itself stays exact
    assert result.stderr == f"note: 2003-05-26: {DERIVED_NOTE}\n"


def test_show_marks_the_derived_copy(db_file):
    text = run("show", "100.3", "--as-of", "2003-06-01", "--db", db_file)
    assert text.splitlines()[:2] == [
        "100.3  (2003-05-26 release)",
        f"note: 2003-05-26: {DERIVED_NOTE}",
    ]
    assert "ina deck" in text  # the copy's own typo, shown as it is
    shown = json.loads(run("show", "100.3", "--as-of", "2003-06-01", "--json", "--db", db_file))
    assert shown["derived"] is True
    official = json.loads(run("show", "100.3", "--as-of", "2003-04-01", "--json", "--db", db_file))
    assert "derived" not in official
