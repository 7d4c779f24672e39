"""`rules-history warc OUTPUT`: OUTPUT is replaced whole or not at all, a write error is one
line naming it, and a folder with nothing to export is an error (audit findings A8, B7, C13).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from warcio.archiveiterator import ArchiveIterator

from archive.manifest import CAPTURES_DIR
from crawler.capture_store import CaptureStore
from crawler.warc import WARC_TEMP_PREFIX
from rules_history.cli import main

SEEDS = CAPTURES_DIR / "web"
TEXT = b"Magic: The Gathering Comprehensive Rules\r\n\r\n100.1. These rules\r\n"


def warc(output: Path | str, captures: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["warc", str(output), "--captures", str(captures)])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """A captures folder of two captures, the second of which no longer matches its hash."""
    folder = tmp_path / "captures"
    store = CaptureStore(folder)
    store.add(TEXT, source="cr-a", kind="cr", url="http://x.test/a.txt", release="2008-02-01")
    record, _new = store.add(TEXT + b"more\r\n", source="cr-b", kind="cr", url="http://x.test/b")
    path = folder / record.file
    os.chmod(path, 0o644)
    path.write_bytes(b"not what was captured")
    return folder


def no_temporaries(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.startswith(WARC_TEMP_PREFIX)]


def test_a_failed_export_leaves_an_existing_output_as_it_was(tmp_path, damaged):
    output = tmp_path / "previous.warc"
    output.write_bytes(b"a previous good export")
    code, message = warc(output, damaged)
    assert code == 1
    assert message.startswith("error: ") and "do not match the recorded sha256" in message
    assert output.read_bytes() == b"a previous good export"
    assert no_temporaries(tmp_path)


def test_a_failed_export_to_a_new_name_leaves_no_file(tmp_path, damaged):
    output = tmp_path / "new.warc.gz"
    assert warc(output, damaged)[0] == 1
    assert not output.exists()
    assert no_temporaries(tmp_path)


def test_a_successful_export_replaces_the_output_whole(tmp_path):
    output = tmp_path / "seeds.warc.gz"
    output.write_bytes(b"an older export")
    code, message = warc(output, SEEDS)
    assert code == 0, message
    assert "wrote 5 records" in message
    with open(output, "rb") as stream:
        assert len(list(ArchiveIterator(stream))) == 5
    assert oct(output.stat().st_mode & 0o777) == "0o644"
    assert no_temporaries(tmp_path)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_is_one_line_naming_the_output():
    code, message = warc("/dev/full", SEEDS)
    assert code == 1
    assert message == "error: /dev/full: cannot be written (No space left on device)\n"


def test_an_output_in_a_missing_folder_is_one_line(tmp_path):
    output = tmp_path / "no-such-folder" / "x.warc"
    code, message = warc(output, SEEDS)
    assert code == 1
    assert message == f"error: {output}: cannot be written (No such file or directory)\n"


@pytest.mark.parametrize("folder", ["empty", "archive"])
def test_nothing_to_export_is_an_error_not_an_empty_file(tmp_path, folder):
    captures = CAPTURES_DIR if folder == "archive" else tmp_path / "empty"
    if folder == "empty":
        captures.mkdir()
    output = tmp_path / "out.warc"
    code, message = warc(output, captures)
    assert code == 1
    assert message == (
        f"error: {captures}: nothing to export"
        " (no index.json: warc exports a folder `rules-history crawl` wrote)\n"
    )
    assert not output.exists()


def test_an_index_listing_no_capture_is_nothing_to_export(tmp_path):
    captures = tmp_path / "captures"
    captures.mkdir()
    (captures / "index.json").write_text("[]\n", encoding="utf-8")
    code, message = warc(tmp_path / "out.warc", captures)
    assert code == 1 and "its index.json lists no capture" in message
    assert not (tmp_path / "out.warc").exists()


def test_a_symlinked_output_stays_a_link_and_its_file_gets_the_warc(tmp_path):
    """The temporary went beside the link and was renamed over it: the link became a file
    (as root, `warc /dev/stdout > out.warc` replaced /dev/stdout). The file the link names
    gets the WARC; the link stays."""
    folder = tmp_path / "captures"
    CaptureStore(folder).add(TEXT, source="cr-a", kind="cr", url="http://x.test/a.txt")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "real.warc").write_bytes(b"old")
    links = tmp_path / "links"
    links.mkdir()
    (links / "out.warc").symlink_to(elsewhere / "real.warc")
    assert warc(links / "out.warc", folder)[0] == 0
    assert (links / "out.warc").is_symlink()
    with (elsewhere / "real.warc").open("rb") as stream:
        assert [r.rec_headers.get_header("WARC-Type") for r in ArchiveIterator(stream)]
    assert no_temporaries(links) and no_temporaries(elsewhere)
