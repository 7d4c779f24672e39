"""What every page builder shares: the store, the read-only model (renderer.model), the
Jinja environment and the writer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment
from sqlite_utils import Database

from renderer.changes import Change
from renderer.diffcache import DiffCache
from renderer.model import SiteModel
from renderer.writer import SiteWriter, context_key


@dataclass
class Site:
    """The rendering context: the store (for page texts, read lazily), the read-only model,
    the Jinja environment, the writer and the word-diff cache. Nothing in it is filled by
    one page builder for another: each reads the model and returns what it made."""

    db: Database
    model: SiteModel
    env: Environment
    writer: SiteWriter
    diffs: DiffCache
    base_url: str = ""

    @property
    def releases(self) -> list[dict[str, Any]]:
        return list(self.model.releases)

    @property
    def changes(self) -> dict[str, list[Change]]:
        return self.model.changes

    @property
    def derived(self) -> frozenset[str]:
        """The releases read from a derived copy (lineage.derived)."""
        return self.model.derived

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
        """A lazy page about one clause, with the executable examples citing its lineage
        (part of its key)."""
        shown = self.model.lineage_examples.get(lineage, []) if lineage is not None else []

        def full() -> dict[str, Any]:
            return {**context(), "scenarios": shown}

        self.lazy_page(path, template, full, key + context_key(shown) if shown else key)
