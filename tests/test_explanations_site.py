"""The site shows release names and each official explanation beside its change: built from
a real store of two neighbouring releases, 2021-06-09 and 2021-07-12, which the Adventures in
the Forgotten Realms article (2021-07-15) explains."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import make_captures_dir, run_stages

from archive.ingest import ingest_captures
from archive.manifest import CAPTURES_DIR
from archive.release_names import store_release_names
from archive.store import open_store
from renderer.build import build_site
from rules_history.pipeline import ingest_explanations

PAIR = ("2021-06-09", "2021-07-12")


@pytest.fixture(scope="module")
def pair_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    captures = make_captures_dir(tmp_path_factory.mktemp("pair-captures"), PAIR)
    db = open_store(tmp_path_factory.mktemp("pair") / "rules.db")
    assert not ingest_captures(db, captures).failed
    run_stages(db)  # lineage, derived answers, examples: what the readers need
    store_release_names(db)
    counts = ingest_explanations(db, CAPTURES_DIR)
    assert counts["matched"] > 10
    out = tmp_path_factory.mktemp("pair-site") / "_site"
    build_site(db, out, search=False)
    return out


def test_the_diff_page_names_both_releases_and_shows_explanations(pair_site: Path) -> None:
    page = (pair_site / "diff" / PAIR[0] / PAIR[1] / "index.html").read_text()
    heading = BeautifulSoup(page, "html.parser").h1.get_text()  # dates are <time> elements
    assert "June 9, 2021 (Modern Horizons 2)" in heading
    assert "July 12, 2021 (Dungeons & Dragons: Adventures in the Forgotten Realms)" in heading
    assert page.count('class="explanation"') > 10
    assert "Official explanation</b> of 107.16" in page  # d20 rolls, new with AFR


def test_the_wording_and_history_pages_show_the_explanation(pair_site: Path) -> None:
    run = (pair_site / "rule" / "107.16" / PAIR[1] / "index.html").read_text()
    assert 'class="explanation"' in run and "Adventures in the Forgotten Realms" in run
    histories = [
        path
        for path in (pair_site / "history" / PAIR[1]).glob("*/index.html")
        if "Official explanation</b> of 107.16" in path.read_text()
    ]
    assert histories


def test_the_releases_table_has_set_names_and_codes(pair_site: Path) -> None:
    page = (pair_site / "releases" / "index.html").read_text()
    assert "Modern Horizons 2" in page and "MH2" in page
