"""The hook for the executable examples (issue 6): their `rules-history examples --json` output.

The examples command is someone else's; the site runs it when the CLI has it and shows its
rows grouped by scenario. Without it the examples page says they are not built yet.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlite_utils import Database

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".venv", "node_modules", "renderer", "tests", "_site", "_build", ".git"}


def _source_key(db: Database) -> str:
    """Hash of the store's releases and of every Python source outside the renderer."""
    digest = hashlib.sha256()
    for row in db.execute(
        "SELECT releases.date, captures.sha256 FROM releases"
        " JOIN captures ON captures.id = releases.capture_id ORDER BY releases.date"
    ):
        digest.update(repr(row).encode())
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIP.intersection(path.relative_to(ROOT).parts):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def start_example_rows(db: Database, cache: Path) -> Callable[[], list[dict[str, Any]]]:
    """Start `rules-history examples --json` in another process (it takes seconds, and the
    build has a core to spare while it prepares pages); the returned function waits for it.
    Its rows are remembered in `cache` until the store or the code changes."""
    key = _source_key(db)
    try:
        saved = json.loads(cache.read_text())
        if saved.get("key") == key:
            rows = list(saved["rows"])
            return lambda: rows
    except (OSError, ValueError):
        pass
    from rules_history.cli import main

    if "examples" not in main.commands:
        return list
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    command = [sys.executable, "-m", "rules_history", "examples", "--json", "--db", path]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def wait() -> list[dict[str, Any]]:
        out, _ = process.communicate()
        if process.returncode != 0:
            return []
        rows = parse_rows(out.decode("utf-8"))
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"key": key, "rows": rows}))
        return rows

    return wait


def parse_rows(text: str) -> list[dict[str, Any]]:
    """A JSON list, an object holding a list, or JSON lines.

    >>> parse_rows('{"scenario": "a", "release": "2002-10-07"}\\n')[0]["scenario"]
    'a'
    """
    text = text.strip()
    if not text:
        return []
    try:
        data = json.loads(text)
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        lists = [value for value in data.values() if isinstance(value, list)]
        data = lists[0] if lists else [data]
    return [row for row in data if isinstance(row, dict)]


def scenarios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows grouped by scenario, oldest release first; consecutive releases with the same
    outcome and cites become one span, and a span whose outcome differs from the one
    before is marked as changed."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(str(row.get("scenario", "?")), []).append(row)
    result = []
    for name, items in grouped.items():
        items.sort(key=lambda row: str(row.get("release", "")))
        spans: list[dict[str, Any]] = []
        for row in items:
            outcome = row.get("outcome")
            text = outcome if isinstance(outcome, str) else json.dumps(outcome, sort_keys=True)
            cites = row.get("cites") or []
            cites = [str(c) for c in cites] if isinstance(cites, list) else [str(cites)]
            last = spans[-1] if spans else None
            if last and (last["outcome"], last["cites"], last["agrees"]) == (
                text,
                cites,
                row.get("agrees"),
            ):
                last["until"] = str(row.get("release", ""))
                last["count"] += 1
                continue
            spans.append(
                {
                    "release": str(row.get("release", "")),
                    "until": None,
                    "count": 1,
                    "outcome": text,
                    "cites": cites,
                    "agrees": row.get("agrees"),
                    "changed": last is not None and text != last["outcome"],
                }
            )
        first = items[0]
        result.append(
            {
                "name": str(first.get("title") or name),
                "id": name,
                "source": str(first.get("source") or ""),
                "rows": spans,
            }
        )
    return result
