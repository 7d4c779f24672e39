"""Export a captures folder as WARC (ISO 28500), the web-archiving standard, with warcio.

Each capture becomes a `resource` record: its original URL, its capture time as WARC-Date,
its content type, and its bytes exactly as stored, with a sha256 payload digest. Text forms
of pages (the seeds) are exported too, typed as what they are, not as the page's HTML.

The file is written under a temporary name beside OUTPUT and renamed onto it only once
every record is written, so a failed export (a damaged object, a full disk) leaves OUTPUT
as it was, or absent. A FIFO or a device named as OUTPUT (`/dev/stdout`) is written
directly: it has no folder to hold a temporary file, and nothing stored to lose.
"""

from __future__ import annotations

import base64
import io
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from warcio.warcwriter import WARCWriter

from archive.errors import RulesHistoryError
from crawler.capture_store import INDEX_NAME, CaptureRecord, CaptureStore

# Its own prefix: a crawl of a captures folder removes the `.tmp-` files a killed crawl left,
# and would take an export written into that folder meanwhile for one.
WARC_TEMP_PREFIX = ".warc-tmp-"


class WarcError(RulesHistoryError):
    """An export that cannot be made: nothing to export, or an OUTPUT that cannot be written."""


def export_warc(store: CaptureStore, target: Path) -> int:
    """Write every capture of `store` to the WARC file `target` (gzipped per record)."""
    records = store.records
    if not records:
        raise WarcError(f"{store.root}: nothing to export ({_why_empty(store.root)})")
    try:
        with _output(target) as out:
            writer = WARCWriter(out, gzip=target.suffix == ".gz")
            for record in records:
                _write_record(writer, record, store.read(record))
    except OSError as exc:
        raise WarcError(f"{target}: cannot be written ({exc.strerror or exc})") from exc
    return len(records)


def _why_empty(root: Path) -> str:
    if (root / INDEX_NAME).exists():
        return f"its {INDEX_NAME} lists no capture"
    return f"no {INDEX_NAME}: warc exports a folder `rules-history crawl` wrote"


def _write_record(writer: WARCWriter, record: CaptureRecord, data: bytes) -> None:
    digest = base64.b32encode(bytes.fromhex(record.sha256)).decode("ascii")
    headers = {
        "WARC-Payload-Digest": f"sha256:{digest}",
        "WARC-Source-URI": record.wayback_url or record.url,
        "X-Rules-History-Source": record.source,
    }
    if record.capture_time:
        headers["WARC-Date"] = record.capture_time
    warc_record = writer.create_warc_record(
        record.url or f"urn:rules-history:{record.source}",
        "resource",
        payload=io.BytesIO(data),
        length=len(data),
        warc_content_type=record.content_type or "application/octet-stream",
        warc_headers_dict=headers,
    )
    writer.write_record(warc_record)


@contextmanager
def _output(target: Path) -> Iterator[BinaryIO]:
    """`target` opened for writing: a temporary file beside the file it names (a symlink
    followed: the link stays, its file gets the WARC), renamed onto that file when the block
    ends without an error and removed when it fails; a FIFO, a device or one of the
    process's own descriptors (/dev/stdout, which a shell may point at a file) directly."""
    if _is_stream(target):
        with open(target, "wb") as stream:
            yield stream
        return
    if target.is_dir():
        raise WarcError(f"{target}: is a folder; name the WARC file to write")
    real = target.resolve()
    handle, temp = tempfile.mkstemp(prefix=WARC_TEMP_PREFIX, dir=real.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes files private; an export is for everyone
        os.replace(temp, real)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _is_stream(target: Path) -> bool:
    try:
        mode = target.stat().st_mode
        real = target.resolve()
    except (OSError, RuntimeError):
        return False
    descriptor = real.parts[:2] == ("/", "proc")  # /dev/stdout -> /proc/self/fd/1
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or descriptor
