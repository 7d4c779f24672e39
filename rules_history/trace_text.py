"""`trace` as text: one block per change, each wording as a word diff from the one before.

A split or a merge is one event of several lineages (the trace lists an entry per lineage);
the reader sees it once: one heading, then each resulting clause once. A clause that had a
wording before is shown as the word diff from that wording, a new one in full. A rule's
examples are part of its wording, as in `diff`: each is shown on a line of its own under
the rule, so that a change of the examples only (`example`) shows what changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from archive.printings import printed_note
from archive.worddiff import word_diffs
from lineage.copy_printings import BEFORE
from lineage.evidence import uncertain_mark
from lineage.stored_diffs import member_text
from vocabulary.kind_names import shown_change_kind, shown_kind
from vocabulary.kinds import MERGED, SPLIT
from vocabulary.numbers import is_rule_number

Diff = list[tuple[int, str]]


# What the rule text itself may hold that would read as a mark (107.3a's "{X}, [-X], or X"):
# a backslash goes between its two characters ("[\-X]"), and a backslash is doubled, so a
# reader tells every mark from the rule's own characters. One pass, leftmost first: "[-]"
# is "[\-]", its "-]" being taken already.
_MARK_LIKE = re.compile(r"\\|\[-|-\]|\{\+|\+\}")


def render_diff(diff: Diff) -> str:
    """A word diff as text: [-deleted-]{+inserted+}, as wdiff prints it; where the rule's
    own words hold a mark's characters, they are escaped with a backslash (so is one).

    >>> render_diff([(0, "in "), (-1, "play"), (1, "the battlefield")])
    'in [-play-]{+the battlefield+}'
    >>> print(render_diff([(0, "an {X"), (-1, "} or an "), (1, "}, [-X], or "), (0, "X in it")]))
    an {X[-} or an -]{+}, [\\-X], or +}X in it

    Neighbours of one kind are printed as one, escaped whole: a "{" ending one and a "+"
    opening the next would otherwise read as a mark.
    """
    marks = {-1: "[-{}-]", 0: "{}", 1: "{{+{}+}}"}
    return "".join(
        marks[op].format(_escaped("".join(text for _op, text in same)))
        for op, same in groupby(diff, key=itemgetter(0))
    )


def _escaped(text: str) -> str:
    """The text with its mark-like pairs split by a backslash (`_MARK_LIKE`).

    >>> print(_escaped("[-]"), _escaped("a\\\\b"))
    [\\-] a\\\\b
    """
    return _MARK_LIKE.sub(lambda found: found[0][0] + "\\" + found[0][1:], text)


def group_key(entry: dict[str, Any]) -> tuple[str, ...]:
    """Entries with the same key are one event: the pieces of a split share their source,
    the clauses of a merge their result; any other entry is an event of its own.

    >>> group_key({"release": "2009-07-08", "kind": "split", "old": ["504.2"], "lineage": 7})
    ('2009-07-08', 'split', '504.2')
    """
    if entry["kind"] == SPLIT:
        return (entry["release"], SPLIT.value, *entry["old"])
    if entry["kind"] == MERGED:
        return (entry["release"], MERGED.value, *entry["new"])
    return (entry["release"], entry["kind"], str(entry["lineage"]))


def _union(lists: Iterator[list[str]]) -> list[str]:
    seen: dict[str, None] = {}
    for numbers in lists:
        seen.update(dict.fromkeys(numbers))
    return list(seen)


def _numbers(numbers: list[str]) -> str:
    return ", ".join(numbers) or "-"


def events(entries: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The trace's entries grouped into events, in the trace's order."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for entry in entries:
        groups.setdefault(group_key(entry), []).append(entry)
    return list(groups.values())


def wording(entry: dict[str, Any]) -> str:
    r"""What an entry's word diff covers: the clause's text on one line (a glossary entry's
    term and definition too), then its examples, one a line.

    >>> wording({"text": "Trample.", "examples": ["Example: A 6/6 ..."]})
    'Trample.\nExample: A 6/6 ...'
    >>> wording({"text": "Mana Burn\nWhen a phase ends ...", "examples": []})
    'Mana Burn When a phase ends ...'
    """
    text = (entry["text"] or "").replace("\n", " ")
    return member_text(text, entry.get("examples") or [])


def _pieces(
    event: list[dict[str, Any]], previous: dict[int, str]
) -> list[tuple[dict[str, Any], str | None]]:
    """Each distinct resulting clause of an event once, with the wording it follows (the
    lineage's wording before this event; for a merge, the clause that keeps its identity,
    whose entry lists every source)."""
    chosen: dict[tuple[str, str], dict[str, Any]] = {}
    for entry in event:
        key = (entry["number"], wording(entry))
        best = chosen.get(key)
        if best is None or (
            (entry["lineage"] in previous, len(entry["old"]))
            > (best["lineage"] in previous, len(best["old"]))
        ):
            chosen[key] = entry
    return [(entry, previous.get(entry["lineage"])) for entry in chosen.values()]


def trace_lines(entries: list[dict[str, Any]], explained: Any) -> Iterator[str]:
    """The text lines of a trace's entries. `explained(item)` gives an explanation's line.
    A change in the release after a gap in the archive (an entry's `gap`, lineage.trace)
    may have come earlier, in a release the archive lacks, as the wording spans say."""
    previous: dict[int, str] = {}  # each lineage's wording so far
    blocks = []
    for event in events(entries):
        pieces = _pieces(event, previous)
        blocks.append((event, pieces))
        for entry in event:
            if entry["kind"] != "removed":
                previous[entry["lineage"]] = wording(entry)
    pairs = [
        (before, wording(entry))
        for _event, pieces in blocks
        for entry, before in pieces
        if before is not None
    ]
    diffs = iter(word_diffs(pairs))
    for event, pieces in blocks:
        first = event[0]
        old = _union(entry["old"] for entry in event)
        new = _union(entry["new"] for entry in event)
        mark = uncertain_mark(first)
        kind = shown_change_kind(first["kind"], old, new)  # a term's is "renamed"
        yield f"{first['release']}  {kind:<20} {_numbers(old)} -> {_numbers(new)}{mark}"
        if (gap := first.get("gap")) is not None:
            yield (
                f"    (or earlier: the archive lacks the releases between {gap['after']} and"
                f" {first['release']}, {gap['title']})"
            )
        for entry in event:  # a number the text printed otherwise, as `show` says it
            if entry.get("printed_number"):
                yield f"    note: {printed_note(entry['number'], entry['printed_number'])}"
        for entry, before in pieces:
            text = wording(entry) if before is None else render_diff(next(diffs))
            label = f"{entry['number']}: " if len(pieces) > 1 else ""
            first_line, *examples = text.split("\n")
            yield f"    {label}{first_line}"
            for line in examples:  # its examples, each on a line of its own
                yield f"      {line}"
        shown: set[str] = set()
        for entry in event:
            for item in entry["explanations"]:
                line = explained(item)
                if line not in shown:
                    shown.add(line)
                    yield f"    explained: {line}"


def derived_wording_lines(
    wordings: list[dict[str, Any]], derived: set[str], note: str
) -> Iterator[str]:
    """A note for each wording (the trace's `wordings`, as JSON and the history page list
    them) that begins in a derived release: the copy's differences are no event of the
    official history above, so the text says the wording is there and how to read it.

    >>> [line] = derived_wording_lines(
    ...     [{"first": "2003-05-26", "numbers": ["100.1"], "kind": "reworded", "releases": 1}],
    ...     {"2003-05-26"}, "from a copy")
    >>> line.split(", which ")
    ['note: 2003-05-26 (from a copy) prints a wording of 100.1 of its own (reworded)', \
'no official release prints: `show 100.1@2003-05-26` shows it']
    """
    for item in wordings:
        if item["first"] not in derived:
            continue
        number = item["numbers"][-1]
        day = item["first"]
        asked = _asked_on(number, day)
        which = (
            "which no official release prints"
            if item["releases"] == 1
            else "which the official history above dates from the next official release"
        )
        yield (
            f"note: {day} ({note}) prints a wording of {number} of its own"
            f" ({shown_kind(item['kind'], number)}), {which}: `show {asked}` shows it"
        )


def copy_printing_lines(printings: list[dict[str, Any]], note: str) -> Iterator[str]:
    """A note for each release where a derived copy prints the clause outside its official
    history (the trace's `copy_printings`, lineage.copy_printings), which the history page
    says too.

    >>> [line] = copy_printing_lines(
    ...     [{"release": "2003-05-26", "number": "502.30", "side": "before"}], "from a copy")
    >>> line.split(": `")[0]
    'note: 2003-05-26 (from a copy) prints it already, as 502.30, before the official history above'
    """
    for printed in printings:
        number, day = printed["number"], printed["release"]
        asked = _asked_on(number, day)
        where = (
            "already, as {0}, before the official history above"
            if printed["side"] == BEFORE
            else "still, as {0}, after the official history above ends"
        ).format(number)
        yield f"note: {day} ({note}) prints it {where}: `show {asked}` shows it"


def _asked_on(label: str, day: str) -> str:
    """How a note writes `show` of the clause `label` on `day`: a glossary entry's label is
    its term, which `show` reads as a title first, so it is asked for as the entry.

    >>> _asked_on("502.30", "2003-05-26"), _asked_on("Storm", "2003-05-26")
    ('502.30@2003-05-26', '"Storm (glossary)@2003-05-26"')
    """
    return f"{label}@{day}" if is_rule_number(label) else f'"{label} (glossary)@{day}"'
