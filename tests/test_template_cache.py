"""Compiled templates are kept in the build's state folder: a rebuild compiles none again,
and a template whose source changed is compiled anew."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from jinja2 import Environment

from renderer.environment import make_environment
from renderer.site_files import site_folder


def _compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    compile_template = Environment.compile

    def counted(self: Environment, source: Any, name: str | None = None, *args: Any) -> Any:
        names.append(str(name))
        return compile_template(self, source, name, *args)

    monkeypatch.setattr(Environment, "compile", counted)
    return names


def test_a_second_environment_compiles_no_template_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(site_folder() / "templates", templates)
    cache = tmp_path / "state" / "cache" / "templates"
    compiled = _compiled(monkeypatch)
    first = make_environment({"site.css": "/static/site.css"}, templates, cache)
    every = first.list_templates()
    for name in every:
        first.get_template(name)
    assert sorted(compiled) == sorted(every)

    compiled.clear()
    second = make_environment({"site.css": "/static/site.css"}, templates, cache)
    for name in every:
        second.get_template(name)
    assert compiled == []

    (templates / "about.html").write_text(
        (templates / "about.html").read_text() + "\n{# changed #}\n"
    )
    third = make_environment({"site.css": "/static/site.css"}, templates, cache)
    for name in every:
        third.get_template(name)
    assert compiled == ["about.html"]
