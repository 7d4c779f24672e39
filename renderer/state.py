"""Where a build keeps what it does not publish: the page manifest, the unfinished-build marker,
the word-diff cache and the search index's inputs.

The publish folder (`_site/` or `--out`) then holds only what a static host should serve. The
state lives in a root folder (`rules-history build --state`, by default `site-state/` next to
the store; for `build_site` called with none, `<out>.state/` beside the publish folder), with
one subfolder per publish folder, named after its resolved path: two publish folders never
share a manifest, so neither can mistake the other's pages for its own.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

MANIFEST = "build-manifest.json"
UNFINISHED = "build-unfinished"
# What older versions kept inside the publish folder: moved out (the manifest and marker,
# so the next build stays incremental) or removed (caches, rebuilt on demand).
LEGACY_MOVED = {".build-manifest.json": MANIFEST, ".build-unfinished": UNFINISHED}
LEGACY_REMOVED = (".cache", "pagefind/.records-sha")


def site_state(out: Path, root: Path | None = None) -> Path:
    """The state folder of publish folder `out` (not created)."""
    resolved = out.resolve()
    root = root if root is not None else resolved.with_name(resolved.name + ".state")
    key = hashlib.sha1(str(resolved).encode()).hexdigest()[:10]
    return root / f"{resolved.name}-{key}"


def prepare_state(out: Path, state: Path) -> None:
    """Create `state`, and move out of `out` whatever an older build left there."""
    state.mkdir(parents=True, exist_ok=True)
    for old, new in LEGACY_MOVED.items():
        legacy = out / old
        if legacy.is_file() and not legacy.is_symlink():
            if not (state / new).exists():
                shutil.copyfile(legacy, state / new)
            legacy.unlink()
    for name in LEGACY_REMOVED:
        legacy = out / name
        if legacy.is_dir() and not legacy.is_symlink():
            shutil.rmtree(legacy)
        elif legacy.is_file() or legacy.is_symlink():
            legacy.unlink()
