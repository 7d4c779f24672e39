"""What every page builder shares: the store, the Jinja environment and the writer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment
from sqlite_utils import Database

from renderer.changes import Change
from renderer.diffcache import DiffCache
from renderer.writer import SiteWriter, context_key


@dataclass
class Site:
    db: Database
    env: Environment
    writer: SiteWriter
    releases: list[dict[str, Any]]
    diffs: DiffCache
    base_url: str = ""
    changes: dict[str, list[Change]] = field(default_factory=dict)
    renumbered: set[str] = field(default_factory=set)
    derived: set[str] = field(default_factory=set)  # releases read from a derived copy
    history_urls: dict[int, str] = field(default_factory=dict)
    history_titles: dict[int, str] = field(default_factory=dict)
    part_lineage: dict[int, int] = field(default_factory=dict)
    histories: dict[int, dict[str, Any]] = field(default_factory=dict)
    witnessed: set[str] = field(default_factory=set)
    search_records: list[dict[str, Any]] = field(default_factory=list)
    run_urls: set[str] = field(default_factory=set)
    example_rows: Callable[[], list[dict[str, Any]]] = list
    lineage_examples: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    explained: dict[tuple[int, str], list[dict[str, Any]]] | None = None  # renderer.explained
    clause_pages: list[tuple[str, str, Callable[[], dict[str, Any]], str, int]] = field(
        default_factory=list
    )

    @property
    def dates(self) -> list[str]:
        return [row["date"] for row in self.releases]

    def page(self, path: str, template: str, **context: Any) -> None:
        """A page whose key is its whole context."""
        key = context_key([template, context])
        self.writer.page(path, lambda: self.env.get_template(template).render(**context), key)

    def lazy_page(
        self, path: str, template: str, context: Callable[[], dict[str, Any]], key: str
    ) -> None:
        """A page whose context is costly: built only when `key` changed."""
        self.writer.page(
            path, lambda: self.env.get_template(template).render(**context()), template + key
        )

    def clause_page(
        self,
        path: str,
        template: str,
        context: Callable[[], dict[str, Any]],
        key: str,
        lineage: int | None,
    ) -> None:
        """A lazy page about one clause, which also shows the executable examples citing its
        lineage: those come from another process, so the page waits in `clause_pages` until
        `write_clause_pages` has them (they are part of its key)."""
        if lineage is None:
            self.lazy_page(path, template, lambda: {**context(), "scenarios": []}, key)
        else:
            self.clause_pages.append((path, template, context, key, lineage))

    def write_clause_pages(self) -> None:
        for path, template, context, key, lineage in self.clause_pages:
            shown = self.lineage_examples.get(lineage, [])

            def full(context: Callable[[], dict[str, Any]] = context, shown: Any = shown) -> Any:
                return {**context(), "scenarios": shown}

            self.lazy_page(path, template, full, key + context_key(shown) if shown else key)
        self.clause_pages = []
