"""The store is a function of the captures folder (issue 12, item 2).

Whatever sequence of ingests a folder went through (entries added, changed, removed, the
releases it no longer lists pruned), the store holds what one fresh ingest of the folder's
last state holds: captures, releases, texts, lineages. Surrogate ids differ between the two,
so stores are compared by content, each row naming its capture by file.

And a careless folder costs nothing stored: one that no longer lists stored releases is
refused unless pruning is asked for; a release whose new entries fail keeps what is stored
for it; a rerun reports a stored capture's file damaged or removed since, as a fresh ingest
of the folder would.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import make_captures_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database
from test_store import table_digest

from archive.errors import CaptureError
from archive.ingest import ingest_captures
from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from rules_history.cli import main
from rules_history.pipeline import update_store

DATES = ("2010-01-01", "2010-04-01", "2010-07-01")
WORDS = ("apples", "pears")


def synthetic_release(day: str, words: str, rules: int = 3) -> str:
    """A small text the parser reads as a complete CR: a chapter, a section, rules, a
    glossary and credits; `day` and `words` make its bytes and its wordings differ."""
    body = "\n\n".join(f"100.{n}. Rule {n} says {words}." for n in range(1, rules + 1))
    return (
        "Magic: The Gathering Comprehensive Rules\n\n"
        f"These rules are effective as of {day}.\n\n"
        "Contents\n\n1. Game Concepts\n100. General\nGlossary\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\n"
        f"{body}\n\n100.1a A subrule about {words}.\n\n"
        "Glossary\n\nAbandon\nTo turn a face-up ongoing scheme card face down.\n\n"
        "Credits\n\nOriginal Game Design: Richard Garfield\n"
    )


def write_folder(folder: Path, state: dict[str, tuple[str, str, bool]]) -> None:
    """A captures folder for `state`: date -> (words, encoding, has a second capture)."""
    (folder / "cr").mkdir(parents=True, exist_ok=True)
    for old in (folder / "cr").iterdir():
        old.unlink()
    entries = []
    for day, (words, encoding, alternative) in sorted(state.items()):
        captures = [(f"cr/{day}.txt", words, True)]
        if alternative:  # the other fruit, kept beside the preferred copy
            captures.append((f"cr/{day}.alt.txt", WORDS[words == WORDS[0]], False))
        for file, said, preferred in captures:
            data = synthetic_release(day, said).encode(encoding)
            (folder / file).write_bytes(data)
            entries.append(
                {
                    "date": day,
                    "file": file,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "encoding": encoding,
                    "role": "primary" if preferred else "alt",
                    "preferred": preferred,
                }
            )
    (folder / "manifest.json").write_text(json.dumps(entries, indent=1))


def store_contents(db: Database) -> dict[str, list[Any]]:
    """Every table the captures feed, with surrogate ids replaced by what they stand for."""
    file_of = {row[0]: row[1] for row in db.execute("SELECT id, file FROM captures")}
    part_of = {
        row[0]: (file_of[row[1]], row[2])
        for row in db.execute("SELECT id, capture_id, position FROM parts")
    }

    def rows(sql: str) -> list[Any]:
        return sorted((tuple(row) for row in db.execute(sql)), key=repr)

    columns = [c[1] for c in db.execute("PRAGMA table_info(captures)") if c[1] != "id"]
    tables = {
        "sources": rows("SELECT * FROM sources"),
        "captures": rows(f"SELECT {', '.join(columns)} FROM captures"),
        "releases": [
            (*row[:-1], file_of[row[-1]])
            for row in rows(
                "SELECT date, stated_date, name, clauses, rules, glossary_entries, capture_id"
                " FROM releases"
            )
        ],
        "raw_texts": rows("SELECT * FROM raw_texts"),
        "clause_versions": rows("SELECT * FROM clause_versions"),
        "parts": [
            (file_of[row[0]], *row[1:])
            for row in rows(
                "SELECT capture_id, position, kind, number, parent, title, line, raw_hash,"
                " version_hash FROM parts"
            )
        ],
        "lineages": rows("SELECT * FROM lineages"),
        "lineage_members": [
            (part_of[row[0]], *row[1:]) for row in rows("SELECT * FROM lineage_members")
        ],
        "lineage_events": [
            (*row[:6], part_of.get(row[6]), part_of.get(row[7]), *row[8:])
            for row in rows(
                "SELECT lineage_id, release, kind, old_numbers, new_numbers, related_lineages,"
                " old_part_id, new_part_id, similarity FROM lineage_events"
            )
        ],
        "lineage_alignments": [
            (*row[:2], file_of.get(row[2]), file_of.get(row[3]), *row[4:])
            for row in rows(  # not the token each alignment gets (`aligned_as`)
                "SELECT release, previous_release, capture_id, previous_capture_id, version,"
                " counts FROM lineage_alignments"
            )
        ],
    }
    return {name: sorted(found, key=repr) for name, found in tables.items()}


def fresh_contents(folder: Path, tmp: Path) -> dict[str, list[Any]]:
    db = open_store(tmp / f"fresh-{len(list(tmp.iterdir()))}.db")
    update_store(db, folder)
    return store_contents(db)


# One step: a release added or changed (its words, its encoding, a second capture), or removed.
steps = st.lists(
    st.tuples(
        st.sampled_from(DATES),
        st.one_of(
            st.none(),  # remove it
            st.tuples(st.sampled_from(WORDS), st.sampled_from(("utf-8", "utf-16")), st.booleans()),
        ),
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=steps)
def test_any_sequence_of_ingests_equals_a_fresh_ingest(tmp_path_factory, steps):
    tmp = tmp_path_factory.mktemp("sequence")
    folder = tmp / "captures"
    db = open_store(tmp / "rules.db")
    state: dict[str, tuple[str, str, bool]] = {}
    for day, change in steps:
        if change is None:
            state.pop(day, None)
        else:
            state[day] = change
        write_folder(folder, state)
        update_store(db, folder, prune=True)
    assert store_contents(db) == fresh_contents(folder, tmp)
    assert db["releases"].count == len(state)


def test_a_corrected_encoding_replaces_the_mojibake(tmp_path):
    """The probe: fixing a manifest's encoding and rerunning changed nothing."""
    folder = tmp_path / "captures"
    text = synthetic_release("2010-01-01", "Æther—“quoted”")
    data = text.encode("cp1252")
    (folder / "cr").mkdir(parents=True)
    (folder / "cr" / "2010-01-01.txt").write_bytes(data)
    entry = {"date": "2010-01-01", "file": "cr/2010-01-01.txt", "encoding": "mac_roman"}
    entry["sha256"] = hashlib.sha256(data).hexdigest()
    (folder / "manifest.json").write_text(json.dumps([entry]))
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    stored_text = "SELECT group_concat(raw, '') FROM raw_texts"
    assert "Æther" not in db.execute(stored_text).fetchone()[0]
    entry["encoding"] = "cp1252"
    (folder / "manifest.json").write_text(json.dumps([entry]))
    report = update_store(db, folder)
    assert report.releases.ingested == ["cr/2010-01-01.txt"]
    assert (
        "Æther—“quoted”" in db.execute("SELECT group_concat(raw, '') FROM raw_texts").fetchone()[0]
    )
    assert store_contents(db) == fresh_contents(folder, tmp_path)


def test_a_removed_entry_leaves_the_store_and_is_no_longer_newest(tmp_path):
    folder = tmp_path / "captures"
    state = {day: ("apples", "utf-8", False) for day in DATES}
    write_folder(folder, state)
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    del state[DATES[-1]]
    write_folder(folder, state)
    update_store(db, folder, prune=True)
    assert db.execute("SELECT max(date) FROM releases").fetchone()[0] == DATES[-2]
    assert db.execute("SELECT count(*) FROM captures").fetchone()[0] == 2
    assert store_contents(db) == fresh_contents(folder, tmp_path)


def sqlite_steps(db: Database, action: Callable[[], object]) -> int:
    """The thousands of virtual-machine instructions SQLite ran for `action` on `db`: a
    count of its work that does not depend on the machine's speed."""
    steps = 0

    def tick() -> int:
        nonlocal steps
        steps += 1
        return 0  # go on

    db.conn.set_progress_handler(tick, 1000)
    try:
        action()
    finally:
        db.conn.set_progress_handler(None, 1000)
    return steps


def test_removing_a_release_costs_no_more_than_adding_it(tmp_path):
    """Pruning a release deletes the texts no other release prints, and SQLite looks up the
    parts that name each one (their foreign keys). Without an index that was a scan of
    every part per text: on the whole archive, four minutes to prune the newest release,
    and here nine times the work of adding the release."""
    both = make_captures_dir(tmp_path / "both", ("2002-10-07", "2009-05-01"))
    three = make_captures_dir(tmp_path / "three", ("2002-10-07", "2008-02-01", "2009-05-01"))
    db = open_store(tmp_path / "rules.db")
    ingest_captures(db, both)
    adding = sqlite_steps(db, lambda: ingest_captures(db, three))
    removing = sqlite_steps(db, lambda: ingest_captures(db, both, prune=True))
    dates = [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]
    assert dates == ["2002-10-07", "2009-05-01"]
    assert removing <= adding


@pytest.mark.parametrize("incremental", [False, True])
def test_a_second_preferred_file_is_refused_fresh_or_not(tmp_path, incremental):
    folder = tmp_path / "captures"
    write_folder(folder, {DATES[0]: ("apples", "utf-8", True)})
    db = open_store(tmp_path / "rules.db")
    if incremental:
        update_store(db, folder)
    before = table_digest(db)
    entries = json.loads((folder / "manifest.json").read_text())
    entries[1]["preferred"] = True
    (folder / "manifest.json").write_text(json.dumps(entries))
    with pytest.raises(CaptureError, match="release 2010-01-01 has 2 preferred captures"):
        update_store(db, folder)
    assert table_digest(db) == before


def test_equal_bytes_under_a_new_date_are_refused_not_silently_skipped(tmp_path):
    """The probe: a file whose bytes equal a stored capture's, listed under a new date, was
    'already stored' with no release and no warning."""
    folder = make_captures_dir(tmp_path / "captures", ("2008-02-01",))
    db = open_store(tmp_path / "rules.db")
    ingest_captures(db, folder)
    before = table_digest(db)
    entries = json.loads((folder / "manifest.json").read_text())
    copy = dict(entries[0], date="2008-03-01", file="cr/2008-03-01.txt")
    (folder / "cr" / "2008-03-01.txt").write_bytes((folder / entries[0]["file"]).read_bytes())
    (folder / "manifest.json").write_text(json.dumps([*entries, copy]))
    with pytest.raises(CaptureError, match=r"same content \(sha256\) is listed 2 times"):
        ingest_captures(db, folder)
    assert table_digest(db) == before


def test_a_witness_removed_from_the_index_leaves_the_store(tmp_path):
    folder = make_captures_dir(tmp_path / "captures", ("2002-10-07", "2008-02-01"))
    shutil.copytree(CAPTURES_DIR / "web", folder / "web")
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    index = json.loads((folder / "web" / "index.json").read_text())
    assert db["witness_captures"].count == len(index)
    kept = [record for record in index if record["source"] != "wizards-morph-2002"]
    (folder / "web" / "index.json").write_text(json.dumps(kept))
    update_store(db, folder)
    sources = {row[0] for row in db.execute("SELECT source FROM witness_captures")}
    assert sources == {record["source"] for record in kept}
    assert not db.execute("SELECT 1 FROM sources WHERE id = 'wizards-morph-2002'").fetchall()
    fresh = open_store(tmp_path / "fresh.db")
    update_store(fresh, folder)
    witnesses = "SELECT source, position, kind, number, text, release, agreement FROM witnesses"
    assert sorted(db.execute(witnesses).fetchall()) == sorted(fresh.execute(witnesses).fetchall())


def test_a_folder_that_drops_stored_releases_is_refused_unless_pruning(tmp_path):
    """An empty manifest (or a folder of a few crawled releases) removed every other release
    from the store, and the ingest said nothing: now it is refused, naming the manifest and
    the releases, and the store is as it was; asked for by name, the releases go."""
    folder = tmp_path / "captures"
    write_folder(folder, {day: ("apples", "utf-8", False) for day in DATES})
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    before = table_digest(db)
    write_folder(folder, {DATES[0]: ("apples", "utf-8", False)})
    refused = f"does not list 2 of the releases the store holds \\({DATES[1]}, {DATES[2]}\\)"
    with pytest.raises(CaptureError, match=refused):
        update_store(db, folder)
    (folder / "manifest.json").write_text("[]")
    with pytest.raises(CaptureError, match="does not list 3 of the releases"):
        update_store(db, folder)
    assert table_digest(db) == before
    update_store(db, folder, prune=True)
    assert db["releases"].count == 0


def test_a_corrected_date_is_no_dropped_release(tmp_path):
    """An entry whose date is corrected lists its bytes under the new date: the store follows
    it without --prune (the guard is for releases whose bytes the folder no longer lists)."""
    folder = tmp_path / "captures"
    write_folder(folder, {day: ("apples", "utf-8", False) for day in DATES})
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    entries = json.loads((folder / "manifest.json").read_text())
    entries[2]["date"] = "2010-08-01"
    (folder / "manifest.json").write_text(json.dumps(entries))
    report = update_store(db, folder)
    assert report.releases.ingested == [entries[2]["file"]] and not report.releases.failed
    dates = [row[0] for row in db.execute("SELECT date FROM releases ORDER BY date")]
    assert dates == [DATES[0], DATES[1], "2010-08-01"]
    assert store_contents(db) == fresh_contents(folder, tmp_path)


def test_a_release_whose_new_entry_fails_keeps_what_is_stored(tmp_path):
    """A changed entry that fails (a wrong sha256, a path out of the folder, bytes that do
    not parse) removed the release it replaced; now the release keeps its stored capture,
    answers from it, and the failure is reported."""
    folder = tmp_path / "captures"
    write_folder(folder, {day: ("apples", "utf-8", False) for day in DATES})
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    before = table_digest(db)
    entries = json.loads((folder / "manifest.json").read_text())
    broken = {
        "sha256 is": dict(entries[1], sha256="0" * 64),
        "climbs out": dict(entries[1], file="../elsewhere.txt"),
    }
    for problem, entry in broken.items():
        (folder / "manifest.json").write_text(json.dumps([entries[0], entry, entries[2]]))
        report = update_store(db, folder)
        assert [file for file, _ in report.releases.failed] == [entry["file"]]
        assert problem in report.releases.failed[0][1]
        assert table_digest(db) == before
    unreadable = b"not a comprehensive rules document"
    (folder / "cr" / "bad.txt").write_bytes(unreadable)
    entry = dict(entries[1], file="cr/bad.txt", sha256=hashlib.sha256(unreadable).hexdigest())
    (folder / "manifest.json").write_text(json.dumps([entries[0], entry, entries[2]]))
    report = update_store(db, folder)
    assert [file for file, _ in report.releases.failed] == ["cr/bad.txt"]
    assert table_digest(db) == before
    assert db.execute("SELECT count(*) FROM releases WHERE date = ?", [DATES[1]]).fetchone()[0]


@pytest.mark.parametrize("damage", ["appended", "removed", "symlink", "fifo"])
def test_a_rerun_reports_a_stored_capture_damaged_since(tmp_path, damage):
    """A stored capture's file damaged or removed since went unnoticed by a rerun ("already
    stored", no failure) while a fresh ingest of the folder refused it: the rerun reports
    it too, and the store keeps the capture it read."""
    folder = tmp_path / "captures"
    write_folder(folder, {day: ("apples", "utf-8", False) for day in DATES})
    db = open_store(tmp_path / "rules.db")
    update_store(db, folder)
    before = table_digest(db)
    target = folder / "cr" / f"{DATES[1]}.txt"
    if damage == "appended":
        with target.open("ab") as stream:
            stream.write(b"X")
    else:
        target.unlink()
        if damage == "symlink":
            (tmp_path / "outside.txt").write_bytes(b"outside")
            target.symlink_to(tmp_path / "outside.txt")
        elif damage == "fifo":
            os.mkfifo(target)
    report = update_store(db, folder)
    assert [file for file, _ in report.releases.failed] == [f"cr/{DATES[1]}.txt"]
    assert "the store keeps the capture it read" in report.releases.failed[0][1]
    assert table_digest(db) == before


def test_a_refused_ingest_leaves_no_new_store_behind(tmp_path):
    """`ingest` opened (so created) the store before reading the manifest: a refused folder
    left an empty store, which later readers took for one with no release."""
    folder = tmp_path / "captures"
    folder.mkdir()
    (folder / "manifest.json").write_text('[{"date": "2010-01-01"}]')
    store = tmp_path / "new.db"
    result = CliRunner().invoke(
        main, ["ingest", "--quiet", "--db", str(store), "--captures", str(folder)]
    )
    assert result.exit_code == 1 and "manifest.json" in result.output
    assert not store.exists()
