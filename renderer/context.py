"""What every page builder shares: the store, the read-only model (renderer.model), the
Jinja environment and the writer; and what the history pages find for the pages after them
(the URL and title of each clause's history)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment
from sqlite_utils import Database

from renderer.changes import Change
from renderer.diffcache import DiffCache
from renderer.model import SiteModel
from renderer.writer import SiteWriter, context_key


@dataclass
class Site:
    db: Database
    model: SiteModel
    env: Environment
    writer: SiteWriter
    diffs: DiffCache
    base_url: str = ""
    renumbered: set[str] = field(default_factory=set)
    history_urls: dict[int, str] = field(default_factory=dict)
    history_titles: dict[int, str] = field(default_factory=dict)
    part_lineage: dict[int, int] = field(default_factory=dict)
    histories: dict[int, dict[str, Any]] = field(default_factory=dict)
    search_records: list[dict[str, Any]] = field(default_factory=list)
    run_urls: set[str] = field(default_factory=set)
    lineage_examples: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    clause_pages: list[tuple[str, str, Callable[[], dict[str, Any]], str, int]] = field(
        default_factory=list
    )

    @property
    def releases(self) -> list[dict[str, Any]]:
        return list(self.model.releases)

    @property
    def changes(self) -> dict[str, list[Change]]:
        return self.model.changes

    @property
    def dates(self) -> list[str]:
        return self.model.dates

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
