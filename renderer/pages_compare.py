"""The compare page and the data it compares with (renderer.compare_data).

The data is computed again only when the lineages changed: its key, the files it wrote and
their hashes are kept in the build's state folder. Naming the kind of every pair of a
lineage's states is most of that work; the names are kept there too (`MEMO`, per lineage, by
the lineage's states), so after a new release only the lineages it changed are named again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from archive import normalise
from lineage import align, compare
from lineage.compare import compared_with
from renderer import compare_data as compare_module
from renderer.compare_data import FORMAT, INDEX, compare_data, versioned
from renderer.context import Site

RECORD = "compare-data.json"  # in the state folder: what the last build published
MEMO = "cache/compare-kinds.json"  # in the state folder: the kinds named last time


def data_key(db: Database, dates: list[str]) -> str:
    """What the published data depends on: the releases, each alignment (its captures and
    the aligner's version), the layout, the code that writes it and the engine's code that
    names the kinds."""
    alignments = db.execute(
        """SELECT release, previous_release, capture_id, previous_capture_id, version
           FROM lineage_alignments ORDER BY release"""
    ).fetchall()
    digest = hashlib.sha256(repr((FORMAT, dates, alignments)).encode())
    for module in (compare_module, align, compare):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:20]


def memo_code() -> str:
    """The code that names the kinds: a memo written by other code is not read."""
    digest = hashlib.sha256(str(FORMAT).encode())
    for module in (compare_module, align, normalise):
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


def _save_memo(state: Path, kinds: dict[str, Any]) -> None:
    """Atomic: a build killed while writing leaves the last memo, or none."""
    target = state / MEMO
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_text(json.dumps({"code": memo_code(), "kinds": kinds}))
    partial.replace(target)


def _recorded(site: Site, key: str) -> dict[str, Any] | None:
    """The last build's record, when it is for `key` and its files are all still there."""
    try:
        record = json.loads((site.writer.state / RECORD).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    files = record.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(path, str) and (site.writer.out / path).is_file() for path in files
    ):
        return None
    return record


def build_compare(site: Site) -> None:
    key = data_key(site.db, site.dates)
    record = _recorded(site, key)
    if record is not None:
        for path, digest in record["files"].items():
            site.writer.keep(path, digest)
    else:
        data = compare_data(site.db, site.dates, _load_memo(site.writer.state))
        _save_memo(site.writer.state, data.kinds)
        for path, body in data.files.items():
            site.writer.file(path, body)
        record = {
            "key": key,
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
