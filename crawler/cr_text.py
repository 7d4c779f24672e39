"""Is this body a CR text? The crawler's check of a capture's kind before it is stored.

A CR text served without a Content-Length and cut short looks complete to HTTP; only the
text tells: decoded as `ingest` decodes it and parsed by the project's own parser, it must
reach its glossary. An HTML page, binary data or a text that is not the rules fails too.
"""

from __future__ import annotations

from archive.decode import decode_capture
from archive.errors import CaptureError
from archive.parse import ParsedRelease, parse_release
from crawler.wayback import BadCapture

# The one damaged encoding the archive knows (2016-08-26.alt): UTF-16 LE with its BOM lost
# and some code units overwritten; `guess_encoding` refuses NUL bytes, so it is tried after.
FALLBACK_ENCODING = "damaged-utf-16-le"


def parse_cr_text(data: bytes, url: str) -> ParsedRelease:
    """The body parsed as a CR release; `BadCapture` naming the URL when it is not one."""
    try:
        return parse_release(decode_capture(data, None, url), url)
    except CaptureError as error:
        if b"\x00" in data:
            try:
                return parse_release(decode_capture(data, FALLBACK_ENCODING, url), url)
            except CaptureError:
                pass
        raise BadCapture(url, f"not a whole CR text: {error.problem}") from error


def check_cr_text(data: bytes, url: str) -> None:
    """A `BodyCheck` for `WaybackSession.fetch`: the rules reach the glossary."""
    parse_cr_text(data, url)
