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

from renderer.errors import SiteBuildError

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


# What a build writes at the top of the publish folder (tests hold it to a built site): a
# first build refuses a folder where something of the user's already has one of these names.
SITE_TOP = frozenset(
    {
        "404.html",
        "_redirects",
        "about",
        "accuracy",
        "compare",
        "diff",
        "examples",
        "history",
        "index.html",
        "keyword",
        "numbers",
        "pagefind",
        "releases",
        "renumbering",
        "rule",
        "search",
        "static",
    }
)


def check_folders(out: Path, state: Path) -> None:
    """Refuse a state folder that is, or lies inside, the publish folder (its manifest and
    caches would be published and served) or holds it; and a first build into a folder
    where something already has a name the build writes (`SITE_TOP`: a build writes its
    index.html and page folders over whatever has their names). A folder a build recorded
    (its manifest in `state`, or an older build's inside `out`) is the build's own, and
    other names (a gh-pages checkout's .git and CNAME) are left alone."""
    site, kept = out.resolve(), state.resolve()
    if kept == site or kept.is_relative_to(site) or site.is_relative_to(kept):
        raise SiteBuildError(
            f"--state {state} and --out {out}: the state folder must lie outside the site"
            " folder (and the site outside it), or it is published with the site"
        )
    if (state / MANIFEST).exists() or (state / UNFINISHED).exists() or not out.is_dir():
        return
    if any((out / legacy).exists() for legacy in LEGACY_MOVED):
        return
    found = sorted(entry.name for entry in out.iterdir() if entry.name in SITE_TOP)
    if found:
        shown = ", ".join(found[:3]) + (f" and {len(found) - 3:,} more" if len(found) > 3 else "")
        raise SiteBuildError(
            f"{out} holds files no build recorded, with names a build writes ({shown}): build"
            " into another folder, or move them away"
        )


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
