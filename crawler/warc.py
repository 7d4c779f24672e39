"""Export a captures folder as WARC (ISO 28500), the web-archiving standard, with warcio.

Each capture becomes a `resource` record: its original URL, its capture time as WARC-Date,
its content type, and its bytes exactly as stored, with a sha256 payload digest. Text forms
of pages (the seeds) are exported too, typed as what they are, not as the page's HTML.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

from warcio.warcwriter import WARCWriter

from crawler.capture_store import CaptureStore


def export_warc(store: CaptureStore, target: Path) -> int:
    """Write every capture of `store` to the WARC file `target` (gzipped per record)."""
    count = 0
    with open(target, "wb") as out:
        writer = WARCWriter(out, gzip=target.suffix == ".gz")
        for record in store.records:
            data = store.read(record)
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
            count += 1
    return count
