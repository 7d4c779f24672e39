"""Pages with little data: compare, search, examples, about and the 404 resolver."""

from __future__ import annotations

from lineage.compare import compared_with
from renderer.context import Site
from renderer.examples import scenarios


def build_misc(site: Site) -> None:
    rows = site.releases
    site.page(
        "compare/index.html",
        "compare.html",
        title="Compare two releases",
        releases=rows,
        pairs=[(old, day) for day, old in compared_with(site.dates, site.derived).items() if old],
        default_old=rows[0]["date"],
        default_new=rows[-1]["date"],
    )
    site.page("search/index.html", "search.html", title="Search")
    site.page(
        "examples/index.html",
        "examples.html",
        title="Executable examples",
        scenarios=scenarios(list(site.model.example_rows)),
    )
    site.page("about/index.html", "about.html", title="About", sample="504.2")
    site.page("404.html", "404.html", title="Not found")
