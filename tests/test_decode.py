"""Decoding captures: every era's encoding, the damaged UTF-16 copy, and bad input."""

from __future__ import annotations

import pytest

from archive.decode import decode_capture, guess_encoding
from archive.errors import CaptureError
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes

CAPTURES = load_manifest()


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda c: c.name)
def test_every_capture_decodes_to_lf_text(capture):
    text = decode_capture(read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, capture.file)
    assert "\r" not in text
    assert "Comprehensive Rules" in text[:400] or "COMPREHENSIVE" in text[:400]


@pytest.mark.parametrize(
    "capture",
    [c for c in CAPTURES if not c.encoding.startswith(("utf-16", "damaged"))],
    ids=lambda c: c.name,
)
def test_guessed_encoding_matches_the_manifest(capture):
    data = read_capture_bytes(CAPTURES_DIR, capture)
    assert guess_encoding(data, capture.file) == capture.encoding


def test_eight_bit_code_pages_give_the_card_names_right():
    texts = {
        c.name: decode_capture(read_capture_bytes(CAPTURES_DIR, c), c.encoding, c.file)
        for c in CAPTURES
        if c.name in {"2019-01-25.txt", "2007-07-13.alt.txt"}
    }
    assert "Dandân" in texts["2019-01-25.txt"]  # cp437
    assert "El-Hajjâj" in texts["2007-07-13.alt.txt"]  # Mac Roman


def test_damaged_utf16_copy_reads_like_the_intact_one():
    by_name = {c.name: c for c in CAPTURES}
    damaged, intact = by_name["2016-08-26.txt"], by_name["2016-08-26.alt.txt"]
    lost = decode_capture(read_capture_bytes(CAPTURES_DIR, damaged), damaged.encoding, "d")
    good = decode_capture(read_capture_bytes(CAPTURES_DIR, intact), intact.encoding, "i")
    lost_lines = lost.replace("\n\n", "\n").split("\n")
    good_lines = good.split("\n")
    assert len(lost_lines) == len(good_lines)
    differing = [a for a, b in zip(lost_lines, good_lines, strict=True) if a != b]
    # Only the lines holding one of the 15 bytes the damage destroyed may differ.
    assert len(differing) <= 15
    assert all("\ufffd" in line for line in differing)


@pytest.mark.parametrize(
    ("data", "encoding", "problem"),
    [
        (b"", None, "empty"),
        (b"  \n\r\n", "ascii", "empty"),
        (b"<!DOCTYPE html><html><body>Wayback Machine</body></html>", None, "HTML page"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), None, "binary"),
        ("Règles".encode("cp437"), "utf-8", "cannot be decoded as utf-8"),
        ("Rules \u2014 100.1.".encode("utf-16-le"), "cp1252", "control characters"),
        (b"Rules", "utf-16-le-bom", "byte order mark"),
    ],
)
def test_bad_input_names_the_file_and_the_problem(data, encoding, problem):
    with pytest.raises(CaptureError) as caught:
        decode_capture(data, encoding, "captures/cr/broken.txt")
    assert "captures/cr/broken.txt" in str(caught.value)
    assert problem in str(caught.value)
