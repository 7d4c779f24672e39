"""How the site's templates print a value: escaped, as markupsafe would, but as a plain str.

With autoescape on, Jinja compiles `{{ value }}` to markupsafe's `escape(value)`, which
wraps every escaped text in a new `Markup` (its `__new__` is Python) only for the template
to join it into the page at once. A full build prints some five million values: those
objects were a tenth of the render time. The page needs the characters, not the object,
so the site's code generator prints through `print_escaped`, which gives the same
characters (`tests/test_print_escaped.py` holds it to markupsafe's `escape`).
"""

from __future__ import annotations

from typing import Any

from jinja2.compiler import CodeGenerator, Frame
from jinja2.nodes import Expr


def _escape_text(value: str) -> str:
    """markupsafe's entities, in Python; "&" first, so that the others' ampersands stay."""
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


# markupsafe's own escaping of a str, compiled: what its `escape` runs before it wraps the
# result in a Markup. Four times the speed of the five replacements (a full build prints
# some five million values); where a markupsafe lacks it, the replacements do the same.
try:
    from markupsafe._speedups import _escape_inner as escape_text
except ImportError:  # pragma: no cover - a markupsafe without its compiled part
    escape_text = _escape_text


def print_escaped(value: Any) -> str:
    """`str(markupsafe.escape(value))`, without the Markup object in between.

    >>> print_escaped("<b class='x'>Tom & Jerry</b>")
    '&lt;b class=&#39;x&#39;&gt;Tom &amp; Jerry&lt;/b&gt;'
    """
    if type(value) is not str:  # str first: nearly every value printed is one
        html = getattr(value, "__html__", None)
        if html is not None:
            return str(html())
        value = str(value)
    return escape_text(value)


class PrintEscapedGenerator(CodeGenerator):
    """Jinja's code generator, printing each value through the environment's
    `print_escaped` where it would call `escape` (autoescape on and known when compiling:
    the site's templates). Anything else is compiled as Jinja does."""

    def _output_child_pre(
        self, node: Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo
    ) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            super()._output_child_pre(node, frame, finalize)
            return
        self.write("environment.print_escaped(")
        if finalize.src is not None:
            self.write(finalize.src)
