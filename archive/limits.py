"""Sizes beyond reason: inputs refused before any work is spent on them.

Each limit is several times the largest real value, so no real release comes near it, and
low enough that what it lets through parses and aligns in seconds.
"""

from __future__ import annotations

# The largest committed release is 1.7 MB (UTF-16); a 200 MB "release" took minutes to parse.
MAX_RELEASE_BYTES = 10_000_000
# The largest committed release has 4,270 clauses; alignment grows faster than linearly.
MAX_CLAUSES = 20_000
# A manifest or capture index lists a few hundred entries in a few hundred kilobytes.
MAX_INDEX_BYTES = 20_000_000
