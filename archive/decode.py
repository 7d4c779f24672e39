"""Bytes of a capture to text: the manifest's encoding (or a careful guess), line endings as LF.

Decoding never repairs anything: what the bytes say is what the text says. A capture that
cannot be a CR text (empty, HTML, binary, undecodable) raises `CaptureError` naming the file.
"""

from __future__ import annotations

import codecs
import re

from archive.errors import CaptureError

REPLACEMENT = "\ufffd"
_DAMAGED_UNIT = b"\xef\xbf\xbd"  # UTF-8 bytes of U+FFFD written over a UTF-16 code unit
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
# C1 controls (U+0080-U+009F) are what UTF-8 bytes become when read as latin-1: no CR
# text in any real encoding holds one, so a single one means the declared encoding is wrong.
_C1_CONTROL = re.compile(r"[\x80-\x9f]")
_HTML_START = re.compile(rb"^\s*(<!doctype html|<html|<\?xml|<head|<body)", re.IGNORECASE)
_EIGHT_BIT = ("cp1252", "mac_roman", "cp437")
# Characters an 8-bit CR text plausibly holds beyond ASCII: typography and the accented
# letters of card names (Dandân, Æther, Ghazbán, Lim-Dûl ...).
_PLAUSIBLE = set("’‘“”—–…•™®©°½¼¾×·éèêëáàâäíìîïóòôöúùûüñçÆæ") | {"\u00a0"}
_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")


def normalise_line_endings(text: str) -> str:
    """CRLF and bare CR become LF, whatever mix the file has."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_capture(data: bytes, encoding: str | None, path: str) -> str:
    """Decode a capture's bytes with its recorded encoding, or guess when none is recorded."""
    if not data.strip():
        raise CaptureError(path, "the file is empty")
    if _HTML_START.match(data[:512]):
        raise CaptureError(path, "this is an HTML page, not a Comprehensive Rules text")
    chosen = encoding or guess_encoding(data, path)
    try:
        text = _decode_with(data, chosen)
    except (UnicodeDecodeError, LookupError) as exc:
        raise CaptureError(path, f"cannot be decoded as {chosen}: {exc}") from exc
    text = normalise_line_endings(text)
    controls = len(_CONTROL.findall(text))
    if controls > 3:
        raise CaptureError(
            path,
            f"decoded as {chosen} it holds {controls} control characters: "
            "binary data or a wrong encoding",
        )
    c1 = _C1_CONTROL.findall(text)
    if c1:
        raise CaptureError(
            path,
            f"decoded as {chosen} it holds {len(c1)} C1 control characters"
            f" (the first U+{ord(c1[0]):04X}): the declared encoding is wrong",
        )
    return text


def _decode_with(data: bytes, encoding: str) -> str:
    if encoding in ("utf-16-le-bom", "utf-16-be-bom", "utf-16"):
        if data[:2] not in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
            raise UnicodeDecodeError(encoding, data[:2], 0, 2, "no UTF-16 byte order mark")
        return data.decode("utf-16")
    if encoding == "damaged-utf-16-le":
        return decode_damaged_utf16le(data)
    return data.decode(encoding)


def decode_damaged_utf16le(data: bytes) -> str:
    r"""Decode UTF-16LE that a line-based tool once read as UTF-8 and wrote back.

    The 2016-08-26 copy in pit142857/mtg-cr went through that. Three things happened to it:
    every byte that was not valid UTF-8 (the BOM's FF FE, the high byte of `®` ...) became
    the three bytes EF BF BD; every CR byte became LF; and a 0x20 byte just before a line
    break was stripped as trailing white space, although it was the high byte of a character
    such as `”` (U+201D). So here EF BF BD stands for one lost byte (its code unit reads as
    U+FFFD), and a code unit whose high byte would be LF (U+0Axx, Gurmukhi, never in a CR)
    is one whose 0x20 high byte was stripped: it is read as U+20xx and the LF starts the
    next unit. The BOM's two lost bytes are dropped.

    >>> decode_damaged_utf16le(b"\xef\xbf\xbd\xef\xbf\xbdA\x00\xef\xbf\xbd\x00B\x00") == "A\ufffdB"
    True
    >>> decode_damaged_utf16le(b"\xef\xbf\xbd\xef\xbf\xbd.\x00\x1d\n\x00") == ".\u201d\n"
    True
    """
    known: list[int | None] = []
    index = 0
    while index < len(data):
        if data.startswith(_DAMAGED_UNIT, index):
            known.append(None)
            index += 3
        else:
            known.append(data[index])
            index += 1
    if known[:2] == [None, None]:
        known = known[2:]
    chars: list[str] = []
    index = 0
    while index < len(known):
        low = known[index]
        high = known[index + 1] if index + 1 < len(known) else None
        if low is not None and high == 0x0A:
            chars.append(chr(0x2000 | low))
            index += 1
            continue
        chars.append(REPLACEMENT if low is None or high is None else chr(low | high << 8))
        index += 2
    return "".join(chars)


def guess_encoding(data: bytes, path: str) -> str:
    """BOM first, then strict ASCII and UTF-8, then the most plausible 8-bit code page."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return "utf-16"
    if b"\x00" in data:
        raise CaptureError(path, "binary data (NUL bytes) without a UTF-16 byte order mark")
    for candidate in ("ascii", "utf-8"):
        try:
            data.decode(candidate)
        except UnicodeDecodeError:
            continue
        return candidate
    scores = {}
    for candidate in _EIGHT_BIT:
        try:
            text = data.decode(candidate)
        except UnicodeDecodeError:
            continue
        high = _BEYOND_ASCII.findall(text)  # a scan in C: the texts run to 1 MB
        scores[candidate] = sum(c in _PLAUSIBLE for c in high) / max(len(high), 1)
    if not scores:
        raise CaptureError(path, "not decodable as ASCII, UTF-8, cp1252, Mac Roman or cp437")
    return max(scores, key=lambda k: scores[k])
