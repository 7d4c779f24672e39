"""The witness captures of a captures folder, parsed: what `ingest` hands to the store.

A captures folder may hold witness captures in two places: `web/index.json` (the committed
seeds, text forms of pages) and its own `index.json` (pages a crawl fetched as HTML).
"""

from __future__ import annotations

from pathlib import Path

from archive.witnesses import WitnessDocument
from crawler.capture_store import INDEX_NAME, CaptureRecord, CaptureStore, StoreError
from crawler.parsers import UnknownParser, parse_witness

WEB_DIR = "web"


def witness_roots(captures_dir: Path) -> list[Path]:
    """The folders inside the captures folder that hold a capture index."""
    roots = [captures_dir / WEB_DIR, captures_dir]
    return [root for root in roots if (root / INDEX_NAME).exists()]


def witness_stores(captures_dir: Path) -> list[CaptureStore]:
    """The capture stores in the folder that hold an index."""
    return [CaptureStore(root) for root in witness_roots(captures_dir)]


def parse_record(store: CaptureStore, record: CaptureRecord, captures_dir: Path) -> WitnessDocument:
    """One witness capture read (sha256 checked) and parsed by its parser; its file named
    from the captures folder (`web/000_....txt`), as the store names every capture, never
    by where this machine keeps the folder."""
    document = parse_witness(
        store.read(record),
        record.parser or "",
        record.source,
        record.sha256,
        (store.root / record.file).relative_to(captures_dir).as_posix(),
        record.url or None,
        record.quotes,
    )
    document.capture_time = record.capture_time
    document.form = record.form
    return document


def witness_documents(captures_dir: Path) -> tuple[list[WitnessDocument], list[tuple[str, str]]]:
    """Every witness capture of the folder, parsed; and the ones that failed, with why."""
    documents, failed = [], []
    for root in witness_roots(captures_dir):
        try:
            store = CaptureStore(root)
        except StoreError as error:  # a damaged index: reported, the other one still read
            failed.append((str(root / INDEX_NAME), str(error)))
            continue
        for record in store.records:
            if record.kind != "witness":
                continue
            try:
                documents.append(parse_record(store, record, captures_dir))
            except (OSError, StoreError, UnknownParser) as error:
                failed.append((record.file, str(error)))
    return documents, failed
