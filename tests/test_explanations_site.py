"""The site shows release names and each official explanation beside its change: built from
a real store of two neighbouring releases, 2021-06-09 and 2021-07-12, which the Adventures in
the Forgotten Realms article (2021-07-15) explains; and from 2015-03-27 and 2015-07-17, whose
article (Magic Origins) explains rules it deleted."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from bs4 import BeautifulSoup
from conftest import make_captures_dir, run_stages
from sqlite_utils import Database
from test_one_answer import ENTRY, cli_json, history_pages

from archive.ingest import ingest_captures
from archive.manifest import CAPTURES_DIR
from archive.release_names import store_release_names
from archive.store import open_store
from renderer.build import build_site
from rules_history.pipeline import ingest_explanations

PAIR = ("2021-06-09", "2021-07-12")
ORIGINS = ("2015-03-27", "2015-07-17")


class Built(NamedTuple):
    site: Path
    db: Database


def _built(tmp_path_factory: pytest.TempPathFactory, pair: tuple[str, str]) -> Built:
    captures = make_captures_dir(tmp_path_factory.mktemp("pair-captures"), pair)
    db = open_store(tmp_path_factory.mktemp("pair") / "rules.db")
    assert not ingest_captures(db, captures).failed
    run_stages(db)  # lineage, derived answers, examples: what the readers need
    store_release_names(db)
    counts = ingest_explanations(db, CAPTURES_DIR)
    assert counts["matched"] > 10
    out = tmp_path_factory.mktemp("pair-site") / "_site"
    build_site(db, out, search=False)
    return Built(out, db)


@pytest.fixture(scope="module")
def pair_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return _built(tmp_path_factory, PAIR)


@pytest.fixture(scope="module")
def origins_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return _built(tmp_path_factory, ORIGINS)


@pytest.fixture(scope="module")
def pair_site(pair_built: Built) -> Path:
    return pair_built.site


@pytest.fixture(scope="module")
def origins_site(origins_built: Built) -> Path:
    return origins_built.site


def _explained_on(page: Path) -> list[str]:
    """The headings of the official explanations a page shows ("717")."""
    soup = BeautifulSoup(page.read_text(), "html.parser")
    return [
        " ".join(box.p.get_text().split()).split(" of ", 1)[1].split(",", 1)[0]
        for box in soup.select(".explanation")
    ]


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


def test_a_new_rule_explained_is_not_the_rule_that_left_its_number(pair_site: Path) -> None:
    # AFR's "717" is the new section on Class; the old 717 is now 719, word for word.
    new, moved = (pair_site / "history" / day / "717" / "index.html" for day in PAIR[::-1])
    assert "717" in _explained_on(new)
    assert "717" not in _explained_on(moved)
    assert "719" in moved.read_text()  # the page of the section that moved


def test_a_deleted_rule_shows_its_explanation_with_the_event(origins_site: Path) -> None:
    # Magic Origins deleted 107.13 (sun and moon symbols) and moved 107.15 up into 107.13.
    deleted = origins_site / "history" / ORIGINS[0] / "107.13" / "index.html"
    moved_up = origins_site / "history" / ORIGINS[0] / "107.15" / "index.html"
    assert _explained_on(deleted) == ["107.13 and 107.14"]
    events = BeautifulSoup(deleted.read_text(), "html.parser").select_one("#events").parent
    removal = events.select_one('li.event[data-kind="removed"]')
    assert "sun and moon symbols have been deleted" in removal.get_text()
    assert _explained_on(moved_up) == []


def test_every_explanation_trace_shows_is_on_the_history_page(
    pair_built: Built, origins_built: Built
) -> None:
    checked = 0
    for built in (pair_built, origins_built):
        pages = history_pages(built.site)
        lineages = built.db.execute(
            """SELECT DISTINCT l.id, l.last_release, l.last_number, l.kind
               FROM lineages l JOIN explanation_links x ON x.lineage_id = l.id ORDER BY l.id"""
        ).fetchall()
        for lineage, last, number, kind in lineages:
            asked = number + ENTRY if kind == "glossary" else number
            traced = cli_json(built.db, "trace", f"{asked}@{last}")
            shown = [x["heading"] for x in traced["explanations"] if x["lineage"] == lineage]
            assert shown, f"{asked}@{last}: trace shows no explanation"
            assert sorted(_explained_on(pages[lineage])) == sorted(shown), f"{asked}@{last}"
            checked += 1
    assert checked > 50


OATH = ("2015-11-13", "2016-01-16")  # Oath of the Gatewatch: 106.10 (new), "Rule 4" no more


@pytest.fixture(scope="module")
def oath_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return _built(tmp_path_factory, OATH)


def test_where_an_article_calls_a_rule_new_that_the_lineage_continues_it_says_so(
    oath_built: Built,
) -> None:
    """Oath of the Gatewatch's article lists "106.10 (new)" and says the Commander rule 903.9
    is no more; a weak pairing continues 903.9 as 106.10. The explanation beside that change,
    on its history page and in `trace`, says that the article and the lineage disagree."""
    db = oath_built.db
    (finding,) = db.execute(
        "SELECT finding FROM explanations WHERE release = ? AND heading = '106.10 (new)'",
        [OATH[1]],
    ).fetchone()
    assert finding == (
        "called-new: the article calls 106.10 new, where the lineage continues an older clause"
        " (renumbered+reworded)"
    )
    traced = cli_json(db, "trace", f"106.10@{OATH[1]}")
    lineage = traced["lineage"]
    page = BeautifulSoup(
        history_pages(oath_built.site)[lineage].read_text(encoding="utf-8"), "html.parser"
    )
    disagrees = [" ".join(p.get_text().split()) for p in page.select("p.disagrees")]
    assert disagrees == [
        "The article and the lineage disagree: the article calls 106.10 new, where the lineage"
        " continues an older clause (renumbered+reworded): check both texts before relying on"
        " this link."
    ]
    # the accuracy page counts it among the articles' disagreements with the lineages
    accuracy = BeautifulSoup(
        (oath_built.site / "accuracy/index.html").read_text(encoding="utf-8"), "html.parser"
    )
    assert accuracy.select_one("#official-disagreements").get_text() == "1"
    (item,) = [" ".join(li.get_text().split()) for li in accuracy.select("ul.disagreements li")]
    assert item.endswith(
        "106.10 (new): the article calls 106.10 new, where the lineage"
        " continues an older clause (renumbered+reworded)"
    )
    # an entry that calls a rule new which the lineage begins there says nothing of the kind
    assert not db.execute(
        "SELECT count(*) FROM explanations WHERE finding LIKE 'called-new%' AND heading != ?",
        ["106.10 (new)"],
    ).fetchone()[0]
