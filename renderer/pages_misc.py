"""Pages with little data: search, examples, about, the 404 resolver and the static host's
rewrite rule (renderer.host_rules)."""

from __future__ import annotations

from renderer.context import Site
from renderer.examples import scenarios
from renderer.host_rules import REDIRECTS_FILE, redirects


def build_misc(site: Site) -> None:
    first, last = int(site.dates[0][:4]), int(site.dates[-1][:4])
    site.page(
        "search/index.html", "search.html", title="Search", years=list(range(first, last + 1))
    )
    site.page(
        "examples/index.html",
        "examples.html",
        title="Executable examples",
        scenarios=scenarios(list(site.model.example_rows)),
    )
    site.page("about/index.html", "about.html", title="About", sample="504.2")
    site.page("404.html", "404.html", title="Not found")
    site.writer.file(REDIRECTS_FILE, redirects())
