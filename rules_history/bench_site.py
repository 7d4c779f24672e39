"""Site build figures for `rules-history bench`: a full build from an up-to-date store, and
a rebuild after one new release (the newest capture held back, then brought in by the
pipeline: its ingest, lineage, derived answers and examples, then the build), with the peak
memory of the build, the page count and the total size.

The build itself only reads: the pipeline (rules_history.pipeline) writes the store first,
as `rules-history build` does.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path
from queue import Empty
from typing import Any

from archive.store import open_reader, open_store
from renderer.build import build_site
from rules_history.bench_browser import bench_release_page_load
from rules_history.pipeline import update_store

# Targets (issue 9), printed beside the figures.
FULL_BUILD_TARGET_SECONDS = 20.0
REBUILD_TARGET_SECONDS = 3.0
PEAK_MEMORY_TARGET_MB = 1024.0
# The file system's yardstick: this many folders each holding one file of a page's size. A
# third of the site's folders is enough to read the disk's mood and costs a second or two.
YARDSTICK_FOLDERS = 10_000
YARDSTICK_FILE_BYTES = 16_000  # about a rule page


def _captures_without_newest(captures_dir: Path, target: Path) -> tuple[Path, str]:
    """A copy of the captures folder less the newest release: its witnesses and official
    articles stay, so that bringing the release in measures that release alone."""
    manifest = json.loads((captures_dir / "manifest.json").read_bytes())
    newest = max(entry["date"] for entry in manifest)
    held_back = {entry["file"] for entry in manifest if entry["date"] == newest}
    shutil.copytree(
        captures_dir,
        target,
        ignore=lambda folder, names: [
            name
            for name in names
            if (Path(folder) / name).relative_to(captures_dir).as_posix() in held_back
        ],
    )
    kept = [entry for entry in manifest if entry["date"] != newest]
    (target / "manifest.json").write_text(json.dumps(kept))
    return target, newest


def site_size(out: Path) -> tuple[int, int, int]:
    """(HTML pages, files, bytes) of a built site."""
    files = [p for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts]
    pages = sum(1 for p in files if p.suffix == ".html")
    return pages, len(files), sum(p.stat().st_size for p in files)


def file_system_yardstick(folder: Path) -> dict[str, Any]:
    """Seconds to make YARDSTICK_FOLDERS folders, each with one file, as a build makes them.

    Printed beside the build's figures because on some disks the same build's system time
    moves tenfold with what happened before it: ext4 without a journal does not reuse an
    inode freed in the last minute (five while its table block is unwritten), and checks the
    freed ones one by one at every allocation, so a site built soon after another was deleted
    pays for every file that deletion freed."""
    data = b"x" * YARDSTICK_FILE_BYTES
    folder.mkdir()
    start = time.perf_counter()
    for number in range(YARDSTICK_FOLDERS):
        page = folder / str(number)
        page.mkdir()
        (page / "index.html").write_bytes(data)
    return {"folders": YARDSTICK_FOLDERS, "seconds": round(time.perf_counter() - start, 2)}


def _build_in_child(db_file: Path, out: Path, queue: Any) -> None:
    """One build in a process of its own, so that its peak memory is its own: the largest
    resident size among it and its render workers. Its CPU time (its own and its workers')
    is split into the user's and the system's: the system's is mostly the file system's."""
    report = build_site(open_reader(db_file), out)
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    queue.put(
        {
            **report.__dict__,
            "peak_rss_megabytes": round(max(own.ru_maxrss, workers.ru_maxrss) / 1024, 1),
            "cpu_seconds": {
                "user": round(own.ru_utime + workers.ru_utime, 1),
                "system": round(own.ru_stime + workers.ru_stime, 1),
            },
        }
    )


def measured_build(db_file: Path, out: Path) -> dict[str, Any]:
    """build_site in a new interpreter; its report with the peak memory of the build.

    Not a forked child: a fork shares the bench's heap (ingest, lineage and derived answers
    of the whole archive), and its resident size starts at the bench's (a child doing
    nothing, forked from a process holding 650 MB, peaked at 649 MB), while its own
    allocations land in that heap's gaps."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_build_in_child, args=(db_file, out, queue))
    child.start()
    while True:  # a build that fails ends its process without an answer: say so, not hang
        try:
            result: dict[str, Any] = queue.get(timeout=5)
            break
        except Empty:
            if not child.is_alive():
                raise RuntimeError(f"the build into {out} failed (exit {child.exitcode})") from None
    child.join()
    return result


def _update(db_file: Path, captures_dir: Path) -> float:
    """Bring the store at `db_file` up to date with `captures_dir`; the seconds it took."""
    start = time.perf_counter()
    db = open_store(db_file)
    update_store(db, captures_dir)
    db.close()
    return time.perf_counter() - start


def bench_site(captures_dir: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        full_db = root / "full.db"
        pipeline_seconds = _update(full_db, captures_dir)
        yardstick = file_system_yardstick(root / "yardstick")
        start = time.perf_counter()
        full = measured_build(full_db, root / "site-full")
        full_seconds = time.perf_counter() - start
        pages, files, size = site_size(root / "site-full")
        page_load = bench_release_page_load(root / "site-full")

        older, newest = _captures_without_newest(captures_dir, root / "older")
        step_db = root / "step.db"
        _update(step_db, older)
        measured_build(step_db, root / "site-step")
        new_release = _update(step_db, captures_dir)
        began = time.perf_counter()
        step = measured_build(step_db, root / "site-step")
        rebuild = time.perf_counter() - began
    return {
        "cores": os.cpu_count(),
        "pipeline_full_seconds": round(pipeline_seconds, 2),
        "full_build_seconds": round(full_seconds, 2),
        "full_build_target_seconds": FULL_BUILD_TARGET_SECONDS,
        "full_build_timings": full["timings"],
        "full_build_cpu_seconds": full["cpu_seconds"],
        "file_system_yardstick": yardstick,
        "full_build_peak_rss_megabytes": full["peak_rss_megabytes"],
        "peak_memory_target_megabytes": PEAK_MEMORY_TARGET_MB,
        "rebuild_after_one_release": newest,
        "rebuild_pipeline_seconds": round(new_release, 2),
        "rebuild_build_seconds": round(rebuild, 2),
        # the target's figure: the new release's pipeline (ingest, lineage...) and the build
        "rebuild_with_ingest_and_lineage_seconds": round(new_release + rebuild, 2),
        "rebuild_target_seconds": REBUILD_TARGET_SECONDS,
        "rebuild_pages_rendered": step["pages_rendered"],
        "rebuild_pages_unchanged": step["pages_skipped"],
        "rebuild_timings": step["timings"],
        "rebuild_cpu_seconds": step["cpu_seconds"],
        "rebuild_peak_rss_megabytes": step["peak_rss_megabytes"],
        "pages": pages,
        "files": files,
        "megabytes": round(size / 1e6, 1),
        **page_load,
    }
