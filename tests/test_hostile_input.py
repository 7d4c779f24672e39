"""Hostile input and faults (issue 12): each probe of the issue, reproduced.

Every bad input gets one line on stderr naming the file, entry, URL or rule, exit status 1,
no traceback, and leaves the store as it was (every table fingerprinted before and after).
The crawler's HTTP probes are in the crawler's tests.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import make_captures_dir
from sqlite_utils import Database
from test_store import table_digest
from test_store_follows_folder import synthetic_release

from archive.limits import MAX_CLAUSES, MAX_RELEASE_BYTES
from archive.manifest import CAPTURES_DIR
from archive.workers import INTERRUPTED_EXIT
from renderer.serve import serve_in_thread
from renderer.writer import MANIFEST, SiteWriter, code_key
from rules_history.cli import main
from rules_history.options import INTERRUPTED

RELEASE = "2008-02-01"
UTF8_RELEASE = "2014-05-01"  # UTF-8 with dashes and quotes: C1 controls when read as latin-1


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command line in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "rules_history", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Any, *fragments: str) -> str:
    code = getattr(result, "exit_code", getattr(result, "returncode", None))
    stderr = result.stderr
    assert code == 1, (code, result.stdout, stderr)
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> tuple[Path, Path]:
    """A captures folder with one release, ingested by the real command into a store."""
    root = tmp_path_factory.mktemp("prepared")
    folder = make_captures_dir(root / "captures", (RELEASE,))
    db = root / "rules.db"
    result = run("ingest", "--captures", str(folder), "--db", str(db), "--quiet")
    assert result.returncode == 0, result.stderr
    return folder, db


@pytest.fixture
def stored(prepared, tmp_path) -> tuple[Path, Path]:
    """A copy of the prepared folder and store, for one test to spoil."""
    folder, db = prepared
    shutil.copytree(folder, tmp_path / "captures")
    shutil.copy(db, tmp_path / "rules.db")
    return tmp_path / "captures", tmp_path / "rules.db"


def digest(db: Path) -> dict[str, str]:
    store = Database(db)
    try:
        return table_digest(store)
    finally:
        store.close()


def add_entry(folder: Path, data: bytes | None = None, **fields: Any) -> dict[str, Any]:
    """Append an entry to the folder's manifest (a CR text dated 2009-01-01 by default)."""
    if data is None:
        data = synthetic_release("2009-01-01", "apples").encode()
    entry = {
        "date": "2009-01-01",
        "file": "cr/2009-01-01.txt",
        "sha256": hashlib.sha256(data).hexdigest(),
        "encoding": "utf-8",
        **fields,
    }
    if isinstance(entry["file"], str) and not Path(entry["file"]).is_absolute():
        target = folder / entry["file"]
        writable = ".." not in entry["file"] and "\0" not in entry["file"]
        if writable and not target.is_symlink() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps([*manifest, entry]))
    return entry


def ingest(folder: Path, db: Path) -> Any:
    return invoke("ingest", "--captures", str(folder), "--db", str(db), "--quiet")


# 1. `build` deleted files outside --out that its manifest listed as stale pages.


@pytest.mark.parametrize("listed", ["../victim.txt", "ABSOLUTE", "history/victim.html"])
def test_a_stale_page_outside_out_is_never_unlinked(tmp_path, listed):
    out, outside = tmp_path / "_site", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (outside / "victim.html").write_text("keep me too")
    (out / "history").symlink_to(outside)  # a page folder that is a link out of the site
    name = str(victim) if listed == "ABSOLUTE" else listed
    stale_page = out / "releases" / "gone" / "index.html"
    stale_page.parent.mkdir(parents=True)
    stale_page.write_text("stale")
    pages = {name: "k", "releases/gone/index.html": "k"}
    state = tmp_path / "state"  # the build's state folder, which holds its manifest
    state.mkdir()
    (state / MANIFEST).write_text(json.dumps({"code": code_key(), "pages": pages}))
    SiteWriter(out, code_key(), state).finish()
    assert victim.read_text() == "keep me"
    assert (outside / "victim.html").read_text() == "keep me too"
    assert not stale_page.exists()  # what is inside is still tidied


def test_a_build_manifest_of_the_wrong_shape_is_ignored(tmp_path):
    out = tmp_path / "_site"
    out.mkdir()
    state = tmp_path / "state"
    state.mkdir()
    (state / MANIFEST).write_text(json.dumps({"code": code_key(), "pages": ["../x"]}))
    assert SiteWriter(out, code_key(), state).previous == {}


# 3. A wrong declared encoding was accepted: UTF-8 read as latin-1 gave C1 controls.


def test_utf8_declared_latin1_is_refused_naming_the_file(stored):
    folder, db = stored
    before = digest(db)
    data = (CAPTURES_DIR / "cr" / f"{UTF8_RELEASE}.txt").read_bytes()
    add_entry(folder, data, date=UTF8_RELEASE, file=f"cr/{UTF8_RELEASE}.txt", encoding="latin-1")
    result = ingest(folder, db)
    assert_one_line_error(result, f"{UTF8_RELEASE}.txt", "C1 control characters", "latin-1")
    assert digest(db) == before


# 4 and 16. Manifest entries of the wrong type, dates that are no dates.


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"date": "not-a-date"}, "date 'not-a-date' is not a date written YYYY-MM-DD"),
        ({"date": "2009-02-30"}, "date '2009-02-30' is not a real date"),
        ({"date": "2999-01-01"}, "date 2999-01-01 is outside"),
        ({"date": 20090101}, "date 20090101 is not a date written YYYY-MM-DD"),
        ({"file": ["cr/a.txt"]}, "file is a list, not a path"),
        ({"file": "cr/a.txt\0b"}, "file 'cr/a.txt\\x00b' holds a NUL character"),
        ({"encoding": "klingon"}, "encoding 'klingon' is not a known text encoding"),
        ({"encoding": "base64"}, "encoding 'base64' is not a known text encoding"),
        ({"preferred": "yes"}, "preferred 'yes' is not true or false"),
        ({"sha256": 12}, "sha256 12 is not 64 lowercase hex digits"),
        ({"role": "main"}, "role 'main' is not one of primary, alt, derived"),
    ],
)
def test_a_bad_manifest_entry_is_one_line_and_stores_nothing(stored, fields, message):
    folder, db = stored
    before = digest(db)
    add_entry(folder, **fields)
    assert_one_line_error(ingest(folder, db), "manifest.json: entry 2", message)
    assert digest(db) == before


@pytest.mark.parametrize(("entry", "kind"), [(7, "a number"), ([1], "a list"), (None, "null")])
def test_a_manifest_entry_that_is_no_object_is_one_line(stored, entry, kind):
    folder, db = stored
    before = digest(db)
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps([*manifest, entry]))
    assert_one_line_error(ingest(folder, db), f"entry 2 is {kind}, not a JSON object")
    assert digest(db) == before


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # Python's decoder recurses
        ('[{"date": "2008-02-01",\n  "file": }]', "line 2"),
        (b"[\xff]", "not UTF-8 at byte 1"),
    ],
)
def test_a_manifest_that_is_no_json_is_one_line(stored, text, fault):
    """A manifest of arrays nested 100,000 deep (0.2 MB, under the size cap) ended in a
    RecursionError's traceback; a byte that is not UTF-8 was "not valid JSON (line None)"."""
    folder, db = stored
    before = digest(db)
    manifest = folder / "manifest.json"
    manifest.write_bytes(text if isinstance(text, bytes) else text.encode())
    assert_one_line_error(ingest(folder, db), "manifest.json", f"not valid JSON ({fault})")
    assert digest(db) == before


def test_a_date_that_is_no_date_never_becomes_the_newest_release(stored):
    """The probe: `"date": "not-a-date"` sorted after every real date, became the newest
    release, and `build` then failed with a traceback."""
    folder, db = stored
    add_entry(folder, date="not-a-date")
    ingest(folder, db)
    result = run("releases", "--json", "--db", str(db))
    assert [row["date"] for row in json.loads(result.stdout)] == [RELEASE]


# 6 and 12. Files outside the captures folder; FIFOs, devices and folders.


def outside_release(tmp_path: Path) -> Path:
    outside = tmp_path / "outside.txt"
    outside.write_bytes(synthetic_release("2009-01-01", "secrets").encode())
    return outside


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink", "symlinked-folder"])
def test_a_capture_outside_the_folder_is_never_read(stored, tmp_path, how):
    folder, db = stored
    before = digest(db)
    outside = outside_release(tmp_path)
    data = outside.read_bytes()
    if how == "dotdot":
        name = "../outside.txt"
    elif how == "absolute":
        name = str(outside)
    elif how == "symlink":
        name = "cr/2009-01-01.txt"
        (folder / name).symlink_to(outside)
    else:
        name = "linked/outside.txt"
        (folder / "linked").symlink_to(tmp_path)
    add_entry(folder, data, file=name)
    result = ingest(folder, db)
    line = assert_one_line_error(result)
    assert any(word in line for word in ("absolute path", "climbs out", "resolves outside"))
    assert digest(db) == before


def test_etc_passwd_is_not_read_as_a_release(stored):
    folder, db = stored
    add_entry(folder, b"root:x:0:0", file="../../../../../../../../etc/passwd")
    assert_one_line_error(ingest(folder, db), "climbs out")


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "dev-zero-inside", "directory"])
def test_a_fifo_or_device_never_blocks_ingest(stored, tmp_path, kind):
    """The probe: a FIFO blocked forever; a symlink to /dev/zero read until MemoryError."""
    folder, db = stored
    name = "cr/2009-01-01.txt"
    if kind == "fifo":
        os.mkfifo(folder / name)
    elif kind == "dev-zero":
        (folder / name).symlink_to("/dev/zero")
    elif kind == "dev-zero-inside":  # a device node cannot be made here; a link to one is
        (folder / "dev").symlink_to("/dev")
        name = "dev/zero"
    else:
        (folder / name).mkdir()
    add_entry(folder, b"", file=name)
    result = run("ingest", "--captures", str(folder), "--db", str(db), "--quiet", timeout=60)
    line = assert_one_line_error(result, "2009-01-01" if kind != "dev-zero-inside" else "zero")
    assert any(
        word in line for word in ("not a regular file", "resolves outside", "a directory")
    ), line


def test_a_witness_file_outside_the_folder_is_reported_not_read(stored, tmp_path):
    folder, db = stored
    outside = tmp_path / "outside.txt"
    outside.write_text("From the Comprehensive Rules (October 7, 2002—Onslaught)\n")
    shutil.copytree(CAPTURES_DIR / "web", folder / "web")
    index = json.loads((folder / "web" / "index.json").read_text())
    index[0]["file"] = "../../outside.txt"
    index[0]["sha256"] = hashlib.sha256(outside.read_bytes()).hexdigest()
    (folder / "web" / "index.json").write_text(json.dumps(index))
    result = ingest(folder, db)
    assert result.exit_code == 1
    assert "climbs out" in result.stderr and "Traceback" not in result.stderr
    stored = {row[0] for row in Database(db).execute("SELECT sha256 FROM witness_captures")}
    assert index[0]["sha256"] not in stored and index[1]["sha256"] in stored


@pytest.mark.parametrize(
    ("index", "message"),
    [
        ([1], "record 1 is int, not a JSON object"),
        ({"a": 1}, "must be a JSON list"),
        ([{"source": "x", "kind": "witness"}], "record 1 lacks bytes, file, sha256, url"),
        (
            [{"source": "x", "kind": "witness", "url": 5, "sha256": "a", "bytes": 1, "file": "f"}],
            "record 1: url 5 is not a str",
        ),
    ],
)
def test_a_damaged_witness_index_is_one_line(stored, index, message):
    folder, db = stored
    (folder / "web").mkdir()
    (folder / "web" / "index.json").write_text(json.dumps(index))
    assert_one_line_error(ingest(folder, db), "index.json", message)


# 13. Sizes beyond reason are refused before any work.


def test_a_release_over_the_size_cap_is_refused_unread(stored):
    folder, db = stored
    before = digest(db)
    huge = folder / "cr" / "2009-01-01.txt"
    with huge.open("wb") as handle:  # sparse: 200 MB on paper, nothing on disk
        handle.truncate(200_000_000)
    add_entry(folder, b"", file="cr/2009-01-01.txt")
    began = time.monotonic()
    assert_one_line_error(ingest(folder, db), "200,000,000 bytes", f"{MAX_RELEASE_BYTES:,}")
    assert time.monotonic() - began < 10  # refused from its size, not after reading it
    assert digest(db) == before


def test_a_release_with_too_many_clauses_is_refused_before_it_is_stored(stored):
    folder, db = stored
    before = digest(db)
    data = synthetic_release("2009-01-01", "x", rules=MAX_CLAUSES + 1).encode()
    assert len(data) < MAX_RELEASE_BYTES
    add_entry(folder, data)
    assert_one_line_error(
        ingest(folder, db), "2009-01-01.txt", f"over the limit of {MAX_CLAUSES:,}"
    )
    assert digest(db) == before


# 14. A killed ingest left its pool workers running.


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_ingest_leaves_no_worker_running(tmp_path):
    ingest_process = subprocess.Popen(
        [sys.executable, "-m", "rules_history", "ingest", "--db", str(tmp_path / "r.db")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    expected = min(2, os.cpu_count() or 1)  # as archive.ingest starts them
    assert survivors_of_killing(ingest_process, expected, within=60) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_interrupted_ingest_says_one_line_and_a_rerun_finishes(small_captures, tmp_path):
    """Ctrl-C reaches every process of the command: each parsing worker printed a traceback
    above click's blank line and "Aborted!". (On the small archive: the rerun runs every
    stage of the pipeline, two minutes on the whole one, and the interrupt comes as soon as
    the parsing workers are up, long before ten releases are parsed.)"""
    command = [sys.executable, "-m", "rules_history", "ingest", "--db", str(tmp_path / "r.db")]
    command += ["--captures", str(small_captures)]
    status, stderr, left = interrupt(command, workers=min(2, os.cpu_count() or 1))
    assert (status, stderr, left) == (INTERRUPTED_EXIT, f"{INTERRUPTED}\n", [])
    rerun = subprocess.run([*command, "--quiet"], capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    dates = {entry["date"] for entry in json.loads((small_captures / "manifest.json").read_text())}
    store = Database(tmp_path / "r.db")
    assert store.execute("SELECT count(*) FROM releases").fetchone()[0] == len(dates)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_interrupted_build_says_one_line_and_a_rerun_finishes(
    tiny_lineage, tiny_captures, tmp_path
):
    """The build's process computing the compare data printed its traceback too. (On a copy
    of the tiny store, brought up to date already: the build goes straight to its pages.)"""
    db = tmp_path / "r.db"
    with sqlite3.connect(db) as copy:
        tiny_lineage.conn.backup(copy)
    out = tmp_path / "site"
    command = [sys.executable, "-m", "rules_history", "build", "--db", str(db), "--out", str(out)]
    command += ["--captures", str(tiny_captures), "--state", str(tmp_path / "state")]
    command += ["--no-search", "--quiet"]
    status, stderr, left = interrupt(command, workers=1)
    assert (status, stderr, left) == (INTERRUPTED_EXIT, f"{INTERRUPTED}\n", [])
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert (out / "index.html").is_file() and (out / "rule" / "100.1" / "index.html").is_file()


# Seconds an interrupted command may take to end: its workers finish the task in hand (a
# fraction of a second; once, the pool's pipe was left half written and it never ended).
INTERRUPTED_WITHIN = 60


def interrupt(command: list[str], workers: int) -> tuple[int, str, list[int]]:
    """Run `command` in a process group of its own until it has `workers` children, then
    interrupt the group as Ctrl-C at a terminal does; its exit status, what it printed on
    stderr, and which of its children still ran two seconds after it ended."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    children: list[int] = []
    while len(children) < workers and time.monotonic() < deadline and process.poll() is None:
        children = children_of(process.pid)
        time.sleep(0.02)
    assert len(children) >= workers, "the command never started its workers"
    os.killpg(process.pid, signal.SIGINT)
    try:
        _out, stderr = process.communicate(timeout=INTERRUPTED_WITHIN)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"still running {INTERRUPTED_WITHIN} s after the interrupt: {command}")
    time.sleep(2)
    return process.returncode, stderr, [pid for pid in children if alive(pid)]


def survivors_of_killing(process: subprocess.Popen[Any], workers: int, within: float) -> list[int]:
    """Wait (up to `within` seconds) for `process` to have `workers` children, kill it, and
    return those of them still running ten seconds later (killed too, for the next test)."""
    deadline = time.monotonic() + within
    children: list[int] = []
    while len(children) < workers and time.monotonic() < deadline:
        children = children_of(process.pid)
        time.sleep(0.05)
    assert len(children) >= workers, "the process never started its workers"
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = [pid for pid in children if alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return survivors


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="word diffs run in a worker on 2 cores")
def test_a_killed_word_diffing_leaves_no_worker_running():
    """The derived answers diff words in a worker beside the pipeline: an ingest killed then
    left it waiting on its pipe for ever, holding the store's lock and files, and every
    rerun was refused."""
    code = (
        "import time\nfrom archive.worddiff import PARALLEL_FROM, WordDiffs\n"
        "pairs = [(f'old rule {i} ' * 50, f'new rule {i} ' * 50) for i in range(PARALLEL_FROM)]\n"
        "with WordDiffs(pairs, workers=1):\n    print('started', flush=True); time.sleep(120)\n"
    )
    caller = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert caller.stdout is not None and caller.stdout.readline().strip() == "started"
    assert survivors_of_killing(caller, 1, within=30) == []


# 15. Two writers at once: a migration race, a UNIQUE constraint failure.


def hold_the_lock(db: Path) -> subprocess.Popen[str]:
    """Another process holding the store's writer lock, as a running ingest does."""
    code = (
        "import time; from pathlib import Path; from archive.locking import writer_lock\n"
        f"with writer_lock(Path({str(db)!r})):\n    print('held', flush=True); time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_a_second_writer_gets_one_line_and_the_store_is_intact(stored, tmp_path):
    folder, db = stored
    before = digest(db)
    add_entry(folder)  # something new to write
    holder = hold_the_lock(db)
    try:
        second = run("ingest", "--db", str(db), "--quiet", "--captures", str(folder))
        assert_one_line_error(second, str(db), "another rules-history process", str(holder.pid))
        out = tmp_path / "_site"
        build = run("build", "--db", str(db), "--out", str(out), "--captures", str(folder))
        assert_one_line_error(build, "another rules-history process")
        assert digest(db) == before
    finally:
        holder.kill()
        holder.wait()
    # flock dies with its process: a killed writer never blocks the next one.
    assert ingest(folder, db).exit_code == 0
    assert Database(db)["releases"].count == 2


def test_a_lock_held_by_another_program_names_no_dead_process(stored):
    """The message named the pid an earlier writer, long dead, had left in the lock file,
    while some other program held the lock: the holder is then named as the lock file."""
    folder, db = stored
    lock = db.with_name(db.name + ".lock")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock.write_text(f"{dead.pid}\n")
    code = (
        "import fcntl, os, time, sys\n"
        f"handle = os.open({str(lock)!r}, os.O_RDWR)\n"
        "fcntl.flock(handle, fcntl.LOCK_EX); print('held', flush=True); time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        second = run("ingest", "--db", str(db), "--quiet", "--captures", str(folder))
        assert_one_line_error(second, "another process (holding rules.db.lock)")
        assert str(dead.pid) not in second.stderr
    finally:
        holder.kill()
        holder.wait()


def test_stores_opened_at_once_do_not_race_on_the_schema(tmp_path):
    """Readers open the store read-only: on a store not built yet, three at once each say so
    in one line, and none creates a file or a schema to race on."""
    for attempt in range(4):
        db = tmp_path / f"fresh-{attempt}.db"
        both = [
            subprocess.Popen(
                [sys.executable, "-m", "rules_history", "releases", "--db", str(db)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        for process in both:
            _out, errors = process.communicate(timeout=120)
            assert process.returncode == 1 and "Traceback" not in errors, errors
            assert errors.strip().splitlines() == [
                f"error: no store at {db}: run `rules-history ingest` to build it"
            ]
        assert not db.exists()


# 18. A --db that is no SQLite store; an --out that cannot be; a port that is none.


@pytest.mark.parametrize("command", [["releases"], ["show", "504.2"], ["ingest", "--quiet"]])
def test_a_db_that_is_not_sqlite_is_one_line(tmp_path, command):
    db = tmp_path / "rules.db"
    db.write_bytes(b"this is not a database\n" * 100)
    assert_one_line_error(run(*command, "--db", str(db)), str(db))
    assert db.read_bytes() == b"this is not a database\n" * 100


def test_a_truncated_store_is_one_line(prepared, tmp_path):
    _folder, source = prepared
    db = tmp_path / "rules.db"
    data = source.read_bytes()
    db.write_bytes(data[: len(data) // 3])
    assert_one_line_error(run("show", "504.2", "--db", str(db)), str(db))


def test_build_into_an_impossible_folder_is_one_line(stored):
    folder, db = stored
    result = run("build", "--out", "/proc/foo", "--db", str(db), "--captures", str(folder))
    assert_one_line_error(result, "/proc/foo")


def test_build_refuses_a_base_url_that_is_no_web_address(stored, tmp_path):
    folder, db = stored
    result = invoke(
        "build", "--out", str(tmp_path / "s"), "--db", str(db), "--base-url", "javascript:x"
    )
    assert_one_line_error(result, "--base-url 'javascript:x' is not an absolute http(s) URL")


@pytest.mark.parametrize(
    "address",
    ["http://x/?a=1#frag", "http://x/}}{{evil|a=b", 'http://x/"}', "http://x/<b>"],
)
@pytest.mark.parametrize("command", ["build", "cite"])
def test_a_base_url_with_a_query_or_what_ends_a_citation_is_refused(
    prepared, tmp_path, command, address
):
    """`?a=1#frag` went before every permalink of the site; `}}` closed the wiki citation's
    template and `"}` the BibTeX field. A site's address has no query or fragment, and only
    the characters a URL may hold."""
    folder, db = prepared
    where = ["--out", str(tmp_path / "s")] if command == "build" else ["504.2"]
    result = invoke(command, *where, "--db", str(db), "--base-url", address)
    assert_one_line_error(result, f"--base-url {address!r}", "no query")
    assert not (tmp_path / "s").exists()


def quick_build(out: Path, state: Path, prepared: tuple[Path, Path]) -> Any:
    """`build` of the prepared store into `out`, with no search index."""
    folder, db = prepared
    options = ["--state", str(state), "--db", str(db), "--captures", str(folder)]
    return run("build", "--out", str(out), *options, "--no-search", "--quiet")


def test_a_first_build_into_a_folder_of_other_files_is_refused(prepared, tmp_path):
    """A build wrote its index.html over the user's own, silently: a folder no build
    recorded must hold nothing with a name a build writes. The user's files are as they were."""
    out = tmp_path / "user"
    out.mkdir()
    (out / "index.html").write_text("mine")
    (out / "notes.txt").write_text("mine too")
    result = quick_build(out, tmp_path / "state", prepared)
    assert_one_line_error(result, str(out), "names a build writes (index.html)")
    assert (out / "index.html").read_text() == "mine"
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "notes.txt"]
    (out / "index.html").unlink()  # a gh-pages checkout's own files are no obstacle
    (out / ".git").mkdir()
    (out / "CNAME").write_text("rules.example.org")
    result = quick_build(out, tmp_path / "state", prepared)
    assert result.returncode == 0, result.stderr
    assert (out / "notes.txt").read_text() == "mine too" and (out / "CNAME").exists()


@pytest.mark.parametrize("inside", ["same", "inside"])
def test_a_state_folder_that_would_be_published_is_refused(prepared, tmp_path, inside):
    """`--state` equal to `--out` or inside it put the manifest, the diff cache and the
    search documents in the published site, where `serve` handed them out."""
    out = tmp_path / "site"
    state = {"same": out, "inside": out / "state"}[inside]
    result = quick_build(out, state, prepared)
    assert_one_line_error(result, "the state folder must lie outside the site folder")
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("which", ["--state", "--out"])
def test_a_folder_that_cannot_be_made_is_refused_before_anything_is_written(
    prepared, tmp_path, which
):
    """A --state under a file failed only once the site folder was made: the build left an
    empty --out behind and named neither option. Both are checked before either is made."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out, state = tmp_path / "site", tmp_path / "state"
    if which == "--state":
        state = blocker / "state"
    else:
        out = blocker / "site"
    before = sorted(p.name for p in tmp_path.iterdir())
    result = quick_build(out, state, prepared)
    assert_one_line_error(result, which, f"{blocker} is not a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_serve_on_a_port_that_is_none_is_one_line(tmp_path, port):
    (tmp_path / "index.html").write_text("<p>site</p>")
    result = run("serve", "--port", port, "--dir", str(tmp_path), timeout=30)
    assert_one_line_error(result, f"--port {port} is not a TCP port")


# 19. `export 2030-01-01` printed "no capture None … it has: ".


def test_export_of_a_date_without_a_release_says_so(prepared):
    _folder, db = prepared
    result = run("export", "2030-01-01", "--db", str(db))
    assert_one_line_error(
        result, "there is no release dated 2030-01-01", f"the release in force then is {RELEASE}"
    )
    assert "None" not in result.stderr


# `serve` served the build's caches and its manifest.


def test_serve_does_not_serve_the_build_caches_or_manifest(tmp_path):
    (tmp_path / "index.html").write_text("<p>site</p>")
    (tmp_path / "404.html").write_text("<p>not here</p>")
    (tmp_path / ".build-manifest.json").write_text('{"pages": {}}')  # as older builds left
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "examples.json").write_text("[]")
    server, base = serve_in_thread(tmp_path)
    try:
        with urllib.request.urlopen(base + "/") as response:
            assert response.status == 200
        for path in ("/.build-manifest.json", "/.cache/examples.json", "/%2ecache/examples.json"):
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(base + path)
            assert caught.value.code == 404, path
            assert b"not here" in caught.value.read()
    finally:
        server.shutdown()
        server.server_close()


# 8. A witness URL of javascript: was rendered as a link on history pages.


def test_a_javascript_witness_url_is_never_a_link(tmp_path):
    folder = make_captures_dir(tmp_path / "captures", ("2002-10-07",))
    shutil.copytree(CAPTURES_DIR / "web", folder / "web")
    index = json.loads((folder / "web" / "index.json").read_text())
    morph = next(record for record in index if record["source"] == "wizards-morph-2002")
    morph["url"] = "javascript:alert(document.domain)//"
    (folder / "web" / "index.json").write_text(json.dumps(index))
    out = tmp_path / "_site"
    db = tmp_path / "rules.db"
    result = run(
        "build",
        "--captures",
        str(folder),
        "--db",
        str(db),
        "--out",
        str(out),
        "--no-search",
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    witnessed = 0
    for page in (out / "history").rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        assert 'href="javascript' not in html.lower(), page
        witnessed += "Witness:" in html
    assert witnessed >= 5  # the witness is still shown, as text


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "missing"])
def test_a_manifest_that_is_no_file_is_one_line(stored, kind):
    folder, db = stored
    before = digest(db)
    (folder / "manifest.json").unlink()
    if kind == "fifo":
        os.mkfifo(folder / "manifest.json")
    elif kind == "dev-zero":
        (folder / "manifest.json").symlink_to("/dev/zero")
    result = run("ingest", "--captures", str(folder), "--db", str(db), "--quiet", timeout=60)
    assert_one_line_error(result, "manifest.json")
    assert digest(db) == before


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["show", "-5"], "No such option '-5'"),
        (["show", "504.2", "--format", "xml"], "No such option '--format'"),
        (["serve", "--port", "abc"], "'abc' is not a valid integer"),
        (["show", "504.2", "--db", "."], "is a directory"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["show"], "Missing argument 'RULE'"),
    ],
)
def test_a_command_line_that_cannot_be_read_is_one_line(arguments, said):
    """click's usage block (four lines, 'Usage: ... Try ... for help') for a command line it
    cannot read: one line, as every other error, naming the command's help; status 2."""
    result = run(*arguments)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], lines
    assert "--help`" in lines[0] and "Traceback" not in result.stderr


def test_no_command_at_all_shows_the_help_not_an_error():
    """click asks for the help with a usage error of its own: it is no error to show."""
    result = run()
    shown = result.stdout + result.stderr
    assert shown.startswith("Usage: ") and "COMMAND [ARGS]" in shown and "error:" not in shown


# An empty path is the current folder to the system.


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("build", "--out", "", "--no-search"), "--out"),
        (("build", "--state", ""), "--state"),
        (("show", "504.2", "--db", ""), "--db"),
        (("ingest", "--captures", " "), "--captures"),
        (("warc", ""), "OUTPUT"),
    ],
)
def test_an_empty_path_is_refused_and_nothing_is_written(tmp_path, args, option):
    """`build --out ""` built the whole site (100 MB) into the folder it was run from, and
    `--db ""` made a store there; an empty path names nothing: one line, nothing written."""
    result = subprocess.run(
        [sys.executable, "-m", "rules_history", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "an empty path names no file or folder" in lines[0], lines
    assert option in lines[0]
    assert list(tmp_path.iterdir()) == []
