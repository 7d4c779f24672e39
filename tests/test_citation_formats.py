"""The CSL-JSON citation is written out by hand for speed: it must stay byte for byte what
the json module writes with an indent of two, whatever the number, set name and URL hold."""

from __future__ import annotations

import json
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from renderer.citations import PUBLISHER, WORK, bibtex_key, citations
from renderer.environment import long_date

# Any text: quotes, backslashes, control characters, accents, characters beyond the BMP.
TEXTS = st.text(max_size=40)
DAYS = st.dates(min_value=date(1993, 1, 1), max_value=date(2099, 12, 31))


@given(number=TEXTS, day=DAYS, path=TEXTS, base_url=TEXTS, name=st.none() | TEXTS)
def test_the_csl_record_is_what_json_writes(
    number: str, day: date, path: str, base_url: str, name: str | None
) -> None:
    release = day.isoformat()
    cited = citations(number, release, path, base_url, name)
    shown = {f["key"]: f["text"] for f in cited["formats"]}
    when = long_date(release) + (f" ({name})" if name else "")
    record = {
        "id": bibtex_key(number, release),
        "type": "document",
        "title": f"{WORK}, rule {number}",
        "container-title": WORK,
        "section": number,
        "author": [{"literal": PUBLISHER}],
        "publisher": PUBLISHER,
        "issued": {"date-parts": [[day.year, day.month, day.day]]},
        "version": f"release of {when}",
        "URL": base_url.rstrip("/") + path,
        "accessed": {"raw": "[the date you read it]"},
    }
    assert shown["csl"] == json.dumps(record, indent=2)
    assert json.loads(shown["csl"]) == record
