"""The texts' own `_italic_` markup is shown as emphasis on release, diff and history pages,
after escaping, so the texts can never inject markup."""

from __future__ import annotations

import re
from pathlib import Path

from renderer.environment import diff_html, make_environment
from renderer.fulltext import fulltext_html

SCRIPT = "_<script>alert(1)</script>_"
ESCAPED = "<em>&lt;script&gt;alert(1)&lt;/script&gt;</em>"
# "_Magic" where the underscore opens emphasis (not inside a word or an address)
RAW_MARKUP = re.compile(r"(?<![\w/=])_Magic")


def test_emphasis_filter_escapes_before_it_marks() -> None:
    env = make_environment({})
    html = env.from_string("{{ text | emphasis }}").render(text=f"Most _Magic_ games {SCRIPT}")
    assert html == f"Most <em>Magic</em> games {ESCAPED}"
    assert "<script>" not in html


def test_word_diffs_escape_before_they_mark() -> None:
    html = str(diff_html([(0, "Most "), (-1, "Magic"), (1, SCRIPT)]))
    assert html == f"Most <del>Magic</del><ins>{ESCAPED}</ins>"
    # markup cut in two by a change: each piece gets its own emphasis, inside its span
    html = str(diff_html([(-1, "Magic"), (1, "_Magic"), (0, ": The "), (1, "Gathering_")]))
    assert html == (
        "<del>Magic</del><ins><em>Magic</em></ins><em>: The </em><ins><em>Gathering</em></ins>"
    )


def test_release_text_escapes_before_it_marks() -> None:
    part = {
        "id": 1,
        "kind": "rule",
        "number": "100.1",
        "text": SCRIPT,
        "parent": None,
        "title": None,
    }
    html = str(fulltext_html([part], {}, None))
    assert ESCAPED in html and "<script>" not in html


def test_italics_are_emphasis_on_release_diff_and_history_pages(small_site: Path) -> None:
    release = (small_site / "releases/2009-07-08/index.html").read_text(encoding="utf-8")
    assert "Most <em>Magic</em> tournaments" in release  # 100.5 ("Most _Magic_ tournaments")
    history = (small_site / "history/2002-10-07/100.5/index.html").read_text(encoding="utf-8")
    assert "Most <em>Magic</em> tournaments" in history
    # 2009-05-01 put "Magic" in italics: the word diff shows the new wording's emphasis
    diff = (small_site / "diff/2008-02-01/2009-05-01/index.html").read_text(encoding="utf-8")
    assert "Playing <del>Magic </del><ins><em>Magic</em> </ins>games for ante" in diff
    for folder in ("releases", "diff", "history"):
        pages = list((small_site / folder).rglob("*.html"))
        emphasised = 0
        for page in pages:
            html = page.read_text(encoding="utf-8")
            assert not RAW_MARKUP.search(html), page
            emphasised += "<em>Magic</em>" in html
        assert emphasised, folder
