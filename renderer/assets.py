"""Static assets copied into the site under content-hashed names (cache busting).

`site/static/*` is copied as `static/<stem>.<hash8><suffix>`; diff-match-patch is the npm
package's file as vendored in `site/vendor/` (`npm run vendor` refreshes it from
node_modules/, a test keeps the two equal), wrapped so it runs in a browser without a module
loader. Templates get the URLs through the `asset()` global.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from renderer.errors import SiteBuildError
from renderer.site_files import site_folder
from renderer.vocabulary_js import NAME as VOCABULARY_JS
from renderer.vocabulary_js import cached_vocabulary_js, vocabulary_js

DMP_FILE = Path("vendor") / "diff-match-patch.js"  # site/vendor/, from the npm package


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:8]


def bundled_dmp(source: Path | None = None) -> bytes:
    """diff-match-patch's CommonJS file wrapped to define `window.diff_match_patch`."""
    source = source or site_folder() / DMP_FILE
    if not source.is_file():
        raise SiteBuildError(f"{source} is missing: reinstall rules-history")
    body = source.read_bytes()
    return (
        b"/* diff-match-patch from npm, Apache-2.0, bundled at build time */\n"
        b"(function(){var module={exports:{}};\n"
        + body
        + b"\nwindow.diff_match_patch=module.exports;})();\n"
    )


def asset_sources(static_dir: Path | None = None, cache: Path | None = None) -> dict[str, bytes]:
    """Logical name -> bytes of every asset the site ships (the generated ones kept in
    `cache` when given)."""
    static_dir = static_dir or site_folder() / "static"
    sources = {
        path.name: path.read_bytes() for path in sorted(static_dir.iterdir()) if path.is_file()
    }
    sources["diff_match_patch.js"] = bundled_dmp()
    sources[VOCABULARY_JS] = cached_vocabulary_js(cache) if cache else vocabulary_js()
    return sources


def write_assets(out: Path, sources: dict[str, bytes]) -> dict[str, str]:
    """Write each asset under a hashed name; return logical name -> URL."""
    target = out / "static"
    target.mkdir(parents=True, exist_ok=True)
    urls: dict[str, str] = {}
    for name, data in sources.items():
        stem, dot, suffix = name.rpartition(".")
        hashed = f"{stem}.{short_hash(data)}{dot}{suffix}"
        path = target / hashed
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        urls[name] = f"/static/{hashed}"
    keep = {url.rsplit("/", 1)[1] for url in urls.values()}
    for old in target.iterdir():
        if old.name not in keep:
            old.unlink()
    return urls
