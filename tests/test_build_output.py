"""What `rules-history build` leaves and prints: the publish folder holds only what a static host
serves (the manifest and caches live in the state folder beside the store), a rebuild is still
incremental, and the progress bars show on a terminal and nowhere else."""

from __future__ import annotations

import fcntl
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from sqlite_utils import Database

from renderer.pages_compare import MEMO, RECORD
from renderer.state import MANIFEST, site_state

TERMINAL_SIZE = struct.pack("HHHH", 40, 120, 0, 0)  # rows, columns: tqdm draws nothing in 0


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, tiny_lineage: Database) -> Path:
    """A copy of the tiny store (the build's pipeline may write to its own store)."""
    tiny_lineage.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    source = Path(tiny_lineage.execute("PRAGMA database_list").fetchone()[2])
    copy = tmp_path_factory.mktemp("build-store") / "rules.db"
    shutil.copyfile(source, copy)
    return copy


def command(store: Path, out: Path, captures: Path) -> tuple[list[str], dict[str, str]]:
    args = ["build", "--out", str(out), "--no-search", "--captures", str(captures)]
    return [sys.executable, "-m", "rules_history", *args], {
        **os.environ,
        "RULES_HISTORY_DB": str(store),
    }


def build_piped(store: Path, out: Path, captures: Path) -> subprocess.CompletedProcess[str]:
    cmd, env = command(store, out, captures)
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr
    return result


def build_on_terminal(store: Path, out: Path, captures: Path) -> str:
    """Run the build with a pseudo-terminal as its stdout and stderr; everything it drew."""
    cmd, env = command(store, out, captures)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, TERMINAL_SIZE)
    process = subprocess.Popen(cmd, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the build exits
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait() == 0
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.fixture(scope="module")
def first_build(
    tmp_path_factory: pytest.TempPathFactory, store: Path, tiny_captures: Path
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("publish") / "_site"
    return out, build_piped(store, out, tiny_captures)


def test_a_piped_build_prints_no_progress(
    first_build: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    out, result = first_build
    assert result.stdout.startswith(f"built {out}: ")
    assert len(result.stdout.splitlines()) == 1
    assert "\r" not in result.stderr + result.stdout
    assert "build:" not in result.stderr and "page/s" not in result.stderr
    assert "ingest" not in result.stderr


def test_the_publish_folder_holds_only_what_is_served(
    first_build: tuple[Path, subprocess.CompletedProcess[str]], store: Path
) -> None:
    out, _ = first_build
    hidden = [p for p in out.rglob("*") if any(part.startswith(".") for part in p.parts[-1:])]
    assert hidden == []
    assert not any(p.name in {"cache", "search-documents"} for p in out.rglob("*"))
    assert (out / "index.html").is_file() and (out / "compare" / "index.json").is_file()
    state = site_state(out, store.parent / "site-state")
    assert (state / MANIFEST).is_file()
    assert (state / "cache" / "diffs.sqlite").is_file()
    assert {name for name in os.listdir(store.parent) if not name.startswith("rules.db")} == {
        "site-state"
    }


def test_a_rebuild_stays_incremental_and_moves_old_state_out(
    first_build: tuple[Path, subprocess.CompletedProcess[str]],
    store: Path,
    tiny_captures: Path,
) -> None:
    out, _ = first_build
    record = site_state(out, store.parent / "site-state") / RECORD
    written = record.stat().st_mtime_ns
    again = build_piped(store, out, tiny_captures)
    assert " 0 pages rendered" in again.stdout and " 0 files written" in again.stdout
    assert record.stat().st_mtime_ns == written  # the compare data were not computed again
    page = out / "rule" / "100.1" / "index.html"
    whole = page.read_bytes()
    page.unlink()
    index = out / "compare" / "index.json"
    published = index.read_bytes()
    index.unlink()
    # what older versions kept in the publish folder
    (out / ".build-manifest.json").write_text("{}")
    (out / ".cache").mkdir()
    (out / ".cache" / "diffs.sqlite").write_bytes(b"")
    third = build_piped(store, out, tiny_captures)
    assert " 1 pages rendered" in third.stdout
    assert page.read_bytes() == whole and index.read_bytes() == published
    # computed again from the kinds the first build named
    assert (site_state(out, store.parent / "site-state") / MEMO).is_file()
    assert not (out / ".build-manifest.json").exists() and not (out / ".cache").exists()


def test_a_terminal_build_shows_its_stages_and_pages(
    first_build: tuple[Path, subprocess.CompletedProcess[str]],
    store: Path,
    tiny_captures: Path,
) -> None:
    out, _ = first_build
    (out / "about" / "index.html").unlink()
    drawn = build_on_terminal(store, out, tiny_captures)
    for stage in ("histories", "releases", "rules", "compare", "render"):
        assert f"build: {stage}" in drawn
    assert "pages (" in drawn and "1/1" in drawn
    assert f"built {out}: 1 pages rendered" in drawn
