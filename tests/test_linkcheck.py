"""The link checker the site tests rely on finds what is broken, not only what is whole."""

from __future__ import annotations

from pathlib import Path

from renderer.linkcheck import check_site


def _page(site: Path, name: str, body: str) -> None:
    path = site / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")


def test_broken_links_anchors_and_outside_loads_are_reported(tmp_path: Path) -> None:
    _page(tmp_path, "index.html", '<h1 id="top">Home</h1><a href="rule/708.2/">708.2</a>')
    _page(
        tmp_path,
        "rule/708.2/index.html",
        '<a href="../../">home</a> <a href="/#top">top</a> <a href="/rule/708.2">itself</a>'
        ' <a href="/rule/999/">missing</a> <a href="/#nowhere">no anchor</a>'
        ' <a href="../708.2/#x" id="x">self</a> <a href="https://example.org/">out</a>'
        ' <script src="https://cdn.example.org/a.js"></script> <img src="pic.png">',
    )
    (tmp_path / "rule/708.2/pic.png").write_bytes(b"png")
    report = check_site(tmp_path)
    assert report.pages == 2
    assert sorted(report.broken) == [
        ("rule/708.2/index.html", "/#nowhere"),
        ("rule/708.2/index.html", "/rule/999/"),
    ]
    assert report.external_loads == [("rule/708.2/index.html", "https://cdn.example.org/a.js")]
    assert report.external_links == 1
    assert report.repeated_ids == []
    assert not report.ok


def test_an_id_given_twice_on_a_page_is_reported_unless_inside_a_template(
    tmp_path: Path,
) -> None:
    """A release page once gave the two clauses its text numbers 702.175 the same id: a link
    to #702.175 can reach one of them only."""
    _page(
        tmp_path,
        "index.html",
        '<p id="702.175">Offspring</p><p id="702.175">Impending</p><p id="702.176">x</p>'
        '<template><h2 id="day">a</h2></template><template><h2 id="day">b</h2></template>',
    )
    report = check_site(tmp_path)
    assert report.repeated_ids == [("index.html", "702.175")]
    assert report.broken == [] and not report.ok
