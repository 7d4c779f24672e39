"""`ingest` and `build` bring the store up to date the same way: releases, witnesses, lineages."""

from __future__ import annotations

import shutil

from conftest import make_captures_dir

from archive.manifest import CAPTURES_DIR
from archive.store import open_store
from rules_history.pipeline import update_store


def test_update_store_ingests_releases_witnesses_and_lineages(tmp_path):
    folder = make_captures_dir(
        tmp_path / "caps", ("2002-10-07", "2003-07-01", "2007-05-01", "2008-02-01")
    )
    shutil.copytree(CAPTURES_DIR / "web", folder / "web")
    db = open_store(tmp_path / "rules.db")
    report = update_store(db, folder)
    assert report.failed == []
    assert len(report.releases.ingested) == 5  # 2007-05-01 has two captures
    assert report.lineage["releases"] == 4
    assert db["lineage_members"].count > 1000
    crystal_keep = {
        row["number"]: row["agreement"]
        for row in db.query("SELECT * FROM witnesses WHERE source LIKE 'crystalkeep%'")
    }
    assert crystal_keep["504.6"] == "agrees"  # dated [CompRules 2003/07/01]
    again = update_store(db, folder)
    assert again.releases.ingested == [] and again.lineage["aligned"] == 0
