"""The store opens in Datasette as it is: tables, the clauses view and full-text search."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

datasette_app = pytest.importorskip("datasette.app")


def test_store_browses_in_datasette(small_store):
    path = small_store.conn.execute("PRAGMA database_list").fetchone()[2]
    ds = datasette_app.Datasette([path])
    name = next(iter(ds.databases.keys() - {"_internal", "_memory"}))

    async def fetch(url: str) -> dict:
        response = await ds.client.get(url)
        assert response.status_code == 200, url
        return response.json()

    async def scenario() -> None:
        clauses = await fetch(f"/{name}/clauses.json?_shape=array&release=2024-06-07&number=708.2a")
        assert clauses[0]["text"].startswith("If a face-up permanent is turned face down")
        found = await fetch(f"/{name}/clause_versions.json?_search=morph&_shape=array")
        assert any("Morph" in row["text"] for row in found)

    # In a thread of its own: the session's Playwright browser (sync API) keeps an event loop
    # running in the main thread, where asyncio.run() refuses to start another.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, scenario()).result()
