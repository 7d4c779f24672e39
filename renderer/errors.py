"""Errors a user can cause while building the site."""

from __future__ import annotations

from archive.errors import RulesHistoryError


class SiteBuildError(RulesHistoryError):
    """The site cannot be built (a missing tool or input); the message says what to do."""
