"""The source catalogue: every release and witness page, one line each, rebuilt from provenance."""

from __future__ import annotations

import json
from datetime import date

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from archive.manifest import CAPTURES_DIR
from crawler.catalogue import (
    CATALOGUE_FILE,
    CatalogueError,
    build_release_entries,
    date_in_url,
    load_catalogue,
    select,
)
from crawler.parsers import PARSERS
from rules_history.cli import main

MANIFEST = json.loads((CAPTURES_DIR / "manifest.json").read_bytes())


def test_every_archived_release_is_in_the_catalogue_with_its_urls():
    releases = {s.release: s for s in load_catalogue() if s.kind == "cr"}
    for entry in MANIFEST:
        source = releases[entry["date"]]
        assert source.urls, entry["date"]
        original = entry.get("original_url")
        if original and entry["preferred"] and original.endswith(".txt"):
            assert original in source.urls
        elif original and entry["preferred"]:  # a .docx: the text was derived from it
            assert original in (source.notes or "")
    assert {"2023-02-03", "2023-06-16", "2023-09-01"} <= set(releases)  # once listed only


def test_the_release_lines_are_what_the_provenance_files_give():
    committed = [
        json.loads(line)
        for line in CATALOGUE_FILE.read_text().splitlines()
        if '"kind": "cr"' in line
    ]
    assert committed == build_release_entries(CAPTURES_DIR)


def test_the_witness_pages_are_listed_with_a_parser():
    witnesses = {s.id: s for s in load_catalogue() if s.kind == "witness"}
    assert set(witnesses) == {
        "wizards-morph-2002",
        "crystalkeep-504-2008",
        "mtgwiki-face-down-2020",
        "mtgwiki-face-down-2024",
        "gatherer-spellmorph-2019",
    }
    assert all(s.parser in PARSERS for s in witnesses.values())
    assert witnesses["wizards-morph-2002"].captures == ("20170405224436",)
    assert witnesses["wizards-morph-2002"].quotes == "2002-10-07"


def test_adding_a_source_is_adding_a_line(tmp_path):
    catalogue = tmp_path / "catalogue.jsonl"
    line = {"id": "new-page", "kind": "witness", "parser": "mtg-wiki", "urls": ["https://x.test/"]}
    catalogue.write_text(CATALOGUE_FILE.read_text() + json.dumps(line) + "\n")
    assert len(load_catalogue(catalogue)) == len(load_catalogue()) + 1
    result = CliRunner().invoke(
        main, ["crawl", "--dry-run", "--catalogue", str(catalogue), "--source", "new-page"]
    )
    assert result.exit_code == 0, result.output
    assert "would request: new-page: CDX https://x.test/" in result.output


def test_a_bad_line_names_its_number(tmp_path):
    catalogue = tmp_path / "catalogue.jsonl"
    catalogue.write_text('{"id": "a", "kind": "cr", "urls": []}\n{not json\n')
    with pytest.raises(CatalogueError, match="line 2"):
        load_catalogue(catalogue)
    catalogue.write_text('{"id": "a", "kind": "cr"}\n{"id": "a", "kind": "cr"}\n')
    with pytest.raises(CatalogueError, match="duplicate source id 'a'"):
        load_catalogue(catalogue)


def test_select_by_id_and_release():
    sources = load_catalogue()
    picked = select(sources, ["wizards-morph-2002"], ["2002-10-07"])
    assert [s.id for s in picked] == ["cr-2002-10-07", "wizards-morph-2002"]
    assert select(sources) == sources
    with pytest.raises(CatalogueError, match="1999-01-01"):
        select(sources, releases=["1999-01-01"])


@given(st.dates(min_value=date(2001, 1, 1), max_value=date(2099, 12, 31)))
def test_eight_digit_file_names_give_their_date(day):
    url = f"https://media.wizards.com/{day.year}/downloads/MagicCompRules%20{day:%Y%m%d}.txt"
    assert date_in_url(url) == day.isoformat()
