"""How long the largest release page takes to load in a real browser, for `rules-history bench`.

Issue 11 asks that release pages (up to about 1.5 MB of HTML) stay usable: loaded in under a
second in Chromium on a machine like the one the site is built on. The figure is the page's
own navigation timing (request start to the end of its `load` event), read from Chromium
through Playwright, over a server on 127.0.0.1. Playwright and Chromium are test
dependencies, not the tool's: without them the bench says so instead of a figure.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from renderer.serve import serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")  # Debian's Chromium, as the browser tests use
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOADS = 3  # loads of the page; the median is printed, as one load can meet a busy core
LOAD_TARGET_SECONDS = 1.0  # issue 11: a release page usable in under a second
NAVIGATION_SECONDS_JS = """() => {
  const [entry] = performance.getEntriesByType("navigation");
  return (entry.loadEventEnd - entry.startTime) / 1000;
}"""


def largest_release_page(site: Path) -> Path:
    """The biggest /releases/DATE/index.html of a built site."""
    pages = list((site / "releases").glob("*/index.html"))
    return max(pages, key=lambda page: page.stat().st_size)


def bench_release_page_load(site: Path) -> dict[str, Any]:
    """Median load time of the largest release page, or why there is none."""
    page = largest_release_page(site)
    figures: dict[str, Any] = {
        "release_page": "/" + page.parent.relative_to(site).as_posix() + "/",
        "release_page_megabytes": round(page.stat().st_size / 1e6, 2),
        "release_page_load_target_seconds": LOAD_TARGET_SECONDS,
    }
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {**figures, "release_page_load_seconds": "not measured: playwright not installed"}
    if not CHROMIUM.exists():
        return {**figures, "release_page_load_seconds": f"not measured: no {CHROMIUM}"}
    server, base = serve_in_thread(site)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            times = []
            for _ in range(LOADS):
                tab = browser.new_page()
                tab.goto(base + figures["release_page"], wait_until="load")
                times.append(tab.evaluate(NAVIGATION_SECONDS_JS))
                tab.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return {**figures, "release_page_load_seconds": round(statistics.median(times), 2)}
