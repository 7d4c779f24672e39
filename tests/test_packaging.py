"""A real install: the wheel, in a fresh virtual environment with no node, builds the site."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from conftest import TINY_RELEASES, make_captures_dir

from archive.manifest import CAPTURES_DIR

ROOT = Path(__file__).resolve().parent.parent
NPM_DMP = ROOT / "node_modules" / "diff-match-patch" / "index.js"
VENDORED_DMP = ROOT / "site" / "vendor" / "diff-match-patch.js"
# Two small releases: every kind of page, in seconds rather than the minutes of all 135.
BUILT_RELEASES = TINY_RELEASES
# Run by the installed Python: where its archive is, and how many captures it holds.
SHIPPED_CAPTURES = """
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
captures = load_manifest()
for capture in captures:
    read_capture_bytes(CAPTURES_DIR, capture)
print(CAPTURES_DIR, len(captures))
"""


def test_the_vendored_diff_match_patch_is_the_npm_packages_file() -> None:
    if not NPM_DMP.exists():
        pytest.skip("node_modules/ is not installed (npm ci)")
    assert VENDORED_DMP.read_bytes() == NPM_DMP.read_bytes()


def _checkout_copy(target: Path) -> Path:
    """The files git would check out (tracked, and new ones not ignored), as a clean tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def test_a_wheel_installed_without_node_builds_the_site_in_an_empty_folder(
    tmp_path: Path,
) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to build the wheel from")
    source = _checkout_copy(tmp_path / "checkout")
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, source],
        check=True,
    )
    (wheel,) = wheels.glob("rules_history-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", wheel], check=True)
    # Every committed capture ships in the wheel, each read and checked against its sha256,
    # from the installed package (not the checkout).
    shipped = subprocess.run(
        [python, "-c", SHIPPED_CAPTURES],
        cwd=tmp_path,
        env={"PATH": str(env_dir / "bin")},
        capture_output=True,
        text=True,
    )
    assert shipped.returncode == 0, shipped.stderr[-2000:]
    folder, count = shipped.stdout.split()
    assert Path(folder).is_relative_to(env_dir)
    assert int(count) == len(json.loads((CAPTURES_DIR / "manifest.json").read_bytes()))
    # The site, built from a few of them: what a build needs besides the captures
    # (templates, static files, the bundled JavaScript) comes from the wheel alone.
    captures = make_captures_dir(tmp_path / "captures", BUILT_RELEASES)
    empty = tmp_path / "empty"
    empty.mkdir()
    # Only the fresh environment's own commands: no node, no npm, no checkout on the path.
    no_node = {**os.environ, "PATH": str(env_dir / "bin")}
    no_node.pop("RULES_HISTORY_DB", None)
    assert shutil.which("node", path=no_node["PATH"]) is None
    command = ["build", "--out", "public", "--no-search", "--captures", str(captures)]
    result = subprocess.run(
        [env_dir / "bin" / "rules-history", *command],
        cwd=empty,
        env=no_node,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    public = empty / "public"
    assert (public / "index.html").is_file()
    assert (public / "compare" / "index.html").is_file()
    assert list((public / "static").glob("diff_match_patch.*.js"))
    for day in BUILT_RELEASES:
        assert (public / "releases" / day / "index.html").is_file()
