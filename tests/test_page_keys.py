"""A page's key is a function of its context's values: equal contexts, equal keys."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from renderer.writer import code_files, context_key

ROOT = Path(__file__).resolve().parent.parent


def test_equal_contexts_have_one_key_whether_or_not_they_share_objects() -> None:
    dates = ["2008-02-01", "2024-06-07"]
    shared = {"releases": dates, "shown": dates, "number": "708.2"}
    repeated = {"releases": list(dates), "shown": list(dates), "number": "708.2"}
    assert context_key(shared) == context_key(repeated)


def test_a_change_of_any_value_or_of_order_changes_the_key() -> None:
    context = {"number": "708.2", "spans": [("2024-06-07", None)], "weak": False}
    assert context_key(context) != context_key({**context, "number": "708.3"})
    assert context_key(context) != context_key({**context, "weak": 0})
    assert context_key(context) != context_key({**context, "spans": [["2024-06-07", None]]})
    assert context_key(context) != context_key(dict(reversed(list(context.items()))))


def test_the_code_key_covers_every_module_the_renderer_runs() -> None:
    """A page's wording may come from a module below the renderer (the note on lost
    characters is archive.lost_marks'): a change there must render the pages again, so every
    module of the project a build imports is among the files the code key hashes."""
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, renderer.build, renderer.serve\n"
            "for m in list(sys.modules.values()):\n"
            "    print(getattr(m, '__file__', None) or '')",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    ours = {
        Path(name).resolve()
        for name in loaded
        if Path(name).resolve().is_relative_to(ROOT) and ".venv" not in Path(name).parts
    }
    assert len(ours) > 50  # the renderer and the engine it reads
    hashed = {path.resolve() for _name, path in code_files()}
    assert ours <= hashed, sorted(str(path.relative_to(ROOT)) for path in ours - hashed)
