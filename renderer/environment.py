"""The one Jinja environment of the site (autoescape on) and its filters."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any

from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    select_autoescape,
)
from jinja2.runtime import Context, Macro
from markupsafe import Markup

from renderer.links import external_url
from renderer.markup import emphasis, emphasis_in_diff
from renderer.print_escaped import PrintEscapedGenerator, print_escaped
from renderer.site_files import site_folder
from renderer.source_links import source_links
from vocabulary.days import ISO_DAY_PATTERN
from vocabulary.numbers import is_rule_number

ISO_DAY = re.compile(rf"\b{ISO_DAY_PATTERN}\b")


DATES_KEPT = 4096  # dates formatted once: a site names a few hundred days, thousands of times
# The compiled templates' files, named for the site's code generator: templates compiled by
# another (Jinja's own, before it) are never read back.
BYTECODE_FILES = "site-print-escaped-%s.cache"
ANCHORS_KEPT = 65536  # anchors made once: some 21,000 numbers and terms, asked 100,000 times


@lru_cache(maxsize=DATES_KEPT)
def long_date(iso: str | None) -> str:
    """'2008-02-01' -> 'February 1, 2008'.

    >>> long_date("2008-02-01")
    'February 1, 2008'
    """
    if not iso:
        return ""
    day = date.fromisoformat(iso)
    return f"{day:%B} {day.day}, {day.year}"


@lru_cache(maxsize=DATES_KEPT, typed=True)  # typed: a Markup text is not escaped, a str is
def date_html(iso: str | None, text: str | None = None) -> Markup:
    """A date as a <time> element, which the style sheet never breaks across lines (a phone
    would otherwise show "2026-" and "01-16" on two lines); `text` is its shown form.

    >>> date_html("2008-02-01")
    Markup('<time datetime="2008-02-01">2008-02-01</time>')
    >>> date_html(None), date_html("2008-02-01", "<x>")
    (Markup(''), Markup('<time datetime="2008-02-01">&lt;x&gt;</time>'))
    """
    if not iso:
        return Markup("")
    return Markup('<time datetime="{}">{}</time>').format(iso, iso if text is None else text)


def dates_html(text: str) -> Markup:
    """Plain text, escaped, with each ISO day in it made a <time> (see `date_html`).

    >>> dates_html("the capture nearest 2008-02-01 <x>")
    Markup('the capture nearest <time datetime="2008-02-01">2008-02-01</time> &lt;x&gt;')
    """
    parts, end = [], 0
    for found in ISO_DAY.finditer(text):
        parts += [Markup.escape(text[end : found.start()]), date_html(found.group())]
        end = found.end()
    parts.append(Markup.escape(text[end:]))
    return Markup("").join(parts)


def long_date_html(iso: str | None) -> Markup:
    """'2008-02-01' -> <time datetime="2008-02-01">February 1, 2008</time>."""
    return date_html(iso, long_date(iso))


def rule_url(number: str, release: str | None = None) -> str:
    """Permalink of a rule number, or of its wording in force from `release`."""
    return f"/rule/{number}/{release}/" if release else f"/rule/{number}/"


def release_url(release: str, anchor: str | None = None) -> str:
    return f"/releases/{release}/" + (f"#{anchor}" if anchor else "")


def diff_html(ops: list[tuple[int, str]] | None) -> Markup:
    """A word diff as <del>/<ins> spans (ops as diff-match-patch gives them), with the
    texts' `_italic_` markup as emphasis inside each span."""
    if not ops:
        return Markup("")
    out = []
    for (op, _text), shown in zip(ops, emphasis_in_diff(ops), strict=True):
        if op < 0:
            out.append(f"<del>{shown}</del>")
        elif op > 0:
            out.append(f"<ins>{shown}</ins>")
        else:
            out.append(shown)
    return Markup("".join(out))


# The callables a template calls that never ask for a context: Jinja marks any that does
# (pass_context, pass_environment...) with an attribute, which `SiteContext.call` checks.
_PLAIN_CALLABLES = frozenset(
    {FunctionType, BuiltinFunctionType, MethodType, Macro, type(lru_cache()(len))}
)


class SiteContext(Context):
    """Jinja's template context, calling a plain function or macro straight away.

    For each call in a template (`rule_url(n)`, `slot('date')`, a macro), Jinja's own
    `call` asks the callable and its `__call__` whether it wants the context, the eval
    context or the environment passed first: a dozen attribute lookups per call, a fifth
    of the time of a number page, which makes some 120 calls. A function, method, cached
    function or macro without Jinja's mark wants none of them; anything else goes the
    usual way."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # Jinja's own names
        if type(__obj) not in _PLAIN_CALLABLES or hasattr(__obj, "jinja_pass_arg"):
            return super().call(__obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)  # what Jinja passes for context-taking callables
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja's own call answers it
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


class SiteEnvironment(Environment):
    """Jinja's environment, reading `x.name` from a dict as its key `name` first.

    Jinja looks `x.name` up as an attribute and, failing that, as an item: the page
    contexts are plain dicts, so each of the hundreds of such reads a page makes raised and
    caught an AttributeError first (a tenth of the time of a page). A dict's methods are still
    found when it has no key of their name (`counts.items()`); no context has such a key.

    Printed values go through `print_escaped` (`renderer.print_escaped`)."""

    context_class = SiteContext
    code_generator_class = PrintEscapedGenerator
    print_escaped = staticmethod(print_escaped)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def make_environment(
    asset_urls: dict[str, str], templates: Path | None = None, cache: Path | None = None
) -> Environment:
    """The templates' environment; with `cache` (a folder of the build's state), compiled
    templates are kept there (Jinja's bytecode cache, keyed by each template's source), so a
    rebuild does not compile them again: half a second of every build otherwise."""
    bytecode_cache = None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        bytecode_cache = FileSystemBytecodeCache(str(cache), BYTECODE_FILES)
    env = SiteEnvironment(
        loader=FileSystemLoader(str(templates or site_folder() / "templates")),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # a build's templates do not change under it: no stat per page
        bytecode_cache=bytecode_cache,
    )
    env.filters["long_date"] = long_date  # plain text: titles, attributes, <option>s
    # in element content: the date as a <time> that never wraps
    env.filters["date_html"] = date_html
    env.filters["long_date_html"] = long_date_html
    env.filters["dates_html"] = dates_html
    env.filters["diff_html"] = diff_html
    env.filters["emphasis"] = emphasis  # the texts' `_italic_` markup, after escaping
    env.filters["external_url"] = external_url  # every href to another site goes through it
    env.globals["rule_url"] = rule_url
    env.globals["source_links"] = source_links  # a capture's original URL and Wayback copy
    env.globals["release_url"] = release_url
    env.globals["clause_anchor"] = clause_anchor
    env.globals["is_rule_number"] = is_rule_number

    def asset(name: str) -> str:
        return asset_urls[name]

    env.globals["asset"] = asset
    return env


def render(env: Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)


@lru_cache(maxsize=ANCHORS_KEPT)
def clause_anchor(label: str) -> str:
    """The id of a clause in a release page: its number, or 'g-' and a slug for a term.

    >>> clause_anchor("708.2a"), clause_anchor("Face-Down (Morph, Manifest)")
    ('708.2a', 'g-face-down-morph-manifest')
    """
    if is_rule_number(label):
        return label
    return "g-" + re.sub(r"[^a-z0-9]+", "-", label.lower())[:60].strip("-")
