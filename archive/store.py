"""The SQLite store: its location, its schema and the migrations that build it.

Tables (all readable in Datasette as they are):
- `sources`: where captures come from (a repository, a website).
- `captures`: one row per captured file, with its sha256, URL, capture time and how it parsed.
- `releases`: one row per CR release, with the capture its clauses were read from.
- `raw_texts`: each distinct raw span of text, by hash; a capture is the concatenation of
  its parts' raw spans, so every capture can be rebuilt from the store.
- `clause_versions`: each distinct wording of a clause, by hash, written once (git-history
  style: a new row only when the words change), with its normalised form.
- `parts`: the parts of each capture in order: kind, number, parent, title, and hashes
  into `raw_texts` and `clause_versions`.
- `clauses` (view): the parts of each release's preferred capture with their text.
- `release_gaps`: releases known or expected to exist that the archive lacks (`archive/gaps.py`).
"""

from __future__ import annotations

import os
import sqlite3
from functools import cache
from pathlib import Path

from sqlite_utils import Database, Migrations

from archive.errors import RulesHistoryError
from archive.locking import StoreBusy, writer_lock

DEFAULT_DB = Path("_build") / "rules.db"
DB_ENV = "RULES_HISTORY_DB"

# A store opened for reading while a writer brings its schema up to date waits this long.
MIGRATION_WAIT_SECONDS = 10.0
# How much of the file a mapped reader (`open_reader(mapped=True)`) maps: all of it (the
# whole archive's store is about 160 MB).
MAPPED_BYTES = 1 << 30

migrations = Migrations("rules-history")


class StoreDamaged(RulesHistoryError):
    """A --db file that is not a SQLite database, or a damaged one."""

    def __init__(self, path: object, error: sqlite3.DatabaseError) -> None:
        super().__init__(f"{path}: not a usable SQLite store ({error}); remove it and ingest again")


class StoreReadOnly(RulesHistoryError):
    """A store this process may not write to, where opening it needs a write."""

    def __init__(self, path: object, why: str) -> None:
        super().__init__(f"{path}: {why}")


def lacks_table(table: str) -> str:
    """What a store lacking `table`, which its version has, is, for writers and readers alike."""
    return (
        f"the store is damaged (no table {table}, which its version has): remove it"
        " and run `rules-history ingest` to build it again"
    )


class StoreLacksTable(RulesHistoryError):
    """A store whose version has a table that is not in it: something removed it."""

    def __init__(self, path: object, table: str) -> None:
        super().__init__(f"{path}: {lacks_table(table)}")


@cache
def schema_tables() -> tuple[str, ...]:
    """Every table of a store made by this version (its migrations run on an empty one): the
    stages and readers rely on each; a store without one was made by an older version (its
    migrations add it), or damaged."""
    fresh = Database(memory=True)
    migrations.apply(fresh)
    return tuple(name for name in fresh.table_names() if not name.startswith("_"))


def missing_tables(db: Database) -> list[str]:
    """The tables of `schema_tables` the store lacks, in the schema's order."""
    present = set(db.table_names())
    return [table for table in schema_tables() if table not in present]


def _store_error(path: Path, error: sqlite3.DatabaseError) -> RulesHistoryError:
    """What an error opening the store means for its user: busy, read-only, or damaged (only
    the last is worth removing the file for)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(error):
        return StoreBusy(f"{path}: the store is busy (another process holds it locked); try again")
    if code == sqlite3.SQLITE_READONLY or "readonly" in str(error):
        return StoreReadOnly(
            path,
            "the store, or its folder, is read-only, and writing is needed here (ingest and "
            "build write the store; the read commands need its folder writable unless its "
            "journal is empty): copy it somewhere writable",
        )
    return StoreDamaged(path, error)


def db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`--db` if given, else `$RULES_HISTORY_DB`, else `_build/rules.db`."""
    if explicit:
        return Path(explicit)
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def open_store(path: str | os.PathLike[str] | None = None) -> Database:
    """Open (creating if needed) the store and bring its schema up to date."""
    target = db_path(path)
    if str(target) != ":memory:":
        target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_dir():
        raise RulesHistoryError(f"{target}: is a directory, not a SQLite store")
    in_memory = str(target) == ":memory:"
    try:
        db = Database(target)
        db.conn.execute("PRAGMA foreign_keys = ON")
        # Setting up a new store (WAL, the schema) is a write: two processes opening one at
        # once raced on it, so it is done under the writer lock, by one of them only.
        if not in_memory and (db.journal_mode != "wal" or migrations.pending(db)):
            with writer_lock(target, wait=MIGRATION_WAIT_SECONDS):
                db.enable_wal()
                migrations.apply(db)
        elif in_memory:
            migrations.apply(db)
        if not in_memory:
            db.conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL; no fsync per commit
        # Checked before any stage runs: an ingest used to parse every new capture into a
        # store it then could not finish, and fail only at the missing table.
        lacking = missing_tables(db)
    except sqlite3.DatabaseError as error:
        raise _store_error(target, error) from error
    if lacking:
        db.close()
        raise StoreLacksTable(target, lacking[0])
    return db


def store_file(db: Database) -> str | None:
    """The file an open store lives in (None for an in-memory one): what a process of its
    own opens, never sharing the connection."""
    row = db.execute("PRAGMA database_list").fetchone()
    return str(row[2]) if row and row[2] else None


def open_reader(path: str | os.PathLike[str] | None = None, mapped: bool = False) -> Database:
    """Open the store for reading only (SQLite's `mode=ro`): no schema change, no write.

    Readers (the CLI's read commands, the site) use this; a missing file is one clear line.
    `mapped` readers read pages through a memory map instead of copying each in by a system
    call: a diff, which reads a few thousand texts scattered over the file, runs a tenth
    faster. The pages mapped count in the process's resident memory, though, so the site
    build, which reads most of the store under a memory ceiling, copies them.
    """
    target = db_path(path)
    if str(target) == ":memory:":
        return open_store(target)
    if not target.exists():
        raise RulesHistoryError(f"no store at {target}: run `rules-history ingest` to build it")
    if target.is_dir():
        raise RulesHistoryError(f"{target}: is a directory, not a SQLite store")
    try:
        connection = _connect_read_only(target)
        if mapped:
            connection.execute(f"PRAGMA mmap_size = {MAPPED_BYTES}")
    except sqlite3.DatabaseError as error:
        raise _store_error(target, error) from error
    return Database(connection)


def _connect_read_only(target: Path) -> sqlite3.Connection:
    """A read-only connection (`mode=ro`). A store in WAL mode needs its shared-memory file
    beside it, which SQLite creates: in a folder this process may not write (a read-only
    mount, another user's store) that fails, and a store whose write-ahead log is empty
    (every ingest ends with its transactions checkpointed into the file) is then opened as
    immutable, which needs none."""
    uri = target.resolve().as_uri()
    connection = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return connection
    except sqlite3.OperationalError as error:
        connection.close()
        if os.access(target.parent, os.W_OK):
            raise
        journal = target.with_name(target.name + "-wal")
        if journal.exists() and journal.stat().st_size:
            raise StoreReadOnly(
                target,
                "its write-ahead log holds changes not yet in the file, and its folder is"
                " read-only: copy the store and its -wal file somewhere writable",
            ) from error
        error_seen = error
    # For a read-only mount, not a store someone is writing (its -wal would not be empty).
    connection = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError:
        connection.close()
        raise error_seen from None
    return connection


@migrations()
def m001_archive(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE sources (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            name TEXT,
            url TEXT,
            notes TEXT
        );
        CREATE TABLE captures (
            id INTEGER PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            file TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT 'cr',
            release_date TEXT,
            role TEXT,
            preferred INTEGER NOT NULL DEFAULT 0,
            url TEXT,
            capture_time TEXT,
            source_id TEXT REFERENCES sources(id),
            encoding TEXT,
            line_endings TEXT,
            bytes INTEGER,
            stated_date TEXT,
            stated_date_text TEXT,
            text_sha256 TEXT,
            hard_wrapped INTEGER,
            complete INTEGER,
            parser_version INTEGER,
            warnings TEXT,
            notes TEXT
        );
        CREATE INDEX captures_release ON captures(release_date);
        CREATE TABLE releases (
            date TEXT PRIMARY KEY,
            stated_date TEXT,
            name TEXT,
            capture_id INTEGER NOT NULL REFERENCES captures(id),
            clauses INTEGER,
            rules INTEGER,
            glossary_entries INTEGER
        );
        CREATE TABLE raw_texts (
            hash TEXT PRIMARY KEY,
            raw TEXT NOT NULL
        );
        CREATE TABLE clause_versions (
            hash TEXT PRIMARY KEY,
            text TEXT NOT NULL,
            normalised TEXT NOT NULL,
            normalised_hash TEXT NOT NULL,
            first_release TEXT
        );
        CREATE INDEX clause_versions_normalised ON clause_versions(normalised_hash);
        CREATE TABLE parts (
            id INTEGER PRIMARY KEY,
            capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            number TEXT,
            parent TEXT,
            title TEXT,
            line INTEGER,
            raw_hash TEXT NOT NULL REFERENCES raw_texts(hash),
            version_hash TEXT REFERENCES clause_versions(hash),
            UNIQUE (capture_id, position)
        );
        CREATE VIEW clauses AS
            SELECT releases.date AS release, parts.id AS part_id, parts.position, parts.kind,
                   parts.number, parts.parent, parts.title, parts.line,
                   clause_versions.text, clause_versions.normalised, parts.version_hash,
                   raw_texts.raw
            FROM releases
            JOIN parts ON parts.capture_id = releases.capture_id
            JOIN raw_texts ON raw_texts.hash = parts.raw_hash
            LEFT JOIN clause_versions ON clause_versions.hash = parts.version_hash;
        """
    )
    db.table("clause_versions").enable_fts(["text"], tokenize="porter", create_triggers=True)


@migrations()
def m002_lineage(db: Database) -> None:
    """Lineages: one identity per clause across releases, its members and its events.

    `lineage_alignments` records which pair of captures each release was aligned from, so
    that `build_lineage` redoes only releases whose alignment is missing or stale.
    """
    db.executescript(
        """
        CREATE TABLE lineages (
            id INTEGER PRIMARY KEY,
            first_release TEXT NOT NULL,
            last_release TEXT NOT NULL,
            first_number TEXT,
            last_number TEXT,
            kind TEXT NOT NULL
        );
        CREATE TABLE lineage_members (
            part_id INTEGER PRIMARY KEY REFERENCES parts(id) ON DELETE CASCADE,
            lineage_id INTEGER NOT NULL REFERENCES lineages(id),
            release TEXT NOT NULL,
            number TEXT,
            kind TEXT
        );
        CREATE INDEX lineage_members_lineage ON lineage_members(lineage_id, release);
        CREATE INDEX lineage_members_release ON lineage_members(release, number);
        CREATE TABLE lineage_events (
            id INTEGER PRIMARY KEY,
            lineage_id INTEGER NOT NULL REFERENCES lineages(id),
            release TEXT NOT NULL,
            kind TEXT NOT NULL,
            old_numbers TEXT NOT NULL,
            new_numbers TEXT NOT NULL,
            old_part_id INTEGER,
            new_part_id INTEGER,
            related_lineages TEXT NOT NULL DEFAULT '[]',
            similarity REAL
        );
        CREATE INDEX lineage_events_lineage ON lineage_events(lineage_id, release);
        CREATE INDEX lineage_events_release ON lineage_events(release, kind);
        CREATE TABLE lineage_alignments (
            release TEXT PRIMARY KEY,
            previous_release TEXT,
            capture_id INTEGER NOT NULL,
            previous_capture_id INTEGER,
            version INTEGER NOT NULL,
            counts TEXT
        );
        """
    )


@migrations()
def m003_witnesses(db: Database) -> None:
    """Witnesses: secondary sources quoting the CR, each clause cross-checked.

    `witness_captures` holds one row per parsed witness capture; `witnesses` one row per
    quoted clause, with the release it quotes (the one in force on the date the witness
    gives), the archive clause version it was compared with, the agreement (`agrees`,
    `differs`, `not-in-release`, `not-a-quote`) and the word diff as JSON.
    """
    db.executescript(
        """
        CREATE TABLE witness_captures (
            id INTEGER PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            source TEXT NOT NULL,
            parser TEXT NOT NULL,
            file TEXT NOT NULL,
            url TEXT,
            capture_time TEXT,
            form TEXT,
            page_date TEXT,
            clauses INTEGER
        );
        CREATE TABLE witnesses (
            id INTEGER PRIMARY KEY,
            capture_id INTEGER NOT NULL REFERENCES witness_captures(id) ON DELETE CASCADE,
            source TEXT NOT NULL,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            number TEXT,
            title TEXT,
            text TEXT NOT NULL,
            quoted_date TEXT,
            date_basis TEXT,
            release TEXT,
            archive_version TEXT,
            agreement TEXT NOT NULL,
            word_diff TEXT,
            UNIQUE (capture_id, position)
        );
        CREATE INDEX witnesses_rule ON witnesses(number, release);
        CREATE INDEX witnesses_version ON witnesses(archive_version);
        """
    )


@migrations()
def m004_release_gaps(db: Database) -> None:
    """Gaps: releases known or expected to exist that the archive holds no text of.

    Filled from the catalogue's `gap` lines at every ingest (`archive/gaps.py`): the archived
    releases around the gap, its status, what is known, evidence and sources (JSON lists).
    """
    db.executescript(
        """
        CREATE TABLE release_gaps (
            id TEXT PRIMARY KEY,
            after_release TEXT NOT NULL,
            before_release TEXT NOT NULL,
            title TEXT NOT NULL,
            status TEXT NOT NULL,
            known TEXT NOT NULL,
            evidence TEXT NOT NULL DEFAULT '[]',
            sources TEXT NOT NULL DEFAULT '[]'
        );
        """
    )


@migrations()
def m005_derived_events(db: Database) -> None:
    """The differences of a derived release (a re-extracted copy) from its official
    predecessor: the columns of `lineage_events`, plus `confirmed` (1 when the next official
    release has the difference too). Kept apart so that no change list or blame reads them
    as rule changes (`lineage/derived.py`)."""
    db.executescript(
        """
        CREATE TABLE derived_events (
            id INTEGER PRIMARY KEY,
            lineage_id INTEGER NOT NULL,
            release TEXT NOT NULL,
            kind TEXT NOT NULL,
            old_numbers TEXT NOT NULL,
            new_numbers TEXT NOT NULL,
            old_part_id INTEGER,
            new_part_id INTEGER,
            related_lineages TEXT NOT NULL DEFAULT '[]',
            similarity REAL,
            confirmed INTEGER NOT NULL
        );
        CREATE INDEX derived_events_release ON derived_events(release, kind);
        """
    )


@migrations()
def m006_capture_differences(db: Database) -> None:
    """How each capture that a release is not read from differs from the one it is read
    from (`archive/capture_diffs.py`): computed once at ingest."""
    db.executescript(
        """
        CREATE TABLE capture_differences (
            capture_id INTEGER PRIMARY KEY REFERENCES captures(id) ON DELETE CASCADE,
            release TEXT NOT NULL,
            compared_with INTEGER NOT NULL,
            kind TEXT NOT NULL,
            lines_differ INTEGER NOT NULL,
            summary TEXT NOT NULL
        );
        """
    )


@migrations()
def m007_release_names(db: Database) -> None:
    """Release names: the committed table `archive/data/release_names.csv`, copied in by
    every ingest (set code, set name, and the source of each)."""
    db.executescript(
        """
        CREATE TABLE release_names (
            date TEXT PRIMARY KEY,
            set_code TEXT,
            set_name TEXT,
            code_source TEXT,
            name_source TEXT,
            note TEXT
        );
        """
    )


@migrations()
def m008_explanations(db: Database) -> None:
    """Explanations: the official "Comprehensive Rules changes" articles, one row per entry.

    `bulletins` holds one row per article (its release and how that was decided);
    `explanations` one row per entry: the rule numbers or glossary terms it lists, the
    explanation, the phrases it quotes, and how it matched our diff between the release and
    the one before (`status`: matched or a finding); `explanation_links` ties each matched
    entry to the lineage whose change it explains; `explanation_state` keeps the key of the
    inputs they were matched from, so that an ingest with nothing new skips the matching.
    """
    db.executescript(
        """
        CREATE TABLE bulletins (
            id INTEGER PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            file TEXT NOT NULL,
            title TEXT,
            publish_date TEXT,
            set_code TEXT,
            set_name TEXT,
            url TEXT,
            release TEXT,
            previous_release TEXT,
            release_basis TEXT,
            entries INTEGER
        );
        CREATE TABLE explanations (
            id INTEGER PRIMARY KEY,
            bulletin_id INTEGER NOT NULL REFERENCES bulletins(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            heading TEXT NOT NULL,
            kind TEXT NOT NULL,
            numbers TEXT NOT NULL,
            terms TEXT NOT NULL,
            explanation TEXT NOT NULL,
            quoted TEXT NOT NULL,
            release TEXT,
            status TEXT NOT NULL,
            finding TEXT,
            UNIQUE (bulletin_id, position)
        );
        CREATE INDEX explanations_release ON explanations(release);
        CREATE TABLE explanation_links (
            explanation_id INTEGER NOT NULL REFERENCES explanations(id) ON DELETE CASCADE,
            lineage_id INTEGER NOT NULL,
            release TEXT NOT NULL,
            label TEXT NOT NULL,
            matched_by TEXT NOT NULL,
            PRIMARY KEY (explanation_id, lineage_id)
        );
        CREATE INDEX explanation_links_lineage ON explanation_links(lineage_id, release);
        CREATE TABLE explanation_state (
            key TEXT NOT NULL
        );
        """
    )


@migrations()
def m009_capture_entry(db: Database) -> None:
    """`entry_key`: the hash of the manifest entry a capture was stored from, so that a
    changed entry (a corrected encoding, a new date) is stored again and a removed one goes."""
    db.execute("ALTER TABLE captures ADD COLUMN entry_key TEXT")
    db.execute("CREATE INDEX captures_entry_key ON captures(entry_key)")


@migrations()
def m010_lineage_evidence(db: Database) -> None:
    """The evidence of each lineage decision, so that a reader knows which links are certain.

    `method`: how the alignment decided (equal, formatting, references, term, similar, moved,
    gap, children, split-off, absorbed, sentence, unpaired); `score`: the evidence it had (word
    similarity plus context, or the share of words that moved, or for an unpaired clause the
    best similarity it had to a clause it was not paired with); `weak`: 1 when that is below
    `lineage.alignment.WEAK`.
    """
    columns = {"method": "TEXT", "score": "REAL", "weak": "INTEGER NOT NULL DEFAULT 0"}
    have = set(db["lineage_events"].columns_dict)
    for name, declaration in columns.items():
        if name not in have:
            db.execute(f"ALTER TABLE lineage_events ADD COLUMN {name} {declaration}")


@migrations()
def m011_derived_answers(db: Database) -> None:
    """The answers computed once from the lineages (`lineage.answers`) and the executable
    examples' records (`facedown.store`): the CLI and the site read them, never compute them.

    `derived_state` and `example_state` record what each was computed from, so that a reader
    can tell a stale store and the pipeline redoes only what changed.
    """
    db.executescript(
        """
        CREATE TABLE wordings (
            lineage_id INTEGER NOT NULL,
            position INTEGER NOT NULL,
            version_hash TEXT NOT NULL,
            normalised_hash TEXT,
            first TEXT NOT NULL,
            last TEXT NOT NULL,
            replaced_by TEXT,
            releases INTEGER NOT NULL,
            numbers TEXT NOT NULL,
            kind TEXT NOT NULL,
            since TEXT NOT NULL,
            text_since TEXT NOT NULL,
            PRIMARY KEY (lineage_id, position)
        );
        CREATE TABLE blame (
            part_id INTEGER PRIMARY KEY,
            lineage_id INTEGER NOT NULL,
            release TEXT NOT NULL,
            number TEXT,
            since TEXT NOT NULL,
            text_since TEXT NOT NULL
        );
        CREATE INDEX blame_release ON blame(release);
        CREATE TABLE release_counts (
            release TEXT PRIMARY KEY,
            clauses INTEGER NOT NULL,
            rules INTEGER NOT NULL,
            glossary INTEGER NOT NULL,
            examples INTEGER NOT NULL
        );
        CREATE TABLE release_changes (
            release TEXT NOT NULL,
            position INTEGER NOT NULL,
            previous_release TEXT NOT NULL,
            kind TEXT NOT NULL,
            old_numbers TEXT NOT NULL,
            new_numbers TEXT NOT NULL,
            lineage_id INTEGER NOT NULL,
            old_part_id INTEGER,
            new_part_id INTEGER,
            related_lineages TEXT NOT NULL,
            unconfirmed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (release, position)
        );
        CREATE TABLE derived_state (
            release TEXT PRIMARY KEY,
            signature TEXT NOT NULL
        );
        CREATE TABLE example_records (
            scenario TEXT NOT NULL,
            release TEXT NOT NULL,
            position INTEGER NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (position)
        );
        CREATE INDEX example_records_release ON example_records(release);
        CREATE TABLE example_state (
            release TEXT PRIMARY KEY,
            signature TEXT NOT NULL
        );
        """
    )


@migrations()
def m012_diff_reads(db: Database) -> None:
    """What the diff of any two releases reads, made quick to read:

    - `word_diffs`, computed once by the pipeline (`lineage.answers`): the shape of the diff
      of two texts of one clause (`archive.worddiff.diff_shape`), under the key of the two
      texts (`archive.worddiff.pair_key`); `lineage.stored_diffs` reads them;
    - an index that holds every column `lineage.evidence.evidence_between` reads, in its
      order, so that the events of a span of releases come without a sort or a table lookup.
    """
    db.executescript(
        """
        CREATE TABLE word_diffs (
            key TEXT PRIMARY KEY,
            shape TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX lineage_events_evidence
            ON lineage_events(release, id, lineage_id, method, score, weak);
        """
    )


@migrations()
def m013_change_kinds(db: Database) -> None:
    """`change_kinds`, computed once by the pipeline (`lineage.answers`): the kind of change
    between two states of one clause, if every rule number its text cites followed its rule
    (`follows`) and if none did (`otherwise`), under the key of the two states
    (`lineage.stored_kinds`); the diff of any two releases reads them."""
    db.executescript(
        """
        CREATE TABLE change_kinds (
            key TEXT PRIMARY KEY,
            follows TEXT NOT NULL,
            otherwise TEXT NOT NULL
        ) WITHOUT ROWID;
        """
    )


@migrations()
def m014_capture_difference_method(db: Database) -> None:
    """How each capture difference's lines were counted (`archive.capture_diffs.METHOD`):
    the rows stored before this were counted by Python's difflib (method 1)."""
    db.executescript(
        "ALTER TABLE capture_differences ADD COLUMN method INTEGER NOT NULL DEFAULT 1;"
    )


@migrations()
def m015_number_runs(db: Database) -> None:
    """`number_runs`, computed once by the pipeline (`lineage.runs`): the stretches of
    consecutive releases in which a clause number kept one wording, each the page a
    citation names."""
    db.executescript(
        """
        CREATE TABLE number_runs (
            number TEXT NOT NULL,
            start TEXT NOT NULL,
            end TEXT NOT NULL,
            version TEXT NOT NULL,
            part_id INTEGER NOT NULL,
            PRIMARY KEY (number, start)
        ) WITHOUT ROWID;
        """
    )


@migrations()
def m016_headings(db: Database) -> None:
    """`headings`, computed once by the pipeline (`lineage.headings`): each titled clause
    (chapter, section, keyword rule) of each release, with the clauses printed under it."""
    db.executescript(
        """
        CREATE TABLE headings (
            lineage_id INTEGER NOT NULL,
            release TEXT NOT NULL,
            number TEXT NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            version TEXT NOT NULL,
            children TEXT NOT NULL,
            PRIMARY KEY (lineage_id, release)
        ) WITHOUT ROWID;
        """
    )


@migrations()
def m017_alignment_token(db: Database) -> None:
    """`aligned_as`: a token of each alignment of a release (`lineage.alignment_rows`), so that
    a release aligned again into an otherwise equal row is new to the answers computed from
    its lineages."""
    db.execute("ALTER TABLE lineage_alignments ADD COLUMN aligned_as TEXT")


@migrations()
def m018_normaliser_state(db: Database) -> None:
    """Which version of `normalise` made the stored comparison forms (archive.stored_texts):
    a store made before it was recorded holds the first version's."""
    db.execute("CREATE TABLE normaliser_state (version INTEGER NOT NULL)")
    db.execute("INSERT INTO normaliser_state (version) VALUES (1)")


@migrations()
def m019_unchanged_count(db: Database) -> None:
    """`release_counts.unchanged`: the clauses a release kept as they were in the release it
    is compared with, the count `rules-history diff` gives as "unchanged" (NULL for the
    first release, compared with none)."""
    db.execute("ALTER TABLE release_counts ADD COLUMN unchanged INTEGER")


@migrations()
def m020_printed_number(db: Database) -> None:
    """`parts.printed_number`: a rule's number as its text printed it, where the parser read
    it otherwise ("408.f", read as 408.2f; "702. 37a"); NULL when printed as read. Captures
    parsed before it hold NULL until the ingest parses them again (parser 9)."""
    db.execute("ALTER TABLE parts ADD COLUMN printed_number TEXT")


@migrations()
def m021_printed_number_index(db: Database) -> None:
    """The few parts with a number printed otherwise (18 of 415,000), found without reading
    the whole parts table: each site build asks for them (renderer.model)."""
    db.execute(
        "CREATE INDEX parts_printed_number ON parts(printed_number)"
        " WHERE printed_number IS NOT NULL"
    )


def alignment_identities(db: Database, until: str | None = None) -> list[tuple[object, ...]]:
    """Each release's alignment row (up to the release `until`, if given), in release order,
    as what was computed from its lineages names it: the captures, the version and the token
    (`lineage.alignment_rows`). The derived answers, the examples, the official articles'
    matches and the in-browser compare's data are keyed by these rows."""
    return db.execute(
        "SELECT release, previous_release, capture_id, previous_capture_id, version, aligned_as"
        " FROM lineage_alignments WHERE ? IS NULL OR release <= ? ORDER BY release",
        [until, until],
    ).fetchall()
