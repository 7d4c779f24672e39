"""Names of releases: the set a CR release accompanied, where a source says so.

The CR text itself never names its set. `archive/data/release_names.csv` gives, for every
release date of the corpus, the set code and set name that a source attests, with the
source of each: the VensersJournal file names (set codes), the official "Comprehensive
Rules changes" articles (set names, `archive/captures/bulletins/`), the official file names
(`MagicCompRules_CN2_Update_20160826.txt`), the witness pages ("January 24, 2020—Theros
Beyond Death") and a vendored set table (`archive/data/set_names.csv`, code to name, used
only when the set came out within `SET_DATE_WINDOW_DAYS` of the release). A row without a
source has no name: nothing here is guessed.

`ingest` copies the table into the store (`release_names`); the command line and the site
read it from there, and `archive.query.resolve_when` accepts a code or a name wherever a
release or date is taken.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlite_utils import Database

DATA_DIR = Path(__file__).resolve().parent / "data"
RELEASE_NAMES = DATA_DIR / "release_names.csv"
SET_NAMES = DATA_DIR / "set_names.csv"
# A set's rules update comes out with the set, and a release keeps its set's label until
# the next set's, some four months at most: a set table row further away is another set.
SET_DATE_WINDOW_DAYS = 120


@dataclass(frozen=True)
class ReleaseName:
    date: str
    set_code: str
    set_name: str
    code_source: str
    name_source: str
    note: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@lru_cache(maxsize=1)
def load_release_names(path: Path = RELEASE_NAMES) -> dict[str, ReleaseName]:
    """date -> its row of the committed table."""
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["date"]: ReleaseName(**row) for row in csv.DictReader(handle)}


def release_name(date: str) -> str | None:
    """The set a release accompanied, if a source names it."""
    row = load_release_names().get(date)
    return row.set_name or None if row else None


def store_release_names(db: Database) -> int:
    """Copy the table into the store and name each stored release; returns names stored.

    Redone on every ingest (135 rows): a corrected table reaches the store without a
    re-parse.
    """
    rows = load_release_names()
    with db.atomic():
        db.conn.execute("DELETE FROM release_names")
        db.conn.executemany(
            """INSERT INTO release_names (date, set_code, set_name, code_source, name_source,
               note) VALUES (?, ?, ?, ?, ?, ?)""",
            [
                (r.date, r.set_code, r.set_name, r.code_source, r.name_source, r.note)
                for r in rows.values()
            ],
        )
        db.conn.execute(
            """UPDATE releases SET name = (SELECT nullif(set_name, '') FROM release_names
               WHERE release_names.date = releases.date)"""
        )
    return sum(bool(row.set_name) for row in rows.values())


def names_in_store(db: Database) -> dict[str, tuple[str, str]]:
    """date -> (set code, set name) of the stored releases ('' where none is attested)."""
    if "release_names" not in db.table_names():
        return {}
    return {
        row[0]: (row[1] or "", row[2] or "")
        for row in db.execute(
            """SELECT release_names.date, set_code, set_name FROM release_names
               JOIN releases ON releases.date = release_names.date"""
        )
    }


def label(date: str, code: str | None, name: str | None) -> str:
    """'2009-07-08 (Magic 2010, M10)', '2007-09-07 (MED)', '2023-04-14'.

    >>> label("2009-07-08", "M10", "Magic 2010"), label("2023-04-14", "", "")
    ('2009-07-08 (Magic 2010, M10)', '2023-04-14')
    """
    parts = [part for part in (name, code) if part]
    return f"{date} ({', '.join(parts)})" if parts else date
