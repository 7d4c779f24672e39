"""The compare page and the data it compares with (renderer.compare_data).

The data is computed again only when the lineages changed (a few seconds over the whole
archive): its key, the files it wrote and their hashes are kept in the build's state folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from lineage import align, compare
from lineage.compare import compared_with
from renderer import compare_data as compare_module
from renderer.compare_data import FORMAT, INDEX, compare_data, versioned
from renderer.context import Site

RECORD = "compare-data.json"  # in the state folder: what the last build published


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
        data = compare_data(site.db, site.dates)
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
