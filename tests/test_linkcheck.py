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
    assert not report.ok
