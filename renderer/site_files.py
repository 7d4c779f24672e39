"""Where the site's templates and assets are: the folder site/, shipped as `rules_history_site`.

In a checkout (an editable install) that is the repository's site/; in an installed wheel it
is package data beside the code. Either way the import system knows the folder.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from renderer.errors import SiteBuildError

SITE_PACKAGE = "rules_history_site"


@cache
def site_folder() -> Path:
    """The folder holding templates/, static/ and vendor/."""
    spec = importlib.util.find_spec(SITE_PACKAGE)
    for location in (spec.submodule_search_locations or []) if spec else []:
        folder = Path(location)
        if (folder / "templates").is_dir():
            return folder
    raise SiteBuildError(
        f"the site's templates are missing: the package {SITE_PACKAGE} is not installed"
        " (reinstall rules-history)"
    )
