"""The compare page and the data it compares with (renderer.compare_data).

The data is computed again only when the lineages changed: its key, the files it wrote and
their hashes are kept in the build's state folder. Naming the kind of every pair of a
lineage's states is most of that work; the names are kept there too (`MEMO`, per lineage, by
the lineage's states), so after a new release only the lineages it changed are named again; and
what reading the releases left (`RESUME`, `renderer.compare_data.Resume`), so after a new
release only that release is read.

The data needs only the store, so it is computed in a process of its own from the start of the
build (`start_compare`), on the core the page preparation leaves idle; the compare step then
only publishes it.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import pickle
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive import lookup, normalise
from archive.store import alignment_identities, open_reader, store_file
from archive.workers import die_with_parent
from lineage import change_kind, clause, compare
from lineage.compare import compared_with
from renderer import compare_data as compare_module
from renderer.compare_data import FORMAT, INDEX, CompareData, Resume, compare_data, versioned
from renderer.context import Site
from renderer.errors import SiteBuildError
from vocabulary import names

RECORD = "compare-data.json"  # in the state folder: what the last build published
MEMO = "cache/compare-kinds.json"  # in the state folder: the kinds named last time
# In the state folder: what reading the releases left last time. A pickle (the lineages'
# states hold the engine's clauses), read only from the build's own state folder.
RESUME = "cache/compare-resume.pickle"


def data_key(db: Database, dates: list[str]) -> str:
    """What the published data depends on: the releases, each alignment (its captures, the
    aligner's version and its token: `archive.store.alignment_identities`) and the code
    (`data_code`)."""
    alignments = alignment_identities(db)  # a release aligned again is new data
    return hashlib.sha256(repr((data_code(), dates, alignments)).encode()).hexdigest()[:20]


def data_code() -> str:
    """The layout and the code the published data depends on: the code that writes it, the
    engine's code that names the kinds and the lookup's, which reads each release's names."""
    digest = hashlib.sha256(str(FORMAT).encode())
    for module in (compare_module, change_kind, clause, compare, lookup, names):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


def memo_code() -> str:
    """The code that names the kinds: a memo written by other code is not read."""
    digest = hashlib.sha256(str(FORMAT).encode())
    for module in (compare_module, change_kind, clause, normalise):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:20]


def _load_memo(state: Path) -> dict[str, Any]:
    try:
        memo = json.loads((state / MEMO).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(memo, dict) or memo.get("code") != memo_code():
        return {}
    kinds = memo.get("kinds")
    if not isinstance(kinds, dict):
        return {}
    # an entry of another shape (an edited file) is named again rather than trusted
    return {
        key: entry
        for key, entry in kinds.items()
        if isinstance(entry, list)
        and len(entry) == 2
        and isinstance(entry[0], str)
        and isinstance(entry[1], dict)
    }


def _load_resume(state: Path) -> Resume | None:
    """The last computation's `Resume`, when the code that wrote it is this code; a file
    that cannot be read (cut short, of another version) is a computation from the start."""
    try:
        with (state / RESUME).open("rb") as stored:
            code, resume = pickle.load(stored)
    except Exception:  # noqa: BLE001 - any unreadable cache is no cache
        return None
    return resume if code == data_code() and isinstance(resume, Resume) else None


def _save_resume(state: Path, resume: Resume | None) -> None:
    """Atomic, as `_save_memo`."""
    if resume is None:
        return
    target = state / RESUME
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    with partial.open("wb") as stored:
        pickle.dump((data_code(), resume), stored, protocol=pickle.HIGHEST_PROTOCOL)
    partial.replace(target)


def _computed(db: Database, dates: list[str], state: Path) -> CompareData:
    """The compare data, continued from the last computation where it can be; what this one
    read is kept for the next."""
    data = compare_data(db, dates, _load_memo(state), _load_resume(state))
    _save_resume(state, data.resume)
    return data


def _save_memo(state: Path, kinds: dict[str, Any]) -> None:
    """Atomic: a build killed while writing leaves the last memo, or none."""
    target = state / MEMO
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_text(json.dumps({"code": memo_code(), "kinds": kinds}))
    partial.replace(target)


def _recorded(out: Path, state: Path, key: str) -> dict[str, Any] | None:
    """The last build's record, when it is for `key` and its files are all still there."""
    try:
        record = json.loads((state / RECORD).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    files = record.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(path, str) and (out / path).is_file() for path in files
    ):
        return None
    return record


def _compute_and_send(sender: Connection, db_file: str, dates: list[str], state: Path) -> None:
    """In the compare's own process: the data, from a connection of its own, sent back (or
    the error that stopped it)."""
    die_with_parent()  # a killed build leaves no process behind
    answer: tuple[str, Any]
    try:
        answer = ("data", _computed(open_reader(db_file), dates, state))
    except Exception as error:  # raised again in the build, which reports it
        answer = ("error", error)
    sender.send(answer)
    sender.close()


@dataclass
class PendingCompare:
    """The compare data of one build: the last build's record when it is still current,
    else the data being computed (in a process of its own, or here when asked for)."""

    key: str
    dates: list[str]
    record: dict[str, Any] | None
    process: BaseProcess | None = None
    receiver: Connection | None = None

    def data(self, db: Database, state: Path) -> CompareData:
        if self.process is None or self.receiver is None:
            return _computed(db, self.dates, state)
        try:
            what, value = self.receiver.recv()
        except EOFError:
            raise SiteBuildError(
                f"the compare data's process ended with no data (exit {self.process.exitcode})"
            ) from None
        finally:
            self.close()
        if what == "error":
            raise value
        return value  # type: ignore[no-any-return]

    def close(self) -> None:
        """End the process: a build that fails before its compare step leaves none."""
        if self.process is not None:
            self.process.terminate()
            self.process.join()
            self.process = None
        if self.receiver is not None:
            self.receiver.close()
            self.receiver = None


def start_compare(
    db: Database, dates: list[str], out: Path, state: Path, background: bool
) -> PendingCompare:
    """Start computing the compare data unless the last build's is current: in a forked
    process when `background` (and the store is a file, and fork exists), else later, in
    this one (`PendingCompare.data`)."""
    key = data_key(db, dates)
    pending = PendingCompare(key, dates, _recorded(out, state, key))
    db_file = store_file(db)
    if pending.record is not None or not background or not db_file or not dates:
        return pending
    if "fork" not in multiprocessing.get_all_start_methods():
        return pending
    context = multiprocessing.get_context("fork")
    pending.receiver, sender = context.Pipe(duplex=False)
    pending.process = context.Process(
        target=_compute_and_send, args=(sender, db_file, dates, state), daemon=True
    )
    pending.process.start()
    sender.close()  # the child's end: closed here, its closing there ends recv() with EOF
    return pending


def build_compare(site: Site, pending: PendingCompare) -> None:
    """Publish the compare data (computed, or kept from the last build) and its page."""
    if pending.dates != site.dates:  # the model reads the releases the data was started for
        pending.close()
        raise SiteBuildError("the releases changed while the site was being built: build again")
    record = pending.record
    if record is not None:
        for path, digest in record["files"].items():
            site.writer.keep(path, digest)
    else:
        data = pending.data(site.db, site.writer.state)
        _save_memo(site.writer.state, data.kinds)
        for path, body in data.files.items():
            site.writer.file(path, body)
        record = {
            "key": pending.key,
            "index_url": versioned(INDEX, data.files[INDEX]),
            "files": {path: site.writer.pages[path] for path in data.files},
        }
        (site.writer.state / RECORD).write_text(json.dumps(record, sort_keys=True))
    rows = site.releases
    site.page(
        "compare/index.html",
        "compare.html",
        title="Compare two releases",
        releases=rows,
        pairs=[(old, day) for day, old in compared_with(site.dates, site.derived).items() if old],
        default_old=rows[0]["date"],
        default_new=rows[-1]["date"],
        index_url=record["index_url"],
    )
