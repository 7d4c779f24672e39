"""The compare page and the data it compares with (renderer.compare_data)."""

from __future__ import annotations

from renderer.compare_data import INDEX, compare_data, versioned
from renderer.context import Site


def build_compare(site: Site) -> None:
    data = compare_data(site.db, site.dates)
    for path, body in data.files.items():
        site.writer.file(path, body)
    rows = site.releases
    site.page(
        "compare/index.html",
        "compare.html",
        title="Compare two releases",
        releases=rows,
        default_old=rows[0]["date"],
        default_new=rows[-1]["date"],
        index_url=versioned(INDEX, data.files[INDEX]),
    )
