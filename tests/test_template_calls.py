"""The site's template context calls plain functions and macros straight away
(renderer.environment.SiteContext): what Jinja itself passes to a callable that asks for the
context or the environment must still reach it, and a plain call must give what it gives."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import pass_context, pass_environment

from renderer.environment import SiteContext, make_environment


def test_a_callable_that_asks_for_the_context_still_gets_it() -> None:
    env = make_environment({})

    @pass_context
    def who(context: Any, greeting: str) -> str:
        return f"{greeting} {context['name']}"

    @pass_environment
    def filters(environment: Any) -> str:
        return str("date_html" in environment.filters)

    env.globals.update(who=who, filters=filters)
    template = env.from_string(
        "{% for i in [1] %}{{ who('hi') }} {{ filters() }}{% endfor %}",
    )
    assert template.new_context({"name": "Ann"}).__class__ is SiteContext
    assert template.render(name="Ann") == "hi Ann True"


def test_plain_functions_cached_functions_methods_and_macros_answer_as_called() -> None:
    env = make_environment({})
    calls: list[str] = []

    @cache
    def label(day: str) -> str:
        calls.append(day)
        return f"<{day}>"

    env.globals.update(label=label, url=lambda n, r=None: f"/rule/{n}/" + (f"{r}/" if r else ""))
    template = env.from_string(
        "{% macro m(x) %}[{{ x }}]{% endmacro %}"
        "{% for n in ['1', '2'] %}{{ url(n, r='d') }}{{ label(n) }}{{ m(n) }}"
        "{{ ', '.join([n, n]) }}{% endfor %}"
    )
    assert template.render() == ("/rule/1/d/&lt;1&gt;[1]1, 1/rule/2/d/&lt;2&gt;[2]2, 2")
    assert calls == ["1", "2"]
