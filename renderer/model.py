"""The read-only model of the site: everything the pages show that the store answers once,
loaded before any page is rendered. The renderer computes no answer of its own: change
lists, wording spans, blame, counts and the executable examples are the pipeline's, read
from their tables (lineage.derived, facedown.store)."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from facedown.store import require_examples, stored_examples
from lineage.freshness import require_current
from renderer.changes import Change, all_changes
from renderer.queries import releases


@dataclass(frozen=True)
class Wording:
    """One wording of a lineage, its span named as everywhere: first, last, replaced_by."""

    version: str
    normalised: str | None
    first: str
    last: str
    replaced_by: str | None
    releases: int
    numbers: tuple[str, ...]
    kind: str
    since: str
    text_since: str


@dataclass(frozen=True)
class SiteModel:
    releases: tuple[dict[str, Any], ...]
    changes: dict[str, list[Change]]
    wordings: dict[int, tuple[Wording, ...]]
    example_rows: tuple[dict[str, Any], ...]
    witnessed: frozenset[str]

    @cached_property
    def dates(self) -> list[str]:
        return [row["date"] for row in self.releases]


def load_model(db: Database) -> SiteModel:
    """Read the model from a store that the pipeline brought up to date (else StaleStore)."""
    require_current(db)
    require_examples(db)
    wordings: dict[int, list[Wording]] = defaultdict(list)
    for row in db.execute(
        """SELECT lineage_id, version_hash, normalised_hash, first, last, replaced_by,
                  releases, numbers, kind, since, text_since
           FROM wordings ORDER BY lineage_id, position"""
    ):
        lineage, version, normalised, first, last, replaced_by, count, numbers = row[:8]
        kind, since, text_since = row[8:]
        wordings[lineage].append(
            Wording(
                version,
                normalised,
                first,
                last,
                replaced_by,
                count,
                tuple(json.loads(numbers)),
                kind,
                since,
                text_since,
            )
        )
    return SiteModel(
        releases=tuple(releases(db)),
        changes=all_changes(db),
        wordings={lineage: tuple(found) for lineage, found in wordings.items()},
        example_rows=tuple(stored_examples(db)),
        witnessed=frozenset(row[0] for row in db.execute("SELECT DISTINCT number FROM witnesses")),
    )
