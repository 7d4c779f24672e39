"""The site's templates print values through `renderer.print_escaped`: the same characters
as markupsafe's `escape`, for every kind of value a template prints, with no Markup made for
each one; and templates compiled by Jinja's own generator are never read back from the
build's cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, UndefinedError
from markupsafe import Markup, escape

from renderer.environment import make_environment
from renderer.print_escaped import _escape_text, print_escaped


@given(st.text())
def test_a_text_is_escaped_as_markupsafe_escapes_it(text: str) -> None:
    assert print_escaped(text) == str(escape(text))
    assert _escape_text(text) == str(escape(text))  # the fallback, without markupsafe's C


class _Html:
    """An object that prints itself as HTML, as a macro's result or a Markup does."""

    def __html__(self) -> str:
        return "<i>kept</i>"


class _Text(str):
    """A str of another type: escaped as the text it holds."""


@pytest.mark.parametrize(
    "value",
    [Markup("<b>safe</b> & sound"), _Html(), 708, 2.5, None, True, _Text("<a & 'b'>"), ["<x>"]],
)
def test_any_other_value_is_printed_as_markupsafe_prints_it(value: Any) -> None:
    assert print_escaped(value) == str(escape(value))


def test_a_template_prints_what_jinja_own_generator_prints() -> None:
    source = (
        "{% macro m(x) %}<{{ x }}>{% endmacro %}"
        "{{ text }}|{{ safe }}|{{ number }}|{{ m(text) }}|{{ text ~ '&' }}|{{ text|e }}"
        "{% set block %}{{ text }}{% endset %}|{{ block }}"
        "{% autoescape false %}|{{ text }}{% endautoescape %}"
    )
    values = {"text": 'Tom\'s <"&">', "safe": Markup("<em>1</em>"), "number": 504.2}
    site = make_environment({})
    jinja = Environment(autoescape=True)
    assert site.from_string(source).render(values) == jinja.from_string(source).render(values)
    assert "print_escaped(" in site.compile(source, raw=True)


def test_a_value_the_template_does_not_have_still_stops_the_page() -> None:
    with pytest.raises(UndefinedError):
        make_environment({}).from_string("{{ missing }}").render()


def test_templates_compiled_by_jinja_own_generator_are_not_read_back(tmp_path: Path) -> None:
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    cache.mkdir()
    (templates / "page.html").write_text("{{ text }}")
    jinja = Environment(
        loader=FileSystemLoader(str(templates)),
        autoescape=True,
        bytecode_cache=FileSystemBytecodeCache(str(cache)),
    )
    jinja.get_template("page.html")  # a cache an older build left
    site = make_environment({}, templates, cache)
    assert "print_escaped" in site.get_template("page.html").root_render_func.__code__.co_names
