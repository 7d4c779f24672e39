"""Split the decoded text of a CR release into its parts, losslessly.

Every line of the text belongs to exactly one part, and `"".join(p.raw for p in parts)` is the
text again, byte for byte. Blank lines and banner lines (`=====`) belong to the part above them.
Each part also carries `text`: its words with numbering, banners and hard wrapping removed.

The layout differs by era (see the corpus README); the parser keys on what all eras share:
a contents table before the first rule, numbered chapters (`5. Additional Rules`), sections
(`504. Face-Down Spells and Permanents`), rules (`504.2.`), subrules (`502.26f`), `Example:`
paragraphs, then `Glossary`, an optional `Index` (1999) and `Credits`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from archive.errors import CaptureError

CHAPTER = re.compile(r"^\s*(\d)\.\s+([A-Z][^.]{0,60})\s*$")
SECTION = re.compile(r"^\s*(\d{3})\.\s+([A-Z][^\n]{0,80}?)\s*$")
# A section left as a stub after its rules moved: "215. This section is now empty. See rule
# 205.4c ..." (2006-02-01), "211. [This section has been intentionally left blank ...]"
# (2007-10-01). Longer than any title, but a section all the same.
SECTION_STUB = re.compile(r"^\s*(\d{3})\.\s+(\[?[A-Z][^\n]*?)\s*$")
# "901.4.All plane ..." (2022-2025) and "305.3.The main ..." (1999) lack the space.
RULE = re.compile(r"^\s*(\d{3})\.(\d+)(?:\.\s*|\s+)(\S.*?)\s*$")
# "702. 37a Storm is ..." (2009-07-08) has a stray space after the section's period.
SUBRULE = re.compile(r"^\s*(\d{3})\. ?(\d+)([a-z]+)(?:\.\s*|\s+)(\S.*?)\s*$")
# The number a rule's line starts with, as printed (a stray space kept): "606. 8b".
PRINTED_NUMBER = re.compile(r"^\s*(\d{3}\.\s?\d*[a-z]*)")
# A subrule whose rule number was lost: "408.f Card text ..." after 408.2e (1999-11-01).
# It continues the rule of the subrule before it when its letter is the next one.
LOST_RULE_NUMBER = re.compile(r"^\s*(\d{3})\.([a-z])(?:\.\s*|\s+)(\S.*?)\s*$")
EXAMPLE = re.compile(r"^\s*(?:Example|EXAMPLE|Examples|EXAMPLES)s?\s*:")
BANNER = re.compile(r"^\s*([-=_*~])\1{2,}\s*$")
FIRST_RULE = re.compile(r"^\s*100\.1\.?\s+\S")
HEADING_LINE = {
    "contents": re.compile(r"^\s*(Table of )?Contents\s*$", re.IGNORECASE),
    "glossary": re.compile(r"^\s*Glossary\s*$"),
    "index": re.compile(r"^\s*Index\s*$"),
    "credits": re.compile(r"^\s*Credits\s*$"),
}
# How a hard-wrapped line that ends in a hyphen joins the next (`_join`). A word broken
# there is one word ("face-" + "down", "Snow-" + "Covered", "\"State-" + "Based", "-1/-" + "1",
# "\"at end of turn\"-" + "triggered"); a dash of two hyphens keeps its space ("Artifact --"
# + "Equipment"); a hyphen left hanging before "and" or "or" keeps it too ("power-" + "and
# toughness-changing"); a lone minus sign before a number is the number's ("gets -" + "1/-1").
PARAGRAPH = ""  # between two lines of a part, in `_join`'s pieces: a blank line was there
HYPHEN_ENDED = re.compile(r"\S(?<!-)-$")
HANGING_HYPHEN_BEFORE = re.compile(r"(?:and|or)\s")
MINUS_ENDED = re.compile(r"(?:^|\s)-$")
STATED_DATE = re.compile(
    r"(?:current|effective) as of\s+([A-Z][a-z]+\.? \d{1,2}, \d{4})", re.IGNORECASE
)

# Kinds of part, in the vocabulary shared by the store, JSON and the site.
FRONT, CONTENTS, CHAPTER_KIND, SECTION_KIND = "front", "contents", "chapter", "section"
RULE_KIND, SUBRULE_KIND, EXAMPLE_KIND = "rule", "subrule", "example"
GLOSSARY_HEADING, GLOSSARY_KIND, INDEX, CREDITS = "glossary-heading", "glossary", "index", "credits"
CLAUSE_KINDS = (CHAPTER_KIND, SECTION_KIND, RULE_KIND, SUBRULE_KIND, EXAMPLE_KIND, GLOSSARY_KIND)


@dataclass
class Part:
    """One piece of a release: a rule, an example, a glossary entry, the credits, ..."""

    kind: str
    raw: str
    text: str = ""
    number: str | None = None
    parent: str | None = None
    title: str | None = None
    line: int = 1  # 1-based line where the part starts in the decoded text
    # a rule's number as the text printed it, where it is read otherwise: "408.f" (read as
    # 408.2f, the letter after 408.2e), "702. 37a" (702.37a); None when printed as read
    printed: str | None = None


@dataclass
class ParsedRelease:
    parts: list[Part]
    wrapped: bool
    complete: bool
    stated_date_text: str | None
    warnings: list[str]

    def rebuild(self) -> str:
        return "".join(part.raw for part in self.parts)


@dataclass(slots=True)
class _Line:
    index: int
    content: str  # without its line ending
    raw: str  # with its line ending
    blank: bool  # empty, white space only, or a banner of dashes or equals signs


def _line(index: int, content: str, raw: str) -> _Line:
    blank = not content.strip() or bool(BANNER.match(content))
    return _Line(index, content, raw, blank)


def split_lines(text: str) -> list[_Line]:
    """Lines with their LF kept, so that joining the raws gives the text back."""
    pieces = text.split("\n")
    lines = [_line(i, piece, piece + "\n") for i, piece in enumerate(pieces[:-1])]
    if pieces[-1]:
        lines.append(_line(len(pieces) - 1, pieces[-1], pieces[-1]))
    return lines


def parse_release(text: str, path: str = "<text>") -> ParsedRelease:
    """Parse one release's decoded text (line endings already LF)."""
    lines = split_lines(text)
    body_start = _find_body_start(lines, path)
    glossary_start = _last_heading(lines, "glossary", body_start)
    if glossary_start is None:
        raise CaptureError(path, _truncation_message(lines))
    index_start = _last_heading(lines, "index", glossary_start)
    credits_start = _last_heading(lines, "credits", index_start or glossary_start)
    contents_start = _find_contents_start(lines, body_start)
    body = lines[body_start:glossary_start]
    starts = [None if line.blank else _classify(line.content) for line in body]
    wrapped = _is_hard_wrapped(body, starts)

    parts: list[Part] = []
    if contents_start > 0:
        parts.append(_block(FRONT, lines[:contents_start]))
    if body_start > contents_start:
        parts.append(_block(CONTENTS, lines[contents_start:body_start]))
    glossary_end = index_start or credits_start or len(lines)
    opened = _indented_paragraphs(lines[body_start:glossary_end]) if wrapped else frozenset()
    parts.extend(_parse_body(body, starts, wrapped, opened))
    parts.extend(_parse_glossary(lines[glossary_start:glossary_end], wrapped, opened))
    if index_start is not None:
        parts.append(_block(INDEX, lines[index_start : credits_start or len(lines)]))
    if credits_start is not None:
        parts.append(_block(CREDITS, lines[credits_start:]))

    warnings = []
    if credits_start is None:
        warnings.append("no credits after the glossary: the text looks truncated")
    stated = STATED_DATE.search("".join(p.raw for p in parts[:2]))
    return ParsedRelease(
        parts=parts,
        wrapped=wrapped,
        complete=credits_start is not None,
        stated_date_text=stated.group(1) if stated else None,
        warnings=warnings,
    )


def _find_body_start(lines: list[_Line], path: str) -> int:
    first_rule = next((ln.index for ln in lines if FIRST_RULE.match(ln.content)), None)
    if first_rule is None:
        raise CaptureError(path, "no rule 100.1 found: this is not a Comprehensive Rules text")
    for index in range(first_rule - 1, max(first_rule - 12, -1), -1):
        if CHAPTER.match(lines[index].content):
            return index
    for index in range(first_rule - 1, max(first_rule - 12, -1), -1):
        if SECTION.match(lines[index].content):
            return index
    return first_rule


def _last_heading(lines: list[_Line], name: str, after: int | None) -> int | None:
    if after is None:
        return None
    pattern = HEADING_LINE[name]
    found = [ln.index for ln in lines[after:] if pattern.match(ln.content)]
    return found[-1] if found else None


def _truncation_message(lines: list[_Line]) -> str:
    last = next((ln for ln in reversed(lines) if ln.content.strip()), None)
    where = f" (it ends at line {last.index + 1}: {last.content.strip()[:50]!r})" if last else ""
    return f"the rules never reach the glossary: the text is truncated{where}"


def _find_contents_start(lines: list[_Line], body_start: int) -> int:
    for ln in lines[:body_start]:
        if HEADING_LINE["contents"].match(ln.content):
            return _include_banner_above(lines, ln.index)
    for ln in lines[:body_start]:
        if CHAPTER.match(ln.content):
            return ln.index
    return body_start


def _include_banner_above(lines: list[_Line], index: int) -> int:
    return index - 1 if index > 0 and BANNER.match(lines[index - 1].content) else index


def _is_hard_wrapped(body: list[_Line], starts: list[tuple[str, str | None, str] | None]) -> bool:
    """True when paragraphs run over several lines (the 2001-2004 layouts and 1999-04-23)."""
    continued = sum(
        1
        for before, line, start in zip(body, body[1:], starts[1:], strict=False)
        if not before.blank and not line.blank and start is None
    )
    paragraphs = sum(1 for start in starts if start is not None)
    return continued > paragraphs * 0.5


def _classify(content: str) -> tuple[str, str | None, str] | None:
    """Kind, number and text of a line that starts a part of the rules, else None."""
    first = content.lstrip()[:1]
    if not first or not (first.isdigit() or first in "Ee"):
        return None
    if match := SUBRULE.match(content):
        return SUBRULE_KIND, f"{match[1]}.{match[2]}{match[3]}", match[4]
    if match := RULE.match(content):
        return RULE_KIND, f"{match[1]}.{match[2]}", match[3]
    if match := SECTION.match(content):
        return SECTION_KIND, match[1], match[2]
    if match := CHAPTER.match(content):
        return CHAPTER_KIND, match[1], match[2]
    if EXAMPLE.match(content):
        return EXAMPLE_KIND, None, content.strip()
    if match := LOST_RULE_NUMBER.match(content):
        return SUBRULE_KIND, f"{match[1]}.{match[2]}", match[3]
    if match := SECTION_STUB.match(content):
        return SECTION_KIND, match[1], match[2]
    return None


def _repair_number(
    classified: tuple[str, str | None, str], last_rule: str | None
) -> tuple[str, str | None, str] | None:
    """Give a subrule that lost its rule number ("408.f") the rule of the subrule before it
    (408.2e -> 408.2f) when its letter is the next one; else it starts nothing."""
    kind, number, words = classified
    if kind != SUBRULE_KIND or number is None or number[3:4] != "." or number[4:5].isdigit():
        return classified
    section, letter = number[:3], number[4:]
    if last_rule is None or not last_rule.startswith(section + ".") or last_rule[-1:] == "":
        return None
    if not last_rule[-1].isalpha() or ord(letter) != ord(last_rule[-1]) + 1:
        return None
    return kind, last_rule[:-1] + letter, words


def _indented_paragraphs(lines: list[_Line]) -> frozenset[int]:
    """The lines (by index) that open a paragraph by their indent, in a hard-wrapped text
    that sets a part's paragraphs apart so rather than by a blank line (2001-2004: 413.2d's
    "Some spells and abilities have multiple steps", the glossary's "Ability" and "Counter"):
    a line indented deeper than the line before it, which ends a sentence or a lead-in
    ("has two meanings:"). A text that ever indents a line after one that stops
    mid-sentence indents for its layout (1999-04-23 indents its subrules and their wrapped
    lines alike): there, no indent opens a paragraph."""
    deeper = [
        (before, line)
        for before, line in zip(lines, lines[1:], strict=False)
        if not before.blank and not line.blank and _indent(line) > _indent(before)
    ]
    if any(not before.content.rstrip().endswith(PARAGRAPH_ENDS) for before, _ in deeper):
        return frozenset()
    return frozenset(line.index for _before, line in deeper)


def _indent(line: _Line) -> int:
    return len(line.content) - len(line.content.lstrip())


def _parse_body(
    body: list[_Line],
    starts: list[tuple[str, str | None, str] | None],
    wrapped: bool,
    opened: frozenset[int] = frozenset(),
) -> Iterator[Part]:
    current: Part | None = None
    pieces: list[str] = []
    previous_blank = True
    last_rule: str | None = None
    for line, found in zip(body, starts, strict=True):
        classified = _repair_number(found, last_rule) if found is not None else None
        begins = classified is not None and (
            not wrapped or previous_blank or classified[0] == EXAMPLE_KIND
        )
        if begins and classified is not None:
            if current is not None:
                current.text = _join(pieces, wrapped)
                yield current
            kind, number, words = classified
            current = Part(kind=kind, raw="", number=number, line=line.index + 1)
            if kind in (CHAPTER_KIND, SECTION_KIND):
                current.title = words
            current.parent = _parent_of(kind, number, last_rule)
            if kind in (RULE_KIND, SUBRULE_KIND):
                last_rule = number
                current.printed = _printed_otherwise(line.content, number)
            pieces = [words]
        elif current is None:
            current = Part(kind="text", raw="", line=line.index + 1)
            pieces = [line.content.strip()] if not line.blank else []
        elif not line.blank:
            _add_line(pieces, line, previous_blank or line.index in opened)
        current.raw += line.raw
        previous_blank = line.blank
    if current is not None:
        current.text = _join(pieces, wrapped)
        yield current


def _printed_otherwise(content: str, number: str | None) -> str | None:
    """The rule number `content` starts with as printed, when it is not `number`."""
    printed = PRINTED_NUMBER.match(content)
    return printed[1] if printed and printed[1] != number else None


def _parent_of(kind: str, number: str | None, last_rule: str | None) -> str | None:
    if kind == EXAMPLE_KIND:
        return last_rule
    if number is None or kind == CHAPTER_KIND:
        return None
    if kind == SECTION_KIND:
        return number[0]
    if kind == RULE_KIND:
        return number.split(".")[0]
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def _parse_glossary(
    lines: list[_Line], wrapped: bool, opened: frozenset[int] = frozenset()
) -> Iterator[Part]:
    """The heading, then one part per entry: a term line at the margin after a blank line
    (`opened`: the lines that open a paragraph by their indent, `_indented_paragraphs`)."""
    current = Part(kind=GLOSSARY_HEADING, raw="", text="Glossary", line=lines[0].index + 1)
    pieces: list[str] = []
    previous_blank = False
    for line in lines:
        at_margin = not line.blank and not line.content[:1].isspace()
        starts_entry = (previous_blank and not _continues(line, current, pieces)) or (
            not wrapped and bool(pieces) and _ends_sentence(pieces[-1]) and _is_term(line)
        )
        if starts_entry and at_margin and line.index != lines[0].index:
            if current.kind == GLOSSARY_KIND:
                current.text = _join(pieces, wrapped)
            yield current
            term, first_meaning = _split_term(line.content.strip())
            current = Part(kind=GLOSSARY_KIND, raw="", title=term, line=line.index + 1)
            pieces = [first_meaning] if first_meaning else []
        elif current.kind == GLOSSARY_KIND and not line.blank:
            _add_line(pieces, line, previous_blank or line.index in opened)
        current.raw += line.raw
        previous_blank = line.blank
    if current.kind == GLOSSARY_KIND:
        current.text = _join(pieces, wrapped)
    yield current


# A glossary term: a few capitalised words ("Adventurer Card", "Active Player, Nonactive
# Player Order"), small joining words allowed, no sentence punctuation at the end.
GLOSSARY_TERM = re.compile(
    r"^(?:[A-Z0-9][\w'’/+-]*|of|and|or|the|a|an|to|in|on|for|from|with|vs\.)"
    r"(?:,? (?:[A-Z0-9(][\w'’/()+-]*|of|and|or|the|a|an|to|in|on|for|from|with|vs\.))*$"
)
MAX_TERM = 50  # characters: the longest term is under 45; a definition line is longer
SENTENCE_END = (".", '."', ".”", ".)", ")", '"', "”")
PARAGRAPH_ENDS = (*SENTENCE_END, ":")  # a sentence, or a lead-in to what follows


# A term line that ran into its first numbered meaning, the line break lost in the source
# (2021-06-09: "Ability1. Text on an object that explains what that object does or can do.").
TERM_AND_FIRST_MEANING = re.compile(r"^(?P<term>.*[a-z])(?P<meaning>1\. \S.*)$")


# One of an entry's numbered meanings ("2. A counter is a marker ..."): 1999-11-01 and the
# 2003-05-26 copy set each apart by a blank line, as if it were an entry of its own.
MEANING = re.compile(r"^\d\. \S")
PERIOD_END = (".", '."', ".\u201d", ".)")  # how a sentence ends; a term ("... (Obsolete)") never


def _continues(line: _Line, current: Part, pieces: list[str]) -> bool:
    """True when `line`, after a blank line, still belongs to the entry `current`: a term
    with nothing under it yet (the 2003-05-26 copy's "Effect"; the second capture of
    2016-08-26 sets every definition apart so), a numbered meaning (no term opens so), or a
    sentence (no term ends with a period: "See rule 112, ..." after Ability's meanings),
    unless a term ran into its first meaning there (`_split_term`)."""
    if current.kind != GLOSSARY_KIND:
        return False
    content = line.content.strip()
    if not pieces or MEANING.match(content):
        return True
    return content.endswith(PERIOD_END) and _split_term(content)[1] is None  # not "Ability1. ..."


def _split_term(line: str) -> tuple[str, str | None]:
    """An entry's term line as (term, None), or (term, first meaning) when the two ran
    together; only a term that reads as one (`GLOSSARY_TERM`) is split off."""
    joined = TERM_AND_FIRST_MEANING.match(line)
    if joined and GLOSSARY_TERM.match(joined["term"]):
        return joined["term"], joined["meaning"]
    return line, None


def _ends_sentence(text: str) -> bool:
    return text.rstrip().endswith(SENTENCE_END)


def _is_term(line: _Line) -> bool:
    """A line that names a glossary entry, found where the blank line before it is missing
    ("Affinity" right after the "Adventurer Card" entry of 2021-07-12)."""
    content = line.content.strip()
    return len(content) <= MAX_TERM and bool(GLOSSARY_TERM.match(content))


def _block(kind: str, lines: list[_Line]) -> Part:
    raw = "".join(line.raw for line in lines)
    words = [line.content.strip() for line in lines if not line.blank]
    return Part(kind=kind, raw=raw, text="\n".join(words), line=lines[0].index + 1)


def _join(pieces: list[str], wrapped: bool) -> str:
    """Undo hard wrapping: lines joined by spaces, a word broken at its hyphen kept whole
    (`face-` + `down` is `face-down`, `Snow-` + `Covered` is `Snow-Covered`: see
    `HYPHEN_ENDED`), paragraphs (`PARAGRAPH` between them) on lines of their own, as the
    texts that are not wrapped print them."""
    if not wrapped:
        return "\n".join(piece for piece in pieces if piece != PARAGRAPH)
    joined = ""
    paragraph = False
    for piece in pieces:
        if piece == PARAGRAPH:
            paragraph = bool(joined)
            continue
        if not joined:
            joined = piece
        elif paragraph:
            joined += "\n" + piece
        elif _broken_at_hyphen(joined, piece):
            joined += piece
        else:
            joined += " " + piece
        paragraph = False
    return joined


def _add_line(pieces: list[str], line: _Line, new_paragraph: bool) -> None:
    """Add a part's next line to `pieces`, after a `PARAGRAPH` mark when it opens a
    paragraph: a blank line set it apart from the line before (a hard-wrapped text's
    paragraphs: 1999's glossary entry "Ability", the note after 410.10d's example), or its
    indent did (`_indented_paragraphs`)."""
    if new_paragraph and pieces:
        pieces.append(PARAGRAPH)
    pieces.append(line.content.strip())


def _broken_at_hyphen(line: str, following: str) -> bool:
    """Whether `line` ends in a hyphen that joins it to `following` with no space."""
    if HYPHEN_ENDED.search(line):
        return not HANGING_HYPHEN_BEFORE.match(following)
    return bool(MINUS_ENDED.search(line)) and following[:1].isdigit()
