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


# What LaTeX reads as markup in running text; a BibTeX field must escape each.
LATEX_SPECIAL = "&%$#_"


@given(name=st.text(alphabet="abc &%$#_\\", max_size=30))
def test_a_bibtex_note_escapes_what_latex_reads_as_markup(name: str) -> None:
    """Every wording first printed in 2021-07-12 (Dungeons & Dragons: Adventures in the
    Forgotten Realms) gave a BibTeX note with a bare "&": LaTeX stops there ("Misplaced
    alignment tab character"). Each special character of the running text is escaped; the
    url field is read verbatim and keeps its characters."""
    cited = citations("702.37a", "2021-07-12", "/rule/702.37a/2021-07-12/#a&b", "", name)
    bibtex = next(f["text"] for f in cited["formats"] if f["key"] == "bibtex")
    note = next(line for line in bibtex.splitlines() if line.startswith("  note = "))
    unescaped = [
        char
        for at, char in enumerate(note)
        if char in LATEX_SPECIAL and (at == 0 or note[at - 1] != "\\")
    ]
    assert unescaped == [] or "\\" in name  # a name's own backslash may precede one
    assert "  url = {/rule/702.37a/2021-07-12/#a&b}," in bibtex.splitlines()
    assert cited["notes"] == ([name] if name else [])
