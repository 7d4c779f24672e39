"""Characters a lossy copy lost are said alike by `show` and the site: the 2009-05-01 copy
holds "?" where its dashes were, and a reader is told so, with the count, wherever the text
is shown (archive.lost_marks)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from sqlite_utils import Database

from archive.lost_marks import lost_characters
from archive.store import store_file
from rules_history.cli import main

LOSSY = "2009-05-01"  # a copy with "?" for its dashes (SMALL_RELEASES holds it)
WHOLE = "2024-06-07"  # a copy that lost nothing
NOTE = re.compile(r'<p class="lost-note">([\d,]+) characters? of (?:this|its) text w')


def _shown(site: Path, page: str) -> int | None:
    found = NOTE.search((site / page / "index.html").read_text(encoding="utf-8"))
    return int(found[1].replace(",", "")) if found else None


def _texts(db: Database, release: str) -> list[str]:
    return [
        row[0]
        for row in db.execute(
            """SELECT v.text FROM releases r JOIN parts p ON p.capture_id = r.capture_id
               JOIN clause_versions v ON v.hash = p.version_hash WHERE r.date = ?""",
            [release],
        )
    ]


def test_a_release_page_counts_what_its_copy_lost(
    small_lineage: Database, small_site: Path
) -> None:
    lost = sum(lost_characters(text) for text in _texts(small_lineage, LOSSY))
    assert lost > 50  # the dashes of a whole release
    assert _shown(small_site, f"releases/{LOSSY}") == lost
    assert _shown(small_site, f"releases/{WHOLE}") is None
    assert not any(lost_characters(text) for text in _texts(small_lineage, WHOLE))


def test_show_and_the_wording_page_say_the_same_count(
    small_lineage: Database, small_site: Path
) -> None:
    store = str(store_file(small_lineage))
    result = CliRunner().invoke(main, ["show", f"200.1@{LOSSY}", "--json", "--db", store])
    clause = json.loads(result.output)
    assert clause["lost_characters"] == lost_characters(clause["text"]) == 1
    text = CliRunner().invoke(main, ["show", f"200.1@{LOSSY}", "--db", store]).output
    assert "note: 1 character of its text was lost in the copy the archive holds" in text
    counts = {
        page.parent.name: _shown(small_site, f"rule/200.1/{page.parent.name}")
        for page in (small_site / "rule/200.1").glob("*/index.html")
    }
    assert counts[LOSSY] == 1  # the wording first printed by the lossy copy
    later = CliRunner().invoke(main, ["show", "200.1@2009-07-08", "--json", "--db", store])
    assert json.loads(later.output)["lost_characters"] == 0
    assert counts["2009-07-08"] is None
