"""Issue 10, published: the accuracy page and the marks of uncertain links.

The page's figures are checked against the shipped figures (`lineage/data/accuracy.json`, which
`tests/test_lineage_truth.py` recomputes from the truth) and against the store the site was
built from; the marks are checked against the weak decisions of that store, page by page, and
in the JSON of `diff` and `trace`.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import make_captures_dir, run_stages
from sqlite_utils import Database

import lineage
from archive.ingest import ingest_captures
from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from lineage.accuracy import ALL, FIGURES, published_figures
from lineage.compare import diff_releases
from renderer.build import build_site
from renderer.environment import clause_anchor
from renderer.model import history_urls
from rules_history.cli import main
from rules_history.pipeline import ingest_explanations

PAIR = ("2021-06-09", "2021-07-12")  # the Adventures in the Forgotten Realms article's

MARK = re.compile(r'<a class="uncertain" href="/accuracy/#uncertain" title="[^"]+">uncertain link')


class _Tables(HTMLParser):
    """Each <table> of a page: its caption and rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self.cell: list[str] | None = None
        self.in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "caption":
            self.in_caption = True
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th") and self.tables:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self.in_caption = False
        elif tag in ("td", "th") and self.cell is not None:
            self.tables[-1]["rows"][-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.in_caption:
            self.tables[-1]["caption"] += data
        elif self.cell is not None:
            self.cell.append(data)


def tables(html: str) -> list[dict[str, Any]]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def _count(cell: str) -> int:
    """'470 (97.3%)' -> 470."""
    return int(cell.split()[0])


def _as_figures(table: dict[str, Any]) -> dict[str, dict[str, int]]:
    """A figures table of the page back to kind -> rows, linked, named."""
    found = {}
    for cells in table["rows"][1:]:  # the first row is the header
        kind = ALL if cells[0] == "every kind" else cells[0]
        found[kind] = {"rows": int(cells[1]), "linked": _count(cells[2]), "named": _count(cells[3])}
    return found


@pytest.fixture(scope="module")
def accuracy_html(small_site: Path) -> str:
    return (small_site / "accuracy" / "index.html").read_text(encoding="utf-8")


def test_figures_ship_as_package_data() -> None:
    """The site reads the figures from the package, never from tests/."""
    assert FIGURES.parent.parent == Path(lineage.__file__).resolve().parent
    assert published_figures() == json.loads(FIGURES.read_text(encoding="utf-8"))
    assert published_figures()["overall"][ALL]["rows"] > 2000


def test_accuracy_page_shows_the_measured_figures(accuracy_html: str) -> None:
    figures = published_figures()
    found = tables(accuracy_html)
    by_caption = {table["caption"]: table for table in found}
    assert _as_figures(by_caption["Every truth file"]) == figures["overall"]
    assert list(figures["files"]) == [name for name in by_caption if name.endswith(".csv")]
    for name, table in figures["files"].items():
        assert _as_figures(by_caption[name]) == table, name
    # the shares are those of the counts
    total = figures["overall"][ALL]
    assert f"{total['named']} ({100 * total['named'] / total['rows']:.1f}%)" in accuracy_html


def test_accuracy_page_shows_the_links_measured_one_by_one(accuracy_html: str) -> None:
    links = published_figures()["links"]
    table = {t["caption"]: t for t in tables(accuracy_html)}["Links measured one by one"]
    shown = {cells[0]: (int(cells[1]), _count(cells[2])) for cells in table["rows"][1:]}
    assert shown == {
        "not marked uncertain": (links["certain"]["links"], links["certain"]["right"]),
        "marked uncertain link": (links["uncertain"]["links"], links["uncertain"]["right"]),
    }
    truth = links["truth"]
    assert f'id="truth-links">{truth["links"]}<' in accuracy_html
    assert f'id="truth-found">{truth["found"]}<' in accuracy_html
    missed = truth["missed_in_splits_and_merges"]
    assert f'id="truth-missed-pieces">{missed}<' in accuracy_html
    by_method = {t["caption"]: t for t in tables(accuracy_html)}["Links by method"]
    shown_methods = {cells[0]: (int(cells[1]), _count(cells[2])) for cells in by_method["rows"][1:]}
    assert shown_methods == {m: (t["links"], t["right"]) for m, t in links["methods"].items()}
    assert sum(t["links"] for t in links["methods"].values()) == (
        links["certain"]["links"] + links["uncertain"]["links"]
    )
    # the mark is worth reading: links it marks are right less often than the others
    assert links["uncertain"]["right"] * links["certain"]["links"] < (
        links["certain"]["right"] * links["uncertain"]["links"]
    )


@pytest.fixture(scope="module")
def pair_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Database, Path]:
    """2021-06-09 and 2021-07-12 with the official article that explains the second, and
    the site built from them."""
    captures = make_captures_dir(tmp_path_factory.mktemp("pair-captures"), PAIR)
    db = open_store(tmp_path_factory.mktemp("pair") / "rules.db")
    assert not ingest_captures(db, captures).failed
    run_stages(db)  # lineage, derived answers, examples: what the readers need
    ingest_explanations(db, CAPTURES_DIR)
    out = tmp_path_factory.mktemp("pair-site") / "_site"
    build_site(db, out, search=False)
    return db, out


def test_accuracy_page_agrees_with_the_official_articles_of_its_store(
    pair_store: tuple[Database, Path],
) -> None:
    db, site = pair_store
    html = (site / "accuracy" / "index.html").read_text(encoding="utf-8")
    entries: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    for row in db["explanations"].rows_where("release IS NOT NULL"):  # its release stored
        entries[row["kind"]] += 1
        matched[row["kind"]] += row["status"] == "matched"
    assert matched["rule"] > 10  # the Adventures in the Forgotten Realms article
    shown = re.search(r'id="official-entries">(\d+)<.*?id="official-matched">(\d+)<', html, re.S)
    assert shown is not None
    assert (int(shown[1]), int(shown[2])) == (sum(entries.values()), sum(matched.values()))
    official = next(t for t in tables(html) if t["rows"][0][0] == "Entry names")
    names = {"rule numbers": "rule", "glossary terms": "glossary", "a topic": "topic"}
    assert {
        names[cells[0]]: (int(cells[1]), _count(cells[2])) for cells in official["rows"][1:]
    } == {kind: (entries[kind], matched[kind]) for kind in entries}
    findings = Counter(
        row["finding"].split(":")[0]
        for row in db["explanations"].rows_where("release IS NOT NULL")
        if row["finding"]
    )
    assert "no release" not in html  # the 32 articles of releases this store lacks
    for reason, n in findings.items():
        assert f'<span data-reason="{reason}">{n}</span>' in html


def test_without_articles_the_page_says_so(accuracy_html: str) -> None:
    assert "holds no official change article of a release it holds" in accuracy_html


def test_accuracy_page_is_linked_and_counts_the_uncertain_links(
    accuracy_html: str, small_site: Path, small_store: Database
) -> None:
    about = (small_site / "about" / "index.html").read_text(encoding="utf-8")
    assert 'href="/accuracy/"' in about
    assert 'id="uncertain"' in accuracy_html
    weak = small_store.execute(
        "SELECT count(*) FROM lineage_events WHERE weak AND kind != 'unchanged'"
    ).fetchone()[0]
    assert weak > 0  # the 2009 reorganisation has weak decisions in the small store
    assert f'id="uncertain-total">{weak}<' in accuracy_html


def _articles(html: str) -> dict[str, list[str]]:
    """Anchor -> the change articles of a diff page with that id, or with that id made
    distinct (renderer.anchors: two changes that name one number, "c-402" and "c-402-2")."""
    found: dict[str, list[str]] = defaultdict(list)
    for anchor, body in re.findall(
        r'<article class="change" id="([^"]+)">(.*?)</article>', html, re.S
    ):
        found[re.sub(r"^(c-.+?)-\d+$", r"\1", anchor)].append(body)
    return found


def test_diff_pages_mark_every_weak_change_and_no_other(
    small_site: Path, small_store: Database
) -> None:
    """Each diff page marks exactly the changes `diff` calls weak (one answer everywhere)."""
    weak_releases = {
        release
        for (release,) in small_store.execute(
            "SELECT DISTINCT release FROM lineage_events WHERE weak AND kind != 'unchanged'"
        )
    }
    previous = dict(small_store.execute("SELECT release, previous_release FROM lineage_alignments"))
    checked = 0
    for release in sorted(previous):
        if previous[release] is None:
            continue
        html = (small_site / "diff" / previous[release] / release / "index.html").read_text()
        weak = [c for c in diff_releases(small_store, previous[release], release)["changes"]
                if c["weak"]]  # fmt: skip
        assert bool(weak) == (release in weak_releases), release
        assert len(MARK.findall(html)) == len(weak), release
        articles = _articles(html)
        for change in weak:
            anchor = "c-" + clause_anchor((change["new"] or change["old"])[0])
            assert any(MARK.search(body) for body in articles[anchor]), (release, anchor)
            checked += 1
    assert checked > 0


def test_history_pages_mark_their_weak_events(small_site: Path, small_store: Database) -> None:
    lineages = {row["id"]: row for row in small_store.query("SELECT * FROM lineages")}
    urls = history_urls(lineages)
    weak: Counter[int] = Counter(
        lineage_id
        for (lineage_id,) in small_store.execute(
            "SELECT lineage_id FROM lineage_events WHERE weak AND kind != 'unchanged'"
        )
    )
    assert weak
    # every weak decision of the page's lineage is marked, and nothing else: the weak ones,
    # and as many lineages again without any
    certain = [lid for lid in sorted(lineages) if lid not in weak][: len(weak)]
    for lineage_id in [*weak, *certain]:
        page = small_site / urls[lineage_id].strip("/") / "index.html"
        events = re.search(r'<ul class="events">(.*?)</ul>', page.read_text(), re.S)
        assert events is not None
        items = re.findall(r"<li[^>]*>(.*?)</li>", events[1], re.S)
        assert sum(bool(MARK.search(item)) for item in items) == weak[lineage_id], page


def _store_file(db: Database) -> str:
    return str(db.execute("PRAGMA database_list").fetchone()[2])


def _json(db: Database, *args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--db", _store_file(db), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(
    ("old", "new"), [("2009-05-01", "2009-07-08"), ("2008-02-01", "2021-07-12")]
)
def test_diff_json_gives_each_change_its_evidence(
    small_lineage: Database, old: str, new: str
) -> None:
    result = _json(small_lineage, "diff", old, new)
    weak_lineages = {
        lineage_id
        for (lineage_id,) in small_lineage.execute(
            "SELECT lineage_id FROM lineage_events WHERE weak AND release > ? AND release <= ?",
            [old, new],
        )
    }
    assert weak_lineages
    for change in result["changes"]:
        assert {"method", "score", "weak"} <= change.keys()
        assert change["weak"] == (change["lineage"] in weak_lineages), change
        if change["weak"]:
            assert change["method"] not in ("equal", "formatting", "references", "term")
    assert any(change["weak"] for change in result["changes"])
    text = CliRunner().invoke(main, ["diff", old, new, "--db", _store_file(small_lineage)])
    marked = [line for line in text.output.splitlines() if "(uncertain link: " in line]
    assert len(marked) == sum(change["weak"] for change in result["changes"])


def test_trace_json_gives_each_step_its_evidence(small_lineage: Database) -> None:
    lineage_id, release, new = small_lineage.execute(
        """SELECT lineage_id, release, new_numbers FROM lineage_events
           WHERE weak AND kind != 'unchanged' AND new_numbers != '[]' ORDER BY id LIMIT 1"""
    ).fetchone()
    number = json.loads(new)[0]
    result = _json(small_lineage, "trace", f"{number}@{release}")
    rows = {
        (row[0], row[1]): (row[2], row[3], bool(row[4]))
        for row in small_lineage.execute(
            "SELECT lineage_id, release, method, score, weak FROM lineage_events"
        )
    }
    assert result["entries"]
    for entry in result["entries"]:
        expected = rows[(entry["lineage"], entry["release"])]
        assert (entry["method"], entry["score"], entry["weak"]) == expected
    assert any(e["weak"] and e["lineage"] == lineage_id for e in result["entries"])
