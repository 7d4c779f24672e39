"""The rows of `lineage_alignments`: which pair of captures each release was aligned from,
under which version of the alignment, and a token of its own.

The captures and the version say whether a release must be aligned again; the token says
that it was. A capture read again (by a newer parser) may come back under its old id, and
its release is then aligned again into a row otherwise equal to the old one: the answers
computed from the old lineages (`lineage.answers.signature`, the examples, the official
articles' matches, the in-browser compare's data) name the token, so they are computed again
too: `archive.store.alignment_identities` is what they read.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping

from sqlite_utils import Database


def record_alignment(
    db: Database,
    release: str,
    previous: str | None,
    captures: tuple[int, int | None],
    version: int,
    counts: Mapping[str, object],
) -> None:
    """Store the alignment of `release` with `previous` (`captures`: theirs), with a new token."""
    db.conn.execute(
        """INSERT OR REPLACE INTO lineage_alignments
           (release, previous_release, capture_id, previous_capture_id, version, counts,
            aligned_as)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        [release, previous, *captures, version, json.dumps(counts), uuid.uuid4().hex],
    )
