"""Full-text search with Pagefind, offline (`pagefind[bin]` from PyPI ships its binary).

One record per clause history: its numbers and every distinct wording it had, its URL, and a
`year` filter with each year it was in force. Pagefind indexes a small document per record
(kept in the build's state folder, its result URL pointing at the history page) rather than the
built pages: the index then takes seconds, not tens of seconds, and is skipped when no record
changed. (Its Python API, one round trip per record, took minutes.) Pagefind writes the
index and its UI into `<site>/pagefind/`, which the search page loads from the same site.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from renderer.errors import SiteBuildError

STAMP = "search-records-sha"
DOCUMENTS = "search-documents"  # in the state folder, kept from one build to the next
DOCUMENT_NAME_DIGITS = 24  # hex digits of a document's hash in its name: no two collide


def records_key(records: list[dict[str, Any]]) -> str:
    data = json.dumps(records, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()


def _documents(folder: Path, records: list[dict[str, Any]]) -> None:
    """One small HTML file per record; `data-pagefind-meta` points results at the real page.

    The files stay in the state folder between builds, each named by its content's hash: a
    rebuild writes only the records that changed and removes those gone, rather than
    deleting and creating some 4,000 files (seconds on a file system that is slow to
    create a file where one was just removed). Each is written under a temporary name and
    renamed, so that a killed build never leaves a file whose name lies about its bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted: dict[str, bytes] = {}
    for record in records:
        data = _document(record).encode("utf-8")
        wanted[hashlib.sha256(data).hexdigest()[:DOCUMENT_NAME_DIGITS] + ".html"] = data
    present = set(os.listdir(folder))
    for name in present - wanted.keys():
        (folder / name).unlink()
    for name in wanted.keys() - present:
        partial = folder / (name + ".partial")
        partial.write_bytes(wanted[name])
        partial.replace(folder / name)


def _document(record: dict[str, Any]) -> str:
    filters = "".join(
        f'<span data-pagefind-filter="year:{escape(y)}"></span>' for y in record["years"]
    )
    return (
        f'<!doctype html><html lang="en"><body><div data-pagefind-body>'
        f'<h1 data-pagefind-meta="title">{escape(record["title"])}</h1>'
        f'<span data-pagefind-meta="url:{escape(record["url"])}"></span>{filters}'
        f"<p>{escape(record['content'])}</p></div>{_meta(record)}</body></html>"
    )


def _meta(record: dict[str, Any]) -> str:
    """What a result shows besides its title (numbers, years, kind), as Pagefind metadata:
    each value is an element's text, outside the indexed body (a value in the attribute would
    be cut at its first comma)."""
    return "".join(
        f'<span data-pagefind-meta="{escape(key)}">{escape(str(value))}</span>'
        for key, value in sorted(record.get("meta", {}).items())
    )


def pagefind_command() -> list[str]:
    try:
        from pagefind_bin import get_executable  # type: ignore[import-not-found]

        return [str(get_executable())]
    except ImportError:
        return [sys.executable, "-m", "pagefind"]


def start_index(out: Path, records: list[dict[str, Any]], work: Path) -> Callable[[], bool]:
    """Start Pagefind on `records` in the background (it runs on one core while the build
    prepares and renders pages); the returned function waits for it and says whether it
    indexed (False when the index was already up to date). Its inputs and the stamp of what
    it indexed go in `work` (the build's state folder), not in the published `out`."""
    key = records_key(records)
    stamp = work / STAMP
    ready = (out / "pagefind" / "pagefind.js").exists() and stamp.exists()
    if ready and stamp.read_text() == key:
        return lambda: False
    stamp.unlink(missing_ok=True)
    documents = work / DOCUMENTS
    _documents(documents, records)
    command = [
        *pagefind_command(),
        "--site",
        str(documents),
        "--output-path",
        str(out / "pagefind"),
        "--force-language",
        "en",
        "--silent",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def wait() -> bool:
        _, errors = process.communicate()
        if process.returncode != 0:
            problem = errors.decode("utf-8", "replace").strip()[:500]
            raise SiteBuildError(f"pagefind failed on {out}: {problem}")
        stamp.write_text(key)
        return True

    return wait


def index_records(out: Path, records: list[dict[str, Any]], work: Path) -> bool:
    """Write the Pagefind index of `records` and wait for it."""
    return start_index(out, records, work)()
