"""Citations of one rule as it read in one release: plain text, BibTeX, CSL-JSON, Wikipedia.

>>> c = citations("504.2", "2008-02-01", "/rule/504.2/2008-02-01/", "https://example.org")
>>> c["formats"][0]["text"]
'Magic: The Gathering Comprehensive Rules, rule 504.2 (February 1, 2008). https://example.org/rule/504.2/2008-02-01/'
"""

from __future__ import annotations

import json
import re
from typing import Any

from renderer.environment import long_date

WORK = "Magic: The Gathering Comprehensive Rules"
PUBLISHER = "Wizards of the Coast"
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


def bibtex_key(number: str, release: str) -> str:
    return "mtgcr" + re.sub(r"\W", "_", number) + "_" + release.replace("-", "")


def citations(number: str, release: str, path: str, base_url: str = "") -> dict[str, Any]:
    """Every format for rule `number` as of `release`, each carrying the permalink."""
    url = base_url.rstrip("/") + path
    when = long_date(release)
    year, month, day = (int(part) for part in release.split("-"))
    title = f"{WORK}, rule {number}"
    plain = f"{title} ({when}). {url}"
    bibtex = (
        f"@misc{{{bibtex_key(number, release)},\n"
        f"  author = {{{{{PUBLISHER}}}}},\n"
        f"  title = {{{{{WORK}}}, rule {number}}},\n"
        f"  year = {{{year}}},\n"
        f"  month = {MONTHS[month - 1]},\n"
        f"  date = {{{release}}},\n"
        f"  url = {{{url}}},\n"
        f"  note = {{Comprehensive Rules release of {when}}}\n"
        "}"
    )
    csl = {
        "id": bibtex_key(number, release),
        "type": "document",
        "title": title,
        "container-title": WORK,
        "section": number,
        "author": [{"literal": PUBLISHER}],
        "publisher": PUBLISHER,
        "issued": {"date-parts": [[year, month, day]]},
        "URL": url,
    }
    wikipedia = (
        f"{{{{cite web |title={title} |publisher={PUBLISHER} |date={when} |url={url}"
        f" |website={WORK}}}}}"
    )
    return {
        "id": re.sub(r"\W", "-", f"{number}-{release}"),
        "path": path,
        "url": url,
        "formats": [
            {"key": "plain", "label": "Plain text", "text": plain},
            {"key": "bibtex", "label": "BibTeX", "text": bibtex},
            {"key": "csl", "label": "CSL-JSON", "text": json.dumps(csl, indent=2)},
            {"key": "wiki", "label": "Wikipedia", "text": wikipedia},
        ],
    }
